/* test_pingpong_flags.c: ch05.pingpong_flags: the ping-pong with the token as a polled flag (relaxed and release/acquire in shared memory, release/acquire in global memory) delivers every token in order with no barrier in the hop loop. */
#include "pingpong_check.h"

DSM_DECLARE_KERNEL(pp_flag_relaxed);
DSM_DECLARE_KERNEL(pp_flag_release);
DSM_DECLARE_KERNEL(pp_flag_global);

static void test_pingpong_flags_relaxed_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_flags_release_acquire_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_flag_release", DSM_KERNEL(pp_flag_release), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_flags_global_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_flag_global", DSM_KERNEL(pp_flag_global), 1);
    pp_run_all_schedules(&l);
}

static void test_pingpong_flags_all_three_run_without_a_trace_and_with_one_thread(void **state)
{
    (void)state;
    pp_launch l[] = {
        {"pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0, 2, 1, 1 + test_random_below(6), 0, 0},
        {"pp_flag_release", DSM_KERNEL(pp_flag_release), 0, 2, 1, 1 + test_random_below(6), 0, 0},
        {"pp_flag_global", DSM_KERNEL(pp_flag_global), 1, 2, 1, 1 + test_random_below(6), 0, 0},
    };
    for (int k = 0; k < 3; ++k)
        pp_run_and_check(&l[k]);
}

/* Global memory outlives launches: a slot may still hold, from an earlier
 * run, exactly the token its owner waits for first. The receiver must not
 * take that stale word for the peer's store. */
static void test_pingpong_flags_global_ignores_a_stale_token_left_in_a_slot(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_flag_global", DSM_KERNEL(pp_flag_global), 1);
    l.stale_slots = 1;
    pp_run_all_schedules(&l);
}

/* Signalled by the flags alone: the number of cluster-barrier phases does not
 * grow with the hops, and no mbarrier completes a phase. */
static void test_pingpong_flags_use_no_barrier_inside_the_hop_loop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l[] = {
        {"pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0, 1, 32, 2, 1, 0},
        {"pp_flag_release", DSM_KERNEL(pp_flag_release), 0, 1, 32, 2, 1, 0},
        {"pp_flag_global", DSM_KERNEL(pp_flag_global), 1, 1, 32, 2, 1, 0},
    };
    for (int k = 0; k < 3; ++k) {
        pp_expect_no_cluster_barrier_per_hop(l[k]);
        uint32_t mb = pp_run_and_check(&l[k]).mbarrier_phases;
        if (mb != 0)
            fail_msg("%s: %u mbarrier phases completed: this exercise signals with the token's store and a "
                     "polling load, no mbarrier", l[k].name, mb);
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pingpong_flags_relaxed_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_release_acquire_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_global_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_all_three_run_without_a_trace_and_with_one_thread),
    cmocka_unit_test(test_pingpong_flags_global_ignores_a_stale_token_left_in_a_slot),
    cmocka_unit_test(test_pingpong_flags_use_no_barrier_inside_the_hop_loop),
};

DSM_TEST_MAIN(tests)
