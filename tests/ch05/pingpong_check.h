/* pingpong_check.h: runs any chapter 5 ping-pong kernel (pp_*) on random tokens and checks every hop, the outputs it promises and, on the emulator, the barriers it used. */
#ifndef CH05_PINGPONG_CHECK_H
#define CH05_PINGPONG_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

/* One launch of a ping-pong kernel. `with_slots`: the kernel takes the
 * global-memory slots argument (pp_*_global). */
typedef struct pp_launch {
    const char *name;
    dsm_kernel_t kernel;
    int with_slots;
    uint32_t clusters, threads, rounds;
    int with_trace; /* 0: pass trace = NULL, as the benchmark's timed runs do */
    int stale_slots; /* 1: each slot starts with the first token its owner will receive */
} pp_launch;

/* What a few tests change about a launch's tokens (pp_run_and_check_ex). */
typedef struct pp_tokens {
    int fixed_first;       /* 1: every cluster's first token is first_token, not a random one */
    uint32_t first_token;
    uint32_t delta;        /* what a test's probe adds to every token on its way (0: nothing): the
                              receipt of hop h is then first + h + (h + 1) * delta */
    const int *delta_used; /* if set and 0 after the launch, the probe found no token to add to
                              (the kernel sent them by a route it does not see): plain tokens expected */
    int *stalled;          /* if set: a launch that every live thread blocks in (a receiver waiting for
                              the exact token it expects, which the probe's changed one never is) sets
                              *stalled to 1 and is not checked further, instead of failing the test */
} pp_tokens;

enum { PP_MAX_CTAS = 8 }; /* the tests launch at most 4 clusters of 2 */

/* What the launch did, as the emulator counted it (zeros on a GPU): in its
 * busiest cluster, the completed barrier phases; per CTA, the mechanism
 * counters (dsm_emu_control.h) and its use of the global slots. */
typedef struct pp_outcome {
    uint32_t cluster_barrier_phases; /* barrier.cluster phases */
    uint32_t mbarrier_phases;        /* phases of all its mbarriers together */
    int counted;                     /* 1 on the emulator: the fields below are filled */
    uint32_t ctas;
    dsm_emu_counts cta[PP_MAX_CTAS];
    dsm_emu_gmem_use slots[PP_MAX_CTAS]; /* how CTA b used the slots buffer */
    uint32_t slot_after[PP_MAX_CTAS];    /* what the slots held after the launch */
    uint32_t want_last[PP_MAX_CTAS];     /* the last token CTA b received */
} pp_outcome;

/* The token that hop `hop` delivers when a probe adds `delta` to every token on its way: the
 * receiver forwards what it read, plus 1, so every hop adds 1 + delta (uint32_t arithmetic wraps). */
static inline uint32_t pp_token(uint32_t first, uint32_t hop, uint32_t delta)
{
    return first + hop + (hop + 1u) * delta;
}

/* The value CTA `rank` must receive in its receipt i: hop 2i (rank 1) or 2i + 1 (rank 0). */
static inline uint32_t pp_expected_with(uint32_t first, uint32_t rank, uint32_t i, uint32_t delta)
{
    return pp_token(first, 2u * i + (1u - rank), delta);
}

static inline uint32_t pp_expected(uint32_t first, uint32_t rank, uint32_t i)
{
    return pp_expected_with(first, rank, i, 0);
}

/* The slots buffer of the launch that runs now (for a test's probe; NULL outside a launch). */
static uint32_t *pp_running_slots;

/* Fails the test with CUDA's name for err unless it is dsmSuccess. */
static inline void pp_expect_success(dsm_error_t err, const char *what, const char *kernel)
{
    if (err != dsmSuccess)
        fail_msg("%s (%s) failed: %s (%s); repeat with DSM_SEED=%u", what, kernel, dsm_error_name(err),
                 dsm_error_string(err), (unsigned)test_seed());
}

/* Runs the launch on random first tokens (and garbage in the slots and the
 * trace), then checks: the launch succeeded with no emulator report; every
 * receipt of every CTA holds exactly the token of its hop, in order; last[]
 * holds each CTA's final token. Returns the emulator's counts. */
/* Frees what one pp_run_and_check_ex run allocated (d_trace may be NULL). */
static inline void pp_free_run(uint32_t *d_first, uint32_t *d_slots, uint32_t *d_last, unsigned long long *d_cycles,
                               uint32_t *d_trace, uint32_t *first, uint32_t *garbage, uint32_t *trace,
                               uint32_t *last, unsigned long long *cycles)
{
    dsm_free(d_first);
    dsm_free(d_slots);
    dsm_free(d_last);
    dsm_free(d_cycles);
    if (d_trace)
        dsm_free(d_trace);
    free(first);
    free(garbage);
    free(trace);
    free(last);
    free(cycles);
}

static inline pp_outcome pp_run_and_check_ex(const pp_launch *l, const pp_tokens *x)
{
    uint32_t ctas = 2u * l->clusters;
    size_t trace_words = (size_t)ctas * l->rounds;
    uint32_t *first = malloc(l->clusters * sizeof *first);
    uint32_t *garbage = malloc((trace_words + ctas) * sizeof *garbage);
    uint32_t *trace = malloc((trace_words + 1) * sizeof *trace);
    uint32_t *last = malloc(ctas * sizeof *last);
    unsigned long long *cycles = malloc(ctas * sizeof *cycles);
    assert_non_null(cycles);
    assert_non_null(first);
    assert_non_null(garbage);
    assert_non_null(trace);
    assert_non_null(last);
    test_fill_random_u32(first, l->clusters, 0, UINT32_MAX); /* wraps around sometimes: fine */
    for (uint32_t c = 0; x->fixed_first && c < l->clusters; ++c)
        first[c] = x->first_token;
    test_fill_random_u32(garbage, trace_words + ctas, 0, UINT32_MAX);
    for (uint32_t b = 0; l->stale_slots && b < ctas; ++b)
        garbage[trace_words + b] = pp_expected(first[b / 2u], b % 2u, 0);

    uint32_t *d_first, *d_slots, *d_trace = NULL, *d_last;
    unsigned long long *d_cycles;
    pp_expect_success(dsm_malloc((void **)&d_first, l->clusters * sizeof *d_first), "dsm_malloc", l->name);
    pp_expect_success(dsm_malloc((void **)&d_slots, ctas * sizeof *d_slots), "dsm_malloc", l->name);
    pp_expect_success(dsm_malloc((void **)&d_last, ctas * sizeof *d_last), "dsm_malloc", l->name);
    pp_expect_success(dsm_malloc((void **)&d_cycles, ctas * sizeof *d_cycles), "dsm_malloc", l->name);
    pp_expect_success(dsm_memcpy_to_device(d_first, first, l->clusters * sizeof *first), "copy", l->name);
    pp_expect_success(dsm_memcpy_to_device(d_slots, garbage + trace_words, ctas * sizeof *d_slots), "copy",
                      l->name);
    pp_expect_success(dsm_memset(d_last, 0, ctas * sizeof *d_last), "dsm_memset", l->name);
    pp_expect_success(dsm_memset(d_cycles, 0, ctas * sizeof *d_cycles), "dsm_memset", l->name);
    if (l->with_trace) {
        pp_expect_success(dsm_malloc((void **)&d_trace, trace_words * sizeof *d_trace), "dsm_malloc", l->name);
        pp_expect_success(dsm_memcpy_to_device(d_trace, garbage, trace_words * sizeof *d_trace), "copy",
                          l->name);
    }

    dsm_launch_config cfg = {DSM_DIM3(ctas, 1, 1), DSM_DIM3(l->threads, 1, 1), DSM_DIM3(2, 1, 1), 0};
    uint32_t rounds = l->rounds;
    const uint32_t *first_arg = d_first;
    void *args_plain[] = {&first_arg, &rounds, &d_trace, &d_last, &d_cycles};
    void *args_slots[] = {&first_arg, &rounds, &d_slots, &d_trace, &d_last, &d_cycles};
    pp_running_slots = d_slots;
    dsm_error_t err = dsm_launch_sync(&cfg, l->kernel, l->with_slots ? args_slots : args_plain);
    pp_running_slots = NULL;
    uint32_t delta = x->delta_used && !*x->delta_used ? 0u : x->delta;
    if (x->stalled && test_on_emulator() && dsm_emu_last_report()->kind == DSM_REPORT_DEADLOCK) {
        *x->stalled = 1;
        pp_free_run(d_first, d_slots, d_last, d_cycles, d_trace, first, garbage, trace, last, cycles);
        pp_outcome none;
        memset(&none, 0, sizeof none);
        return none;
    }
    if (err != dsmSuccess || (test_on_emulator() && dsm_emu_last_report()->kind != DSM_REPORT_NONE))
        fail_msg("%s with %u cluster(s) of 2 CTAs x %u threads, %u round trips: launch returned %s, emulator "
                 "report: %s (above); repeat with DSM_SEED=%u",
                 l->name, l->clusters, l->threads, l->rounds, dsm_error_name(err),
                 dsm_report_kind_name(dsm_emu_last_report()->kind), (unsigned)test_seed());
    pp_outcome out;
    memset(&out, 0, sizeof out);
    out.cluster_barrier_phases = dsm_emu_last_cluster_barrier_phases();
    out.mbarrier_phases = dsm_emu_last_mbarrier_phases();
    out.ctas = ctas;
    assert_true(ctas <= PP_MAX_CTAS);
    out.counted = test_on_emulator();
    for (uint32_t b = 0; out.counted && b < ctas; ++b) {
        out.counted = dsm_emu_last_counts(b, &out.cta[b]) && dsm_emu_last_gmem_use(b, d_slots, &out.slots[b]);
        out.want_last[b] = pp_expected_with(first[b / 2u], b % 2u, l->rounds - 1u, delta);
    }
    pp_expect_success(dsm_memcpy_to_host(out.slot_after, d_slots, ctas * sizeof *d_slots), "copy back", l->name);

    pp_expect_success(dsm_memcpy_to_host(last, d_last, ctas * sizeof *last), "copy back", l->name);
    pp_expect_success(dsm_memcpy_to_host(cycles, d_cycles, ctas * sizeof *cycles), "copy back", l->name);
    if (l->with_trace)
        pp_expect_success(dsm_memcpy_to_host(trace, d_trace, trace_words * sizeof *trace), "copy back",
                          l->name);
    for (uint32_t b = 0; b < ctas; ++b) {
        uint32_t c = b / 2u, rank = b % 2u;
        for (uint32_t i = 0; l->with_trace && i < l->rounds; ++i) {
            uint32_t want = pp_expected_with(first[c], rank, i, delta), got = trace[(size_t)b * l->rounds + i];
            if (got != want && delta)
                fail_msg("%s: cluster %u, rank %u, receipt %u of %u (hop %u): received %u (0x%08x); the test added "
                         "%u to every token on its way, so a receiver that forwards what it read, plus 1, gets %u "
                         "(first token %u): forward the token you read, not one you compute from first[] and the "
                         "hop; repeat with DSM_SEED=%u",
                         l->name, c, rank, i, l->rounds, 2u * i + (1u - rank), got, got, delta, want, first[c],
                         (unsigned)test_seed());
            if (got != want)
                fail_msg("%s: cluster %u, rank %u, receipt %u of %u (hop %u): received %u (0x%08x), the token "
                         "of that hop is %u (0x%08x, first token 0x%08x); repeat with DSM_SEED=%u",
                         l->name, c, rank, i, l->rounds, 2u * i + (1u - rank), got, got, want, want, first[c],
                         (unsigned)test_seed());
        }
        if (cycles[b] == 0)
            fail_msg("%s: cycles[%u] is 0: thread 0 of every CTA writes the clock64 cycles of its hop loop "
                     "(the benchmark divides them by the hops)", l->name, b);
        uint32_t want_last = pp_expected_with(first[c], rank, l->rounds - 1u, delta);
        if (last[b] != want_last)
            fail_msg("%s: cluster %u, rank %u: last[%u] = %u, the last token it receives is %u (%s); repeat "
                     "with DSM_SEED=%u",
                     l->name, c, rank, b, last[b], want_last, l->with_trace ? "with a trace" : "trace = NULL",
                     (unsigned)test_seed());
    }

    pp_free_run(d_first, d_slots, d_last, d_cycles, d_trace, first, garbage, trace, last, cycles);
    return out;
}

/* pp_run_and_check_ex with random first tokens and nothing added to them. */
static inline pp_outcome pp_run_and_check(const pp_launch *l)
{
    const pp_tokens plain = {0, 0, 0, NULL};
    return pp_run_and_check_ex(l, &plain);
}

/* A random launch: 1 to 3 clusters, 1 to 96 threads, 1 to 8 round trips
 * (the emulator runs every hop under several schedules: keep it small). */
static inline pp_launch pp_random_launch(const char *name, dsm_kernel_t kernel, int with_slots)
{
    pp_launch l = {name, kernel, with_slots, 1u + test_random_below(3), 1u + test_random_below(96),
                   1u + test_random_below(8), 1, 0};
    return l;
}

/* Runs the launch under the default schedules plus two random ones seeded
 * from the test's seed (no effect on a GPU), and checks it. */
static inline pp_outcome pp_run_all_schedules(const pp_launch *l)
{
    char spec[96];
    snprintf(spec, sizeof spec, "asc,desc,random:%u,random:%u,interleave", 1u + test_random_below(1000),
             1001u + test_random_below(1000));
    assert_int_equal(dsm_emu_set_schedules(spec), dsmSuccess);
    pp_outcome o = pp_run_and_check(l);
    dsm_emu_set_schedules(NULL);
    return o;
}

/* Runs the launch with every cluster starting at each token a mailbox's initial value could be
 * confused with: 0 (a mailbox left at 0), 0xFFFFFFFF (the tokens wrap to 0 on the next hop) and
 * 0x7FFFFFFF (the complement of the first token comes back one hop later: 0x7FFFFFFF + 1 ==
 * ~0x7FFFFFFF). Random tokens almost never draw them. */
static inline void pp_expect_edge_tokens(pp_launch l)
{
    static const uint32_t edges[] = {0u, 0xFFFFFFFFu, 0x7FFFFFFFu};
    l.rounds = 3;
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; ++k) {
        pp_tokens x = {1, edges[k], 0, NULL};
        pp_run_and_check_ex(&l, &x);
    }
}

/* On the emulator: fails unless the number of cluster-barrier phases does not
 * grow with the number of hops (the same for r and 2r round trips), i.e. no
 * cluster barrier inside the hop loop. */
static inline void pp_expect_no_cluster_barrier_per_hop(pp_launch l)
{
    if (!test_on_emulator())
        return;
    l.rounds = 2u + test_random_below(4);
    uint32_t few = pp_run_and_check(&l).cluster_barrier_phases;
    l.rounds *= 2u;
    uint32_t more = pp_run_and_check(&l).cluster_barrier_phases;
    if (more != few)
        fail_msg("%s: %u cluster-barrier phases for %u round trips, %u for %u: the hop loop must not use a "
                 "cluster barrier (dsm_cluster_sync / arrive / wait) in any hop",
                 l.name, few, l.rounds / 2u, more, l.rounds);
}

/* ---- the mechanism a kernel used (emulator only; pp_outcome.counted) ---- */

/* Flag accesses of CTA counts c: operation op (DSM_FLAG_LOAD/STORE) in space, with semantics sem and
 * scope; -1 for sem or scope: any. */
static inline uint32_t pp_flags(const dsm_emu_counts *c, int op, int sem, int scope, int space)
{
    uint32_t n = 0;
    for (int m = 0; m < DSM_FLAG_SEM_COUNT; ++m)
        for (int k = 0; k < DSM_FLAG_SCOPE_COUNT; ++k)
            if ((sem < 0 || sem == m) && (scope < 0 || scope == k))
                n += c->flags[op][m][k][space];
    return n;
}

/* PTX-like names, for failure messages. */
static inline const char *pp_flag_name(int op, int sem, int scope)
{
    static const char *const names[2][2][3] = {
        {{"ld.relaxed.cluster", "ld.relaxed.gpu", "volatile load"}, {"ld.acquire.cluster", "ld.acquire.gpu", "?"}},
        {{"st.relaxed.cluster", "st.relaxed.gpu", "volatile store"}, {"st.release.cluster", "st.release.gpu", "?"}}};
    return names[op][sem][scope];
}

/* Fails unless every CTA of the launch carried its `rounds` tokens as the contract of a flag kernel
 * says: stores of exactly the kind sem/scope into the peer's mailbox (in `space_peer`:
 * DSM_FLAG_PEER_SMEM or DSM_FLAG_GLOBAL), at least one per token, and polls of its own mailbox
 * (`space_own`) with loads of the matching kind only. In global memory each CTA may write the initial
 * value of its own slot with any one store. */
static inline void pp_expect_flag_kind(const pp_launch *l, const pp_outcome *o, int sem, int scope, int space_peer,
                                       int space_own)
{
    if (!o->counted)
        return;
    int other_sem = sem == DSM_FLAG_RELAXED ? DSM_FLAG_STRONG : DSM_FLAG_RELAXED;
    for (uint32_t b = 0; b < o->ctas; ++b) {
        const dsm_emu_counts *c = &o->cta[b];
        uint32_t right_st = c->flags[DSM_FLAG_STORE][sem][scope][space_peer];
        uint32_t all_st = pp_flags(c, DSM_FLAG_STORE, -1, -1, space_peer);
        uint32_t right_ld = c->flags[DSM_FLAG_LOAD][sem][scope][space_own];
        uint32_t all_ld = pp_flags(c, DSM_FLAG_LOAD, -1, -1, space_own);
        uint32_t slack = space_peer == DSM_FLAG_GLOBAL; /* the initial value of its own slot */
        if (right_st < l->rounds || all_st - right_st > slack)
            fail_msg("%s: CTA %u sent %u tokens with %u %s stores into the peer's mailbox and %u flag stores of "
                     "another kind (%u %s, %u at another scope or volatile): the contract says %s for every token; "
                     "repeat with DSM_SEED=%u",
                     l->name, b, l->rounds, right_st, pp_flag_name(1, sem, scope), all_st - right_st,
                     pp_flags(c, DSM_FLAG_STORE, other_sem, scope, space_peer), pp_flag_name(1, other_sem, scope),
                     all_st - right_st - pp_flags(c, DSM_FLAG_STORE, other_sem, scope, space_peer),
                     pp_flag_name(1, sem, scope), (unsigned)test_seed());
        if (right_ld < l->rounds || all_ld != right_ld)
            fail_msg("%s: CTA %u polled its own mailbox with %u %s loads and %u flag loads of another kind "
                     "(%u %s, %u at another scope or volatile) for %u tokens: the contract says it polls with %s "
                     "only; repeat with DSM_SEED=%u",
                     l->name, b, right_ld, pp_flag_name(0, sem, scope), all_ld - right_ld,
                     pp_flags(c, DSM_FLAG_LOAD, other_sem, scope, space_own), pp_flag_name(0, other_sem, scope),
                     all_ld - right_ld - pp_flags(c, DSM_FLAG_LOAD, other_sem, scope, space_own), l->rounds,
                     pp_flag_name(0, sem, scope), (unsigned)test_seed());
    }
}

/* Fails unless no CTA touched a peer's shared memory (a global-memory twin must not signal through
 * DSMEM) or kept a flag in its own shared memory. */
static inline void pp_expect_no_dsmem(const pp_launch *l, const pp_outcome *o)
{
    if (!o->counted)
        return;
    for (uint32_t b = 0; b < o->ctas; ++b) {
        const dsm_emu_counts *c = &o->cta[b];
        uint32_t peer_flags = pp_flags(c, DSM_FLAG_LOAD, -1, -1, DSM_FLAG_PEER_SMEM) +
                              pp_flags(c, DSM_FLAG_STORE, -1, -1, DSM_FLAG_PEER_SMEM);
        uint32_t own_flags = pp_flags(c, DSM_FLAG_LOAD, -1, -1, DSM_FLAG_OWN_SMEM) +
                             pp_flags(c, DSM_FLAG_STORE, -1, -1, DSM_FLAG_OWN_SMEM);
        if (c->dsmem_ld_ops || c->dsmem_st_ops || c->dsmem_atom_ops || c->async_out_bytes || peer_flags ||
            c->mbarrier_remote_arrives || own_flags)
            fail_msg("%s: CTA %u used shared memory to signal (%llu loads and %llu stores in a peer's shared "
                     "memory, %llu st.async bytes, %u remote arrives, %u flag accesses in a peer's and %u in its "
                     "own shared memory): this is the global-memory twin, every token goes through the slots "
                     "in global memory; repeat with DSM_SEED=%u",
                     l->name, b, (unsigned long long)c->dsmem_ld_ops, (unsigned long long)c->dsmem_st_ops,
                     (unsigned long long)c->async_out_bytes, c->mbarrier_remote_arrives, peer_flags, own_flags,
                     (unsigned)test_seed());
    }
}

/* Fails unless each CTA's slot (slots[2 * c + rank]) holds, after the launch, the last token it
 * received: the tokens went through `slots`, not some other memory. */
static inline void pp_expect_tokens_in_slots(const pp_launch *l, const pp_outcome *o)
{
    for (uint32_t b = 0; b < o->ctas; ++b)
        if (o->slot_after[b] != o->want_last[b])
            fail_msg("%s: after the launch slots[%u] holds %u, not %u, the last token CTA %u received: the "
                     "peer stores every token into slots[2 * c + rank] of the receiver; repeat with DSM_SEED=%u",
                     l->name, b, o->slot_after[b], o->want_last[b], b, (unsigned)test_seed());
}

/* Fails unless every thread of every CTA waited at a cluster barrier at least `waits` times (a
 * barrier that only thread 0 reaches is a barrier the other threads skipped). */
static inline void pp_expect_every_thread_waits(const pp_launch *l, const pp_outcome *o, uint32_t waits)
{
    if (!o->counted)
        return;
    for (uint32_t b = 0; b < o->ctas; ++b)
        if (o->cta[b].cluster_waits_min < waits)
            fail_msg("%s: with %u threads per CTA, a thread of CTA %u waited at %u cluster barriers and another at "
                     "%u, in %u round trips: every thread of both CTAs meets at the barrier of every hop (%u); "
                     "repeat with DSM_SEED=%u",
                     l->name, l->threads, b, o->cta[b].cluster_waits_min, o->cta[b].cluster_waits_max, l->rounds,
                     waits, (unsigned)test_seed());
}

#endif
