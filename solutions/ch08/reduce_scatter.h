/* reduce_scatter.h: ch08.reduce_scatter: the CTAs of a cluster add up their partial vectors through DSMEM, each CTA the sums of its own share, by pushing each share to its owner. */
#ifndef CH08_REDUCE_SCATTER_H
#define CH08_REDUCE_SCATTER_H

#include "dsm.h"

/* The largest cluster (non-portable). */
#define REDUCE_SCATTER_MAX_CTAS 16

/* The share of rank q in a cluster of S CTAs: elements [q * n / S, (q + 1) * n / S).
 * Shares differ by at most one element; with n < S some are empty. In 32 bits,
 * unsigned, for n * S < 2^31 (any part that fits in shared memory): a 64-bit
 * divide is a called subroutine on the GPU, and cluster_reduce_scatter
 * divides twice per element. */
static __host__ __device__ __forceinline__ int reduce_scatter_lo(int n, int q, int S)
{
    return (int)((unsigned)(q * n) / (unsigned)S);
}

/* The rank whose share holds element i (0 <= i < n): the last q with reduce_scatter_lo(n, q, S) <= i. */
static __host__ __device__ __forceinline__ int reduce_scatter_owner(int n, int i, int S)
{
    return (int)((unsigned)((i + 1) * S - 1) / (unsigned)n);
}

/* The floats of the receive buffer: one slot of ceil(n / S) floats per rank of the cluster. */
static __host__ __device__ __forceinline__ int reduce_scatter_recv_floats(int n, int S)
{
    return S * ((n + S - 1) / S);
}

// BOOK-BEGIN(contract)
/*
 * The reduce-scatter is two calls; every thread of every CTA of the cluster
 * makes both, with the same n.
 *
 * cluster_reduce_scatter_begin(landed, n), early in the kernel, before the
 * work that makes the partials: `landed` is a uint64_t in this CTA's shared
 * memory, at the same offset in every CTA, that the function makes an
 * mbarrier for the bytes this CTA is going to receive. It also tells the
 * peers that this CTA has started, without waiting for them.
 *
 * cluster_reduce_scatter(part, recv, landed, n), once the partials are made:
 * on entry each CTA holds its partial vector part[0..n) in its shared memory
 * (any of its threads may have written it); recv is a buffer of
 * reduce_scatter_recv_floats(n, S) floats. part and recv are at the same
 * offsets in every CTA. On return, for every i in this CTA's share [lo, hi)
 * (reduce_scatter_lo of its rank and the next), part[i] holds, for every
 * thread of the CTA to read, the sum over the cluster,
 *     part_0[i] + part_1[i] + ... + part_{S-1}[i],
 * added in that order starting from part_0[i], so that every run and every
 * schedule gives the same bits. Elements outside the share are unchanged.
 *
 * The partials travel through DSMEM, pushed: each CTA stores into each peer's
 * recv the elements of that peer's share and nothing else, with st.async,
 * whose bytes complete on the peer's `landed`; no loads from peers, no
 * atomics. One cluster barrier in all, arrived in _begin and waited for
 * before the first store; none after the exchange: an owner's wait on its
 * `landed` proves that every byte it reads has landed, and no CTA touches a
 * pusher's memory, so each CTA may exit as soon as the function returns.
 */
// BOOK-END(contract)
static __device__ __forceinline__ void cluster_reduce_scatter_begin(uint64_t *landed, int n)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.reduce_scatter): get `landed` ready for the bytes this CTA will
    //~ // receive, and let the peers know that this CTA has started.
    //~ (void)landed;
    //~ (void)n;
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        int mine = reduce_scatter_lo(n, q + 1, S) - reduce_scatter_lo(n, q, S);
        dsm_mbarrier_init(landed, 1);   /* one arrival: this thread's, just below */
        dsm_fence_mbarrier_init();      /* the init, released to the cluster by the arrive below */
        /* my share from each of the S - 1 peers; bytes that land before this
         * arrive push the count below zero, and the phase still waits for it */
        dsm_mbarrier_arrive_expect_tx(landed, (uint32_t)((S - 1) * mine * 4));
    }
    /* "I have started, and my mbarrier exists": relaxed, so it costs no fence;
     * its wait comes before the first push, after the work */
    dsm_barrier_cluster_arrive_relaxed();
    // END SOLUTION
}

static __device__ __forceinline__ void cluster_reduce_scatter(float *part, float *recv, uint64_t *landed, int n)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.reduce_scatter): push every peer its share of your partials,
    //~ // then add up your own share, in rank order, once it has landed.
    //~ (void)part;
    //~ (void)recv;
    //~ (void)landed;
    //~ (void)n;
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S), slot = (n + S - 1) / S;
    __syncthreads();                /* every thread's partials written */
    dsm_barrier_cluster_wait();     /* every peer started, its `landed` ready */
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x) {
        int p = reduce_scatter_owner(n, i, S);
        if (p == q)
            continue;               /* my own share stays here */
        union { float f; uint32_t u; } v = {part[i]};
        uint32_t dst = dsm_smem_addr(&recv[q * slot + (i - reduce_scatter_lo(n, p, S))]);
        dsm_st_async_u32(dsm_mapa_shared_cluster(dst, (uint32_t)p), v.u,
                         dsm_mapa_shared_cluster(dsm_smem_addr(landed), (uint32_t)p));
    }
    dsm_mbarrier_wait_parity(landed, 0);   /* my share from every peer has landed */
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        int j = i - lo;
        float s = q == 0 ? part[i] : recv[j];
        for (int p = 1; p < S; ++p)
            s += p == q ? part[i] : recv[p * slot + j];
        part[i] = s;                /* my share only: nobody else reads it */
    }
    __syncthreads();                /* the sums, for every thread of the CTA */
    // END SOLUTION
}

#endif
