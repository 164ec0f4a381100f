/* test_all_to_all.c: ch05.all_to_all: many rounds of all-to-all messages among the CTAs of clusters of 2 to 16 match the CPU, with every message through DSMEM, no cluster barrier inside the loop, an mbarrier phase per round in every CTA and no flag polling. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(all_to_all);

typedef struct a2a_shape {
    uint32_t cluster, clusters, threads, rounds;
} a2a_shape;

enum {
    CHECK_GLOBAL = 1,    /* in[b] read once, out[b] written once, nothing else */
    CHECK_DSMEM = 2,     /* every message through DSMEM */
    CHECK_SIGNALS = 4,   /* mbarriers only: an mbarrier phase per round per CTA, no flags, no barrier in the loop */
};

#define SHAPE_FMT "clusters of %" PRIu32 " CTAs, %" PRIu32 " clusters, %" PRIu32 " threads, %" PRIu32 \
                  " rounds (repeat with DSM_SEED=%" PRIu32 ")"
#define SHAPE_ARGS(s) (s)->cluster, (s)->clusters, (s)->threads, (s)->rounds, test_seed()

/* The CPU reference: every cluster's states, round after round. v holds 4 words per block. */
static void cpu_rounds(const a2a_shape *s, uint32_t *v)
{
    uint32_t n = s->cluster, blocks = n * s->clusters;
    uint32_t *next = malloc((size_t)blocks * 16);
    for (uint32_t k = 0; k < s->rounds; ++k) {
        for (uint32_t b = 0; b < blocks; ++b) {
            uint32_t r = b % n, base = b - r;
            for (int w = 0; w < 4; ++w) {
                uint32_t acc = 3u * v[4 * b + w] + k;
                for (uint32_t p = 0; p < n; ++p)
                    if (p != r)
                        acc += (p + 1u) * (v[4 * (base + p) + w] * (2u * r + 1u) + k);
                next[4 * b + w] = acc;
            }
        }
        for (size_t i = 0; i < (size_t)blocks * 4; ++i)
            v[i] = next[i];
    }
    free(next);
}

static void check_mechanism(const a2a_shape *s, int checks, const void *in, const void *out)
{
    uint32_t n = s->cluster;
    for (uint32_t b = 0; b < n * s->clusters; ++b) {
        dsm_emu_counts k;
        dsm_emu_gmem_use ui, uo;
        assert_true(dsm_emu_last_counts(b, &k));
        assert_true(dsm_emu_last_gmem_use(b, in, &ui));
        assert_true(dsm_emu_last_gmem_use(b, out, &uo));
        if (checks & CHECK_GLOBAL) {
            if (ui.ld_bytes != 16 || ui.ld_lo != 16 * (size_t)b || ui.st_bytes || uo.st_bytes != 16 ||
                uo.st_lo != 16 * (size_t)b || uo.ld_bytes || k.gmem_ld_bytes != 16 || k.gmem_st_bytes != 16)
                fail_msg("block %" PRIu32 " read %" PRIu64 " bytes of global memory (%" PRIu64 " of in) and wrote %"
                         PRIu64 " (%" PRIu64 " of out); it must read its own in[b] once and write its own out[b] "
                         "once, nothing else: messages travel through shared memory: " SHAPE_FMT,
                         b, k.gmem_ld_bytes, ui.ld_bytes, k.gmem_st_bytes, uo.st_bytes, SHAPE_ARGS(s));
        }
        uint64_t moved = k.dsmem_ld_bytes + k.dsmem_st_bytes + k.async_out_bytes;
        uint64_t need = 16 * (uint64_t)(n - 1) * s->rounds;
        if ((checks & CHECK_DSMEM) && moved < need)
            fail_msg("block %" PRIu32 " moved %" PRIu64 " bytes through its peers' shared memory in %" PRIu32
                     " rounds; each round's %" PRIu32 " messages of 16 bytes must cross through DSMEM (%" PRIu64
                     " bytes): " SHAPE_FMT,
                     b, moved, s->rounds, n - 1, need, SHAPE_ARGS(s));
        if (checks & CHECK_SIGNALS) {
            if (k.mbarrier_phases < s->rounds)
                fail_msg("the mbarriers of block %" PRIu32 " completed %" PRIu32 " phases in %" PRIu32 " rounds; "
                         "every round is signalled to every CTA through its own mbarriers (at least one phase per "
                         "round): " SHAPE_FMT, b, k.mbarrier_phases, s->rounds, SHAPE_ARGS(s));
            if (k.cluster_waits_max > 3)
                fail_msg("a thread of block %" PRIu32 " passed %" PRIu32 " cluster barriers in %" PRIu32 " rounds; "
                         "at most three per launch (set-up and end), none inside the loop: " SHAPE_FMT,
                         b, k.cluster_waits_max, s->rounds, SHAPE_ARGS(s));
            uint64_t flags = 0;
            for (int op = 0; op < DSM_FLAG_OP_COUNT; ++op)
                for (int sem = 0; sem < DSM_FLAG_SEM_COUNT; ++sem)
                    for (int sc = 0; sc < DSM_FLAG_SCOPE_COUNT; ++sc)
                        for (int sp = 0; sp < DSM_FLAG_SPACE_COUNT; ++sp)
                            flags += k.flags[op][sem][sc][sp];
            if (flags)
                fail_msg("block %" PRIu32 " made %" PRIu64 " flag accesses; this exercise signals with mbarriers "
                         "only: " SHAPE_FMT, b, flags, SHAPE_ARGS(s));
        }
    }
}

/* Launches all_to_all on random states of shape s and checks every CTA's final
 * state; on the emulator, no report, and the claims in `checks`. Returns the
 * busiest cluster's count of cluster-barrier phases (0 on a GPU). */
static unsigned run_a2a(const a2a_shape *s, int checks)
{
    uint32_t blocks = s->cluster * s->clusters;
    uint32_t *host_in = malloc((size_t)blocks * 16), *want = malloc((size_t)blocks * 16),
             *got = malloc((size_t)blocks * 16);
    test_fill_random_u32(host_in, (size_t)blocks * 4, 0, 0xFFFFFFFFu);
    for (size_t i = 0; i < (size_t)blocks * 4; ++i)
        want[i] = host_in[i];
    cpu_rounds(s, want);

    void *in, *out;
    assert_int_equal(dsm_malloc(&in, (size_t)blocks * 16), dsmSuccess);
    assert_int_equal(dsm_malloc(&out, (size_t)blocks * 16), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, (size_t)blocks * 16), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, (size_t)blocks * 16), dsmSuccess);
    dsm_kernel_t kernel = DSM_KERNEL(all_to_all);
    if (s->cluster > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(kernel, 1), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->cluster, 1, 1), 0};
    uint32_t rounds = s->rounds;
    void *args[] = {&in, &out, &rounds};
    dsm_error_t err = dsm_launch_sync(&cfg, kernel, args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s): " SHAPE_FMT, dsm_error_name(err), dsm_error_string(err),
                 SHAPE_ARGS(s));
    unsigned phases = 0;
    if (test_on_emulator()) {
        if (dsm_emu_last_report()->kind != DSM_REPORT_NONE)
            fail_msg("the emulator reported %s (above): " SHAPE_FMT,
                     dsm_report_kind_name(dsm_emu_last_report()->kind), SHAPE_ARGS(s));
        phases = dsm_emu_last_cluster_barrier_phases();
    }
    assert_int_equal(dsm_memcpy_to_host(got, out, (size_t)blocks * 16), dsmSuccess);
    for (uint32_t b = 0; b < blocks; ++b)
        for (int w = 0; w < 4; ++w)
            if (got[4 * b + w] != want[4 * b + w])
                fail_msg("word %d of out[%" PRIu32 "] (rank %" PRIu32 ") is 0x%08" PRIx32 ", expected 0x%08" PRIx32
                         ": " SHAPE_FMT,
                         w, b, b % s->cluster, got[4 * b + w], want[4 * b + w], SHAPE_ARGS(s));
    if (checks && test_on_emulator())
        check_mechanism(s, checks, in, out);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(want);
    free(got);
    return phases;
}

static a2a_shape random_a2a(uint32_t cluster)
{
    a2a_shape s = {cluster, 1 + test_random_below(2), 32u * (1 + test_random_below(cluster > 8 ? 2 : 4)),
                   1 + test_random_below(12)};
    return s;
}

static void test_all_to_all_matches_the_cpu_in_clusters_of_2_to_8(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 8; ++n) {
        a2a_shape s = random_a2a(n);
        run_a2a(&s, 0);
    }
}

static void test_all_to_all_matches_the_cpu_in_clusters_of_9_to_16(void **state)
{
    (void)state;
    a2a_shape s = random_a2a(9 + test_random_below(7));
    run_a2a(&s, 0);
    s = random_a2a(16);
    run_a2a(&s, 0);
}

/* Enough rounds for every mbarrier to go through many phases of both parities. */
static void test_all_to_all_many_rounds_keep_every_parity_straight(void **state)
{
    (void)state;
    a2a_shape s = {2 + test_random_below(5), 1, 32, 20 + test_random_below(21)};
    run_a2a(&s, 0);
    a2a_shape two = {2, 2, 64, 1 + test_random_below(3)}; /* one to three rounds: each barrier's first phases */
    run_a2a(&two, 0);
}

/* CTAs that run a round ahead of a peer: many random schedules, so that some CTA sends round k + 1 while a peer
 * still waits for round k's last message, under several cluster sizes. */
static void test_all_to_all_a_cta_a_round_ahead_never_spoils_a_round(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    for (int pass = 0; pass < 4; ++pass) { /* the emulator takes at most 8 schedules per launch */
        char spec[256];
        int len = snprintf(spec, sizeof spec, "interleave");
        for (int i = 0; i < 7; ++i)
            len += snprintf(spec + len, sizeof spec - (size_t)len, ",random:%" PRIu32, test_random_u32() % 100000u);
        assert_int_equal(dsm_emu_set_schedules(spec), dsmSuccess);
        for (uint32_t n = 3; n <= 8; ++n) {
            a2a_shape s = {n, 1, 32, 6 + test_random_below(6)};
            run_a2a(&s, 0);
        }
    }
    const char *env = getenv("DSM_EMU_SCHEDULES");
    if (env == NULL || dsm_emu_set_schedules(env) != dsmSuccess)
        dsm_emu_set_schedules(NULL);
}

static void test_all_to_all_has_no_cluster_barrier_inside_its_loop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    a2a_shape s = {2 + test_random_below(7), 1, 32, 10 + test_random_below(10)};
    unsigned phases = run_a2a(&s, 0);
    if (phases > 3)
        fail_msg("%" PRIu32 " rounds took %u cluster barriers: at most 3 per launch (set-up and end): " SHAPE_FMT,
                 s.rounds, phases, SHAPE_ARGS(&s));
}

static void test_all_to_all_signals_every_round_with_mbarriers_only(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    a2a_shape s = random_a2a(2 + test_random_below(7));
    s.rounds = 4 + test_random_below(8);
    run_a2a(&s, CHECK_SIGNALS);
}

static void test_all_to_all_every_message_crosses_through_dsmem(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    a2a_shape s = random_a2a(2 + test_random_below(15));
    run_a2a(&s, CHECK_DSMEM | CHECK_GLOBAL);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_all_to_all_matches_the_cpu_in_clusters_of_2_to_8),
    cmocka_unit_test(test_all_to_all_matches_the_cpu_in_clusters_of_9_to_16),
    cmocka_unit_test(test_all_to_all_many_rounds_keep_every_parity_straight),
    cmocka_unit_test(test_all_to_all_a_cta_a_round_ahead_never_spoils_a_round),
    cmocka_unit_test(test_all_to_all_has_no_cluster_barrier_inside_its_loop),
    cmocka_unit_test(test_all_to_all_signals_every_round_with_mbarriers_only),
    cmocka_unit_test(test_all_to_all_every_message_crosses_through_dsmem),
};

DSM_TEST_MAIN(tests)
