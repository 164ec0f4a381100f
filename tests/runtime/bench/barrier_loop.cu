/* barrier_loop.cu: the emulator's speed benchmark kernel: every thread passes `iters` cluster barriers, reading its peer's tile in between. */
#include "dsm.h"

__global__ void barrier_loop(float *out, int iters)
{
    __shared__ float tile[1024];
    uint32_t rank = dsm_cluster_ctarank();
    tile[threadIdx.x] = (float)rank;
    float acc = 0.0f;
    for (int i = 0; i < iters; i++) {
        dsm_cluster_sync();
        const float *peer = (const float *)dsm_map_shared_rank(tile, rank ^ 1);
        acc += peer[threadIdx.x];
    }
    dsm_cluster_sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
DSM_KERNEL_ENTRY(barrier_loop, float *, int)
