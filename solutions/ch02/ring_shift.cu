/* ring_shift.cu: every CTA of a cluster reads its left neighbour's tile through a generic pointer from dsm_map_shared_rank. */
#include "dsm.h"

/* CTA b holds tile = in[b * tile_elems, (b + 1) * tile_elems) in dynamic shared
 * memory (tile_elems * 4 bytes) and writes its left neighbour's tile (rank
 * r - 1, wrapping inside the cluster) to out[b * tile_elems, ...). Launch with
 * a 1-D grid and 1-D clusters of 2 to 8 CTAs. */
__global__ void ring_shift(const float *in, float *out, int tile_elems)
{
    float *tile = (float *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t n = dsm_cluster_nctarank();
    size_t base = (size_t)blockIdx.x * (size_t)tile_elems;

    for (int i = threadIdx.x; i < tile_elems; i += blockDim.x)
        tile[i] = in[base + i];
    dsm_cluster_sync();     /* every tile of the cluster is written and published */

    // BEGIN SOLUTION
    //~ // TODO(ch02.ring_shift): copy the left neighbour's tile to out[base + i],
    //~ // reading it through an ordinary pointer. Who is rank 0's left neighbour?
    //~ // Who reads your tile, and until when?
    //~ (void)rank;
    //~ (void)n;
    //~ (void)out;
    const float *left = (const float *)dsm_map_shared_rank(tile, (rank + n - 1) % n);
    for (int i = threadIdx.x; i < tile_elems; i += blockDim.x)
        out[base + i] = left[i];            /* plain loads from the neighbour's SM */
    dsm_cluster_sync();     /* the right neighbour may still be reading our tile */
    // END SOLUTION
}
DSM_KERNEL_ENTRY(ring_shift, const float *, float *, int)
