/* pingpong_flags.cu: the ping-pong token as a flag: the sender stores it into the receiver's mailbox, the receiver polls its own mailbox; relaxed and release/acquire, each in shared memory (DSMEM) and at GPU scope in global memory. */
#include "dsm.h"

/*
 * Your design, under pingpong_seed.cu's contract (clusters of 2, hop h
 * carries first[c] + h from rank h % 2 to the other, trace/last/cycles per
 * CTA), with these rules:
 *
 * - The token is its own flag. Each CTA has a mailbox word: a __shared__
 *   word in its shared memory (pp_flag_relaxed, pp_flag_release) or its slot
 *   in global memory, slots[2 * c + rank] (pp_flag_global,
 *   pp_flag_global_relaxed). The sender's thread 0 stores the token into the
 *   receiver's mailbox; the receiver's thread 0 polls its OWN mailbox until
 *   the word holds a value other than the one it saw last, and takes that
 *   value as the token.
 * - Before the first hop each CTA puts into its own mailbox a value that
 *   differs from the first token it will receive (a receiver must not mistake
 *   it for a token), and the cluster meets once, so that no peer stores into a
 *   mailbox before its owner has started and initialised it.
 * - Inside the hop loop: no cluster barrier, no mbarrier. Only the flag
 *   stores and polling loads of the device API:
 *     pp_flag_relaxed  dsm_st_relaxed_cluster_u32 into the peer's mailbox
 *                      (a pointer from dsm_map_shared_rank), polled with
 *                      dsm_ld_relaxed_cluster_u32: the token carries no other
 *                      data, so nothing needs ordering;
 *     pp_flag_release  dsm_st_release_cluster_u32, polled with
 *                      dsm_ld_acquire_cluster_u32: what a signal that
 *                      publishes data costs;
 *     pp_flag_global   dsm_st_release_gpu_u32 into the peer's slot, polled
 *                      with dsm_ld_acquire_gpu_u32: the global twin of
 *                      pp_flag_release;
 *     pp_flag_global_relaxed
 *                      dsm_st_relaxed_gpu_u32 into the peer's slot, polled
 *                      with dsm_ld_relaxed_gpu_u32: the global twin of
 *                      pp_flag_relaxed.
 *   The global kernels touch no shared memory of a peer: the benchmark sets
 *   each beside its DSMEM twin, and a twin that signalled through DSMEM
 *   would measure DSMEM twice.
 * - Every CTA stays alive until its peer has stopped storing into it.
 */

// BEGIN SOLUTION
/* How a flag is stored and polled: the four kernels differ only here. */
enum pp_flag_mode { PP_FLAG_RELAXED, PP_FLAG_RELEASE, PP_FLAG_GPU_RELEASE, PP_FLAG_GPU_RELAXED };

static __device__ __forceinline__ void flag_store(uint32_t *p, uint32_t v, int mode)
{
    if (mode == PP_FLAG_RELAXED)
        dsm_st_relaxed_cluster_u32(p, v);
    else if (mode == PP_FLAG_RELEASE)
        dsm_st_release_cluster_u32(p, v);
    else if (mode == PP_FLAG_GPU_RELEASE)
        dsm_st_release_gpu_u32(p, v);
    else
        dsm_st_relaxed_gpu_u32(p, v);
}

static __device__ __forceinline__ uint32_t flag_load(const uint32_t *p, int mode)
{
    if (mode == PP_FLAG_RELAXED)
        return dsm_ld_relaxed_cluster_u32(p);
    if (mode == PP_FLAG_RELEASE)
        return dsm_ld_acquire_cluster_u32(p);
    if (mode == PP_FLAG_GPU_RELEASE)
        return dsm_ld_acquire_gpu_u32(p);
    return dsm_ld_relaxed_gpu_u32(p);
}

/* The whole ping-pong of one CTA: `mine` is this CTA's mailbox, `theirs` the
 * peer's (shared memory of both, or both in global memory). */
static __device__ __forceinline__ void flag_pingpong(uint32_t *mine, uint32_t *theirs, int mode,
                                                     const uint32_t *first, uint32_t rounds, uint32_t *trace,
                                                     uint32_t *last, unsigned long long *cycles)
{
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t token = first[blockIdx.x / 2u];
    /* Rank 1 first receives first[c], rank 0 first receives first[c] + 1:
     * one less can never be mistaken for it. */
    uint32_t seen = token - rank;
    if (threadIdx.x == 0)
        flag_store(mine, seen, mode);
    dsm_cluster_sync(); /* the peer has started and its mailbox holds `seen` */

    if (threadIdx.x == 0) {
        uint32_t receipts = 0;
        uint64_t t0 = dsm_clock64();
        for (uint32_t hop = 0; hop < 2u * rounds; ++hop) {
            if (rank == (hop & 1u)) {
                flag_store(theirs, token, mode);
            } else {
                uint32_t v;
                while ((v = flag_load(mine, mode)) == seen) {
                    /* poll: the peer's store ends the wait */
                }
                seen = v;
                if (trace)
                    trace[blockIdx.x * rounds + receipts] = v;
                token = v + 1u;
                receipts++;
            }
        }
        uint64_t t1 = dsm_clock64();
        last[blockIdx.x] = seen;
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
    }
    dsm_cluster_sync(); /* lifetime: the peer's last store into us is behind this barrier */
}
// END SOLUTION

/* Mailboxes in shared memory; relaxed stores and relaxed polls. */
__global__ void pp_flag_relaxed(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                unsigned long long *cycles)
{
    // BEGIN SOLUTION
    //~ // TODO(ch05.pingpong_flags): the ping-pong with relaxed flag stores and polls in
    //~ // shared memory, under the rules at the top of this file.
    //~ (void)first;
    //~ (void)rounds;
    //~ (void)trace;
    //~ (void)last;
    //~ (void)cycles;
    __shared__ uint32_t mailbox;
    uint32_t *theirs = (uint32_t *)dsm_map_shared_rank(&mailbox, dsm_cluster_ctarank() ^ 1u);
    flag_pingpong(&mailbox, theirs, PP_FLAG_RELAXED, first, rounds, trace, last, cycles);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(pp_flag_relaxed, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

/* Mailboxes in shared memory; release stores, acquire polls. */
__global__ void pp_flag_release(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                unsigned long long *cycles)
{
    // BEGIN SOLUTION
    //~ // TODO(ch05.pingpong_flags): the same with release stores and acquire polls.
    //~ (void)first;
    //~ (void)rounds;
    //~ (void)trace;
    //~ (void)last;
    //~ (void)cycles;
    __shared__ uint32_t mailbox;
    uint32_t *theirs = (uint32_t *)dsm_map_shared_rank(&mailbox, dsm_cluster_ctarank() ^ 1u);
    flag_pingpong(&mailbox, theirs, PP_FLAG_RELEASE, first, rounds, trace, last, cycles);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(pp_flag_release, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

/* Mailboxes in global memory (slots[2 * c + rank]); release/acquire at GPU scope. */
__global__ void pp_flag_global(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                               uint32_t *last, unsigned long long *cycles)
{
    // BEGIN SOLUTION
    //~ // TODO(ch05.pingpong_flags): the same through the slots in global memory, with
    //~ // release/acquire at GPU scope.
    //~ (void)first;
    //~ (void)rounds;
    //~ (void)slots;
    //~ (void)trace;
    //~ (void)last;
    //~ (void)cycles;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t *pair = slots + (blockIdx.x & ~1u);
    flag_pingpong(pair + rank, pair + (rank ^ 1u), PP_FLAG_GPU_RELEASE, first, rounds, trace, last, cycles);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(pp_flag_global, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)

/* Mailboxes in global memory (slots[2 * c + rank]); relaxed at GPU scope: the twin of pp_flag_relaxed. */
__global__ void pp_flag_global_relaxed(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                                       uint32_t *last, unsigned long long *cycles)
{
    // BEGIN SOLUTION
    //~ // TODO(ch05.pingpong_flags): the same through the slots in global memory, relaxed
    //~ // at GPU scope: the global-memory twin of pp_flag_relaxed.
    //~ (void)first;
    //~ (void)rounds;
    //~ (void)slots;
    //~ (void)trace;
    //~ (void)last;
    //~ (void)cycles;
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t *pair = slots + (blockIdx.x & ~1u);
    flag_pingpong(pair + rank, pair + (rank ^ 1u), PP_FLAG_GPU_RELAXED, first, rounds, trace, last, cycles);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(pp_flag_global_relaxed, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)
