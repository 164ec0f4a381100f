/* syncthreads_only.cu: a neighbour read guarded by __syncthreads() alone: it orders one block, not the cluster, so the peer's value may not be written yet. */
#include "dsm.h"

/* Like ch02.neighbor_read, but without the cluster barrier between the write
 * and the remote read. Launch with clusters of (2,1,1). */
__global__ void syncthreads_only(const uint32_t *in, uint32_t *out)
{
    // BOOK-BEGIN(kernel)
    __shared__ uint32_t tile;
    uint32_t rank = dsm_cluster_ctarank();

    if (threadIdx.x == 0)
        tile = in[blockIdx.x];
    __syncthreads();                    /* orders this block only */

    uint32_t remote = dsm_mapa_shared_cluster(dsm_smem_addr(&tile), rank ^ 1u);
    uint32_t v = dsm_ld_shared_cluster_u32(remote);     /* the peer may not have written yet */
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    dsm_cluster_sync();                 /* lifetime is fine: only publication is missing */
    // BOOK-END(kernel)
}
DSM_KERNEL_ENTRY(syncthreads_only, const uint32_t *, uint32_t *)
