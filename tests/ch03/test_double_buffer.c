/* test_double_buffer.c: ch03.double_buffer: many rounds of relaxation round a ring of words spread over a cluster match the CPU for clusters of 2 to 16, any block size and segment length, with each CTA's own input read once, two words per CTA per round crossing through DSMEM, and exactly rounds + 1 cluster barriers per thread. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(ring_relax);

typedef struct ring_shape {
    uint32_t cluster, clusters, threads, per_cta, rounds;
} ring_shape;

enum {
    CHECK_GLOBAL = 1,   /* own words of in and out, once each */
    CHECK_DSMEM = 2,    /* 8 bytes of DSMEM per CTA per round */
    CHECK_BARRIERS = 4, /* exactly rounds + 1 cluster barriers per thread */
};

#define SHAPE_FMT "clusters of %" PRIu32 " CTAs, %" PRIu32 " clusters, %" PRIu32 " threads, %" PRIu32 \
                  " words per CTA, %" PRIu32 " rounds (repeat with DSM_SEED=%" PRIu32 ")"
#define SHAPE_ARGS(s) (s)->cluster, (s)->clusters, (s)->threads, (s)->per_cta, (s)->rounds, test_seed()

/* The CPU reference: every cluster's ring, round after round. */
static void cpu_rounds(const ring_shape *s, const uint32_t *in, uint32_t *result)
{
    size_t L = (size_t)s->cluster * s->per_cta;
    uint32_t *x = malloc(L * 4), *y = malloc(L * 4);
    for (uint32_t c = 0; c < s->clusters; ++c) {
        for (size_t j = 0; j < L; ++j)
            x[j] = in[c * L + j];
        for (uint32_t k = 0; k < s->rounds; ++k) {
            for (size_t j = 0; j < L; ++j)
                y[j] = 3u * x[(j + L - 1) % L] + 5u * x[j] + 7u * x[(j + 1) % L] + k;
            uint32_t *t = x;
            x = y;
            y = t;
        }
        for (size_t j = 0; j < L; ++j)
            result[c * L + j] = x[j];
    }
    free(x);
    free(y);
}

static void check_mechanism(const ring_shape *s, int checks, const uint32_t *in, const uint32_t *out)
{
    for (uint32_t b = 0; b < s->cluster * s->clusters; ++b) {
        size_t lo = (size_t)b * s->per_cta * 4, hi = lo + (size_t)s->per_cta * 4;
        dsm_emu_counts k;
        dsm_emu_gmem_use ui, uo;
        assert_true(dsm_emu_last_counts(b, &k));
        assert_true(dsm_emu_last_gmem_use(b, in, &ui));
        assert_true(dsm_emu_last_gmem_use(b, out, &uo));
        if (checks & CHECK_GLOBAL) {
            if (ui.ld_bytes != hi - lo || ui.ld_lo < lo || ui.ld_hi > hi || ui.st_bytes)
                fail_msg("block %" PRIu32 " read %" PRIu64 " bytes of in in [%zu, %zu); it must read its own %" PRIu32
                         " words, bytes [%zu, %zu), once each: the neighbours' words come through their shared "
                         "memory, not from in: " SHAPE_FMT,
                         b, ui.ld_bytes, ui.ld_lo, ui.ld_hi, s->per_cta, lo, hi, SHAPE_ARGS(s));
            if (uo.st_bytes != hi - lo || uo.st_lo < lo || uo.st_hi > hi || uo.ld_bytes)
                fail_msg("block %" PRIu32 " wrote %" PRIu64 " bytes of out in [%zu, %zu); it must write its own %" PRIu32
                         " words, once each: " SHAPE_FMT,
                         b, uo.st_bytes, uo.st_lo, uo.st_hi, s->per_cta, SHAPE_ARGS(s));
            if (k.gmem_ld_bytes != ui.ld_bytes || k.gmem_st_bytes != uo.st_bytes)
                fail_msg("block %" PRIu32 " used global memory beyond its words of in and out: " SHAPE_FMT, b,
                         SHAPE_ARGS(s));
        }
        uint64_t moved = k.dsmem_ld_bytes + k.dsmem_st_bytes + 4 * k.dsmem_atom_ops;
        if ((checks & CHECK_DSMEM) && moved != 8 * (uint64_t)s->rounds)
            fail_msg("block %" PRIu32 " moved %" PRIu64 " bytes through its neighbours' shared memory in %" PRIu32
                     " rounds; the contract asks for exactly two words per round (%" PRIu64 " bytes): the word "
                     "next to each end of its segment, %s: " SHAPE_FMT,
                     b, moved, s->rounds, 8 * (uint64_t)s->rounds,
                     moved < 8 * (uint64_t)s->rounds ? "every round" : "nothing more", SHAPE_ARGS(s));
        uint32_t want = s->rounds + 1;
        if ((checks & CHECK_BARRIERS) &&
            (k.cluster_waits_min != want || k.cluster_waits_max != want ||
             k.cluster_arrives_release + k.cluster_arrives_relaxed != want * s->threads))
            fail_msg("the threads of block %" PRIu32 " passed %" PRIu32 " to %" PRIu32 " cluster barriers (%" PRIu32
                     " arrivals of %" PRIu32 " threads); with %" PRIu32 " rounds the contract asks for exactly "
                     "rounds + 1 = %" PRIu32 ": " SHAPE_FMT,
                     b, k.cluster_waits_min, k.cluster_waits_max, k.cluster_arrives_release + k.cluster_arrives_relaxed,
                     s->threads, s->rounds, want, SHAPE_ARGS(s));
    }
}

/* Launches ring_relax on random words of shape s and checks every word; on the
 * emulator, no report, and the claims in `checks`. */
static void run_ring(const ring_shape *s, int checks)
{
    uint32_t blocks = s->cluster * s->clusters;
    size_t words = (size_t)blocks * s->per_cta;
    uint32_t *host_in = malloc(words * 4), *want = malloc(words * 4), *got = malloc(words * 4);
    test_fill_random_u32(host_in, words, 0, 0xFFFFFFFFu);
    cpu_rounds(s, host_in, want);

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, words * 4), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, words * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, words * 4), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, words * 4), dsmSuccess);
    dsm_kernel_t kernel = DSM_KERNEL(ring_relax);
    if (s->cluster > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(kernel, 1), dsmSuccess);
    size_t smem = 4 * (3 * (size_t)s->per_cta + 8);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->cluster, 1, 1), smem};
    uint32_t per = s->per_cta, rounds = s->rounds;
    void *args[] = {&in, &out, &per, &rounds};
    dsm_error_t err = dsm_launch_sync(&cfg, kernel, args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s): " SHAPE_FMT, dsm_error_name(err), dsm_error_string(err),
                 SHAPE_ARGS(s));
    if (test_on_emulator() && dsm_emu_last_report()->kind != DSM_REPORT_NONE)
        fail_msg("the emulator reported %s (above): " SHAPE_FMT, dsm_report_kind_name(dsm_emu_last_report()->kind),
                 SHAPE_ARGS(s));
    assert_int_equal(dsm_memcpy_to_host(got, out, words * 4), dsmSuccess);
    for (size_t i = 0; i < words; ++i)
        if (got[i] != want[i])
            fail_msg("word %zu of block %zu (rank %zu) is 0x%08" PRIx32 ", expected 0x%08" PRIx32 ": " SHAPE_FMT,
                     i % s->per_cta, i / s->per_cta, i / s->per_cta % s->cluster, got[i], want[i], SHAPE_ARGS(s));
    if (checks && test_on_emulator())
        check_mechanism(s, checks, in, out);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(want);
    free(got);
}

/* A random shape with clusters of `cluster` CTAs: a random block size, more or
 * fewer words than threads, 1 to 8 rounds. */
static ring_shape random_ring(uint32_t cluster)
{
    uint32_t max_threads = cluster > 8 ? 64 : 160;
    ring_shape s = {cluster, 1 + test_random_below(2), 1 + test_random_below(max_threads), 0, 1 + test_random_below(8)};
    s.per_cta = test_random_below(2) ? 1 + test_random_below(s.threads) : s.threads + test_random_below(3 * s.threads);
    return s;
}

static void test_double_buffer_rounds_match_the_cpu_in_clusters_of_2_to_8(void **state)
{
    (void)state;
    for (uint32_t cluster = 2; cluster <= 8; ++cluster) {
        ring_shape s = random_ring(cluster);
        run_ring(&s, 0);
    }
}

static void test_double_buffer_rounds_match_the_cpu_in_clusters_of_9_to_16(void **state)
{
    (void)state;
    ring_shape s = random_ring(9 + test_random_below(8));
    run_ring(&s, 0);
}

/* One word per CTA: both ends of a segment are the same word, and in a cluster of 2 both neighbours are one CTA. */
static void test_double_buffer_one_word_per_cta_and_a_single_round(void **state)
{
    (void)state;
    ring_shape two = {2, 1, 1 + test_random_below(64), 1, 2 + test_random_below(7)};
    run_ring(&two, 0);
    ring_shape one_round = {3 + test_random_below(4), 2, 32, 1 + test_random_below(100), 1};
    run_ring(&one_round, 0);
}

/* Many rounds: a buffer is reused again and again, and a schedule that lets one CTA run ahead finds any round
 * that overwrites words a neighbour has not read yet. */
static void test_double_buffer_many_rounds_reuse_every_buffer_safely(void **state)
{
    (void)state;
    ring_shape s = {2 + test_random_below(5), 1, 1 + test_random_below(96), 0, 12 + test_random_below(9)};
    s.per_cta = 1 + test_random_below(3 * s.threads);
    run_ring(&s, 0);
}

static void test_double_buffer_each_cta_reads_only_its_own_words_from_global_memory(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    ring_shape s = random_ring(2 + test_random_below(7));
    run_ring(&s, CHECK_GLOBAL);
}

static void test_double_buffer_two_words_per_cta_cross_through_dsmem_every_round(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    ring_shape s = random_ring(2 + test_random_below(7));
    run_ring(&s, CHECK_DSMEM);
    ring_shape two = {2, 1, 32, 1, 3 + test_random_below(4)};
    run_ring(&two, CHECK_DSMEM);
}

static void test_double_buffer_every_thread_passes_rounds_plus_one_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    ring_shape s = random_ring(2 + test_random_below(7));
    s.rounds = 3 + test_random_below(6);
    run_ring(&s, CHECK_BARRIERS);
    /* Fewer words than threads: the threads without a word pass every barrier too. */
    ring_shape idle = {2 + test_random_below(7), 1, 32 + test_random_below(96), 0, 2 + test_random_below(5)};
    idle.per_cta = 1 + test_random_below(idle.threads - 1);
    run_ring(&idle, CHECK_BARRIERS);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_double_buffer_rounds_match_the_cpu_in_clusters_of_2_to_8),
    cmocka_unit_test(test_double_buffer_rounds_match_the_cpu_in_clusters_of_9_to_16),
    cmocka_unit_test(test_double_buffer_one_word_per_cta_and_a_single_round),
    cmocka_unit_test(test_double_buffer_many_rounds_reuse_every_buffer_safely),
    cmocka_unit_test(test_double_buffer_each_cta_reads_only_its_own_words_from_global_memory),
    cmocka_unit_test(test_double_buffer_two_words_per_cta_cross_through_dsmem_every_round),
    cmocka_unit_test(test_double_buffer_every_thread_passes_rounds_plus_one_cluster_barriers),
};

DSM_TEST_MAIN(tests)
