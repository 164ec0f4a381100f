/* test_cluster_sum.c: ch01.cluster_sum: every cluster's total matches the CPU for any cluster size and a ragged last CTA, the emulator finds nothing under all schedules, and each thread passes exactly two cluster barriers. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "ch01/barrier_count.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(cluster_sum);

typedef struct launch_shape {
    uint32_t cluster, clusters, threads, n;
} launch_shape;

/* Launches cluster_sum on random inputs of shape s and checks every total. */
static void check_sums(const launch_shape *s)
{
    uint32_t blocks = s->cluster * s->clusters;
    uint32_t *host_in = malloc((s->n ? s->n : 1) * sizeof(uint32_t));
    uint32_t *expected = calloc(s->clusters, sizeof(uint32_t)), *host_out = malloc(s->clusters * sizeof(uint32_t));
    test_fill_random_u32(host_in, s->n, 0, 0xFFFFFFFFu);
    for (uint32_t i = 0; i < s->n; ++i)
        expected[i / s->threads / s->cluster] += host_in[i];

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, (s->n ? s->n : 1) * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, s->clusters * sizeof(uint32_t)), dsmSuccess);
    if (s->n)
        assert_int_equal(dsm_memcpy_to_device(in, host_in, s->n * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, s->clusters * sizeof(uint32_t)), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->cluster, 1, 1), 0};
    uint32_t n = s->n;
    void *args[] = {&in, &out, &n};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(cluster_sum), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(host_out, out, s->clusters * sizeof(uint32_t)), dsmSuccess);
    assert_u32_array_equal(expected, host_out, s->clusters);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

/* A random shape: clusters of `cluster` CTAs; n leaves the last CTAs partly or wholly empty. */
static launch_shape random_shape(uint32_t cluster)
{
    launch_shape s = {cluster, 1 + test_random_below(3), 32u << test_random_below(3), 0};
    uint32_t capacity = s.cluster * s.clusters * s.threads;
    uint32_t cut = test_random_below(s.threads * 3 / 2); /* may empty the last CTA */
    s.n = cut < capacity ? capacity - cut : 0;
    return s;
}

static void test_cluster_sum_every_cluster_total_matches_the_cpu_in_clusters_of_2(void **state)
{
    (void)state;
    launch_shape s = random_shape(2);
    check_sums(&s);
}

static void test_cluster_sum_every_cluster_total_matches_the_cpu_in_clusters_of_4(void **state)
{
    (void)state;
    launch_shape s = random_shape(4);
    check_sums(&s);
}

static void test_cluster_sum_every_cluster_total_matches_the_cpu_in_clusters_of_8(void **state)
{
    (void)state;
    launch_shape s = random_shape(8);
    check_sums(&s);
}

static void test_cluster_sum_a_cluster_of_one_cta_sums_its_own_elements(void **state)
{
    (void)state;
    launch_shape s = random_shape(1);
    check_sums(&s);
}

static void test_cluster_sum_ctas_without_elements_still_count_as_zero(void **state)
{
    (void)state;
    launch_shape s = {4, 2, 64, 64 + test_random_below(64)}; /* only the first CTA has elements */
    check_sums(&s);
}

static void launch_for_count(void *ctx)
{
    check_sums((const launch_shape *)ctx);
}

static void test_cluster_sum_every_thread_passes_exactly_two_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    launch_shape s = {4, 2, 64, 4 * 2 * 64 - 10};
    uint64_t arrivals = count_cluster_arrivals(launch_for_count, &s);
    uint64_t threads = (uint64_t)s.cluster * s.clusters * s.threads;
    if (arrivals != 2 * threads)
        fail_msg("every thread passed %.2f cluster barriers (%llu arrivals of %llu threads); the contract asks for "
                 "exactly two",
                 (double)arrivals / (double)threads, (unsigned long long)arrivals, (unsigned long long)threads);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cluster_sum_every_cluster_total_matches_the_cpu_in_clusters_of_2),
    cmocka_unit_test(test_cluster_sum_every_cluster_total_matches_the_cpu_in_clusters_of_4),
    cmocka_unit_test(test_cluster_sum_every_cluster_total_matches_the_cpu_in_clusters_of_8),
    cmocka_unit_test(test_cluster_sum_a_cluster_of_one_cta_sums_its_own_elements),
    cmocka_unit_test(test_cluster_sum_ctas_without_elements_still_count_as_zero),
    cmocka_unit_test(test_cluster_sum_every_thread_passes_exactly_two_cluster_barriers),
};

DSM_TEST_MAIN(tests)
