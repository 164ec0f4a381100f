/* test_histogram.c: ch02.histogram: the distributed histogram with remote atomics counts every input, in clusters of 2, 4 and 8. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

DSM_DECLARE_KERNEL(cluster_histogram);

/* The lesson, from the emulator's counters: every input is counted by one
 * atomic on the shared memory of the CTA that owns its bin (most of them a
 * peer: DSMEM), and global memory sees only the flush, one atomic per bin of
 * a CTA's own slice. */
static void check_counting(int cluster, int clusters, int bins_per_block, int n, const uint32_t *bins)
{
    dsm_emu_counts t = mech_total();
    if (t.smem_atom_ops + t.dsmem_atom_ops != (uint64_t)n)
        MECH_FAIL("%d inputs were counted with %" PRIu64 " atomics on shared memory (%" PRIu64 " of them on a "
                  "peer's): every input must be one atomic add on the owner's bin", n,
                  t.smem_atom_ops + t.dsmem_atom_ops, t.dsmem_atom_ops);
    if (cluster > 1 && t.dsmem_atom_ops == 0)
        MECH_FAIL("no input was counted in a peer's shared memory (clusters of %d): the bins are spread over "
                  "the cluster's CTAs, so most adds go to another CTA", cluster);
    for (uint32_t b = 0; b < (uint32_t)(cluster * clusters); ++b) {
        dsm_emu_gmem_use u = mech_gmem(b, bins);
        if (u.atom_ops > (uint64_t)bins_per_block)
            MECH_FAIL("block %u made %" PRIu64 " atomics on the global bins; only the flush of its own %d bins "
                      "goes to global memory", b, u.atom_ops, bins_per_block);
    }
}

/* Counts n random inputs (some below 0 and some past the last bin, to be
 * clamped) with clusters of `cluster` CTAs and compares with the CPU. */
static void check_histogram(int cluster, int clusters, int bins_per_block, int n, int threads)
{
    int nbins = cluster * bins_per_block;
    int *host_in = malloc(sizeof(int) * (size_t)n);
    uint32_t *expected = calloc((size_t)nbins, sizeof(uint32_t)), *host_bins = malloc(sizeof(uint32_t) * (size_t)nbins);
    for (int i = 0; i < n; ++i) {
        int v = (int)test_random_below((uint32_t)nbins + 8) - 4;
        host_in[i] = v;
        expected[v < 0 ? 0 : (v >= nbins ? nbins - 1 : v)]++;
    }

    int *in;
    uint32_t *bins;
    assert_int_equal(dsm_malloc((void **)&in, sizeof(int) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&bins, sizeof(uint32_t) * (size_t)nbins), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, sizeof(int) * (size_t)n), dsmSuccess);
    assert_int_equal(dsm_memset(bins, 0, sizeof(uint32_t) * (size_t)nbins), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(cluster * clusters, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(cluster, 1, 1),
                             sizeof(uint32_t) * (size_t)bins_per_block};
    void *args[] = {&bins, &bins_per_block, &in, &n};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(cluster_histogram), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        check_counting(cluster, clusters, bins_per_block, n, bins);
    }

    assert_int_equal(dsm_memcpy_to_host(host_bins, bins, sizeof(uint32_t) * (size_t)nbins), dsmSuccess);
    assert_u32_array_equal(expected, host_bins, (size_t)nbins);
    dsm_free(in);
    dsm_free(bins);
    free(host_in);
    free(expected);
    free(host_bins);
}

static void test_histogram_matches_the_cpu_in_clusters_of_2(void **state)
{
    (void)state;
    check_histogram(2, 1 + (int)test_random_below(3), 1 + (int)test_random_below(32), 1000 + (int)test_random_below(3000),
                    1 + (int)test_random_below(256));
}

static void test_histogram_matches_the_cpu_in_clusters_of_4(void **state)
{
    (void)state;
    check_histogram(4, 1 + (int)test_random_below(3), 1 + (int)test_random_below(32), 1000 + (int)test_random_below(3000),
                    1 + (int)test_random_below(256));
}

static void test_histogram_matches_the_cpu_in_clusters_of_8(void **state)
{
    (void)state;
    check_histogram(8, 1 + (int)test_random_below(2), 1 + (int)test_random_below(32), 1000 + (int)test_random_below(3000),
                    1 + (int)test_random_below(256));
}

/* Every cluster size the kernel allows (1-D, up to the portable 8). */
static void test_histogram_matches_the_cpu_in_clusters_of_any_size(void **state)
{
    (void)state;
    for (int trial = 0; trial < 3; ++trial)
        check_histogram(2 + (int)test_random_below(7), 1 + (int)test_random_below(3), 1 + (int)test_random_below(40),
                        500 + (int)test_random_below(2000), 1 + (int)test_random_below(256));
}

static void test_histogram_counts_many_hits_on_one_bin(void **state)
{
    (void)state;
    check_histogram(2, 2, 1, 2000, 128);     /* two bins per cluster: every remote add collides */
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_histogram_matches_the_cpu_in_clusters_of_2),
    cmocka_unit_test(test_histogram_matches_the_cpu_in_clusters_of_4),
    cmocka_unit_test(test_histogram_matches_the_cpu_in_clusters_of_8),
    cmocka_unit_test(test_histogram_matches_the_cpu_in_clusters_of_any_size),
    cmocka_unit_test(test_histogram_counts_many_hits_on_one_bin),
};

DSM_TEST_MAIN(tests)
