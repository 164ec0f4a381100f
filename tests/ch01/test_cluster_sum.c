/* test_cluster_sum.c: ch01.cluster_sum: every cluster's total and every element's "sum of the others" match the CPU for any cluster size (1 to 16), block size and ragged end, and the partials cross through DSMEM, frugally, with one writer per cluster and at most two cluster barriers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(cluster_sum);

typedef struct launch_shape {
    uint32_t cluster, clusters, threads, per_cta, n;
} launch_shape;

/* Which of the contract's mechanism claims a launch checks (emulator only). */
enum {
    CHECK_GLOBAL = 1,   /* own elements of in and others only, within their counts */
    CHECK_WRITER = 2,   /* one 4-byte store of totals[c] per cluster */
    CHECK_DSMEM = 4,    /* the partials crossed through DSMEM, within the budget */
    CHECK_BARRIERS = 8, /* at most two cluster barriers per thread */
};

#define SHAPE_FMT "clusters of %" PRIu32 " CTAs, %" PRIu32 " clusters, %" PRIu32 " threads, %" PRIu32 \
                  " elements per CTA, n = %" PRIu32 " (repeat with DSM_SEED=%" PRIu32 ")"
#define SHAPE_ARGS(s) (s)->cluster, (s)->clusters, (s)->threads, (s)->per_cta, (s)->n, test_seed()

/* The elements CTA b owns: [*lo, *hi), empty when *lo == *hi. */
static void own_range(const launch_shape *s, uint32_t b, size_t *lo, size_t *hi)
{
    size_t begin = (size_t)b * s->per_cta, end = begin + s->per_cta;
    *hi = end < s->n ? end : s->n;
    *lo = begin < *hi ? begin : *hi;
}

/* Fails unless block b's use of buffer `buf` (elements of 4 bytes) read at
 * most max_ld_words and wrote exactly st_words words, all inside [lo, hi). */
static void expect_use(const launch_shape *s, uint32_t b, const void *buf, const char *name, size_t lo, size_t hi,
                       uint64_t min_ld_words, uint64_t max_ld_words, uint64_t st_words, dsm_emu_gmem_use *use)
{
    assert_true(dsm_emu_last_gmem_use(b, buf, use));
    if (use->ld_bytes < 4 * min_ld_words || use->ld_bytes > 4 * max_ld_words)
        fail_msg("block %" PRIu32 " read %" PRIu64 " bytes of %s; it owns %zu elements, and may read only those "
                 "(each at least once, at most twice): " SHAPE_FMT,
                 b, use->ld_bytes, name, hi - lo, SHAPE_ARGS(s));
    if (use->ld_bytes && (use->ld_lo < 4 * lo || use->ld_hi > 4 * hi))
        fail_msg("block %" PRIu32 " read bytes [%zu, %zu) of %s, outside its own elements [%zu, %zu): a CTA reads "
                 "only its own elements from global memory; the others' partials come through DSMEM: " SHAPE_FMT,
                 b, use->ld_lo, use->ld_hi, name, 4 * lo, 4 * hi, SHAPE_ARGS(s));
    if (use->st_bytes != 4 * st_words || (use->st_bytes && (use->st_lo < 4 * lo || use->st_hi > 4 * hi)))
        fail_msg("block %" PRIu32 " wrote %" PRIu64 " bytes of %s in [%zu, %zu); it must write its own %" PRIu64
                 " words in [%zu, %zu), once each: " SHAPE_FMT,
                 b, use->st_bytes, name, use->st_lo, use->st_hi, st_words, 4 * lo, 4 * hi, SHAPE_ARGS(s));
}

/* The contract's mechanism claims selected by `checks`, from the emulator's counters of the last launch. */
static void check_mechanism(const launch_shape *s, int checks, const uint32_t *in, const uint32_t *others,
                            const uint32_t *totals)
{
    uint32_t blocks = s->cluster * s->clusters;
    for (uint32_t c = 0; c < s->clusters; ++c) {
        uint32_t writers = 0;
        uint64_t total_bytes = 0, crossed = 0;
        for (uint32_t r = 0; r < s->cluster; ++r) {
            uint32_t b = c * s->cluster + r;
            size_t lo, hi;
            own_range(s, b, &lo, &hi);
            dsm_emu_counts k;
            assert_true(dsm_emu_last_counts(b, &k));
            dsm_emu_gmem_use u_in, u_others, u_totals;
            assert_true(dsm_emu_last_gmem_use(b, totals, &u_totals));
            if (checks & CHECK_GLOBAL) {
                expect_use(s, b, in, "in", lo, hi, hi - lo, 2 * (hi - lo), 0, &u_in);
                expect_use(s, b, others, "others", lo, hi, 0, 0, hi - lo, &u_others);
                if (u_totals.ld_bytes || (u_totals.st_bytes && (u_totals.st_lo != 4 * c || u_totals.st_hi != 4 * c + 4)))
                    fail_msg("block %" PRIu32 " read %" PRIu64 " bytes of totals, or wrote outside its cluster's "
                             "totals[%" PRIu32 "]: " SHAPE_FMT, b, u_totals.ld_bytes, c, SHAPE_ARGS(s));
                if (k.gmem_ld_bytes != u_in.ld_bytes || k.gmem_st_bytes != u_others.st_bytes + u_totals.st_bytes)
                    fail_msg("block %" PRIu32 " read %" PRIu64 " and wrote %" PRIu64 " bytes of global memory beyond "
                             "in, others and totals: the partials must not go through global memory: " SHAPE_FMT,
                             b, k.gmem_ld_bytes - u_in.ld_bytes,
                             k.gmem_st_bytes - u_others.st_bytes - u_totals.st_bytes, SHAPE_ARGS(s));
            }
            writers += u_totals.st_bytes != 0;
            total_bytes += u_totals.st_bytes;
            if (checks & CHECK_DSMEM) {
                if (k.dsmem_ld_bytes > 4 * (uint64_t)s->cluster || k.dsmem_st_bytes > 4 * (uint64_t)s->cluster ||
                    k.dsmem_atom_ops > s->cluster)
                    fail_msg("block %" PRIu32 " read %" PRIu64 " bytes, wrote %" PRIu64 " bytes and made %" PRIu64
                             " atomics in its peers' shared memory; the budget is %" PRIu32 " words each way: one "
                             "word per CTA of the cluster, not one per thread: " SHAPE_FMT,
                             b, k.dsmem_ld_bytes, k.dsmem_st_bytes, k.dsmem_atom_ops, s->cluster, SHAPE_ARGS(s));
                crossed += k.dsmem_ld_bytes + k.dsmem_st_bytes + 4 * k.dsmem_atom_ops;
            }
            if ((checks & CHECK_BARRIERS) && k.cluster_waits_max > 2)
                fail_msg("a thread of block %" PRIu32 " passed %" PRIu32 " cluster barriers; the contract allows at "
                         "most two: " SHAPE_FMT, b, k.cluster_waits_max, SHAPE_ARGS(s));
        }
        if ((checks & CHECK_WRITER) && (writers != 1 || total_bytes != 4))
            fail_msg("cluster %" PRIu32 ": %" PRIu32 " blocks wrote totals[%" PRIu32 "], %" PRIu64 " bytes in all; "
                     "exactly one thread of the cluster writes it, once: " SHAPE_FMT,
                     c, writers, c, total_bytes, SHAPE_ARGS(s));
        if ((checks & CHECK_DSMEM) && s->cluster > 1 && crossed < 4 * (uint64_t)(s->cluster - 1))
            fail_msg("cluster %" PRIu32 " moved %" PRIu64 " bytes through its CTAs' shared memory; each CTA's "
                     "partial must reach the others through DSMEM, at least %" PRIu32 " bytes: " SHAPE_FMT,
                     c, crossed, 4 * (s->cluster - 1), SHAPE_ARGS(s));
    }
    (void)blocks;
}

/* Launches cluster_sum on random inputs of shape s, checks every total and
 * every element against the CPU, and on the emulator the claims in `checks`. */
static void run_sum(const launch_shape *s, int checks)
{
    uint32_t blocks = s->cluster * s->clusters;
    size_t n = s->n, alloc = n ? n : 1;
    uint32_t *host_in = malloc(alloc * 4), *want_others = malloc(alloc * 4), *got_others = malloc(alloc * 4);
    uint32_t *want_totals = calloc(s->clusters, 4), *got_totals = malloc(s->clusters * 4);
    test_fill_random_u32(host_in, n, 0, 0xFFFFFFFFu);
    for (size_t i = 0; i < n; ++i)
        want_totals[i / s->per_cta / s->cluster] += host_in[i];
    for (size_t i = 0; i < n; ++i)
        want_others[i] = want_totals[i / s->per_cta / s->cluster] - host_in[i];

    uint32_t *in, *others, *totals;
    assert_int_equal(dsm_malloc((void **)&in, alloc * 4), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&others, alloc * 4), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&totals, s->clusters * 4), dsmSuccess);
    if (n)
        assert_int_equal(dsm_memcpy_to_device(in, host_in, n * 4), dsmSuccess);
    assert_int_equal(dsm_memset(others, 0xFF, alloc * 4), dsmSuccess);
    assert_int_equal(dsm_memset(totals, 0xFF, s->clusters * 4), dsmSuccess);
    dsm_kernel_t kernel = DSM_KERNEL(cluster_sum);
    if (s->cluster > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(kernel, 1), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->cluster, 1, 1), 0};
    uint32_t n32 = s->n, per = s->per_cta;
    void *args[] = {&in, &others, &totals, &n32, &per};
    dsm_error_t err = dsm_launch_sync(&cfg, kernel, args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s): " SHAPE_FMT, dsm_error_name(err), dsm_error_string(err),
                 SHAPE_ARGS(s));
    if (test_on_emulator()) {
        const dsm_report *rep = dsm_emu_last_report();
        if (rep->kind != DSM_REPORT_NONE)
            fail_msg("the emulator reported %s (above): " SHAPE_FMT, dsm_report_kind_name(rep->kind), SHAPE_ARGS(s));
    }
    assert_int_equal(dsm_memcpy_to_host(got_totals, totals, s->clusters * 4), dsmSuccess);
    if (n)
        assert_int_equal(dsm_memcpy_to_host(got_others, others, n * 4), dsmSuccess);
    for (uint32_t c = 0; c < s->clusters; ++c)
        if (got_totals[c] != want_totals[c])
            fail_msg("totals[%" PRIu32 "] is 0x%08" PRIx32 ", expected 0x%08" PRIx32 ": " SHAPE_FMT, c, got_totals[c],
                     want_totals[c], SHAPE_ARGS(s));
    for (size_t i = 0; i < n; ++i)
        if (got_others[i] != want_others[i])
            fail_msg("others[%zu] (block %zu) is 0x%08" PRIx32 ", expected 0x%08" PRIx32 " (its cluster's total minus "
                     "in[%zu]): " SHAPE_FMT, i, i / s->per_cta, got_others[i], want_others[i], i, SHAPE_ARGS(s));
    if (checks && test_on_emulator())
        check_mechanism(s, checks, in, others, totals);
    dsm_free(in);
    dsm_free(others);
    dsm_free(totals);
    free(host_in);
    free(want_others);
    free(got_others);
    free(want_totals);
    free(got_totals);
}

/* A random shape with clusters of `cluster` CTAs: a random block size (not
 * always a multiple of 32), elements per CTA below or above it, and an n that
 * leaves the last CTAs partly or wholly empty. */
static launch_shape random_shape(uint32_t cluster)
{
    uint32_t max_threads = cluster > 8 ? 64 : 256;
    launch_shape s = {cluster, 1 + test_random_below(3), 1 + test_random_below(max_threads), 0, 0};
    s.per_cta = test_random_below(2) ? 1 + test_random_below(s.threads) : s.threads + test_random_below(4 * s.threads);
    uint32_t capacity = s.cluster * s.clusters * s.per_cta;
    uint32_t cut = test_random_below(s.per_cta * 3 / 2 + 1); /* may empty the last CTA, or more */
    s.n = cut < capacity ? capacity - cut : 0;
    return s;
}

static void test_cluster_sum_matches_the_cpu_in_clusters_of_1_to_8_ctas(void **state)
{
    (void)state;
    for (uint32_t cluster = 1; cluster <= 8; ++cluster) {
        launch_shape s = random_shape(cluster);
        run_sum(&s, 0);
    }
}

static void test_cluster_sum_matches_the_cpu_in_clusters_of_9_to_16_ctas(void **state)
{
    (void)state;
    launch_shape s = random_shape(9 + test_random_below(7));
    run_sum(&s, 0);
    s = random_shape(16);
    run_sum(&s, 0);
}

static void test_cluster_sum_ctas_without_elements_still_take_part(void **state)
{
    (void)state;
    launch_shape s = {4, 2, 64, 50 + test_random_below(60), 0};
    s.n = 1 + test_random_below(s.per_cta); /* only the first CTA has elements */
    run_sum(&s, 0);
    launch_shape none = {2 + test_random_below(3), 1, 32, 16, 0}; /* no elements at all: every total is 0 */
    run_sum(&none, 0);
}

/* per_cta above 2^31: the first CTA owns every element, and b * per_cta passes 2^32 from CTA 2
 * on. Computed in 32 bits it wraps back below n, and an empty CTA sums another's elements again;
 * the contract's b * per_cta is the product of the numbers, not of their 32-bit remainders. */
static void test_cluster_sum_element_offsets_past_2_to_the_32(void **state)
{
    (void)state;
    launch_shape s = {4, 1, 32 + test_random_below(64), 0x80000000u + test_random_below(64), 0};
    s.n = 200 + test_random_below(300);
    run_sum(&s, 0);
}

static void test_cluster_sum_many_elements_per_thread_and_odd_block_sizes(void **state)
{
    (void)state;
    launch_shape one = {3, 1, 1, 5 + test_random_below(20), 0}; /* one thread per CTA */
    one.n = 3 * one.per_cta - test_random_below(one.per_cta);
    run_sum(&one, 0);
    launch_shape odd = {5, 1, 33 + 2 * test_random_below(40), 0, 0};
    odd.per_cta = odd.threads * (2 + test_random_below(5)) + test_random_below(odd.threads);
    odd.n = 5 * odd.per_cta - test_random_below(2 * odd.per_cta);
    run_sum(&odd, 0);
}

static void test_cluster_sum_each_cta_reads_only_its_own_elements_from_global_memory(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    for (int i = 0; i < 3; ++i) {
        launch_shape s = random_shape(2 + test_random_below(7));
        run_sum(&s, CHECK_GLOBAL);
    }
}

static void test_cluster_sum_one_thread_of_each_cluster_writes_its_total(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    launch_shape s = random_shape(1 + test_random_below(8));
    run_sum(&s, CHECK_WRITER);
    s = random_shape(4);
    s.clusters = 3;
    s.n = s.cluster * s.per_cta + 1; /* the last clusters have no elements: they still write their total, 0 */
    run_sum(&s, CHECK_WRITER);
}

static void test_cluster_sum_partials_cross_through_dsmem_within_the_budget(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    launch_shape s = random_shape(2 + test_random_below(7));
    s.threads = 64 + test_random_below(64); /* many threads: one remote read per thread is over budget */
    run_sum(&s, CHECK_DSMEM);
    s = random_shape(16);
    run_sum(&s, CHECK_DSMEM);
}

static void test_cluster_sum_every_thread_passes_at_most_two_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    launch_shape s = random_shape(2 + test_random_below(7));
    run_sum(&s, CHECK_BARRIERS);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cluster_sum_matches_the_cpu_in_clusters_of_1_to_8_ctas),
    cmocka_unit_test(test_cluster_sum_matches_the_cpu_in_clusters_of_9_to_16_ctas),
    cmocka_unit_test(test_cluster_sum_ctas_without_elements_still_take_part),
    cmocka_unit_test(test_cluster_sum_many_elements_per_thread_and_odd_block_sizes),
    cmocka_unit_test(test_cluster_sum_element_offsets_past_2_to_the_32),
    cmocka_unit_test(test_cluster_sum_each_cta_reads_only_its_own_elements_from_global_memory),
    cmocka_unit_test(test_cluster_sum_one_thread_of_each_cluster_writes_its_total),
    cmocka_unit_test(test_cluster_sum_partials_cross_through_dsmem_within_the_budget),
    cmocka_unit_test(test_cluster_sum_every_thread_passes_at_most_two_cluster_barriers),
};

DSM_TEST_MAIN(tests)
