/* cluster_sum.cu: ch01.cluster_sum: the CTAs of a cluster add up their elements through each other's shared memory, and every element learns the sum of all the others of its cluster. */
#include "dsm.h"

/*
 * The contract (course/ch01.ini states it as the task; the tests check exactly this):
 *
 * Launch: a 1-D grid of 1-D clusters of 1 to 16 CTAs (above 8 the launcher has
 * set the non-portable attribute), any number of threads per CTA (1 to 1024,
 * not necessarily a multiple of 32), no dynamic shared memory.
 *
 * Data: CTA b (blockIdx.x) owns the elements in[i] with
 * b * per_cta <= i < min(n, (b + 1) * per_cta): per_cta may be smaller or
 * larger than blockDim.x, and the last CTAs may own fewer elements, or none.
 * The total T of a cluster is the sum, modulo 2^32, of the elements of all its
 * CTAs.
 *
 * Output:
 * - others[i] = T - in[i] (modulo 2^32) for every element i < n: the sum of the
 *   OTHER elements of its cluster, written by the CTA that owns element i;
 * - totals[c] = T, c the cluster's index in the grid (dsm_clusterid().x),
 *   written by exactly one thread of the cluster.
 *
 * Mechanism:
 * - Global memory: a CTA reads only its own elements of `in` (at most twice
 *   each), writes only its own elements of `others` (once each), and touches
 *   nothing else but its cluster's totals[c].
 * - The CTAs of a cluster combine their partial sums through each other's
 *   shared memory (DSMEM), frugally: a CTA reads at most as many words of its
 *   peers' shared memory as the cluster has CTAs, and writes at most as many.
 * - Every thread passes at most two cluster barriers.
 */
__global__ void cluster_sum(const uint32_t *in, uint32_t *others, uint32_t *totals, uint32_t n, uint32_t per_cta)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.cluster_sum): yours to design, from the contract above.
    //~ (void)in;
    //~ (void)others;
    //~ (void)totals;
    //~ (void)n;
    //~ (void)per_cta;
    __shared__ uint32_t partial; /* this CTA's sum: what the peers read */
    __shared__ uint32_t total;   /* the cluster's sum, for every thread of this CTA */
    uint32_t size = dsm_cluster_nctarank();
    size_t begin = (size_t)blockIdx.x * per_cta, end = begin + per_cta;
    if (end > n)
        end = n; /* a CTA past the end owns nothing: begin >= end, and it still takes part */

    if (threadIdx.x == 0)
        partial = 0;
    __syncthreads(); /* the zero comes before every thread's add */
    uint32_t mine = 0;
    for (size_t i = begin + threadIdx.x; i < end; i += blockDim.x)
        mine += in[i];
    atomicAdd(&partial, mine); /* this CTA's own shared memory: a plain shared atomic */

    /* Publish: every CTA's partial is complete, and visible to the cluster. */
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        /* One thread per CTA reads the cluster's partials: size - 1 remote words. */
        uint32_t t = 0;
        for (uint32_t r = 0; r < size; ++r)
            t += *(const uint32_t *)dsm_map_shared_rank(&partial, r);
        total = t;
        if (dsm_cluster_ctarank() == 0)
            totals[dsm_clusterid().x] = t; /* one writer per cluster */
    }
    /* Lifetime: no CTA leaves, taking its partial with it, before every peer has
     * read it. The same barrier shows `total` to the whole CTA. */
    dsm_cluster_sync();
    for (size_t i = begin + threadIdx.x; i < end; i += blockDim.x)
        others[i] = total - in[i];
    // END SOLUTION
}
DSM_KERNEL_ENTRY(cluster_sum, const uint32_t *, uint32_t *, uint32_t *, uint32_t, uint32_t)
