/* test_early_exit.c: ch03.early_exit: per-cluster sums are right when whole CTAs, or the tail of one, have no input. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

DSM_DECLARE_KERNEL(cluster_segment_sum);

/* The launch shape of one test: random, set by random_shape(). */
static int cluster_size, threads, per_cluster;

/* A random shape: clusters of 2 to 8 CTAs (at least 4 when some tests need
 * ranks 2 and 3), 2 to 256 threads per CTA. */
static void random_shape(int min_cluster)
{
    cluster_size = min_cluster + (int)test_random_below((uint32_t)(9 - min_cluster));
    threads = 2 + (int)test_random_below(255);
    per_cluster = cluster_size * threads;
}

/* The lesson, from the emulator's counters: every thread of every CTA, with
 * input or without, passed both cluster barriers (so its CTA stayed while rank
 * 0 read its partial), and no thread read in[] past n or outside its CTA's part. */
static void check_everyone_stayed(int clusters, int n, const uint32_t *in)
{
    for (int b = 0; b < cluster_size * clusters; ++b) {
        size_t lo = (size_t)b * (size_t)threads, hi = lo + (size_t)threads;
        hi = hi < (size_t)n ? hi : (size_t)n;
        lo = lo < hi ? lo : hi;
        mech_reads_only((uint32_t)b, in, "in", lo * sizeof(uint32_t), hi * sizeof(uint32_t));
        mech_cluster_waits((uint32_t)b, 2, "threads without input stay and arrive at every barrier");
        dsm_emu_counts c = mech_counts((uint32_t)b);
        if (c.syncthreads != 1)
            MECH_FAIL("block %d completed %u __syncthreads, not 1: every thread must reach it", b, c.syncthreads);
    }
}

/* Sums n random values with `clusters` clusters of cluster_size CTAs of threads
 * threads (so the grid may reach past n) and compares with the CPU. */
static void check_segment_sum(int clusters, int n)
{
    uint32_t *host_in = malloc(sizeof(uint32_t) * (size_t)n);
    uint32_t *expected = calloc((size_t)clusters, sizeof(uint32_t));
    uint32_t *host_sums = malloc(sizeof(uint32_t) * (size_t)clusters);
    test_fill_random_u32(host_in, (size_t)n, 0, 1000);
    for (int i = 0; i < n; ++i)
        expected[i / per_cluster] += host_in[i];

    uint32_t *in, *sums;
    assert_int_equal(dsm_malloc((void **)&in, sizeof(uint32_t) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&sums, sizeof(uint32_t) * (size_t)clusters), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, sizeof(uint32_t) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_memset(sums, 0xFF, sizeof(uint32_t) * (size_t)clusters), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(cluster_size * clusters, 1, 1), DSM_DIM3(threads, 1, 1),
                             DSM_DIM3(cluster_size, 1, 1), 0};
    void *args[] = {&in, &sums, &n};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(cluster_segment_sum), args);
    if (err != dsmSuccess)
        fail_msg("n = %d on %d CTAs of %d threads: dsm_launch_sync returned %s (%s)", n, cluster_size * clusters,
                 threads, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        check_everyone_stayed(clusters, n, in);
    }

    assert_int_equal(dsm_memcpy_to_host(host_sums, sums, sizeof(uint32_t) * (size_t)clusters), dsmSuccess);
    assert_u32_array_equal(expected, host_sums, (size_t)clusters);
    dsm_free(in);
    dsm_free(sums);
    free(host_in);
    free(expected);
    free(host_sums);
}

static void test_early_exit_sums_are_right_when_the_grid_fits_the_input(void **state)
{
    (void)state;
    random_shape(2);
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, clusters * per_cluster);
}

static void test_early_exit_sums_are_right_when_the_last_ctas_have_no_input(void **state)
{
    (void)state;
    /* last cluster: rank 0 full, rank 1 partly filled, ranks 2 and up empty */
    random_shape(3);
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, (clusters - 1) * per_cluster + threads + 1 + (int)test_random_below(threads - 1));
}

static void test_early_exit_sums_are_right_when_whole_ctas_have_no_input(void **state)
{
    (void)state;
    /* last cluster: ranks 0 .. k-1 full, ranks k .. cluster_size-1 empty */
    random_shape(2);
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, (clusters - 1) * per_cluster + threads * (1 + (int)test_random_below(cluster_size - 1)));
}

static void test_early_exit_sums_are_right_when_rank_0_is_the_only_cta_with_input(void **state)
{
    (void)state;
    random_shape(2);
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, (clusters - 1) * per_cluster + 1 + (int)test_random_below(threads - 1));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_early_exit_sums_are_right_when_the_grid_fits_the_input),
    cmocka_unit_test(test_early_exit_sums_are_right_when_the_last_ctas_have_no_input),
    cmocka_unit_test(test_early_exit_sums_are_right_when_whole_ctas_have_no_input),
    cmocka_unit_test(test_early_exit_sums_are_right_when_rank_0_is_the_only_cta_with_input),
};

DSM_TEST_MAIN(tests)
