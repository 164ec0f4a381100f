/* test_lifetime_order.c: an access to a peer's shared memory must happen before the peer exits, whatever the schedule shows: a read after the "done" signal, an exit while an outgoing bulk copy still reads; the fixed twins pass eight schedules. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(done_then_read_arrive);
DSM_DECLARE_KERNEL(done_then_read_flag);
DSM_DECLARE_KERNEL(copy_out_then_exit);
DSM_DECLARE_KERNEL(arrive_then_exit);

#define WORDS 32

/* Schedules run one at a time: each alone must find the bug. */
static const char *const EACH[] = {"asc", "desc", "random:1", "random:2", "random:3", "random:4", "interleave"};

/* buggy: every schedule alone reports the read after "done" (its line) and rank 0's exit. */
static void run_done_then_read(dsm_kernel_t k, int fixed, const char *read_line)
{
    uint32_t *out = dev_zeroed(8 * WORDS * 4);
    dsm_launch_config cfg = cluster_cfg(8, WORDS, 2, 0);
    void *args[] = {&out, &fixed};
    if (fixed) {
        launch_clean(&cfg, k, args);
        uint32_t h[8 * WORDS];
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int b = 0; b < 8; b++)
            for (int i = 0; i < WORDS; i++)
                assert_int_equal(h[b * WORDS + i], (uint32_t)i);
    } else {
        for (size_t s = 0; s < sizeof EACH / sizeof EACH[0]; s++) {
            assert_int_equal(dsm_emu_set_schedules(EACH[s]), dsmSuccess);
            launch_reported_lifetime(&cfg, k, args);
            report_mentions(read_line);
            report_mentions("rank 0");
            report_mentions("exit");
        }
        dsm_emu_set_schedules(EIGHT_SCHEDULES);
    }
    dsm_free(out);
}

static void test_lifetime_order_read_after_a_remote_arrive_saying_done_is_a_hazard(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_done_then_read(DSM_KERNEL(done_then_read_arrive), 0, "lifetime_order.cu:35");
}

static void test_lifetime_order_read_before_the_remote_arrive_passes(void **state)
{
    (void)state;
    run_done_then_read(DSM_KERNEL(done_then_read_arrive), 1, NULL);
}

static void test_lifetime_order_read_after_a_release_flag_saying_done_is_a_hazard(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_done_then_read(DSM_KERNEL(done_then_read_flag), 0, "lifetime_order.cu:67");
}

static void test_lifetime_order_read_before_the_release_flag_passes(void **state)
{
    (void)state;
    run_done_then_read(DSM_KERNEL(done_then_read_flag), 1, NULL);
}

static void run_copy_out(int final_barrier)
{
    uint32_t *out = dev_zeroed(4 * WORDS * 4);
    dsm_launch_config cfg = cluster_cfg(4, WORDS, 2, 0);
    void *args[] = {&out, &final_barrier};
    if (final_barrier) {
        launch_clean(&cfg, DSM_KERNEL(copy_out_then_exit), args);
        uint32_t h[4 * WORDS];
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int b = 0; b < 4; b++)
            for (int i = 0; i < WORDS; i++)
                assert_int_equal(h[b * WORDS + i], (uint32_t)((b % 2) ^ 1) * 100u + (uint32_t)i);
    } else {
        launch_reported(&cfg, DSM_KERNEL(copy_out_then_exit), args, DSM_REPORT_LIFETIME_HAZARD,
                        dsmErrorLaunchFailure);
        report_mentions("bulk copy to rank");
        report_mentions("lifetime_order.cu:91"); /* the copy */
        report_mentions("exit ");
    }
    dsm_free(out);
}

/* Whatever the schedule: each one alone reports the sender's exit. */
static void test_lifetime_order_sender_exiting_before_its_copy_is_known_complete_is_a_hazard(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    for (size_t i = 0; i < sizeof EACH / sizeof EACH[0]; i++) {
        assert_int_equal(dsm_emu_set_schedules(EACH[i]), dsmSuccess);
        run_copy_out(0);
    }
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
}

static void test_lifetime_order_sender_waiting_at_a_final_cluster_barrier_passes(void **state)
{
    (void)state;
    run_copy_out(1);
}

static void run_arrive(int final_barrier)
{
    uint32_t *out = dev_zeroed(4 * WORDS * 4);
    dsm_launch_config cfg = cluster_cfg(4, WORDS, 2, 0);
    void *args[] = {&out, &final_barrier};
    if (final_barrier)
        launch_clean(&cfg, DSM_KERNEL(arrive_then_exit), args);
    else {
        for (size_t i = 0; i < sizeof EACH / sizeof EACH[0]; i++) {
            assert_int_equal(dsm_emu_set_schedules(EACH[i]), dsmSuccess);
            launch_reported_lifetime(&cfg, DSM_KERNEL(arrive_then_exit), args);
            report_mentions("lifetime_order.cu:113"); /* the remote arrive */
        }
        dsm_emu_set_schedules(EIGHT_SCHEDULES);
    }
    dsm_free(out);
}

static void test_lifetime_order_remote_arrive_its_owner_never_waits_for_is_a_hazard(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_arrive(0);
}

static void test_lifetime_order_remote_arrive_before_a_final_cluster_barrier_passes(void **state)
{
    (void)state;
    run_arrive(1);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lifetime_order_read_after_a_remote_arrive_saying_done_is_a_hazard),
    cmocka_unit_test(test_lifetime_order_read_before_the_remote_arrive_passes),
    cmocka_unit_test(test_lifetime_order_read_after_a_release_flag_saying_done_is_a_hazard),
    cmocka_unit_test(test_lifetime_order_read_before_the_release_flag_passes),
    cmocka_unit_test(test_lifetime_order_sender_exiting_before_its_copy_is_known_complete_is_a_hazard),
    cmocka_unit_test(test_lifetime_order_sender_waiting_at_a_final_cluster_barrier_passes),
    cmocka_unit_test(test_lifetime_order_remote_arrive_its_owner_never_waits_for_is_a_hazard),
    cmocka_unit_test(test_lifetime_order_remote_arrive_before_a_final_cluster_barrier_passes),
};
RUNTIME_TEST_MAIN(tests)
