/* async_ring.cu: the async proxy and mbarrier ordering: a producer warp handing data to consumer warps through a local mbarrier, and a bulk-copy ring between CTAs with its typical bugs. */
#include "dsm.h"

#define WORDS 64

/* One CTA: lane 0 of warp 0 fills data[] with plain stores and arrives on `full`;
 * warps 1.. wait on it and sum data[]. consumers_wait = 0: they read without waiting. */
__global__ void warp_handoff(uint32_t *out, int consumers_wait)
{
    __shared__ uint32_t data[WORDS];
    __shared__ __align__(8) uint64_t full;
    if (threadIdx.x == 0)
        dsm_mbarrier_init(&full, 1);
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 0; i < WORDS; i++)
            data[i] = (uint32_t)i;
        dsm_mbarrier_arrive(&full);
    } else if (threadIdx.x >= 32) {
        if (consumers_wait)
            dsm_mbarrier_wait_parity(&full, 0);
        uint32_t sum = 0;
        for (int i = 0; i < WORDS; i++)
            sum += data[i];
        out[threadIdx.x - 32] = sum;
    }
}
DSM_KERNEL_ENTRY(warp_handoff, uint32_t *, int)

enum { RING_OK = 0, RING_NO_EMPTY_WAIT = 1, RING_NO_EXPECT_TX = 2, RING_WRONG_PARITY = 3, RING_SOURCE_REWRITE = 4,
       RING_NO_PROXY_FENCE = 5 };
#define STAGES 2
#define CHUNK_WORDS 32 /* 128 bytes */
#define MAX_CHUNKS 8

/* Each CTA streams `chunks` (<= MAX_CHUNKS) chunks to its right neighbour through STAGES slots:
 * thread 0 produces (fills src[k], bulk-copies it into the neighbour's
 * slot, completing the neighbour's full[s]); warp 1 consumes (waits full[s],
 * sums the slot, arrives remotely on its left neighbour's empty[s]).
 * out[rank] = the sum of all words received. bad: one RING_* bug. */
__global__ void bulk_ring(uint32_t *out, int chunks, int bad)
{
    __shared__ __align__(16) uint32_t src[MAX_CHUNKS][CHUNK_WORDS];
    __shared__ __align__(16) uint32_t slot[STAGES][CHUNK_WORDS];
    __shared__ __align__(8) uint64_t full[STAGES], empty[STAGES];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t right = (rank + 1) % n, left = (rank + n - 1) % n;
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], 32);
        }
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_slot = dsm_mapa_shared_cluster(dsm_smem_addr(slot), right);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), right);
        for (int k = 0; k < chunks; k++) {
            int s = k % STAGES, round = k / STAGES;
            if (round > 0 && bad != RING_NO_EMPTY_WAIT) /* the neighbour released slot s */
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(round - 1) & 1u);
            for (int i = 0; i < CHUNK_WORDS; i++)
                src[k][i] = rank * 1000u + (uint32_t)(k * CHUNK_WORDS + i);
            if (bad != RING_NO_PROXY_FENCE)
                dsm_fence_proxy_async_shared_cta();
            dsm_cp_async_bulk_shared_cluster(peer_slot + (uint32_t)(s * CHUNK_WORDS * 4), src[k], CHUNK_WORDS * 4u,
                                             peer_full + 8u * (uint32_t)s);
            if (bad == RING_SOURCE_REWRITE)
                src[k][0] = 0; /* "done with it": but the copy may not have read it yet */
        }
    } else if (threadIdx.x >= 32 && threadIdx.x < 64) {
        uint32_t lane = threadIdx.x - 32, sum = 0;
        uint32_t left_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), left);
        for (int k = 0; k < chunks; k++) {
            int s = k % STAGES, round = k / STAGES;
            if (lane == 0 && (bad != RING_NO_EXPECT_TX || round == 0)) /* arm this phase: one arrival + the bytes */
                dsm_mbarrier_arrive_expect_tx(&full[s], CHUNK_WORDS * 4u);
            uint32_t parity = bad == RING_WRONG_PARITY ? (uint32_t)(round + 1) & 1u : (uint32_t)round & 1u;
            dsm_mbarrier_wait_parity(&full[s], parity);
            sum += slot[s][lane];
            dsm_mbarrier_arrive_remote(left_empty + 8u * (uint32_t)s);
        }
        atomicAdd(&out[blockIdx.x], sum);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(bulk_ring, uint32_t *, int, int)
