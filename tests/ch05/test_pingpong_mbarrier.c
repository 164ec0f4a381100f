/* test_pingpong_mbarrier.c: ch05.pingpong_mbarrier: the ping-pong signalled on the receiver's mbarrier (remote arrive, st.async) delivers every token in order, one mbarrier phase per receipt and no cluster barrier per hop. */
#include "pingpong_check.h"

DSM_DECLARE_KERNEL(pp_mbar_arrive);
DSM_DECLARE_KERNEL(pp_mbar_st_async);

static void test_pingpong_mbarrier_remote_arrive_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_mbarrier_st_async_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_mbarrier_both_run_without_a_trace_and_with_one_thread(void **state)
{
    (void)state;
    pp_launch a = {"pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0, 2, 1, 1 + test_random_below(6), 0, 0};
    pp_run_and_check(&a);
    pp_launch s = {"pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0, 2, 1, 1 + test_random_below(6), 0, 0};
    pp_run_and_check(&s);
}

/* Each receipt is one completed phase of the receiver's mbarrier: 2 per round
 * trip in each cluster, so the parity a receiver waits on alternates. */
static void test_pingpong_mbarrier_completes_one_mbarrier_phase_per_receipt(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    const char *names[] = {"pp_mbar_arrive", "pp_mbar_st_async"};
    dsm_kernel_t kernels[] = {DSM_KERNEL(pp_mbar_arrive), DSM_KERNEL(pp_mbar_st_async)};
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {names[k], kernels[k], 0, 1 + test_random_below(2), 32, 2 + test_random_below(5), 1, 0};
        uint32_t phases = pp_run_and_check(&l).mbarrier_phases;
        if (phases != 2u * l.rounds)
            fail_msg("%s: a cluster completed %u mbarrier phases for %u round trips; every receipt completes "
                     "exactly one phase of the receiver's mbarrier (%u per cluster)",
                     names[k], phases, l.rounds, 2u * l.rounds);
    }
}

/* The point of the exercise: one hop costs one DSMEM trip, not a cluster-wide barrier. */
static void test_pingpong_mbarrier_uses_no_cluster_barrier_inside_the_hop_loop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch a = {"pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0, 1, 32, 2, 1, 0};
    pp_expect_no_cluster_barrier_per_hop(a);
    pp_launch s = {"pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0, 1, 32, 2, 1, 0};
    pp_expect_no_cluster_barrier_per_hop(s);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pingpong_mbarrier_remote_arrive_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_mbarrier_st_async_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_mbarrier_both_run_without_a_trace_and_with_one_thread),
    cmocka_unit_test(test_pingpong_mbarrier_completes_one_mbarrier_phase_per_receipt),
    cmocka_unit_test(test_pingpong_mbarrier_uses_no_cluster_barrier_inside_the_hop_loop),
};

DSM_TEST_MAIN(tests)
