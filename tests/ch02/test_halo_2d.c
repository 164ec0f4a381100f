/* test_halo_2d.c: ch02.halo_2d: the 4-neighbour sum over each 2x2 cluster's patch matches the CPU on one and on many clusters, the emulator finds nothing under all schedules, and each thread passes exactly two cluster barriers. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "ch01/barrier_count.h"
#include "support/test_support.h"

#define TILE 8 /* HALO_TILE of the exercise */

DSM_DECLARE_KERNEL(halo_2d);

typedef struct grid_shape {
    uint32_t gx, gy; /* CTAs; clusters are 2 x 2 */
} grid_shape;

/* The expected sum at (x, y): the neighbours inside the same 2T x 2T patch. */
static uint32_t cpu_halo(const uint32_t *img, uint32_t width, uint32_t x, uint32_t y)
{
    static const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, -1, 1};
    uint32_t sum = 0, patch = 2 * TILE;
    for (int k = 0; k < 4; ++k) {
        long qx = (long)x + dx[k], qy = (long)y + dy[k];
        if (qx < 0 || qy < 0 || (uint32_t)qx / patch != x / patch || (uint32_t)qy / patch != y / patch)
            continue;
        sum += img[(size_t)qy * width + (size_t)qx];
    }
    return sum;
}

static void check_halo(const grid_shape *g)
{
    uint32_t width = g->gx * TILE, height = g->gy * TILE;
    size_t pixels = (size_t)width * height;
    uint32_t *host_in = malloc(pixels * sizeof(uint32_t)), *expected = malloc(pixels * sizeof(uint32_t));
    uint32_t *host_out = malloc(pixels * sizeof(uint32_t));
    test_fill_random_u32(host_in, pixels, 0, 0xFFFFFFFFu);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x)
            expected[(size_t)y * width + x] = cpu_halo(host_in, width, x, y);

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, pixels * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, pixels * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, pixels * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, pixels * sizeof(uint32_t)), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(g->gx, g->gy, 1), DSM_DIM3(TILE, TILE, 1), DSM_DIM3(2, 2, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(halo_2d), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(host_out, out, pixels * sizeof(uint32_t)), dsmSuccess);
    assert_u32_array_equal(expected, host_out, pixels);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_halo_2d_one_cluster_sums_the_neighbours_across_its_four_tiles(void **state)
{
    (void)state;
    grid_shape g = {2, 2};
    check_halo(&g);
}

static void test_halo_2d_many_clusters_stop_at_their_patch_edges(void **state)
{
    (void)state;
    grid_shape g = {2 + 2 * test_random_below(3), 2 + 2 * test_random_below(3)};
    if (g.gx == 2 && g.gy == 2)
        g.gx = 4;
    check_halo(&g);
}

static void launch_for_count(void *ctx)
{
    check_halo((const grid_shape *)ctx);
}

static void test_halo_2d_every_thread_passes_exactly_two_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    grid_shape g = {4, 2};
    uint64_t arrivals = count_cluster_arrivals(launch_for_count, &g);
    uint64_t threads = (uint64_t)g.gx * g.gy * TILE * TILE;
    if (arrivals != 2 * threads)
        fail_msg("every thread passed %.2f cluster barriers (%llu arrivals of %llu threads); the contract asks for "
                 "exactly two",
                 (double)arrivals / (double)threads, (unsigned long long)arrivals, (unsigned long long)threads);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_halo_2d_one_cluster_sums_the_neighbours_across_its_four_tiles),
    cmocka_unit_test(test_halo_2d_many_clusters_stop_at_their_patch_edges),
    cmocka_unit_test(test_halo_2d_every_thread_passes_exactly_two_cluster_barriers),
};

DSM_TEST_MAIN(tests)
