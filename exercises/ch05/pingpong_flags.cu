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


/* Mailboxes in shared memory; relaxed stores and relaxed polls. */
__global__ void pp_flag_relaxed(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                unsigned long long *cycles)
{
    // TODO(ch05.pingpong_flags): the ping-pong with relaxed flag stores and polls in
    // shared memory, under the rules at the top of this file.
    (void)first;
    (void)rounds;
    (void)trace;
    (void)last;
    (void)cycles;
}
DSM_KERNEL_ENTRY(pp_flag_relaxed, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

/* Mailboxes in shared memory; release stores, acquire polls. */
__global__ void pp_flag_release(const uint32_t *first, uint32_t rounds, uint32_t *trace, uint32_t *last,
                                unsigned long long *cycles)
{
    // TODO(ch05.pingpong_flags): the same with release stores and acquire polls.
    (void)first;
    (void)rounds;
    (void)trace;
    (void)last;
    (void)cycles;
}
DSM_KERNEL_ENTRY(pp_flag_release, const uint32_t *, uint32_t, uint32_t *, uint32_t *, unsigned long long *)

/* Mailboxes in global memory (slots[2 * c + rank]); release/acquire at GPU scope. */
__global__ void pp_flag_global(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                               uint32_t *last, unsigned long long *cycles)
{
    // TODO(ch05.pingpong_flags): the same through the slots in global memory, with
    // release/acquire at GPU scope.
    (void)first;
    (void)rounds;
    (void)slots;
    (void)trace;
    (void)last;
    (void)cycles;
}
DSM_KERNEL_ENTRY(pp_flag_global, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)

/* Mailboxes in global memory (slots[2 * c + rank]); relaxed at GPU scope: the twin of pp_flag_relaxed. */
__global__ void pp_flag_global_relaxed(const uint32_t *first, uint32_t rounds, uint32_t *slots, uint32_t *trace,
                                       uint32_t *last, unsigned long long *cycles)
{
    // TODO(ch05.pingpong_flags): the same through the slots in global memory, relaxed
    // at GPU scope: the global-memory twin of pp_flag_relaxed.
    (void)first;
    (void)rounds;
    (void)slots;
    (void)trace;
    (void)last;
    (void)cycles;
}
DSM_KERNEL_ENTRY(pp_flag_global_relaxed, const uint32_t *, uint32_t, uint32_t *, uint32_t *, uint32_t *,
                 unsigned long long *)
