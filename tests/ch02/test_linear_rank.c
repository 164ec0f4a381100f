/* test_linear_rank.c: ch02.linear_rank: linear_rank() on the host, and on the device equal to %cluster_ctarank in 2-D and 3-D clusters. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

#include "linear_rank.h"     /* beside the exercise's source: the build passes -I<its directory> */

DSM_DECLARE_KERNEL(linear_rank_check);

static void test_linear_rank_numbers_x_fastest_then_y_then_z(void **state)
{
    (void)state;
    for (int trial = 0; trial < 50; ++trial) {
        dsm_dim3 dims = DSM_DIM3(1 + test_random_below(16), 1 + test_random_below(16), 1 + test_random_below(16));
        dsm_dim3 pos = DSM_DIM3(test_random_below(dims.x), test_random_below(dims.y), test_random_below(dims.z));
        uint32_t expected = pos.x + dims.x * (pos.y + dims.y * pos.z);
        uint32_t got = linear_rank(pos, dims);
        if (got != expected)
            fail_msg("linear_rank((%u,%u,%u), dims (%u,%u,%u)) = %u, expected %u", pos.x, pos.y, pos.z,
                     dims.x, dims.y, dims.z, got, expected);
    }
}

static void test_linear_rank_gives_each_cta_of_a_cluster_its_own_rank(void **state)
{
    (void)state;
    dsm_dim3 dims = DSM_DIM3(2 + test_random_below(3), 1 + test_random_below(4), 1 + test_random_below(3));
    uint32_t size = dims.x * dims.y * dims.z;
    unsigned char *seen = calloc(size, 1);
    for (uint32_t z = 0; z < dims.z; ++z)
        for (uint32_t y = 0; y < dims.y; ++y)
            for (uint32_t x = 0; x < dims.x; ++x) {
                uint32_t r = linear_rank(DSM_DIM3(x, y, z), dims);
                if (r >= size || seen[r])
                    fail_msg("linear_rank((%u,%u,%u)) = %u in a cluster of (%u,%u,%u): %s", x, y, z, r,
                             dims.x, dims.y, dims.z, r >= size ? "out of range" : "given twice");
                seen[r] = 1;
            }
    free(seen);
}

/* Launches linear_rank_check with clusters of `cluster` and a grid of
 * `per_dim` clusters in each dimension; checks linear_rank against
 * %cluster_ctarank and the mapa read of the next CTA in y. */
static void check_on_device(dsm_dim3 cluster, dsm_dim3 per_dim)
{
    dsm_dim3 grid = DSM_DIM3(cluster.x * per_dim.x, cluster.y * per_dim.y, cluster.z * per_dim.z);
    size_t blocks = (size_t)grid.x * grid.y * grid.z, bytes = blocks * sizeof(uint32_t);
    uint32_t *expected_rank = malloc(bytes), *expected_next = malloc(bytes);
    uint32_t *host_ranks = malloc(bytes), *host_hw = malloc(bytes), *host_next = malloc(bytes);
    for (uint32_t z = 0; z < grid.z; ++z)
        for (uint32_t y = 0; y < grid.y; ++y)
            for (uint32_t x = 0; x < grid.x; ++x) {
                size_t b = x + (size_t)grid.x * (y + (size_t)grid.y * z);
                uint32_t cx = x % cluster.x, cy = y % cluster.y, cz = z % cluster.z;
                uint32_t ny = y - cy + (cy + 1) % cluster.y;   /* next CTA in y, same cluster */
                expected_rank[b] = cx + cluster.x * (cy + cluster.y * cz);
                expected_next[b] = x + grid.x * (ny + grid.y * z);
            }

    uint32_t *ranks, *hw, *next;
    assert_int_equal(dsm_malloc((void **)&ranks, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&hw, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&next, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(ranks, 0xFF, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(hw, 0xFF, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(next, 0xFF, bytes), dsmSuccess);

    dsm_launch_config cfg = {grid, DSM_DIM3(32, 1, 1), cluster, 0};
    void *args[] = {&ranks, &hw, &next};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(linear_rank_check), args);
    if (err != dsmSuccess)
        fail_msg("clusters of (%u,%u,%u): dsm_launch_sync returned %s (%s) (repeat with DSM_SEED=%u)", cluster.x,
                 cluster.y, cluster.z, dsm_error_name(err), dsm_error_string(err), (unsigned)test_seed());
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");

    assert_int_equal(dsm_memcpy_to_host(host_ranks, ranks, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_host(host_hw, hw, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_host(host_next, next, bytes), dsmSuccess);
    assert_u32_array_equal(expected_rank, host_hw, blocks);     /* the hardware's own numbering */
    assert_u32_array_equal(host_hw, host_ranks, blocks);        /* linear_rank agrees with it */
    assert_u32_array_equal(expected_next, host_next, blocks);   /* and mapa reached the right CTA */
    dsm_free(ranks);
    dsm_free(hw);
    dsm_free(next);
    free(expected_rank);
    free(expected_next);
    free(host_ranks);
    free(host_hw);
    free(host_next);
}

/* A random cluster shape of at most 8 CTAs (the portable limit) with at
 * least 2 CTAs along y (so that "one step in y" is another CTA), and at least
 * 2 along z when three_d. */
static dsm_dim3 random_cluster(int three_d)
{
    for (;;) {
        dsm_dim3 c = DSM_DIM3(1 + test_random_below(8), 2 + test_random_below(3),
                              three_d ? 2 + test_random_below(3) : 1);
        if (c.x * c.y * c.z <= 8)
            return c;
    }
}

/* A few clusters in each dimension, at most 4 in all. */
static dsm_dim3 random_grid_of_clusters(void)
{
    for (;;) {
        dsm_dim3 g = DSM_DIM3(1 + test_random_below(3), 1 + test_random_below(2), 1 + test_random_below(2));
        if (g.x * g.y * g.z <= 4)
            return g;
    }
}

static void test_linear_rank_equals_cluster_ctarank_in_2d_clusters(void **state)
{
    (void)state;
    for (int trial = 0; trial < 4; ++trial)
        check_on_device(random_cluster(0), random_grid_of_clusters());
}

static void test_linear_rank_equals_cluster_ctarank_in_3d_clusters(void **state)
{
    (void)state;
    for (int trial = 0; trial < 4; ++trial)
        check_on_device(random_cluster(1), random_grid_of_clusters());
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_linear_rank_numbers_x_fastest_then_y_then_z),
    cmocka_unit_test(test_linear_rank_gives_each_cta_of_a_cluster_its_own_rank),
    cmocka_unit_test(test_linear_rank_equals_cluster_ctarank_in_2d_clusters),
    cmocka_unit_test(test_linear_rank_equals_cluster_ctarank_in_3d_clusters),
};

DSM_TEST_MAIN(tests)
