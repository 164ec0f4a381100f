/* launch_rules.cu: small kernels for the launch rules (cluster shapes, dynamic shared memory) and the largest cluster. */
#include "dsm.h"

/* Every thread of every CTA passes two cluster barriers and writes rank * 10000 + thread. */
__global__ void big_cluster(uint32_t *out)
{
    dsm_cluster_sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = dsm_cluster_ctarank() * 10000 + threadIdx.x;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(big_cluster, uint32_t *)

/* Fills its dynamic shared memory, has the peer read the last word. */
__global__ void fill_dynamic(uint32_t *out, uint32_t words)
{
    uint32_t *dyn = (uint32_t *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank();
    for (uint32_t i = threadIdx.x; i < words; i += blockDim.x)
        dyn[i] = rank * 7 + i;
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        const uint32_t *peer = (const uint32_t *)dsm_map_shared_rank(dyn, rank ^ 1);
        out[blockIdx.x] = peer[words - 1];
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(fill_dynamic, uint32_t *, uint32_t)
