/* test_flags.c: release/acquire flags carry a ping-pong and a warp-to-warp hand-off; a relaxed flag is a race, a flag nobody sets a livelock. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(flag_ping_pong);
DSM_DECLARE_KERNEL(flag_handoff);
DSM_DECLARE_KERNEL(volatile_handoff);

enum { FLAG_OK = 0, FLAG_RELAXED_STORE = 1, FLAG_WRONG_VALUE = 2 };

static void run_ping_pong(int flags_global, int bad, int rounds, dsm_report_kind kind, dsm_error_t err)
{
    uint32_t *out = dev_zeroed(2 * 4), *gflags = dev_zeroed(2 * 4), h[2];
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out, &gflags, &rounds, &flags_global, &bad};
    if (kind == DSM_REPORT_NONE) {
        launch_clean(&cfg, DSM_KERNEL(flag_ping_pong), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        /* rank 1 receives in odd rounds, rank 0 in even ones; each hop adds one */
        assert_int_equal(h[rounds % 2 ? 1 : 0], (uint32_t)rounds);
    } else
        launch_reported(&cfg, DSM_KERNEL(flag_ping_pong), args, kind, err);
    dsm_free(out);
    dsm_free(gflags);
}

static void test_flags_ping_pong_through_shared_flags_bounces_every_round(void **state)
{
    (void)state;
    run_ping_pong(0, FLAG_OK, 100, DSM_REPORT_NONE, dsmSuccess);
}

static void test_flags_ping_pong_through_global_flags_bounces_every_round(void **state)
{
    (void)state;
    run_ping_pong(1, FLAG_OK, 64, DSM_REPORT_NONE, dsmSuccess);
}

static void test_flags_relaxed_flag_store_is_a_race_on_the_mailbox(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_ping_pong(0, FLAG_RELAXED_STORE, 4, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
    report_mentions("flags.cu");
}

static void test_flags_waiting_for_a_value_nobody_writes_is_a_livelock_naming_the_poll(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_ping_pong(0, FLAG_WRONG_VALUE, 4, DSM_REPORT_DEADLOCK, dsmErrorDeadlock);
    report_mentions("livelock");
    report_mentions("dsm_ld_acquire_cluster_u32(my_flag)");
    run_ping_pong(1, FLAG_WRONG_VALUE, 4, DSM_REPORT_DEADLOCK, dsmErrorDeadlock);
    report_mentions("dsm_ld_acquire_gpu_u32(my_flag)");
}

static void run_handoff(int relaxed, dsm_report_kind kind, dsm_error_t err)
{
    uint32_t *out = dev_zeroed(32 * 4), h[32];
    dsm_launch_config cfg = cluster_cfg(1, 64, 1, 0);
    void *args[] = {&out, &relaxed};
    if (kind == DSM_REPORT_NONE) {
        launch_clean(&cfg, DSM_KERNEL(flag_handoff), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int i = 0; i < 32; i++)
            assert_int_equal(h[i], 32 * 33 / 2);
    } else
        launch_reported(&cfg, DSM_KERNEL(flag_handoff), args, kind, err);
    dsm_free(out);
}

static void test_flags_release_acquire_hands_data_from_one_warp_to_another(void **state)
{
    (void)state;
    run_handoff(0, DSM_REPORT_NONE, dsmSuccess);
}

static void test_flags_relaxed_flag_between_two_fences_hands_data_over_too(void **state)
{
    (void)state;
    run_handoff(2, DSM_REPORT_NONE, dsmSuccess);
}

static void test_flags_relaxed_hand_off_between_warps_is_a_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_handoff(1, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
}

static void run_volatile(int fenced, dsm_report_kind kind, dsm_error_t err)
{
    uint32_t *out = dev_zeroed(32 * 4), h[32];
    dsm_launch_config cfg = cluster_cfg(1, 64, 1, 0);
    void *args[] = {&out, &fenced};
    if (kind == DSM_REPORT_NONE) {
        launch_clean(&cfg, DSM_KERNEL(volatile_handoff), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int i = 0; i < 32; i++)
            assert_int_equal(h[i], 32 * 33 / 2);
    } else
        launch_reported(&cfg, DSM_KERNEL(volatile_handoff), args, kind, err);
    dsm_free(out);
}

static void test_flags_volatile_flag_between_threadfences_hands_data_over(void **state)
{
    (void)state;
    run_volatile(1, DSM_REPORT_NONE, dsmSuccess);
}

static void test_flags_volatile_flag_without_fences_leaves_the_data_unordered(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_volatile(0, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
}

static void test_flags_volatile_flag_nobody_sets_is_a_livelock_naming_the_loop(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_volatile(-1, DSM_REPORT_DEADLOCK, dsmErrorDeadlock);
    report_mentions("livelock");
    report_mentions("while (*flag == 0)");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_flags_volatile_flag_between_threadfences_hands_data_over),
    cmocka_unit_test(test_flags_volatile_flag_without_fences_leaves_the_data_unordered),
    cmocka_unit_test(test_flags_volatile_flag_nobody_sets_is_a_livelock_naming_the_loop),
    cmocka_unit_test(test_flags_ping_pong_through_shared_flags_bounces_every_round),
    cmocka_unit_test(test_flags_ping_pong_through_global_flags_bounces_every_round),
    cmocka_unit_test(test_flags_relaxed_flag_store_is_a_race_on_the_mailbox),
    cmocka_unit_test(test_flags_waiting_for_a_value_nobody_writes_is_a_livelock_naming_the_poll),
    cmocka_unit_test(test_flags_release_acquire_hands_data_from_one_warp_to_another),
    cmocka_unit_test(test_flags_relaxed_flag_between_two_fences_hands_data_over_too),
    cmocka_unit_test(test_flags_relaxed_hand_off_between_warps_is_a_race),
};
RUNTIME_TEST_MAIN(tests)
