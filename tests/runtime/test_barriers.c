/* test_barriers.c: barrier misuse (double arrive, wait without arrive, divergent __syncthreads, deadlock) is reported; correct use passes. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(arrive_twice);
DSM_DECLARE_KERNEL(arrive_wait_twice);
DSM_DECLARE_KERNEL(wait_without_arrive);
DSM_DECLARE_KERNEL(syncthreads_after_early_return);
DSM_DECLARE_KERNEL(syncthreads_in_branches);
DSM_DECLARE_KERNEL(syncthreads_guarded_work);
DSM_DECLARE_KERNEL(mbarrier_waits_forever);

static void test_barriers_arriving_twice_in_a_phase_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out = dev_zeroed(2 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(arrive_twice), args, DSM_REPORT_DOUBLE_ARRIVE, dsmErrorBarrierMisuse);
    report_mentions("barriers.cu:7");
    dsm_free(out);
}

static void test_barriers_arrive_then_wait_twice_passes(void **state)
{
    (void)state;
    int *out = dev_zeroed(2 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(arrive_wait_twice), args);
    dsm_free(out);
}

static void test_barriers_wait_without_arrive_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out = dev_zeroed(2 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(wait_without_arrive), args, DSM_REPORT_WAIT_WITHOUT_ARRIVE,
                    dsmErrorBarrierMisuse);
    dsm_free(out);
}

static void test_barriers_syncthreads_after_an_early_return_is_divergence(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out = dev_zeroed(64 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 64, 1, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(syncthreads_after_early_return), args, DSM_REPORT_SYNCTHREADS_DIVERGENCE,
                    dsmErrorBarrierMisuse);
    report_mentions("exited");
    dsm_free(out);
}

static void test_barriers_syncthreads_in_two_branches_is_divergence(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out = dev_zeroed(64 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(1, 64, 1, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(syncthreads_in_branches), args, DSM_REPORT_SYNCTHREADS_DIVERGENCE,
                    dsmErrorBarrierMisuse);
    report_mentions("different __syncthreads");
    dsm_free(out);
}

static void test_barriers_syncthreads_outside_the_guard_passes(void **state)
{
    (void)state;
    int *out = dev_zeroed(128 * sizeof(int)), h[128];
    int n = 100;
    dsm_launch_config cfg = cluster_cfg(2, 64, 1, 0);
    void *args[] = {&out, &n};
    launch_clean(&cfg, DSM_KERNEL(syncthreads_guarded_work), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (int i = 0; i < 128; i++)
        assert_int_equal(h[i], i < n ? 2 : 0);
    dsm_free(out);
}

static void test_barriers_mbarrier_that_never_completes_is_a_deadlock_with_each_ctas_state(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out = dev_zeroed(64 * sizeof(int));
    int count = 2;
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out, &count};
    launch_reported(&cfg, DSM_KERNEL(mbarrier_waits_forever), args, DSM_REPORT_DEADLOCK, dsmErrorDeadlock);
    report_mentions("rank 0");
    report_mentions("rank 1");
    report_mentions("waiting on an mbarrier");
    dsm_free(out);
}

static void test_barriers_mbarrier_with_the_right_count_completes(void **state)
{
    (void)state;
    int *out = dev_zeroed(64 * sizeof(int)), h[64];
    int count = 1;
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out, &count};
    launch_clean(&cfg, DSM_KERNEL(mbarrier_waits_forever), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (int i = 0; i < 64; i++)
        assert_int_equal(h[i], 1);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_barriers_arriving_twice_in_a_phase_is_reported),
    cmocka_unit_test(test_barriers_arrive_then_wait_twice_passes),
    cmocka_unit_test(test_barriers_wait_without_arrive_is_reported),
    cmocka_unit_test(test_barriers_syncthreads_after_an_early_return_is_divergence),
    cmocka_unit_test(test_barriers_syncthreads_in_two_branches_is_divergence),
    cmocka_unit_test(test_barriers_syncthreads_outside_the_guard_passes),
    cmocka_unit_test(test_barriers_mbarrier_that_never_completes_is_a_deadlock_with_each_ctas_state),
    cmocka_unit_test(test_barriers_mbarrier_with_the_right_count_completes),
};
RUNTIME_TEST_MAIN(tests)
