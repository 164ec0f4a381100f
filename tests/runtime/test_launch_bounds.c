/* test_launch_bounds.c: a kernel that declares __launch_bounds__(N) runs with up to N threads per block and is rejected with more, with CUDA's cudaErrorLaunchOutOfResources (and, on the emulator, an invalid-launch report that names the bound); a kernel without bounds takes up to 1024. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(bounded_256);
DSM_DECLARE_KERNEL(unbounded);
DSM_DECLARE_KERNEL(bounded_128);

/* Launches k on 2 blocks of `threads` (no cluster); returns the error, and checks the output when it ran. */
static dsm_error_t run(dsm_kernel_t k, unsigned threads)
{
    uint32_t *out = dev_zeroed(2 * 1024 * 4), h[2 * 1024];
    dsm_launch_config cfg = cluster_cfg(2, threads, 1, 0);
    void *args[] = {&out};
    dsm_emu_set_verbose(0);
    dsm_error_t e = dsm_launch_sync(&cfg, k, args);
    dsm_emu_set_verbose(1);
    if (e == dsmSuccess) {
        assert_int_equal(dsm_memcpy_to_host(h, out, 2 * threads * 4), dsmSuccess);
        for (unsigned i = 0; i < 2 * threads; i++)
            assert_int_equal(h[i], i % threads + 1u);
    }
    dsm_free(out);
    return e;
}

static void test_launch_bounds_a_kernel_runs_with_as_many_threads_as_its_bound(void **state)
{
    (void)state;
    assert_int_equal(run(DSM_KERNEL(bounded_256), 256), dsmSuccess);
    assert_int_equal(run(DSM_KERNEL(bounded_128), 128), dsmSuccess);
}

static void test_launch_bounds_one_thread_more_than_the_bound_is_out_of_resources(void **state)
{
    (void)state;
    assert_int_equal(run(DSM_KERNEL(bounded_256), 257), dsmErrorLaunchOutOfResources);
    if (on_emulator()) {
        assert_int_equal(dsm_emu_last_report()->kind, DSM_REPORT_INVALID_LAUNCH);
        report_mentions("__launch_bounds__(256)");
    }
    assert_int_equal(run(DSM_KERNEL(bounded_128), 129), dsmErrorLaunchOutOfResources);
}

static void test_launch_bounds_a_kernel_without_bounds_takes_1024_threads(void **state)
{
    (void)state;
    assert_int_equal(run(DSM_KERNEL(unbounded), 1024), dsmSuccess);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_launch_bounds_a_kernel_runs_with_as_many_threads_as_its_bound),
    cmocka_unit_test(test_launch_bounds_one_thread_more_than_the_bound_is_out_of_resources),
    cmocka_unit_test(test_launch_bounds_a_kernel_without_bounds_takes_1024_threads),
};
RUNTIME_TEST_MAIN(tests)
