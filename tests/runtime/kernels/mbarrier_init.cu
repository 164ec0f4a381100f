/* mbarrier_init.cu: when a peer may use an mbarrier: after a cluster barrier that releases the init (a .release arrive, or fence.mbarrier_init before a .relaxed one); a relaxed arrive alone releases nothing, and fence.mbarrier_init releases the init only, not data. */
#include "dsm.h"

enum { INIT_RELEASE_ARRIVE = 0, INIT_RELAXED_NO_FENCE = 1, INIT_FENCE_RELAXED = 2, INIT_FENCE_RELAXED_DATA = 3 };

/* Ranks 0 and 1 each initialise `got` (one arrival), then pass a cluster
 * barrier set up by `how`, then thread 0 arrives on the peer's `got` and waits
 * on its own. INIT_FENCE_RELAXED_DATA also has thread 0 write `word` before the
 * fence and the peer read it after the barrier. out[block] = 1 + the peer's word. */
__global__ void init_then_peer_arrive(uint32_t *out, int how)
{
    __shared__ __align__(8) uint64_t got;
    __shared__ uint32_t word;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        word = rank + 10u;
        dsm_mbarrier_init(&got, 1);
        if (how == INIT_FENCE_RELAXED || how == INIT_FENCE_RELAXED_DATA)
            dsm_fence_mbarrier_init();
    }
    if (how == INIT_RELEASE_ARRIVE)
        dsm_barrier_cluster_arrive();
    else
        dsm_barrier_cluster_arrive_relaxed();
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 0) {
        uint32_t peer = rank ^ 1u, v = 0;
        if (how == INIT_FENCE_RELAXED_DATA)
            v = dsm_ld_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&word), peer));
        dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&got), peer));
        dsm_mbarrier_wait_parity(&got, 0);
        out[blockIdx.x] = 1u + v;
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(init_then_peer_arrive, uint32_t *, int)
