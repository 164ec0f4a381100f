/* test_cluster_scan.c: ch04.cluster_scan: the prefix sum over clusters of 16 CTAs (non-portable), and of 2, 5 and 8, matches the CPU with no emulator report. */
#include <stdlib.h>
#include "cluster_scan.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

/* Scans random words (large ones, so sums wrap around 2^32) and compares with the CPU. */
static void check_scan(int per_cta, int cluster_size, int clusters)
{
    size_t n = (size_t)per_cta * (size_t)cluster_size * (size_t)clusters, seg = (size_t)per_cta * (size_t)cluster_size;
    uint32_t *host_in = malloc(sizeof(uint32_t) * n), *expected = malloc(sizeof(uint32_t) * n),
             *got = malloc(sizeof(uint32_t) * n);
    test_fill_random_u32(host_in, n, 0, 0xffffffffu);
    for (size_t i = 0; i < n; i++)
        expected[i] = (i % seg == 0 ? 0 : expected[i - 1]) + host_in[i];
    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, sizeof(uint32_t) * n), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, sizeof(uint32_t) * n), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, sizeof(uint32_t) * n), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xff, sizeof(uint32_t) * n), dsmSuccess);
    dsm_error_t err = cluster_scan_launch(out, in, per_cta, cluster_size, clusters);
    if (err != dsmSuccess)
        fail_msg("cluster_scan_launch(%d per CTA, cluster %d, %d clusters) returned %s (%s)", per_cta, cluster_size,
                 clusters, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(got, out, sizeof(uint32_t) * n), dsmSuccess);
    assert_u32_array_equal(expected, got, n);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(got);
}

static void test_cluster_scan_matches_the_cpu_over_clusters_of_16_ctas(void **state)
{
    (void)state;
    check_scan(1 + (int)test_random_below(600), 16, 2);
}

static void test_cluster_scan_matches_the_cpu_over_portable_clusters(void **state)
{
    (void)state;
    check_scan(1 + (int)test_random_below(400), 2, 3);
    check_scan(1 + (int)test_random_below(400), 5, 1);
    check_scan(1 + (int)test_random_below(400), 8, 2);
}

static void test_cluster_scan_handles_fewer_elements_than_threads(void **state)
{
    (void)state;
    check_scan(1 + (int)test_random_below(CLUSTER_SCAN_THREADS - 1), 16, 1);
}

static void test_cluster_scan_rejects_clusters_above_16(void **state)
{
    (void)state;
    uint32_t *buf;
    assert_int_equal(dsm_malloc((void **)&buf, 4096), dsmSuccess);
    assert_int_equal(cluster_scan_launch(buf, buf, 4, 17, 1), dsmErrorInvalidValue);
    assert_int_equal(cluster_scan_launch(buf, buf, 0, 4, 1), dsmErrorInvalidValue);
    dsm_free(buf);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cluster_scan_matches_the_cpu_over_clusters_of_16_ctas),
    cmocka_unit_test(test_cluster_scan_matches_the_cpu_over_portable_clusters),
    cmocka_unit_test(test_cluster_scan_handles_fewer_elements_than_threads),
    cmocka_unit_test(test_cluster_scan_rejects_clusters_above_16),
};

DSM_TEST_MAIN(tests)
