/* pingpong_seed.cu: the deep dive's ping-pong token as it was published, one cluster barrier per hop, through DSMEM and through global memory. */
#include "dsm.h"

/*
 * The contract every ping-pong kernel of chapter 5 keeps (pp_seed_*,
 * pp_mbar_*, pp_flag_*), so that one test and one benchmark drive them all:
 *
 * Launch: a 1-D grid of clusters of 2 CTAs along x (grid.x = 2 * clusters),
 * any number of threads per CTA. In cluster c (= blockIdx.x / 2) thread 0 of
 * rank 0 and thread 0 of rank 1 pass a token back and forth for `rounds`
 * round trips, 2 * rounds hops. Hop h goes from rank h % 2 to the other rank
 * and carries the value first[c] + h: rank 0 sends first[c], rank 1 receives
 * it and sends first[c] + 1 back, and so on; a receiver always sends on the
 * value it received plus one, never a value it computed on its own.
 *
 * Outputs, per CTA b = blockIdx.x:
 *   trace[b * rounds + i]  the value b received in its i-th receipt (trace may
 *                          be NULL: the benchmark times without it);
 *   last[b]                the value b received last;
 *   cycles[b]              the clock64 cycles thread 0 spent in the hop loop.
 */

// BOOK-BEGIN(seed_dsmem)
/* The deep dive's DSMEM path: the sender stores the token into the receiver's
 * shared-memory mailbox, then the whole cluster meets at a barrier
 * (cluster.sync()), then the receiver reads its mailbox. One cluster barrier
 * per hop, every thread of both CTAs taking part. */
__global__ void pp_seed_dsmem(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                              unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t token = first[blockIdx.x / 2u];
    uint32_t received = 0;
    uint32_t peer_mailbox = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1u);

    /* The peer's mailbox exists once the peer has started: after a cluster barrier. */
    dsm_cluster_sync();
    uint64_t t0 = dsm_clock64();
    for (uint32_t hop = 0; hop < 2u * rounds; ++hop) {
        uint32_t sender = hop & 1u;
        // TODO(ch05.pingpong_seed): one hop as the deep dive wrote it. Thread 0 of the
        // sender stores `token` into the peer's mailbox (peer_mailbox is its
        // .shared::cluster address); the whole cluster meets at a barrier; thread 0 of
        // the receiver reads its own mailbox, records the value (trace may be NULL)
        // and makes value + 1 its token for the hop back.
        (void)sender;
        (void)peer_mailbox;
        (void)token;
        (void)trace;
    }
    uint64_t t1 = dsm_clock64();
    if (threadIdx.x == 0) {
        last[blockIdx.x] = received;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    /* No remote access follows the last barrier: each CTA may leave. */
}
// BOOK-END(seed_dsmem)
DSM_KERNEL_ENTRY(pp_seed_dsmem, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

// BOOK-BEGIN(seed_global)
/* The deep dive's global-memory path with the same barrier: the sender stores
 * the token into the receiver's slot in global memory (slots[2 * c + rank] is
 * rank's slot in cluster c), fences (__threadfence()), the cluster meets at a
 * barrier, and the receiver loads its slot. */
__global__ void pp_seed_global(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                               uint32_t *last, unsigned long long *cycles)
{
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t token = first[blockIdx.x / 2u];
    uint32_t received = 0;
    /* volatile: every hop really loads and stores the slot, as the deep dive's kernel did */
    volatile uint32_t *my_slot = slots + (blockIdx.x & ~1u) + rank;
    volatile uint32_t *peer_slot = slots + (blockIdx.x & ~1u) + (rank ^ 1u);

    dsm_cluster_sync();
    uint64_t t0 = dsm_clock64();
    for (uint32_t hop = 0; hop < 2u * rounds; ++hop) {
        uint32_t sender = hop & 1u;
        // TODO(ch05.pingpong_seed): the same hop through global memory: thread 0 of the
        // sender stores `token` into the peer's slot and fences (__threadfence()), the
        // whole cluster meets at a barrier, thread 0 of the receiver loads its own slot,
        // records the value and makes value + 1 its token.
        (void)sender;
        (void)my_slot;
        (void)peer_slot;
        (void)token;
        (void)trace;
    }
    uint64_t t1 = dsm_clock64();
    if (threadIdx.x == 0) {
        last[blockIdx.x] = received;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
}
// BOOK-END(seed_global)
DSM_KERNEL_ENTRY(pp_seed_global, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)
