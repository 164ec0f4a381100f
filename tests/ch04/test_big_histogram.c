/* test_big_histogram.c: ch04.big_histogram: 96 K bins spread over a cluster sized from the bin count, uneven slices, and clusters of up to 16 CTAs count every input. */
#include <stdlib.h>
#include "big_histogram.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

/* The lesson, from the emulator's counters: every input is one atomic on the
 * shared memory of its bin's owner (a peer's, mostly: DSMEM), and each CTA adds
 * to the global histogram only the bins it owns, at most one atomic each. */
static void check_counting(int nbins, int n, int cluster_size, int clusters, const uint32_t *bins)
{
    if (cluster_size == 0)
        cluster_size = big_histogram_min_cluster_size(nbins);
    dsm_emu_counts t = mech_total();
    if (t.smem_atom_ops + t.dsmem_atom_ops != (uint64_t)n)
        MECH_FAIL("%d inputs were counted with %" PRIu64 " atomics on shared memory (%" PRIu64 " of them on a "
                  "peer's): every input is one remote atomic add on its bin's owner", n,
                  t.smem_atom_ops + t.dsmem_atom_ops, t.dsmem_atom_ops);
    if (cluster_size > 1 && t.dsmem_atom_ops == 0)
        MECH_FAIL("no input was counted in a peer's shared memory (clusters of %d)", cluster_size);
    uint32_t per = ((uint32_t)nbins + (uint32_t)cluster_size - 1) / (uint32_t)cluster_size;
    for (uint32_t b = 0; b < (uint32_t)(cluster_size * clusters); ++b) {
        uint32_t first = (b % (uint32_t)cluster_size) * per;
        uint32_t owned = first >= (uint32_t)nbins ? 0 : ((uint32_t)nbins - first < per ? (uint32_t)nbins - first : per);
        dsm_emu_gmem_use u = mech_gmem(b, bins);
        dsm_emu_counts c = mech_counts(b);
        if (c.gmem_atom_ops != u.atom_ops)
            MECH_FAIL("block %u (rank %u of %d, %d bins) made %" PRIu64 " global atomics, %" PRIu64 " of them outside "
                      "the histogram: the last ranks own fewer bins than %u, or none", b, b % (uint32_t)cluster_size,
                      cluster_size, nbins, c.gmem_atom_ops, c.gmem_atom_ops - u.atom_ops, per);
        if (u.atom_ops > owned)
            MECH_FAIL("block %u (rank %u of %d, %d bins) made %" PRIu64 " atomics on the global histogram, but owns "
                      "only %u bins: the flush covers the bins a CTA owns, which for the last ranks are fewer than "
                      "%u, or none", b, b % (uint32_t)cluster_size, cluster_size, nbins, u.atom_ops, owned, per);
        if (u.st_bytes > 0)
            MECH_FAIL("block %u stored to the global histogram with plain stores: other clusters add to it too",
                      b);
    }
}

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
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        check_counting(nbins, n, cluster_size, clusters, bins);
    }
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
    for (int i = 0; i < 3; i++) {
        int size = 2 + (int)test_random_below(15);     /* any size 2..16 that does not divide the bins */
        int nbins = 1000 + (int)test_random_below(4000);
        nbins += nbins % size == 0;
        check_big_histogram(nbins, 4000, size, 1 + (int)test_random_below(2), 0);
    }
}

static void test_big_histogram_counts_in_non_portable_clusters_of_9_to_16(void **state)
{
    (void)state;
    check_big_histogram(2000 + (int)test_random_below(3000), 6000, 9 + (int)test_random_below(7), 1, 0);
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

/* A launcher that does not wait returns before the kernel's own error: give
 * the kernel one (inputs past the end of their buffer) and expect it back
 * from big_histogram_launch, with nothing left for a later synchronize.
 * Emulator only: on a GPU such an error would end the process's context. */
static void test_big_histogram_launch_waits_for_the_kernel_and_returns_its_error(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    uint32_t *in, *bins;
    int nbins = 1000;
    assert_int_equal(dsm_malloc((void **)&in, 64), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&bins, (size_t)nbins * 4), dsmSuccess);
    assert_int_equal(dsm_memset(in, 0, 64), dsmSuccess);
    assert_int_equal(dsm_memset(bins, 0, (size_t)nbins * 4), dsmSuccess);
    dsm_emu_set_verbose(0);    /* the report is expected: do not print it */
    dsm_error_t err = big_histogram_launch(bins, nbins, in, 1 << 20, 2, 1); /* 4 MB of inputs from a 64-byte buffer */
    dsm_error_t later = dsm_device_synchronize();
    dsm_emu_set_verbose(1);
    if (err == dsmSuccess)
        fail_msg("big_histogram_launch returned cudaSuccess for a kernel that failed (%s came only from a later "
                 "synchronize): it must wait for the kernel and return its error", dsm_error_name(later));
    assert_int_equal(later, dsmSuccess);
    dsm_free(in);
    dsm_free(bins);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_big_histogram_min_cluster_size_is_the_fewest_ctas_of_227_kb),
    cmocka_unit_test(test_big_histogram_counts_96k_bins_in_the_smallest_cluster_that_holds_them),
    cmocka_unit_test(test_big_histogram_counts_when_the_cluster_does_not_divide_the_bins),
    cmocka_unit_test(test_big_histogram_counts_in_non_portable_clusters_of_9_to_16),
    cmocka_unit_test(test_big_histogram_launch_waits_for_the_kernel_and_returns_its_error),
    cmocka_unit_test(test_big_histogram_counts_many_hits_on_one_bin),
    cmocka_unit_test(test_big_histogram_rejects_a_cluster_too_small_for_its_bins),
};

DSM_TEST_MAIN(tests)
