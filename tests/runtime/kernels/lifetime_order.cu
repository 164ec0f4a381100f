/* lifetime_order.cu: kernels whose lifetime bug the schedule never shows (an access after the "done" signal, an exit while an outgoing bulk copy still reads), each with its fixed twin. */
#include "dsm.h"

#define WORDS 32

/* Rank 1 tells rank 0 "done" with a remote arrive on rank 0's mbarrier and THEN
 * reads rank 0's tile through a mapped pointer; rank 0 waits for the arrive and
 * copies its own tile out and exits. fixed = 1: rank 1 reads first, then arrives. */
__global__ void done_then_read_arrive(uint32_t *out, int fixed)
{
    __shared__ uint32_t tile[WORDS];
    __shared__ __align__(8) uint64_t done;
    uint32_t rank = dsm_cluster_ctarank();
    tile[threadIdx.x] = rank * 100u + threadIdx.x;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&done, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (rank == 0) {
        if (threadIdx.x == 0)
            dsm_mbarrier_wait_parity(&done, 0);
        __syncthreads();
        out[blockIdx.x * WORDS + threadIdx.x] = tile[threadIdx.x]; /* its own tile, then it exits */
        return;
    }
    const uint32_t *peer = (const uint32_t *)dsm_map_shared_rank(tile, 0);
    uint32_t v = 0;
    if (fixed)
        v = peer[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0)
        dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&done), 0));
    if (!fixed)
        v = peer[threadIdx.x]; /* after "done": rank 0 may have exited */
    out[blockIdx.x * WORDS + threadIdx.x] = v;
}
DSM_KERNEL_ENTRY(done_then_read_arrive, uint32_t *, int)

/* The same with a flag: rank 1 stores "done" into rank 0's flag with
 * st.release.cluster, then reads rank 0's tile through ld.shared::cluster;
 * rank 0 polls its flag with ld.acquire and exits. fixed = 1: read, then flag. */
__global__ void done_then_read_flag(uint32_t *out, int fixed)
{
    __shared__ uint32_t tile[WORDS];
    __shared__ uint32_t flag;
    uint32_t rank = dsm_cluster_ctarank();
    tile[threadIdx.x] = rank * 100u + threadIdx.x;
    if (threadIdx.x == 0)
        flag = 0;
    dsm_cluster_sync();
    if (rank == 0) {
        if (threadIdx.x == 0)
            while (dsm_ld_acquire_cluster_u32(&flag) == 0) { }
        __syncthreads();
        out[blockIdx.x * WORDS + threadIdx.x] = tile[threadIdx.x]; /* its own tile, then it exits */
        return;
    }
    uint32_t peer = dsm_mapa_shared_cluster(dsm_smem_addr(&tile[threadIdx.x]), 0);
    uint32_t v = 0;
    if (fixed)
        v = dsm_ld_shared_cluster_u32(peer);
    __syncthreads();
    if (threadIdx.x == 0)
        dsm_st_release_cluster_u32((uint32_t *)dsm_map_shared_rank(&flag, 0), 1u);
    if (!fixed)
        v = dsm_ld_shared_cluster_u32(peer); /* after "done": rank 0 may have exited */
    out[blockIdx.x * WORDS + threadIdx.x] = v;
}
DSM_KERNEL_ENTRY(done_then_read_flag, uint32_t *, int)

/* Each CTA pushes its tile into its right neighbour's inbox with one bulk copy
 * and waits for the copy from its left neighbour. final_barrier = 0: it exits
 * right after its wait, while its own outgoing copy may still read its tile
 * (only the receiver's wait says that copy is over); 1: a last cluster barrier. */
__global__ void copy_out_then_exit(uint32_t *out, int final_barrier)
{
    __shared__ __align__(16) uint32_t tile[WORDS];
    __shared__ __align__(16) uint32_t inbox[WORDS];
    __shared__ __align__(8) uint64_t full;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    tile[threadIdx.x] = rank * 100u + threadIdx.x;
    dsm_fence_proxy_async_shared_cta();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_mbarrier_arrive_expect_tx(&full, WORDS * 4u);
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t right = (rank + 1) % n;
        dsm_cp_async_bulk_shared_cluster(dsm_mapa_shared_cluster(dsm_smem_addr(inbox), right), tile, WORDS * 4u,
                                         dsm_mapa_shared_cluster(dsm_smem_addr(&full), right));
    }
    dsm_mbarrier_wait_parity(&full, 0);
    out[blockIdx.x * WORDS + threadIdx.x] = inbox[threadIdx.x];
    if (final_barrier)
        dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(copy_out_then_exit, uint32_t *, int)

/* Rank 1 releases a slot of rank 0's with a remote arrive on rank 0's `empty`
 * mbarrier, which rank 0 (done with the stream) never waits for again, and both
 * leave: the arrive may reach rank 0 after it exited. final_barrier = 1: a
 * last cluster barrier keeps rank 0 alive until the arrive landed. */
__global__ void arrive_then_exit(uint32_t *out, int final_barrier)
{
    __shared__ __align__(8) uint64_t empty;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0)
        dsm_mbarrier_init(&empty, 1);
    dsm_cluster_sync();
    if (rank == 1 && threadIdx.x == 0)
        dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&empty), 0));
    out[blockIdx.x * WORDS + threadIdx.x] = rank + 1u;
    if (final_barrier)
        dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(arrive_then_exit, uint32_t *, int)
