/* lifetime.cu: kernels for the lifetime trap: seed 000's bug and fix, seed 001's example verbatim and fixed, a device-API read after exit. */
#include "dsm.h"

#define ARRAY_LEN 128

/* Seed 000, "错误示范": rank 0 reads rank 1's shared memory; rank 1 skips the branch and exits. */
__global__ void seed000_trap(float *d_out)
{
    __shared__ float local_accum[ARRAY_LEN];
    uint32_t rank = dsm_cluster_ctarank();
    for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
        local_accum[i] = (float)(rank + 1);
    dsm_cluster_sync();
    if (rank == 0) {
        const float *peer_smem = (const float *)dsm_map_shared_rank(local_accum, 1);
        for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
            local_accum[i] += peer_smem[i];
        d_out[blockIdx.x] = local_accum[threadIdx.x];
    }
}
DSM_KERNEL_ENTRY(seed000_trap, float *)

/* Seed 000's fix: a cluster barrier every CTA reaches before it exits. */
__global__ void seed000_trap_fixed(float *d_out)
{
    __shared__ float local_accum[ARRAY_LEN];
    uint32_t rank = dsm_cluster_ctarank();
    for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
        local_accum[i] = (float)(rank + 1);
    dsm_cluster_sync();
    if (rank == 0) {
        const float *peer_smem = (const float *)dsm_map_shared_rank(local_accum, 1);
        for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
            local_accum[i] += peer_smem[i];
        d_out[blockIdx.x] = local_accum[threadIdx.x];
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(seed000_trap_fixed, float *)

/* Seed 000's bug through the device API: rank 0 reads with ld.shared::cluster, rank 1 leaves. */
__global__ void seed000_trap_api(float *d_out)
{
    __shared__ float local_accum[ARRAY_LEN];
    uint32_t rank = dsm_cluster_ctarank();
    for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
        local_accum[i] = (float)(rank + 1);
    dsm_cluster_sync();
    if (rank == 0) {
        uint32_t peer = dsm_mapa_shared_cluster(dsm_smem_addr(local_accum), 1);
        float v = dsm_ld_shared_cluster_f32(peer + 4u * threadIdx.x);
        d_out[blockIdx.x] = local_accum[threadIdx.x] + v;
    }
}
DSM_KERNEL_ENTRY(seed000_trap_api, float *)

/* Seed 001's example as printed: a neighbour read through mapa, with no barrier after it. */
__global__ void seed001_neighbor_read(int *out)
{
    __shared__ int tile;
    uint32_t local = dsm_smem_addr(&tile);
    tile = (int)blockIdx.x;
    __syncthreads();
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    uint32_t neighbor_rank = 1 - dsm_cluster_ctarank();
    uint32_t remote = dsm_mapa_shared_cluster(local, neighbor_rank);
    int v = (int)dsm_ld_shared_cluster_u32(remote);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}
DSM_KERNEL_ENTRY(seed001_neighbor_read, int *)

/* The same with the barrier that keeps the neighbour alive until the read is done. */
__global__ void seed001_neighbor_read_fixed(int *out)
{
    __shared__ int tile;
    uint32_t local = dsm_smem_addr(&tile);
    tile = (int)blockIdx.x;
    __syncthreads();
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    uint32_t neighbor_rank = 1 - dsm_cluster_ctarank();
    uint32_t remote = dsm_mapa_shared_cluster(local, neighbor_rank);
    int v = (int)dsm_ld_shared_cluster_u32(remote);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(seed001_neighbor_read_fixed, int *)

/* An early-exiting CTA does not deadlock the others: the barrier waits for non-exited threads only. */
__global__ void early_exit_then_barrier(int *out)
{
    if (dsm_cluster_ctarank() == 1)
        return;
    dsm_cluster_sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = 1;
}
DSM_KERNEL_ENTRY(early_exit_then_barrier, int *)
