/* linear_rank.cu: checks linear_rank() against %cluster_ctarank in 2-D and 3-D clusters, and uses it to address a peer with mapa. */
#include "dsm.h"
#include "linear_rank.h"

/* For every CTA b (its linear block index in the grid, x fastest):
 * ranks[b] = linear_rank(%cluster_ctaid, %cluster_nctaid), hw_ranks[b] =
 * %cluster_ctarank, and next_y[b] = the linear block index of the CTA one
 * step further in y inside the same cluster (wrapping), read from that CTA's
 * shared memory through mapa with the rank linear_rank() computes. */
__global__ void linear_rank_check(uint32_t *ranks, uint32_t *hw_ranks, uint32_t *next_y)
{
    __shared__ uint32_t my_block;
    uint32_t b = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    dsm_dim3 pos = dsm_cluster_ctaid();
    dsm_dim3 dims = dsm_cluster_nctaid();

    if (threadIdx.x == 0)
        my_block = b;
    dsm_cluster_sync();                         /* every CTA's my_block is published */

    // BOOK-BEGIN(use)
    dsm_dim3 next = pos;
    next.y = (pos.y + 1) % dims.y;              /* the CTA "below" us, as a 3-D position */
    uint32_t peer = linear_rank(next, dims);    /* ... and as the rank mapa takes */
    uint32_t v = dsm_ld_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&my_block), peer));
    // BOOK-END(use)
    if (threadIdx.x == 0) {
        ranks[b] = linear_rank(pos, dims);
        hw_ranks[b] = dsm_cluster_ctarank();
        next_y[b] = v;
    }
    dsm_cluster_sync();                         /* our peer may still be reading my_block */
}
DSM_KERNEL_ENTRY(linear_rank_check, uint32_t *, uint32_t *, uint32_t *)
