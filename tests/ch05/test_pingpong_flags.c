/* test_pingpong_flags.c: ch05.pingpong_flags: the ping-pong with the token as a polled flag (relaxed and release/acquire, in shared memory and in global memory) delivers every token in order with no barrier in the hop loop, with the flag operations its contract names. */
#include "pingpong_probe.h"

DSM_DECLARE_KERNEL(pp_flag_relaxed);
DSM_DECLARE_KERNEL(pp_flag_release);
DSM_DECLARE_KERNEL(pp_flag_global);
DSM_DECLARE_KERNEL(pp_flag_global_relaxed);

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

static void test_pingpong_flags_global_relaxed_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1);
    pp_run_all_schedules(&l);
}

static void test_pingpong_flags_all_four_run_without_a_trace_and_with_one_thread(void **state)
{
    (void)state;
    pp_launch l[] = {
        {"pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0, 2, 1, 1 + test_random_below(6), 0, 0},
        {"pp_flag_release", DSM_KERNEL(pp_flag_release), 0, 2, 1, 1 + test_random_below(6), 0, 0},
        {"pp_flag_global", DSM_KERNEL(pp_flag_global), 1, 2, 1, 1 + test_random_below(6), 0, 0},
        {"pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1, 2, 1, 1 + test_random_below(6), 0, 0},
    };
    for (int k = 0; k < 4; ++k)
        pp_run_and_check(&l[k]);
}

/* The tokens a mailbox's initial value is most easily confused with (0, 0xFFFFFFFF,
 * 0x7FFFFFFF): an initial 0, or the complement of the first token, hangs or misreads on one of them. */
static void test_pingpong_flags_all_four_deliver_the_edge_tokens(void **state)
{
    (void)state;
    pp_launch l[] = {
        {"pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0, 1, 1 + test_random_below(64), 3, 1, 0},
        {"pp_flag_release", DSM_KERNEL(pp_flag_release), 0, 1, 1 + test_random_below(64), 3, 1, 0},
        {"pp_flag_global", DSM_KERNEL(pp_flag_global), 1, 1, 1 + test_random_below(64), 3, 1, 0},
        {"pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1, 1, 1 + test_random_below(64), 3, 1, 0},
    };
    for (int k = 0; k < 4; ++k)
        pp_expect_edge_tokens(l[k]);
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
    pp_launch r = pp_random_launch("pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1);
    r.stale_slots = 1;
    pp_run_all_schedules(&r);
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
        {"pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1, 1, 32, 2, 1, 0},
    };
    for (int k = 0; k < 4; ++k) {
        pp_expect_no_cluster_barrier_per_hop(l[k]);
        uint32_t mb = pp_run_and_check(&l[k]).mbarrier_phases;
        if (mb != 0)
            fail_msg("%s: %u mbarrier phases completed: this exercise signals with the token's store and a "
                     "polling load, no mbarrier", l[k].name, mb);
    }
}

/* The receiver forwards the token it READ, plus 1: the test adds a number to every token stored into
 * a peer's mailbox, so a receiver that takes the new word but computes its token from first[] and the
 * hop sends the wrong one. A receiver that polls for the exact token it expects blocks on the changed
 * one, and passes: it can only forward a token it read. */
static void test_pingpong_flags_receivers_forward_the_token_they_read(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l[] = {
        {"pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0, 1, 1 + test_random_below(64), 2 + test_random_below(4), 1, 0},
        {"pp_flag_release", DSM_KERNEL(pp_flag_release), 0, 1, 1 + test_random_below(64), 2 + test_random_below(4), 1, 0},
        {"pp_flag_global", DSM_KERNEL(pp_flag_global), 1, 1, 1 + test_random_below(64), 2 + test_random_below(4), 1, 0},
        {"pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1, 1, 1 + test_random_below(64),
         2 + test_random_below(4), 1, 0},
    };
    for (int k = 0; k < 4; ++k)
        if (pp_expect_forwarded_or_awaited_tokens(l[k]))
            print_message("%s waits for the exact token it expects: it forwards only what it read\n", l[k].name);
}

/* The point of the exercise is what each flag costs, so each kernel must use the flag operations
 * its contract names, for every token: the benchmark puts each beside its twin, and a "release"
 * row written with relaxed stores, or a "global" row that signals through DSMEM, would be a wrong
 * row of the table. Random shapes, default schedules; the counters are the emulator's. */
static void test_pingpong_flags_relaxed_stores_and_polls_relaxed_at_cluster_scope(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_flag_relaxed", DSM_KERNEL(pp_flag_relaxed), 0);
    pp_outcome o = pp_run_and_check(&l);
    pp_expect_flag_kind(&l, &o, DSM_FLAG_RELAXED, DSM_FLAG_CLUSTER, DSM_FLAG_PEER_SMEM, DSM_FLAG_OWN_SMEM);
}

static void test_pingpong_flags_release_stores_release_and_polls_acquire_at_cluster_scope(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_flag_release", DSM_KERNEL(pp_flag_release), 0);
    pp_outcome o = pp_run_and_check(&l);
    pp_expect_flag_kind(&l, &o, DSM_FLAG_STRONG, DSM_FLAG_CLUSTER, DSM_FLAG_PEER_SMEM, DSM_FLAG_OWN_SMEM);
}

static void test_pingpong_flags_global_signals_through_the_slots_with_release_acquire_at_gpu_scope(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_flag_global", DSM_KERNEL(pp_flag_global), 1);
    pp_outcome o = pp_run_and_check(&l);
    pp_expect_no_dsmem(&l, &o);
    pp_expect_flag_kind(&l, &o, DSM_FLAG_STRONG, DSM_FLAG_GPU, DSM_FLAG_GLOBAL, DSM_FLAG_GLOBAL);
    pp_expect_tokens_in_slots(&l, &o);
}

static void test_pingpong_flags_global_relaxed_signals_through_the_slots_relaxed_at_gpu_scope(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_flag_global_relaxed", DSM_KERNEL(pp_flag_global_relaxed), 1);
    pp_outcome o = pp_run_and_check(&l);
    pp_expect_no_dsmem(&l, &o);
    pp_expect_flag_kind(&l, &o, DSM_FLAG_RELAXED, DSM_FLAG_GPU, DSM_FLAG_GLOBAL, DSM_FLAG_GLOBAL);
    pp_expect_tokens_in_slots(&l, &o);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pingpong_flags_relaxed_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_receivers_forward_the_token_they_read),
    cmocka_unit_test(test_pingpong_flags_release_acquire_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_global_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_global_relaxed_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_flags_all_four_run_without_a_trace_and_with_one_thread),
    cmocka_unit_test(test_pingpong_flags_all_four_deliver_the_edge_tokens),
    cmocka_unit_test(test_pingpong_flags_global_ignores_a_stale_token_left_in_a_slot),
    cmocka_unit_test(test_pingpong_flags_use_no_barrier_inside_the_hop_loop),
    cmocka_unit_test(test_pingpong_flags_relaxed_stores_and_polls_relaxed_at_cluster_scope),
    cmocka_unit_test(test_pingpong_flags_release_stores_release_and_polls_acquire_at_cluster_scope),
    cmocka_unit_test(test_pingpong_flags_global_signals_through_the_slots_with_release_acquire_at_gpu_scope),
    cmocka_unit_test(test_pingpong_flags_global_relaxed_signals_through_the_slots_relaxed_at_gpu_scope),
};

DSM_TEST_MAIN(tests)
