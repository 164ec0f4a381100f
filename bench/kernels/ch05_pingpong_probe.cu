/* ch05_pingpong_probe.cu: the benchmark's second harness for the ping-pong of chapter 5: every signalling mechanism written again, as a straight-line round trip with an exact-value poll and the clock started after the first round trip, so that a ranking that depends on the harness shows. */
#include "dsm.h"

/*
 * Same arguments and the same token contract as the exercises of chapter 5
 * (solutions/ch05/pingpong_seed.cu): clusters of 2, hop h carries first[c] + h
 * from rank h % 2 to the other, every receiver sends on the value it received
 * plus one, trace[b * rounds + i] and last[b] are what CTA b received. What
 * differs from the exercises' kernels (the "course" harness), on purpose:
 *
 * - The loop body is one round trip in straight-line code (rank 0: send, then
 *   receive; rank 1: receive, then send), not one hop with a branch on whose
 *   turn it is.
 * - A receiver polls until its mailbox holds exactly the token it expects,
 *   not until the word changes.
 * - The st.async receiver arms its mbarrier for the next receipt right after
 *   the current one (while the token travels), not just before it waits.
 * - cycles[b] covers rounds - 1 round trips: thread 0 reads the clock after
 *   its first receipt (start-up and the first, cold hop are left out) and
 *   after its last. The family divides by 2 * (rounds - 1) hops; rounds >= 2.
 *
 * The family launches these kernels with one warp per CTA. Only thread 0 of
 * each CTA takes part in the hops; the others wait at the final cluster
 * barrier (or, for the barrier-per-hop kernels, meet at every barrier).
 */

/* The value CTA `rank` receives first: rank 1 gets first[c], rank 0 gets first[c] + 1. */
static __device__ __forceinline__ uint32_t probe_first_receipt(const uint32_t *first, uint32_t rank)
{
    return first[blockIdx.x / 2u] + 1u - rank;
}

/* Records receipt i (trace may be NULL). */
static __device__ __forceinline__ void probe_record(uint32_t *trace, uint32_t rounds, uint32_t i, uint32_t v)
{
    if (trace)
        trace[blockIdx.x * rounds + i] = v;
}

/* ---- a cluster barrier per hop (the deep dive's design) ---- */

/* DSMEM: remote store, cluster barrier, local load; two hops per iteration. */
__global__ void ppp_seed_dsmem(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                               unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t peer_mailbox = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1u);
    uint32_t v = 0, token = first[blockIdx.x / 2u];
    uint64_t t0 = 0;
    bool leader = threadIdx.x == 0;
    dsm_cluster_sync(); /* the peer has started */
    for (uint32_t i = 0; i < rounds; ++i) {
        if (leader && rank == 0)
            dsm_st_shared_cluster_u32(peer_mailbox, token);
        dsm_cluster_sync();
        if (leader && rank == 1) {
            v = mailbox;
            probe_record(trace, rounds, i, v);
            dsm_st_shared_cluster_u32(peer_mailbox, v + 1u);
        }
        dsm_cluster_sync();
        if (leader && rank == 0) {
            v = mailbox;
            probe_record(trace, rounds, i, v);
            token = v + 1u;
        }
        if (i == 0)
            t0 = dsm_clock64();
    }
    uint64_t t1 = dsm_clock64();
    if (leader) {
        last[blockIdx.x] = v;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
}
DSM_KERNEL_ENTRY(ppp_seed_dsmem, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

/* Global memory: volatile store to the peer's slot, __threadfence, cluster barrier, volatile load. */
__global__ void ppp_seed_gmem(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                              uint32_t *last, unsigned long long *cycles)
{
    uint32_t rank = dsm_cluster_ctarank();
    volatile uint32_t *mine = slots + (blockIdx.x & ~1u) + rank;
    volatile uint32_t *theirs = slots + (blockIdx.x & ~1u) + (rank ^ 1u);
    uint32_t v = 0, token = first[blockIdx.x / 2u];
    uint64_t t0 = 0;
    bool leader = threadIdx.x == 0;
    dsm_cluster_sync();
    for (uint32_t i = 0; i < rounds; ++i) {
        if (leader && rank == 0) {
            *theirs = token;
            __threadfence();
        }
        dsm_cluster_sync();
        if (leader && rank == 1) {
            v = *mine;
            probe_record(trace, rounds, i, v);
            *theirs = v + 1u;
            __threadfence();
        }
        dsm_cluster_sync();
        if (leader && rank == 0) {
            v = *mine;
            probe_record(trace, rounds, i, v);
            token = v + 1u;
        }
        if (i == 0)
            t0 = dsm_clock64();
    }
    uint64_t t1 = dsm_clock64();
    if (leader) {
        last[blockIdx.x] = v;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
}
DSM_KERNEL_ENTRY(ppp_seed_gmem, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)

/* ---- the token as a flag, polled for the exact value expected ---- */

enum probe_flag { PROBE_RELAXED_CLUSTER, PROBE_RELEASE_CLUSTER, PROBE_RELAXED_GPU, PROBE_RELEASE_GPU };

static __device__ __forceinline__ void probe_store(uint32_t *p, uint32_t v, int how)
{
    if (how == PROBE_RELAXED_CLUSTER)
        dsm_st_relaxed_cluster_u32(p, v);
    else if (how == PROBE_RELEASE_CLUSTER)
        dsm_st_release_cluster_u32(p, v);
    else if (how == PROBE_RELAXED_GPU)
        dsm_st_relaxed_gpu_u32(p, v);
    else
        dsm_st_release_gpu_u32(p, v);
}

/* Polls *p until it holds `want`; returns what it read (== want). */
static __device__ __forceinline__ uint32_t probe_poll(const uint32_t *p, uint32_t want, int how)
{
    uint32_t v;
    if (how == PROBE_RELAXED_CLUSTER)
        while ((v = dsm_ld_relaxed_cluster_u32(p)) != want) { }
    else if (how == PROBE_RELEASE_CLUSTER)
        while ((v = dsm_ld_acquire_cluster_u32(p)) != want) { }
    else if (how == PROBE_RELAXED_GPU)
        while ((v = dsm_ld_relaxed_gpu_u32(p)) != want) { }
    else
        while ((v = dsm_ld_acquire_gpu_u32(p)) != want) { }
    return v;
}

/* One CTA's side of the flag ping-pong: `mine` is polled, `theirs` written. */
static __device__ __forceinline__ void probe_flags(uint32_t *mine, uint32_t *theirs, int how, const uint32_t *first,
                                                   uint32_t rounds, uint32_t *trace, uint32_t *last,
                                                   unsigned long long *cycles)
{
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t want = probe_first_receipt(first, rank);
    /* want - 1 is never a token this CTA receives (it receives want, want + 2, ...), and it replaces
     * whatever an earlier launch left in a global slot */
    if (threadIdx.x == 0)
        probe_store(mine, want - 1u, how);
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t v = 0, token = first[blockIdx.x / 2u];
        uint64_t t0 = 0;
        for (uint32_t i = 0; i < rounds; ++i) {
            if (rank == 0)
                probe_store(theirs, token, how);
            v = probe_poll(mine, want, how);
            probe_record(trace, rounds, i, v);
            if (rank == 1)
                probe_store(theirs, v + 1u, how);
            token = v + 1u;
            want += 2u;
            if (i == 0)
                t0 = dsm_clock64();
        }
        uint64_t t1 = dsm_clock64();
        last[blockIdx.x] = v;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    dsm_cluster_sync(); /* the peer's last store into this CTA is behind this barrier */
}

__global__ void ppp_flag_relaxed(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                 unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    uint32_t *theirs = (uint32_t *)dsm_map_shared_rank(&mailbox, dsm_cluster_ctarank() ^ 1u);
    probe_flags(&mailbox, theirs, PROBE_RELAXED_CLUSTER, first, rounds, trace, last, cycles);
}
DSM_KERNEL_ENTRY(ppp_flag_relaxed, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

__global__ void ppp_flag_release(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                 unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    uint32_t *theirs = (uint32_t *)dsm_map_shared_rank(&mailbox, dsm_cluster_ctarank() ^ 1u);
    probe_flags(&mailbox, theirs, PROBE_RELEASE_CLUSTER, first, rounds, trace, last, cycles);
}
DSM_KERNEL_ENTRY(ppp_flag_release, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

__global__ void ppp_flag_gmem_relaxed(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                                      uint32_t *last, unsigned long long *cycles)
{
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t *pair = slots + (blockIdx.x & ~1u);
    probe_flags(pair + rank, pair + (rank ^ 1u), PROBE_RELAXED_GPU, first, rounds, trace, last, cycles);
}
DSM_KERNEL_ENTRY(ppp_flag_gmem_relaxed, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)

__global__ void ppp_flag_gmem_release(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                                      uint32_t *last, unsigned long long *cycles)
{
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t *pair = slots + (blockIdx.x & ~1u);
    probe_flags(pair + rank, pair + (rank ^ 1u), PROBE_RELEASE_GPU, first, rounds, trace, last, cycles);
}
DSM_KERNEL_ENTRY(ppp_flag_gmem_release, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)

/* ---- the receiver's mbarrier (DSMEM only: global memory has no remote mbarrier) ---- */

/* Remote store of the token, then a remote arrive (release.cluster) on the peer's `full`. */
__global__ void ppp_mbar_arrive(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    __shared__ uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_mailbox = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1u);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(&full), rank ^ 1u);
        uint32_t v = 0, token = first[blockIdx.x / 2u];
        uint64_t t0 = 0;
        for (uint32_t i = 0; i < rounds; ++i) {
            if (rank == 0) {
                dsm_st_shared_cluster_u32(peer_mailbox, token);
                dsm_mbarrier_arrive_remote(peer_full);
            }
            dsm_mbarrier_wait_parity(&full, i & 1u); /* receipt i completes phase i */
            v = mailbox;
            probe_record(trace, rounds, i, v);
            if (rank == 1) {
                dsm_st_shared_cluster_u32(peer_mailbox, v + 1u);
                dsm_mbarrier_arrive_remote(peer_full);
            }
            token = v + 1u;
            if (i == 0)
                t0 = dsm_clock64();
        }
        uint64_t t1 = dsm_clock64();
        last[blockIdx.x] = v;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(ppp_mbar_arrive, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

/* One st.async carries the token and completes 4 bytes on the peer's `full`; the receiver arms the
 * phase of its next receipt right after the current one, off the critical path. */
__global__ void ppp_st_async(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                             unsigned long long *cycles)
{
    __shared__ uint32_t mailbox;
    __shared__ uint64_t full;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
        dsm_mbarrier_arrive_expect_tx(&full, 4); /* armed for receipt 0 before any peer can send */
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_mailbox = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1u);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(&full), rank ^ 1u);
        uint32_t v = 0, token = first[blockIdx.x / 2u];
        uint64_t t0 = 0;
        for (uint32_t i = 0; i < rounds; ++i) {
            if (rank == 0)
                dsm_st_async_u32(peer_mailbox, token, peer_full);
            dsm_mbarrier_wait_parity(&full, i & 1u);
            v = mailbox;
            probe_record(trace, rounds, i, v);
            if (i + 1u < rounds) /* no phase may be left armed at exit */
                dsm_mbarrier_arrive_expect_tx(&full, 4);
            if (rank == 1)
                dsm_st_async_u32(peer_mailbox, v + 1u, peer_full);
            token = v + 1u;
            if (i == 0)
                t0 = dsm_clock64();
        }
        uint64_t t1 = dsm_clock64();
        last[blockIdx.x] = v;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(ppp_st_async, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)
