/* early_return.cu: chapter 2's ring shift with the usual CUDA guard `if (no work) return;` at the top: the CTAs that leave take their shared memory with them. */
#include "dsm.h"

/* Like ch02.ring_shift for the first ntiles CTAs of the grid; the grid is
 * rounded up to whole clusters, and the CTAs past ntiles return at once. */
__global__ void ring_shift_early_return(const float *in, float *out, int ntiles, int tile_elems)
{
    float *tile = (float *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t n = dsm_cluster_nctarank();
    size_t base = (size_t)blockIdx.x * (size_t)tile_elems;

    // BOOK-BEGIN(kernel)
    if ((int)blockIdx.x >= ntiles)
        return;                         /* no tile for this CTA: leave early */

    for (int i = threadIdx.x; i < tile_elems; i += blockDim.x)
        tile[i] = in[base + i];
    dsm_cluster_sync();                 /* completes without the CTAs that left */

    const float *left = (const float *)dsm_map_shared_rank(tile, (rank + n - 1) % n);
    for (int i = threadIdx.x; i < tile_elems; i += blockDim.x)
        out[base + i] = left[i];        /* rank 0's left neighbour may be gone */
    dsm_cluster_sync();
    // BOOK-END(kernel)
}
DSM_KERNEL_ENTRY(ring_shift_early_return, const float *, float *, int, int)
