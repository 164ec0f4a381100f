/* test_pingpong_seed.c: ch05.pingpong_seed: the deep dive's ping-pong (a cluster barrier per hop) delivers every token in order, through DSMEM and through global memory. */
#include "pingpong_check.h"

DSM_DECLARE_KERNEL(pp_seed_dsmem);
DSM_DECLARE_KERNEL(pp_seed_global);

static void test_pingpong_seed_dsmem_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_seed_global_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_seed_global", DSM_KERNEL(pp_seed_global), 1);
    pp_run_all_schedules(&l);
}

/* The benchmark times with trace = NULL and checks last[] only. */
static void test_pingpong_seed_both_paths_run_without_a_trace(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0);
    l.with_trace = 0;
    pp_run_and_check(&l);
    pp_launch g = pp_random_launch("pp_seed_global", DSM_KERNEL(pp_seed_global), 1);
    g.with_trace = 0;
    pp_run_and_check(&g);
}

/* With one thread per CTA, and with several warps whose other threads only
 * take part in the barriers. */
static void test_pingpong_seed_works_with_one_thread_and_with_many(void **state)
{
    (void)state;
    uint32_t threads[] = {1, 33 + test_random_below(200)};
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {"pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0, 2, threads[k], 2 + test_random_below(3), 1, 0};
        pp_run_and_check(&l);
        pp_launch g = {"pp_seed_global", DSM_KERNEL(pp_seed_global), 1, 2, threads[k], 2 + test_random_below(3), 1, 0};
        pp_run_and_check(&g);
    }
}

/* As published: every hop is one cluster barrier (the seed's cluster.sync()),
 * on both paths, so that the two differ only in where the token travels. */
static void test_pingpong_seed_uses_a_cluster_barrier_on_every_hop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    const char *names[] = {"pp_seed_dsmem", "pp_seed_global"};
    dsm_kernel_t kernels[] = {DSM_KERNEL(pp_seed_dsmem), DSM_KERNEL(pp_seed_global)};
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {names[k], kernels[k], k, 1, 32, 2 + test_random_below(5), 1, 0};
        uint32_t phases = pp_run_and_check(&l).cluster_barrier_phases;
        if (phases < 2u * l.rounds || phases > 2u * l.rounds + 3u)
            fail_msg("%s: %u cluster-barrier phases for %u round trips (%u hops): the deep dive's kernel meets "
                     "at one cluster barrier per hop (and at most a few outside the loop)",
                     names[k], phases, l.rounds, 2 * l.rounds);
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pingpong_seed_dsmem_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_seed_global_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_seed_both_paths_run_without_a_trace),
    cmocka_unit_test(test_pingpong_seed_works_with_one_thread_and_with_many),
    cmocka_unit_test(test_pingpong_seed_uses_a_cluster_barrier_on_every_hop),
};

DSM_TEST_MAIN(tests)
