/* test_big_histogram.c: ch04.big_histogram: 96 K bins spread over a cluster sized from the bin count, uneven slices, and clusters of up to 16 CTAs count every input. */
#include <stdlib.h>
#include "big_histogram.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

/* Counts n random inputs (a few past the last bin, to be clamped; a share on
 * one hot bin when hot) with big_histogram_launch and compares with the CPU. */
static void check_big_histogram(int nbins, int n, int cluster_size, int clusters, int hot)
{
    uint32_t *host_in = malloc(sizeof(uint32_t) * (size_t)n);
    uint32_t *expected = calloc((size_t)nbins, sizeof(uint32_t)), *got = malloc(sizeof(uint32_t) * (size_t)nbins);
    uint32_t hot_bin = test_random_below((uint32_t)nbins);
    for (int i = 0; i < n; ++i) {
        uint32_t v = hot && test_random_below(2) ? hot_bin : test_random_below((uint32_t)nbins + 16);
        host_in[i] = v;
        expected[v < (uint32_t)nbins ? v : (uint32_t)nbins - 1]++;
    }
    uint32_t *in, *bins;
    assert_int_equal(dsm_malloc((void **)&in, sizeof(uint32_t) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&bins, sizeof(uint32_t) * (size_t)nbins), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, sizeof(uint32_t) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_memset(bins, 0, sizeof(uint32_t) * (size_t)nbins), dsmSuccess);

    dsm_error_t err = big_histogram_launch(bins, nbins, in, n, cluster_size, clusters);
    if (err != dsmSuccess)
        fail_msg("big_histogram_launch(%d bins, %d inputs, cluster %d, %d clusters) returned %s (%s)", nbins, n,
                 cluster_size, clusters, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(got, bins, sizeof(uint32_t) * (size_t)nbins), dsmSuccess);
    assert_u32_array_equal(expected, got, (size_t)nbins);
    dsm_free(in);
    dsm_free(bins);
    free(host_in);
    free(expected);
    free(got);
}

static void test_big_histogram_min_cluster_size_is_the_fewest_ctas_of_227_kb(void **state)
{
    (void)state;
    assert_int_equal(big_histogram_min_cluster_size(1), 1);
    assert_int_equal(big_histogram_min_cluster_size(58112), 1);        /* exactly 227 KB */
    assert_int_equal(big_histogram_min_cluster_size(58113), 2);
    assert_int_equal(big_histogram_min_cluster_size(96 * 1024), 2);    /* 384 KB */
    assert_int_equal(big_histogram_min_cluster_size(8 * 58112), 8);
    assert_int_equal(big_histogram_min_cluster_size(8 * 58112 + 1), 9);
    assert_int_equal(big_histogram_min_cluster_size(16 * 58112), 16);  /* 3.5 MB */
    assert_int_equal(big_histogram_min_cluster_size(16 * 58112 + 1), 0);
    assert_int_equal(big_histogram_min_cluster_size(0), 0);
    int nbins = 1 + (int)test_random_below(16 * 58112);
    int c = big_histogram_min_cluster_size(nbins);
    assert_true(c >= 1 && (size_t)(nbins + c - 1) / (size_t)c * 4 <= 227 * 1024);
    assert_true(c == 1 || (size_t)(nbins + c - 2) / (size_t)(c - 1) * 4 > 227 * 1024);
}

static void test_big_histogram_counts_96k_bins_in_the_smallest_cluster_that_holds_them(void **state)
{
    (void)state;
    check_big_histogram(96 * 1024, 20000 + (int)test_random_below(20000), 0, 2, 0);
}

static void test_big_histogram_counts_when_the_cluster_does_not_divide_the_bins(void **state)
{
    (void)state;
    static const int sizes[] = {3, 5, 7};
    for (int i = 0; i < 3; i++)
        check_big_histogram(1000 + (int)test_random_below(4000), 4000, sizes[i], 1 + (int)test_random_below(2), 0);
}

static void test_big_histogram_counts_in_non_portable_clusters_of_12_and_16(void **state)
{
    (void)state;
    check_big_histogram(2000 + (int)test_random_below(3000), 6000, 12, 1, 0);
    check_big_histogram(300 * 1024 + (int)test_random_below(1024), 6000, 16, 1, 0); /* 75 KB per CTA */
    check_big_histogram(10, 1000, 16, 1, 0);     /* six CTAs own no bin at all */
}

static void test_big_histogram_counts_many_hits_on_one_bin(void **state)
{
    (void)state;
    check_big_histogram(64 * 1024 + (int)test_random_below(64 * 1024), 8000, 0, 2, 1);
}

static void test_big_histogram_rejects_a_cluster_too_small_for_its_bins(void **state)
{
    (void)state;
    uint32_t *in, *bins;
    assert_int_equal(dsm_malloc((void **)&in, 64), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&bins, 96 * 1024 * 4), dsmSuccess);
    assert_int_equal(big_histogram_launch(bins, 96 * 1024, in, 16, 1, 1), dsmErrorInvalidValue);
    assert_int_equal(big_histogram_launch(bins, 16 * 58112 + 1, in, 16, 0, 1), dsmErrorInvalidValue);
    assert_int_equal(big_histogram_launch(bins, 96 * 1024, in, 16, 17, 1), dsmErrorInvalidValue);
    dsm_free(in);
    dsm_free(bins);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_big_histogram_min_cluster_size_is_the_fewest_ctas_of_227_kb),
    cmocka_unit_test(test_big_histogram_counts_96k_bins_in_the_smallest_cluster_that_holds_them),
    cmocka_unit_test(test_big_histogram_counts_when_the_cluster_does_not_divide_the_bins),
    cmocka_unit_test(test_big_histogram_counts_in_non_portable_clusters_of_12_and_16),
    cmocka_unit_test(test_big_histogram_counts_many_hits_on_one_bin),
    cmocka_unit_test(test_big_histogram_rejects_a_cluster_too_small_for_its_bins),
};

DSM_TEST_MAIN(tests)
