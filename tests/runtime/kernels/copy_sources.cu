/* copy_sources.cu: what a bulk copy reads must be ordered before it reads it: its shared source rewritten only once the receiver's wait is known (not after a relaxed cluster barrier), generic global stores fenced with fence.proxy.async.global, a peer's global writes made before its release arrive; and a second wait on a completed mbarrier phase, legal unless the next phase was begun. Buggy kernels and their fixed twins, 32 threads per CTA; every thread writes out[blockIdx.x * 32 + lane] = base + lane (tools/gpu/emu_twins.sh). */
#include "dsm.h"

#define CS_WORDS 32

/* base 14. Threads 0 and 1 complete phase 0 of a count-2 mbarrier, every thread waits for parity 0 twice.
 * rearm: between the waits thread 0 arrives again, so phase 1 has begun and its second wait for parity 0
 * meant phase 1 (a stale parity); without it the second wait on the completed phase is legal. */
__global__ void second_wait(uint32_t *out, uint32_t *g, int rearm)
{
    __shared__ uint32_t data;
    __shared__ __align__(8) uint64_t bar;
    (void)g;
    if (threadIdx.x == 0) {
        data = 7;
        dsm_mbarrier_init(&bar, 2);
    }
    __syncthreads();
    if (threadIdx.x < 2)
        (void)dsm_mbarrier_arrive(&bar);
    dsm_mbarrier_wait_parity(&bar, 0);
    uint32_t v = data;
    __syncthreads();
    if (rearm && threadIdx.x == 0)
        (void)dsm_mbarrier_arrive(&bar); /* phase 1 begins: a wait for parity 0 now means phase 1 */
    dsm_mbarrier_wait_parity(&bar, 0);
    v += data;
    out[blockIdx.x * CS_WORDS + threadIdx.x] = v + threadIdx.x;
    __syncthreads();
    if (rearm && threadIdx.x == 1)
        (void)dsm_mbarrier_arrive(&bar); /* completes phase 1: nothing is left waiting */
}
DSM_KERNEL_ENTRY(second_wait, uint32_t *, uint32_t *, int)

/* base 100, clusters of 2. Rank 0 copies its src into rank 1's slot; rank 1 waits and reads it; then a cluster
 * barrier, after which rank 0 rewrites src. release = 0: the barrier's arrive is .relaxed, so rank 1's wait
 * (and with it the copy's completion) is not known to rank 0 when it rewrites the source. */
__global__ void source_rewrite(uint32_t *out, uint32_t *g, int release)
{
    __shared__ __align__(16) uint32_t src[CS_WORDS];
    __shared__ __align__(16) uint32_t slot[CS_WORDS];
    __shared__ __align__(8) uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    (void)g;
    src[threadIdx.x] = 100u + threadIdx.x;
    dsm_fence_proxy_async_shared_cta();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (rank == 1 && threadIdx.x == 0)
        (void)dsm_mbarrier_arrive_expect_tx(&full, CS_WORDS * 4u);
    if (rank == 0 && threadIdx.x == 0)
        dsm_cp_async_bulk_shared_cluster(dsm_mapa_shared_cluster(dsm_smem_addr(slot), 1), src, CS_WORDS * 4u,
                                         dsm_mapa_shared_cluster(dsm_smem_addr(&full), 1));
    uint32_t v = 100u + threadIdx.x;
    if (rank == 1) {
        dsm_mbarrier_wait_parity(&full, 0);
        v = slot[threadIdx.x];
    }
    if (release)
        dsm_barrier_cluster_arrive();
    else
        dsm_barrier_cluster_arrive_relaxed(); /* BUG: releases nothing, rank 1's wait included */
    dsm_barrier_cluster_wait();
    if (rank == 0)
        src[threadIdx.x] = 0; /* the source is rewritten */
    out[blockIdx.x * CS_WORDS + threadIdx.x] = v;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(source_rewrite, uint32_t *, uint32_t *, int)

/* base 200. Each thread stores a word of the cluster's part of g with ordinary stores; thread 0 then loads the
 * 32 words into shared memory with a bulk copy. fenced = 0: no fence.proxy.async.global between the generic
 * stores and the copy (which reads through the async proxy). */
__global__ void g2s_generic_source(uint32_t *out, uint32_t *g, int fenced)
{
    __shared__ __align__(16) uint32_t tile[CS_WORDS];
    __shared__ __align__(8) uint64_t full;
    uint32_t *gc = g + blockIdx.x * CS_WORDS;
    gc[threadIdx.x] = 200u + threadIdx.x;
    if (fenced)
        dsm_fence_proxy_async_global();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        (void)dsm_mbarrier_arrive_expect_tx(&full, CS_WORDS * 4u);
        dsm_cp_async_bulk_global_to_shared(tile, gc, CS_WORDS * 4u, &full);
    }
    dsm_mbarrier_wait_parity(&full, 0);
    out[blockIdx.x * CS_WORDS + threadIdx.x] = tile[threadIdx.x];
}
DSM_KERNEL_ENTRY(g2s_generic_source, uint32_t *, uint32_t *, int)

/* base 300, clusters of 2. Rank 0 writes the cluster's part of g (fenced for the async proxy); rank 1, after
 * the cluster barrier, loads it with a bulk copy. late = 1: rank 0 writes after its (split) arrive, so
 * nothing orders its writes before rank 1's copy. */
__global__ void g2s_peer_source(uint32_t *out, uint32_t *g, int late)
{
    __shared__ __align__(16) uint32_t tile[CS_WORDS];
    __shared__ __align__(8) uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t *gc = g + dsm_clusterid().x * CS_WORDS;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    if (rank == 0 && !late) {
        gc[threadIdx.x] = 300u + threadIdx.x;
        dsm_fence_proxy_async_global();
    }
    dsm_barrier_cluster_arrive();
    if (rank == 0 && late) {
        gc[threadIdx.x] = 300u + threadIdx.x; /* BUG: after this thread's arrive */
        dsm_fence_proxy_async_global();
    }
    dsm_barrier_cluster_wait();
    uint32_t v = 300u + threadIdx.x;
    if (rank == 1) {
        if (threadIdx.x == 0) {
            (void)dsm_mbarrier_arrive_expect_tx(&full, CS_WORDS * 4u);
            dsm_cp_async_bulk_global_to_shared(tile, gc, CS_WORDS * 4u, &full);
        }
        dsm_mbarrier_wait_parity(&full, 0);
        v = tile[threadIdx.x];
    }
    out[blockIdx.x * CS_WORDS + threadIdx.x] = v;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(g2s_peer_source, uint32_t *, uint32_t *, int)
