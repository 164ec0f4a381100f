/* counters.cu: kernels whose every access is known in advance, to test the emulator's mechanism counters. */
#include "dsm.h"

#define TILE 64 /* floats per CTA */

/* Each CTA copies its slice of `in` (TILE floats at blockIdx.x * TILE) into
 * shared memory, then, after a cluster barrier, reads its right neighbour's
 * tile through a mapped pointer (vec: as uint4, else as floats) and writes it
 * to out; thread 0 adds 1 to *hits with a global atomic and to a __shared__
 * counter with atomicAdd. Two cluster syncs. */
__global__ void count_tiles(const float *in, float *out, unsigned *hits, int vec)
{
    __shared__ __align__(16) float tile[TILE];
    __shared__ unsigned seen;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    for (int i = (int)threadIdx.x; i < TILE; i += (int)blockDim.x)
        tile[i] = in[blockIdx.x * TILE + i];
    if (threadIdx.x == 0)
        seen = 0;
    dsm_cluster_sync();
    const float *right = (const float *)dsm_map_shared_rank(tile, (rank + 1u) % n);
    if (vec) {
        for (int i = (int)threadIdx.x; i < TILE / 4; i += (int)blockDim.x)
            ((float4 *)(out + blockIdx.x * TILE))[i] = ((const float4 *)right)[i];
    } else {
        for (int i = (int)threadIdx.x; i < TILE; i += (int)blockDim.x)
            out[blockIdx.x * TILE + i] = right[i];
    }
    if (threadIdx.x == 0) {
        atomicAdd(hits, 1u);
        atomicAdd(&seen, 1u); /* a shared-memory atomic, though through the global-memory built-in */
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(count_tiles, const float *, float *, unsigned *, int)

/* Thread 0 of rank 0 stores a release flag into rank 1's shared memory and a
 * relaxed gpu-scope flag in global memory; thread 0 of rank 1 polls its own flag
 * with ld.acquire, then the global one with ld.relaxed.gpu, and answers with a
 * remote mbarrier arrive on rank 0's mbarrier, which rank 0 waits for. Then a
 * split cluster barrier whose arrive is relaxed for rank 1. */
__global__ void count_signals(uint32_t *gflag, uint32_t *out)
{
    __shared__ uint32_t flag;
    __shared__ uint64_t bar;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        flag = 0;
        dsm_mbarrier_init(&bar, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0 && rank == 0) {
        dsm_st_release_cluster_u32((uint32_t *)dsm_map_shared_rank(&flag, 1), 7u);
        dsm_st_relaxed_gpu_u32(gflag, 9u);
        dsm_mbarrier_wait_parity(&bar, 0);
    } else if (threadIdx.x == 0) {
        while (dsm_ld_acquire_cluster_u32(&flag) != 7u) { }
        while (dsm_ld_relaxed_gpu_u32(gflag) != 9u) { }
        dsm_fence_acq_rel_cluster();
        dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&bar), 0));
        out[0] = 1u;
    }
    if (rank == 1)
        dsm_barrier_cluster_arrive_relaxed();
    else
        dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
}
DSM_KERNEL_ENTRY(count_signals, uint32_t *, uint32_t *)

/* Rank 0 pushes 64 bytes of its shared memory into rank 1 with one bulk copy;
 * rank 1 arms its mbarrier for them, waits, and writes the 16 words to out. */
__global__ void count_bulk(uint32_t *out)
{
    __shared__ __align__(16) uint32_t src[16];
    __shared__ __align__(16) uint32_t dst[16];
    __shared__ uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x < 16)
        src[threadIdx.x] = 100u * rank + threadIdx.x;
    dsm_fence_proxy_async_shared_cta();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
        if (rank == 1)
            dsm_mbarrier_arrive_expect_tx(&full, 64);
    }
    dsm_cluster_sync();
    if (rank == 0 && threadIdx.x == 0)
        dsm_cp_async_bulk_shared_cluster(dsm_mapa_shared_cluster(dsm_smem_addr(dst), 1), src, 64,
                                         dsm_mapa_shared_cluster(dsm_smem_addr(&full), 1));
    if (rank == 1) {
        dsm_mbarrier_wait_parity(&full, 0);
        if (threadIdx.x < 16)
            out[threadIdx.x] = dst[threadIdx.x];
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(count_bulk, uint32_t *)
