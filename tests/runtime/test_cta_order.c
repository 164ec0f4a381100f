/* test_cta_order.c: inside a CTA a cluster barrier orders only the accesses a thread made before a release arrive (not a relaxed one, not what it did after its own arrive); the buggy kernels are reported as races, their fixed twins pass under eight schedules. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(count_relaxed_rendezvous);
DSM_DECLARE_KERNEL(count_release_rendezvous);
DSM_DECLARE_KERNEL(partial_after_own_arrive);
DSM_DECLARE_KERNEL(partial_before_own_arrive);
DSM_DECLARE_KERNEL(mbar_init_relaxed_rendezvous);
DSM_DECLARE_KERNEL(mbar_init_release_rendezvous);

/* Launches k on 2 CTAs of 64 threads (one cluster) and expects the report `kind` with `err`. */
static void run_reported(dsm_kernel_t k, dsm_report_kind kind, dsm_error_t err)
{
    unsigned *out = dev_zeroed(2 * sizeof *out);
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    launch_reported(&cfg, k, args, kind, err);
    dsm_free(out);
}

/* Launches k as above, expects no report and `want` written by both CTAs. */
static void run_clean(dsm_kernel_t k, unsigned want)
{
    unsigned *out = dev_zeroed(2 * sizeof *out), h[2];
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, k, args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], want);
    assert_int_equal(h[1], want);
    dsm_free(out);
}

static void test_cta_order_atomics_before_a_relaxed_arrive_are_not_ordered_before_a_mates_read(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_reported(DSM_KERNEL(count_relaxed_rendezvous), DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
}

static void test_cta_order_atomics_before_a_release_arrive_are_read_after_the_wait(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(count_release_rendezvous), 63);
}

static void test_cta_order_atomics_after_the_own_arrive_are_not_ordered_by_that_phase(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_reported(DSM_KERNEL(partial_after_own_arrive), DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
}

static void test_cta_order_atomics_before_the_own_arrive_are_read_after_the_wait(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(partial_before_own_arrive), 63 * 64 / 2);
}

static void test_cta_order_an_init_before_a_relaxed_arrive_is_not_visible_to_a_mate(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_reported(DSM_KERNEL(mbar_init_relaxed_rendezvous), DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse);
}

static void test_cta_order_an_init_before_a_release_arrive_is_visible_to_a_mate(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(mbar_init_release_rendezvous), 1);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cta_order_atomics_before_a_relaxed_arrive_are_not_ordered_before_a_mates_read),
    cmocka_unit_test(test_cta_order_atomics_before_a_release_arrive_are_read_after_the_wait),
    cmocka_unit_test(test_cta_order_atomics_after_the_own_arrive_are_not_ordered_by_that_phase),
    cmocka_unit_test(test_cta_order_atomics_before_the_own_arrive_are_read_after_the_wait),
    cmocka_unit_test(test_cta_order_an_init_before_a_relaxed_arrive_is_not_visible_to_a_mate),
    cmocka_unit_test(test_cta_order_an_init_before_a_release_arrive_is_visible_to_a_mate),
};
RUNTIME_TEST_MAIN(tests)
