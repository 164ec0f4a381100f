/* test_early_exit.c: ch03.early_exit: per-cluster sums are right when whole CTAs, or the tail of one, have no input. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(cluster_segment_sum);

enum { CLUSTER = 4, THREADS = 64, PER_CLUSTER = CLUSTER * THREADS };

/* Sums n random values with `clusters` clusters of CLUSTER CTAs of THREADS
 * threads (so the grid may reach past n) and compares with the CPU. */
static void check_segment_sum(int clusters, int n)
{
    uint32_t *host_in = malloc(sizeof(uint32_t) * (size_t)n);
    uint32_t *expected = calloc((size_t)clusters, sizeof(uint32_t));
    uint32_t *host_sums = malloc(sizeof(uint32_t) * (size_t)clusters);
    test_fill_random_u32(host_in, (size_t)n, 0, 1000);
    for (int i = 0; i < n; ++i)
        expected[i / PER_CLUSTER] += host_in[i];

    uint32_t *in, *sums;
    assert_int_equal(dsm_malloc((void **)&in, sizeof(uint32_t) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&sums, sizeof(uint32_t) * (size_t)clusters), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, sizeof(uint32_t) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_memset(sums, 0xFF, sizeof(uint32_t) * (size_t)clusters), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(CLUSTER * clusters, 1, 1), DSM_DIM3(THREADS, 1, 1),
                             DSM_DIM3(CLUSTER, 1, 1), 0};
    void *args[] = {&in, &sums, &n};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(cluster_segment_sum), args);
    if (err != dsmSuccess)
        fail_msg("n = %d on %d CTAs of %d threads: dsm_launch_sync returned %s (%s)", n, CLUSTER * clusters,
                 THREADS, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");

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
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, clusters * PER_CLUSTER);
}

static void test_early_exit_sums_are_right_when_the_last_ctas_have_no_input(void **state)
{
    (void)state;
    /* last cluster: rank 0 full, rank 1 partly filled, ranks 2 and 3 empty */
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, (clusters - 1) * PER_CLUSTER + THREADS + 1 + (int)test_random_below(THREADS - 1));
}

static void test_early_exit_sums_are_right_when_whole_ctas_have_no_input(void **state)
{
    (void)state;
    /* last cluster: ranks 0 .. k-1 full, ranks k .. 3 empty */
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, (clusters - 1) * PER_CLUSTER + THREADS * (1 + (int)test_random_below(CLUSTER - 1)));
}

static void test_early_exit_sums_are_right_when_rank_0_is_the_only_cta_with_input(void **state)
{
    (void)state;
    int clusters = 1 + (int)test_random_below(3);
    check_segment_sum(clusters, (clusters - 1) * PER_CLUSTER + 1 + (int)test_random_below(THREADS - 1));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_early_exit_sums_are_right_when_the_grid_fits_the_input),
    cmocka_unit_test(test_early_exit_sums_are_right_when_the_last_ctas_have_no_input),
    cmocka_unit_test(test_early_exit_sums_are_right_when_whole_ctas_have_no_input),
    cmocka_unit_test(test_early_exit_sums_are_right_when_rank_0_is_the_only_cta_with_input),
};

DSM_TEST_MAIN(tests)
