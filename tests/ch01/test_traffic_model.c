/* test_traffic_model.c: ch01.traffic_model counts the L2 bytes of the deep dive's tile exchange (chapter 1) per path, and its "exchange bandwidth". */
#include <stdint.h>
#include "support/test_support.h"
#include "ch01_random.h"
#include "traffic_model.h" /* beside the exercise's source: the build passes -I<its directory> */

static tile_exchange random_exchange(void)
{
    tile_exchange t;
    t.clusters = ch01_range(1, 132);
    t.ctas_per_cluster = ch01_range(1, 16);
    t.iterations = ch01_range(1, 10000);
    t.tile_bytes = 16u * ch01_range(1, 14528); /* up to 227 KB */
    t.verify_bytes_per_cta = 4u * ch01_range(1, 64);
    return t;
}

static void test_traffic_model_global_path_stores_and_loads_every_tile_every_iteration(void **state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial) {
        tile_exchange t = random_exchange();
        uint64_t ctas = (uint64_t)t.clusters * t.ctas_per_cluster;
        uint64_t want = ctas * ((uint64_t)t.iterations * t.tile_bytes * 2 + t.verify_bytes_per_cta);
        CH01_EXPECT_U64(traffic_global_l2_bytes(&t), want,
                        "global-path L2 bytes for %u clusters x %u CTAs x %u iterations x %u-byte tiles "
                        "(+%u verify bytes per CTA)",
                        t.clusters, t.ctas_per_cluster, t.iterations, t.tile_bytes, t.verify_bytes_per_cta);
    }
}

static void test_traffic_model_dsmem_path_sends_only_the_verify_bytes_through_l2(void **state)
{
    (void)state;
    for (int trial = 0; trial < 20; ++trial) {
        tile_exchange t = random_exchange();
        CH01_EXPECT_U64(traffic_dsmem_l2_bytes(&t),
                        (uint64_t)t.clusters * t.ctas_per_cluster * t.verify_bytes_per_cta,
                        "DSMEM-path L2 bytes for %u clusters x %u CTAs (%u verify bytes per CTA)",
                        t.clusters, t.ctas_per_cluster, t.verify_bytes_per_cta);
    }
}

/* The deep dive's run: 57 clusters x 2 CTAs, 5000 iterations, 16 KB tiles, one float each. */
static void test_traffic_model_counts_the_deep_dives_run_past_4_gib_exactly(void **state)
{
    (void)state;
    tile_exchange t = {57, 2, 5000, 16384, 4};
    CH01_EXPECT_U64(traffic_global_l2_bytes(&t), 18677760456ull,
                    "global-path L2 bytes of the deep dive's run (overflow in 32 bits?)");
    CH01_EXPECT_U64(traffic_dsmem_l2_bytes(&t), 456, "DSMEM-path L2 bytes of the deep dive's run");
}

/* One CTA alone can pass 2^32 bytes: no partial product may stay in 32 bits. */
static void test_traffic_model_counts_one_ctas_traffic_past_4_gib_exactly(void **state)
{
    (void)state;
    for (int trial = 0; trial < 10; ++trial) {
        /* at least 20000 x 116224 x 2 = 4.6e9 bytes */
        tile_exchange t = {1, 1, ch01_range(20000, 100000), 16u * ch01_range(14528 / 2, 14528), 4u * ch01_range(1, 64)};
        uint64_t want = (uint64_t)t.iterations * t.tile_bytes * 2 + t.verify_bytes_per_cta;
        CH01_EXPECT_U64(traffic_global_l2_bytes(&t), want,
                        "global-path L2 bytes of one CTA, %u iterations x %u-byte tiles (past 2^32: overflow in 32 bits?)",
                        t.iterations, t.tile_bytes);
    }
}

static void test_traffic_model_exchange_bandwidth_follows_the_deep_dives_formula(void **state)
{
    (void)state;
    tile_exchange deep_dive = {57, 2, 5000, 16384, 4};
    /* the deep dive reports 0.61 TB/s for 30.871 ms (DSMEM) and 0.40 TB/s for 46.678 ms (global) */
    CH01_EXPECT_NEAR(traffic_exchange_bandwidth(&deep_dive, 30.871e-3), 18677760000.0 / 30.871e-3, 1e-12,
                     "exchange bandwidth of the deep dive's DSMEM run, bytes/s");
    CH01_EXPECT_NEAR(traffic_exchange_bandwidth(&deep_dive, 46.678e-3), 18677760000.0 / 46.678e-3, 1e-12,
                     "exchange bandwidth of the deep dive's global run, bytes/s");

    for (int trial = 0; trial < 20; ++trial) {
        tile_exchange t = random_exchange();
        double seconds = ch01_uniform(1e-4, 1.0);
        double want = 2.0 * t.tile_bytes * ((double)t.clusters * t.ctas_per_cluster) * t.iterations / seconds;
        CH01_EXPECT_NEAR(traffic_exchange_bandwidth(&t, seconds), want, 1e-12,
                         "exchange bandwidth, bytes/s, of %u x %u CTAs x %u iterations x %u bytes in %g s",
                         t.clusters, t.ctas_per_cluster, t.iterations, t.tile_bytes, seconds);
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_traffic_model_global_path_stores_and_loads_every_tile_every_iteration),
    cmocka_unit_test(test_traffic_model_dsmem_path_sends_only_the_verify_bytes_through_l2),
    cmocka_unit_test(test_traffic_model_counts_the_deep_dives_run_past_4_gib_exactly),
    cmocka_unit_test(test_traffic_model_counts_one_ctas_traffic_past_4_gib_exactly),
    cmocka_unit_test(test_traffic_model_exchange_bandwidth_follows_the_deep_dives_formula),
};

DSM_TEST_MAIN(tests)
