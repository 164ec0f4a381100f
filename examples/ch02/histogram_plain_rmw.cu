/* histogram_plain_rmw.cu: the distributed histogram with a plain remote load and store instead of a remote atomic: concurrent increments of one bin get lost. */
#include "dsm.h"

/* Same contract as ch02.histogram's cluster_histogram, except that it is wrong:
 * two threads that count into the same bin in the same barrier phase race. */
__global__ void cluster_histogram_plain(uint32_t *bins, int bins_per_block, const int *input, int n)
{
    uint32_t *smem = (uint32_t *)dsm_dynamic_smem();

    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        smem[i] = 0;
    dsm_cluster_sync();

    int nbins = (int)dsm_cluster_nctarank() * bins_per_block;
    // BOOK-BEGIN(binning)
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int bin = input[i] < 0 ? 0 : (input[i] >= nbins ? nbins - 1 : input[i]);
        uint32_t owner = (uint32_t)(bin / bins_per_block);
        uint32_t offset = (uint32_t)(bin % bins_per_block);
        uint32_t addr = dsm_mapa_shared_cluster(dsm_smem_addr(&smem[offset]), owner);
        uint32_t count = dsm_ld_shared_cluster_u32(addr);   /* read ...           */
        dsm_st_shared_cluster_u32(addr, count + 1u);         /* ... modify, write: not atomic */
    }
    // BOOK-END(binning)

    dsm_cluster_sync();
    uint32_t *my_bins = bins + dsm_cluster_ctarank() * (uint32_t)bins_per_block;
    for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x)
        atomicAdd(&my_bins[i], smem[i]);
}
DSM_KERNEL_ENTRY(cluster_histogram_plain, uint32_t *, int, const int *, int)
