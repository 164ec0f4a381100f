/* test_launch_rules.c: invalid launches fail with CUDA's error names and a report; valid extremes (16 x 1024 threads, 227 KB) run. */
#include <stdlib.h>
#include "runtime_test.h"

DSM_DECLARE_KERNEL(big_cluster);
DSM_DECLARE_KERNEL(fill_dynamic);

static void expect_launch_error(dsm_launch_config cfg, dsm_kernel_t k, void **args, dsm_error_t err)
{
    dsm_emu_set_verbose(0);
    dsm_error_t e = dsm_launch(&cfg, k, args);
    dsm_emu_set_verbose(1);
    if (e != err)
        print_error("expected %s, got %s\n", dsm_error_name(err), dsm_error_name(e));
    assert_int_equal(e, err);
    if (on_emulator())
        assert_int_equal(dsm_emu_last_report()->kind, DSM_REPORT_INVALID_LAUNCH);
}

static void test_launch_rules_cluster_dims_must_divide_the_grid(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(64 * 4);
    void *args[] = {&out, &(uint32_t){4}};
    expect_launch_error(cluster_cfg(3, 32, 2, 0), DSM_KERNEL(fill_dynamic), args, dsmErrorInvalidClusterSize);
    dsm_free(out);
}

static void test_launch_rules_more_than_8_ctas_need_the_non_portable_attribute(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed((16 * 32) * 4);
    void *args[] = {&out};
    expect_launch_error(cluster_cfg(16, 32, 16, 0), DSM_KERNEL(big_cluster), args, dsmErrorInvalidClusterSize);
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(DSM_KERNEL(big_cluster), 1), dsmSuccess);
    dsm_launch_config ok = cluster_cfg(16, 32, 16, 0);
    launch_clean(&ok, DSM_KERNEL(big_cluster), args);
    expect_launch_error(cluster_cfg(32, 32, 32, 0), DSM_KERNEL(big_cluster), args, dsmErrorInvalidClusterSize);
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(DSM_KERNEL(big_cluster), 0), dsmSuccess);
    dsm_free(out);
}

/* An H200 answers cudaErrorInvalidValue here (not cudaErrorInvalidConfiguration, as <<<>>> launches do). */
static void test_launch_rules_more_than_1024_threads_per_block_is_invalid(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed((2 * 1025) * 4);
    void *args[] = {&out};
    expect_launch_error(cluster_cfg(2, 1025, 2, 0), DSM_KERNEL(big_cluster), args, dsmErrorInvalidValue);
    dsm_free(out);
}

static void test_launch_rules_over_48KB_dynamic_needs_the_attribute_and_227KB_is_the_limit(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(2 * 4);
    uint32_t words = 64 * 1024 / 4;
    void *args[] = {&out, &words};
    expect_launch_error(cluster_cfg(2, 128, 2, 64 * 1024), DSM_KERNEL(fill_dynamic), args, dsmErrorInvalidValue);
    assert_int_equal(dsm_func_set_max_dynamic_smem(DSM_KERNEL(fill_dynamic), 227 * 1024), dsmSuccess);
    dsm_launch_config ok = cluster_cfg(2, 128, 2, 64 * 1024);
    launch_clean(&ok, DSM_KERNEL(fill_dynamic), args);
    uint32_t h[2];
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 1 * 7 + words - 1);
    assert_int_equal(h[1], 0 * 7 + words - 1);
    words = 227 * 1024 / 4;
    ok.dynamic_smem_bytes = 227 * 1024;
    launch_clean(&ok, DSM_KERNEL(fill_dynamic), args);
    assert_int_equal(dsm_func_set_max_dynamic_smem(DSM_KERNEL(fill_dynamic), 228 * 1024), dsmErrorInvalidValue);
    dsm_free(out);
}

/* Not timed: a 16-CTA x 1024-thread cluster must fit in memory and finish. */
static void test_launch_rules_a_16_by_1024_thread_cluster_runs(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed((16 * 1024) * 4);
    void *args[] = {&out};
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(DSM_KERNEL(big_cluster), 1), dsmSuccess);
    assert_int_equal(dsm_emu_set_schedules("asc,random:3"), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg(16, 1024, 16, 0);
    launch_clean(&cfg, DSM_KERNEL(big_cluster), args);
    uint32_t *h = malloc(16 * 1024 * 4);
    assert_int_equal(dsm_memcpy_to_host(h, out, 16 * 1024 * 4), dsmSuccess);
    for (uint32_t b = 0; b < 16; b++)
        for (uint32_t t = 0; t < 1024; t += 97)
            assert_int_equal(h[b * 1024 + t], b * 10000 + t);
    free(h);
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
    dsm_free(out);
}

static void test_launch_rules_occupancy_queries_answer_for_the_h200_model(void **state)
{
    (void)state;
    if (!on_emulator())
        skip(); /* the GPU answers with its own layout: bench/hw/occupancy_probe compares */
    int n = 0;
    dsm_launch_config cfg = cluster_cfg(2, 1024, 2, 64 * 1024);
    assert_int_equal(dsm_func_set_max_dynamic_smem(DSM_KERNEL(fill_dynamic), 200 * 1024), dsmSuccess);
    assert_int_equal(dsm_occupancy_max_active_clusters(&n, DSM_KERNEL(fill_dynamic), &cfg), dsmSuccess);
    assert_int_equal(n, 132);
    cfg.cluster.x = 8;
    assert_int_equal(dsm_occupancy_max_active_clusters(&n, DSM_KERNEL(fill_dynamic), &cfg), dsmSuccess);
    assert_int_equal(n, 30);
    assert_int_equal(dsm_occupancy_max_potential_cluster_size(&n, DSM_KERNEL(fill_dynamic), &cfg), dsmSuccess);
    assert_int_equal(n, 8);
}

static void test_launch_rules_occupancy_queries_answer_0_above_the_kernels_dynamic_smem_limit(void **state)
{
    (void)state;
    if (!on_emulator())
        skip(); /* the H200 answered 0 as well (chapter 4); the GPU test would need its own kernel state */
    int n = -1;
    dsm_launch_config cfg = cluster_cfg(2, 128, 2, 64 * 1024);
    /* big_cluster never raised its limit: 64 KB of dynamic shared memory cannot launch. */
    assert_int_equal(dsm_occupancy_max_potential_cluster_size(&n, DSM_KERNEL(big_cluster), &cfg), dsmSuccess);
    assert_int_equal(n, 0);
    n = -1;
    assert_int_equal(dsm_occupancy_max_active_clusters(&n, DSM_KERNEL(big_cluster), &cfg), dsmSuccess);
    assert_int_equal(n, 0);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_launch_rules_cluster_dims_must_divide_the_grid),
    cmocka_unit_test(test_launch_rules_more_than_8_ctas_need_the_non_portable_attribute),
    cmocka_unit_test(test_launch_rules_more_than_1024_threads_per_block_is_invalid),
    cmocka_unit_test(test_launch_rules_over_48KB_dynamic_needs_the_attribute_and_227KB_is_the_limit),
    cmocka_unit_test(test_launch_rules_a_16_by_1024_thread_cluster_runs),
    cmocka_unit_test(test_launch_rules_occupancy_queries_answer_for_the_h200_model),
    cmocka_unit_test(test_launch_rules_occupancy_queries_answer_0_above_the_kernels_dynamic_smem_limit),
};
RUNTIME_TEST_MAIN(tests)
