/* histogram.cu: the programming guide's distributed histogram: each CTA of a cluster owns a slice of the bins, and every thread counts into the owner's slice with remote atomics. */
#include "dsm.h"

/* Counts input[0..n) into bins[0..nbins), nbins = cluster size * bins_per_block;
 * values below 0 count in bin 0 and values >= nbins in bin nbins - 1. Each
 * cluster counts a grid-stride share of the input in its CTAs' shared memory
 * (CTA r owns bins [r * bins_per_block, (r + 1) * bins_per_block)) and then
 * adds its counts to bins with global atomics. Launch with 1-D clusters and
 * bins_per_block * 4 bytes of dynamic shared memory; bins must start at zero. */
__global__ void cluster_histogram(uint32_t *bins, int bins_per_block, const int *input, int n)
{
    uint32_t *smem = (uint32_t *)dsm_dynamic_smem();

    // BOOK-BEGIN(setup)
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        smem[i] = 0;
    dsm_cluster_sync();     /* every slice is zeroed, and every CTA has started, before anyone counts */
    // BOOK-END(setup)

    // BEGIN SOLUTION
    //~ // TODO(ch02.histogram): count this thread's share of the input into the
    //~ // cluster's bins. Which CTA holds a given bin, and where in its slice? What
    //~ // happens when two threads of the cluster count into the same bin at once?
    //~ (void)input;
    //~ (void)n;
    int nbins = (int)dsm_cluster_nctarank() * bins_per_block;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int bin = input[i] < 0 ? 0 : (input[i] >= nbins ? nbins - 1 : input[i]);
        uint32_t owner = (uint32_t)(bin / bins_per_block);   /* which CTA holds the bin */
        uint32_t offset = (uint32_t)(bin % bins_per_block);  /* where in that CTA's slice */
        uint32_t addr = dsm_mapa_shared_cluster(dsm_smem_addr(&smem[offset]), owner);
        dsm_red_add_shared_cluster_u32(addr, 1u);
    }
    // END SOLUTION

    // BOOK-BEGIN(flush)
    dsm_cluster_sync();     /* every count has landed, and no CTA exits while others still add */
    uint32_t *my_bins = bins + dsm_cluster_ctarank() * (uint32_t)bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        atomicAdd(&my_bins[i], smem[i]);
    // BOOK-END(flush)
}
DSM_KERNEL_ENTRY(cluster_histogram, uint32_t *, int, const int *, int)
