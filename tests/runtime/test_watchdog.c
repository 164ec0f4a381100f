/* test_watchdog.c: a kernel that never ends is reported as a timeout naming the kernel's line, every time; its finite twin passes. */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(barrier_forever);
DSM_DECLARE_KERNEL(spin_forever);

static void run(dsm_kernel_t k, int stop, dsm_report_kind kind)
{
    int *out = dev_zeroed(2 * 64 * sizeof(int));
    int *d_stop = dev_zeroed(sizeof(int));
    assert_int_equal(dsm_memcpy_to_device(d_stop, &stop, sizeof stop), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out, &d_stop};
    if (kind == DSM_REPORT_NONE)
        launch_clean(&cfg, k, args);
    else
        launch_reported(&cfg, k, args, kind, dsmErrorLaunchTimeout);
    dsm_free(out);
    dsm_free(d_stop);
}

static void test_watchdog_endless_cluster_barrier_loop_times_out_every_time_naming_the_loop(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    setenv("DSM_EMU_TIMEOUT", "1", 1);
    /* the signal often lands while the scheduler switches threads: it must never be lost */
    for (int i = 0; i < 3; i++) {
        run(DSM_KERNEL(barrier_forever), -1, DSM_REPORT_TIMEOUT);
        report_mentions("watchdog.cu:");
    }
    unsetenv("DSM_EMU_TIMEOUT");
}

static void test_watchdog_endless_compute_loop_times_out_naming_its_line(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    setenv("DSM_EMU_TIMEOUT", "1", 1);
    run(DSM_KERNEL(spin_forever), -1, DSM_REPORT_TIMEOUT);
    report_mentions("watchdog.cu:2");
    const char *text = dsm_emu_last_report()->text;
    assert_null(strstr(text, "?:0"));
    assert_null(strstr(text, "runtime/emu/"));
    unsetenv("DSM_EMU_TIMEOUT");
}

static void test_watchdog_finite_loops_pass(void **state)
{
    (void)state;
    run(DSM_KERNEL(barrier_forever), 20, DSM_REPORT_NONE);
    run(DSM_KERNEL(spin_forever), 1000, DSM_REPORT_NONE);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_watchdog_endless_cluster_barrier_loop_times_out_every_time_naming_the_loop),
    cmocka_unit_test(test_watchdog_endless_compute_loop_times_out_naming_its_line),
    cmocka_unit_test(test_watchdog_finite_loops_pass),
};
RUNTIME_TEST_MAIN(tests)
