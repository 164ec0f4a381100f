/* wrong_parity.cu: the mbarrier ping-pong with a tempting bug: the receiver waits on the parity of the hop instead of the parity of its own receipt. */
#include "dsm.h"

/* pp_mbar_arrive's contract (chapter 5); wrong: rank 1 receives on hops 0, 2,
 * 4, ... and rank 0 on hops 1, 3, 5, ..., so `hop & 1` is the same parity on
 * every receipt of a CTA. Rank 0's first wait asks for parity 1 while its
 * mbarrier is still in phase 0: to try_wait.parity that means "the phase
 * before", complete, so the wait returns at once and rank 0 reads a mailbox
 * nobody has written. (Rank 1 waits on parity 0 every time: its second wait
 * would return at once too.) */
__global__ void pp_wrong_parity(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    __shared__ uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t token = first[blockIdx.x / 2u];
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_mailbox = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1u);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(&full), rank ^ 1u);
        uint32_t received = 0, receipts = 0;
        uint64_t t0 = dsm_clock64();
        for (uint32_t hop = 0; hop < 2u * rounds; ++hop) {
            // BOOK-BEGIN(hop)
            if (rank == (hop & 1u)) {
                dsm_st_shared_cluster_u32(peer_mailbox, token);
                dsm_mbarrier_arrive_remote(peer_full);
            } else {
                dsm_mbarrier_wait_parity(&full, hop & 1u);  /* wrong: the hop's parity */
                received = mailbox;
                trace[blockIdx.x * rounds + receipts++] = received;
                token = received + 1u;
            }
            // BOOK-END(hop)
        }
        last[blockIdx.x] = received;
        cycles[blockIdx.x] = (unsigned long long)(dsm_clock64() - t0);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(pp_wrong_parity, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)
