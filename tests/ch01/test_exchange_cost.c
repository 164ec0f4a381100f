/* test_exchange_cost.c: ch01.exchange_cost prices an exchange as two L2 trips + fence + barrier (global) against one DSMEM trip + barrier. */
#include <stdint.h>
#include "support/test_support.h"
#include "ch01_random.h"
#include "exchange_cost.h" /* beside the exercise's source: the build passes -I<its directory> */

/* Random but plausible machine parameters (cycles, bytes per cycle). */
static exchange_params random_params(void)
{
    exchange_params p;
    p.l2_latency = ch01_uniform(100, 800);
    p.l2_bytes_per_cycle = ch01_uniform(4, 128);
    p.dsmem_latency = ch01_uniform(50, 400);
    p.dsmem_bytes_per_cycle = ch01_uniform(4, 128);
    p.fence = ch01_uniform(10, 1000);
    p.barrier = ch01_uniform(50, 1000);
    return p;
}

/* The reference formulas of chapter 1. */
static double ref_global(const exchange_params *p, double b)
{
    return 2.0 * (p->l2_latency + b / p->l2_bytes_per_cycle) + p->fence + p->barrier;
}

static double ref_dsmem(const exchange_params *p, double b)
{
    return p->barrier + p->dsmem_latency + b / p->dsmem_bytes_per_cycle;
}

static void test_exchange_cost_global_path_pays_two_l2_trips_a_fence_and_a_barrier(void **state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial) {
        exchange_params p = random_params();
        double bytes = (double)ch01_range(0, 1u << 20);
        CH01_EXPECT_NEAR(exchange_global_cycles(&p, bytes), ref_global(&p, bytes), 1e-9,
                         "global-path cycles for %.0f bytes (L2 %.1f cyc, %.2f B/cyc, fence %.1f, barrier %.1f)",
                         bytes, p.l2_latency, p.l2_bytes_per_cycle, p.fence, p.barrier);
    }
}

static void test_exchange_cost_dsmem_path_pays_one_remote_trip_and_a_barrier(void **state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial) {
        exchange_params p = random_params();
        double bytes = (double)ch01_range(0, 1u << 20);
        CH01_EXPECT_NEAR(exchange_dsmem_cycles(&p, bytes), ref_dsmem(&p, bytes), 1e-9,
                         "DSMEM-path cycles for %.0f bytes (DSMEM %.1f cyc, %.2f B/cyc, barrier %.1f)",
                         bytes, p.dsmem_latency, p.dsmem_bytes_per_cycle, p.barrier);
    }
}

static void test_exchange_cost_speedup_is_global_time_over_dsmem_time(void **state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial) {
        exchange_params p = random_params();
        double bytes = (double)ch01_range(1, 1u << 20);
        CH01_EXPECT_NEAR(exchange_speedup(&p, bytes), ref_global(&p, bytes) / ref_dsmem(&p, bytes), 1e-9,
                         "speedup for %.0f bytes", bytes);
    }
}

/* For huge messages latency and barriers vanish: 2 x DSMEM bandwidth / L2 bandwidth. */
static void test_exchange_cost_speedup_tends_to_twice_the_bandwidth_ratio_for_large_messages(void **state)
{
    (void)state;
    exchange_params p = random_params();
    CH01_EXPECT_NEAR(exchange_speedup(&p, 1e15), 2.0 * p.dsmem_bytes_per_cycle / p.l2_bytes_per_cycle, 1e-6,
                     "speedup for 1e15 bytes (L2 %.2f B/cyc, DSMEM %.2f B/cyc)", p.l2_bytes_per_cycle,
                     p.dsmem_bytes_per_cycle);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_exchange_cost_global_path_pays_two_l2_trips_a_fence_and_a_barrier),
    cmocka_unit_test(test_exchange_cost_dsmem_path_pays_one_remote_trip_and_a_barrier),
    cmocka_unit_test(test_exchange_cost_speedup_is_global_time_over_dsmem_time),
    cmocka_unit_test(test_exchange_cost_speedup_tends_to_twice_the_bandwidth_ratio_for_large_messages),
};

DSM_TEST_MAIN(tests)
