/* split_barrier.cu: a 3-point stencil across a cluster: publish the tile with barrier.cluster.arrive, compute the interior while the peers catch up, wait, then read the halo from the neighbours. */
#include "dsm.h"

/* Each cluster computes out[j] = (x[j-1] + x[j]) + x[j+1] over its segment x
 * of in (size * tile elements; zero beyond both ends of the segment). CTA rank
 * r holds elements [r * tile, (r + 1) * tile) of the segment in dynamic shared
 * memory (tile * 4 bytes). Launch with a 1-D grid and 1-D clusters; tile >= 2. */
__global__ void halo_stencil(const float *in, float *out, int tile)
{
    float *x = (float *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t n = dsm_cluster_nctarank();
    size_t base = (size_t)blockIdx.x * (size_t)tile;

    for (int i = threadIdx.x; i < tile; i += blockDim.x)
        x[i] = in[base + i];
    __syncthreads();                    /* the interior below reads other threads' elements */
    // TODO(ch03.split_barrier): from here on the neighbours may read x. Tell them, without waiting for them.

    for (int i = threadIdx.x + 1; i < tile - 1; i += blockDim.x)
        out[base + i] = (x[i - 1] + x[i]) + x[i + 1];     /* interior: own tile only */

    // TODO(ch03.split_barrier): the edges below read the neighbours' x. What must be true first?
    if (threadIdx.x == 0) {             /* left edge: the left neighbour's last element */
        float left = 0.0f;
        if (rank > 0)
            left = dsm_ld_shared_cluster_f32(dsm_mapa_shared_cluster(dsm_smem_addr(&x[tile - 1]), rank - 1));
        out[base] = (left + x[0]) + x[1];
    }
    if (threadIdx.x == blockDim.x - 1) { /* right edge: the right neighbour's first element */
        float right = 0.0f;
        if (rank + 1 < n)
            right = dsm_ld_shared_cluster_f32(dsm_mapa_shared_cluster(dsm_smem_addr(&x[0]), rank + 1));
        out[base + tile - 1] = (x[tile - 2] + x[tile - 1]) + right;
    }
    dsm_cluster_sync();                 /* the neighbours are done reading our edges */
}
DSM_KERNEL_ENTRY(halo_stencil, const float *, float *, int)
