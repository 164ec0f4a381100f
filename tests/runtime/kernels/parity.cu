/* parity.cu: mbarrier waits and their parity: a receiver that waits for the same parity every round (a stale parity) and its fixed twins, one of them polling with try_wait. */
#include "dsm.h"

#define CHUNK_WORDS 32
#define ROUNDS 6

enum { PARITY_OK = 0, PARITY_ALWAYS_ZERO = 1, PARITY_TRY_WAIT_LOOP = 2 };

/* Rank 0 streams ROUNDS chunks into rank 1's single slot with bulk copies; rank
 * 1's lane 0 arms the slot's `full` mbarrier each round, its 32 threads wait,
 * add the slot (weighted by round + 1) and release it with remote arrives on
 * rank 0's `empty` mbarrier. out[block * 32 + lane] = the sum.
 * how: PARITY_ALWAYS_ZERO waits for parity 0 every round (the bug);
 * PARITY_TRY_WAIT_LOOP is correct and polls with try_wait in lanes 16..31. */
__global__ void one_slot_stream(uint32_t *out, int how)
{
    __shared__ __align__(16) uint32_t src[ROUNDS][CHUNK_WORDS];
    __shared__ __align__(16) uint32_t slot[CHUNK_WORDS];
    __shared__ __align__(8) uint64_t full, empty;
    uint32_t rank = dsm_cluster_ctarank();
    for (int k = 0; k < ROUNDS; k++)
        src[k][threadIdx.x] = (uint32_t)k * 1000u + threadIdx.x;
    dsm_fence_proxy_async_shared_cta();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_mbarrier_init(&empty, CHUNK_WORDS);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (rank == 0) {
        if (threadIdx.x == 0) {
            uint32_t peer_slot = dsm_mapa_shared_cluster(dsm_smem_addr(slot), 1);
            uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(&full), 1);
            for (int k = 0; k < ROUNDS; k++) {
                if (k > 0) /* the receivers released the slot's previous chunk */
                    dsm_mbarrier_wait_parity(&empty, (uint32_t)(k - 1) & 1u);
                dsm_cp_async_bulk_shared_cluster(peer_slot, src[k], CHUNK_WORDS * 4u, peer_full);
            }
        }
    } else if (rank == 1) {
        uint32_t left_empty = dsm_mapa_shared_cluster(dsm_smem_addr(&empty), 0), sum = 0;
        for (int k = 0; k < ROUNDS; k++) {
            if (threadIdx.x == 0)
                dsm_mbarrier_arrive_expect_tx(&full, CHUNK_WORDS * 4u);
            uint32_t parity = how == PARITY_ALWAYS_ZERO ? 0u : (uint32_t)k & 1u;
            if (how == PARITY_TRY_WAIT_LOOP && threadIdx.x >= 16) {
                while (!dsm_mbarrier_try_wait_parity(&full, parity)) { }
            } else
                dsm_mbarrier_wait_parity(&full, parity);
            sum += ((uint32_t)k + 1u) * slot[threadIdx.x];
            dsm_mbarrier_arrive_remote(left_empty);
        }
        out[blockIdx.x * CHUNK_WORDS + threadIdx.x] = sum;
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(one_slot_stream, uint32_t *, int)

/* Rank 0 hands rank 1 a token per round: it stores the token into rank 1's
 * mailbox and arrives on rank 1's `got` mbarrier; rank 1's thread 0 waits and
 * adds the token; a cluster barrier closes each round. how = PARITY_ALWAYS_ZERO:
 * rank 1 waits for parity 0 every round, which returns at once (an old phase)
 * or, when rank 0 was faster, waits for a phase nobody completes (a hang).
 * out[block] = the sum of the tokens. */
__global__ void token_rounds(uint32_t *out, int how)
{
    __shared__ uint32_t mailbox;
    __shared__ __align__(8) uint64_t got;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        mailbox = 0;
        dsm_mbarrier_init(&got, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    uint32_t sum = 0;
    for (int k = 0; k < ROUNDS; k++) {
        if (threadIdx.x == 0 && rank == 0) {
            dsm_st_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), 1), (uint32_t)k + 1u);
            dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&got), 1));
        } else if (threadIdx.x == 0 && rank == 1) {
            dsm_mbarrier_wait_parity(&got, how == PARITY_ALWAYS_ZERO ? 0u : (uint32_t)k & 1u);
            sum += mailbox;
        }
        dsm_cluster_sync();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = sum;
}
DSM_KERNEL_ENTRY(token_rounds, uint32_t *, int)
