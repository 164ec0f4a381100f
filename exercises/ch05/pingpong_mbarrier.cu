/* pingpong_mbarrier.cu: the ping-pong token signalled with the receiver's mbarrier instead of a cluster barrier per hop: a remote arrive after a remote store, or one st.async that carries the token and completes the transaction. */
#include "dsm.h"

/*
 * The contract is pingpong_seed.cu's (clusters of 2, hop h carries
 * first[c] + h from rank h % 2 to the other, trace/last/cycles per CTA),
 * with one change: no cluster barrier inside the hop loop. Each CTA owns a
 * mailbox and an mbarrier `full` in its shared memory; the i-th receipt of a
 * CTA completes phase i of its `full`, so the receiver waits on parity i % 2.
 * Only thread 0 of each CTA takes part in the hops; the other threads wait at
 * the final cluster barrier.
 */

// BOOK-BEGIN(mbar_arrive)
/* Sender: a remote store of the token into the receiver's mailbox, then a
 * remote arrive (release at cluster scope) on the receiver's `full`.
 * Receiver: wait on its own `full` (acquire), then read its mailbox. */
__global__ void pp_mbar_arrive(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                               unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    __shared__ uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t token = first[blockIdx.x / 2u];

    // TODO(ch05.pingpong_mbarrier): thread 0 initialises `full` for one arrival per
    // phase and makes the initialisation visible to the cluster; then no peer may
    // arrive on it before this CTA has started and initialised it.
    dsm_cluster_sync();

    if (threadIdx.x == 0) {
        uint32_t peer_mailbox = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1u);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(&full), rank ^ 1u);
        uint32_t received = 0, receipts = 0;
        uint64_t t0 = dsm_clock64();
        for (uint32_t hop = 0; hop < 2u * rounds; ++hop) {
            // TODO(ch05.pingpong_mbarrier): on the sender's hops, store `token` into the
            // peer's mailbox and arrive on the peer's `full`; on the receiver's hops, wait
            // for the phase of this receipt (`receipts` so far) on `full`, read `mailbox`,
            // record it (trace may be NULL) and make value + 1 the token.
            (void)peer_mailbox;
            (void)peer_full;
            (void)token;
            (void)receipts;
            (void)trace;
        }
        uint64_t t1 = dsm_clock64();
        last[blockIdx.x] = received;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    /* Nobody leaves while a peer may still store or arrive into its memory. */
    dsm_cluster_sync();
}
// BOOK-END(mbar_arrive)
DSM_KERNEL_ENTRY(pp_mbar_arrive, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

// BOOK-BEGIN(mbar_st_async)
/* Sender: one st.async that writes the token into the receiver's mailbox and
 * completes 4 transaction bytes on the receiver's `full`.
 * Receiver: arm `full` for 4 bytes (its one arrival, with expect_tx), wait on
 * it, then read its mailbox. */
__global__ void pp_mbar_st_async(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
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
            // TODO(ch05.pingpong_mbarrier): on the sender's hops, one st.async of `token`
            // into the peer's mailbox that completes on the peer's `full`; on the
            // receiver's hops, arm `full` for the 4 bytes this receipt brings (this is the
            // phase's one arrival), wait for the phase, read, record, token = value + 1.
            (void)peer_mailbox;
            (void)peer_full;
            (void)token;
            (void)receipts;
            (void)trace;
        }
        uint64_t t1 = dsm_clock64();
        last[blockIdx.x] = received;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    dsm_cluster_sync();
}
// BOOK-END(mbar_st_async)
DSM_KERNEL_ENTRY(pp_mbar_st_async, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)
