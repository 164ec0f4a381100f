/* test_xchg_seed.c: ch06.xchg_seed: seed 000's tile exchange on both paths moves every float of the peer's tile, with the seed's barriers. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(xchg_seed_dsmem);
DSM_DECLARE_KERNEL(xchg_seed_gmem);

#define TILE_FLOATS 4096

/* Runs one path on `clusters` clusters of 2 with random tiles for iters
 * exchanges and checks that every CTA's output is its peer's whole tile.
 * Returns the cluster-barrier phases the emulator counted (0 on a GPU). */
static unsigned run_seed_exchange(int gmem, int clusters, int threads, int iters)
{
    size_t blocks = 2 * (size_t)clusters, floats = blocks * TILE_FLOATS, bytes = floats * sizeof(float);
    float *host_in = malloc(bytes), *expected = malloc(bytes), *host_out = malloc(bytes);
    test_fill_random_float(host_in, floats, -1e6f, 1e6f);
    for (size_t b = 0; b < blocks; ++b)
        for (size_t i = 0; i < TILE_FLOATS; ++i)
            expected[b * TILE_FLOATS + i] = host_in[(b ^ 1u) * TILE_FLOATS + i];

    float *in, *out, *scratch;
    assert_int_equal(dsm_malloc((void **)&in, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&scratch, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(scratch, 0, bytes), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *dsmem_args[] = {&iters, &in, &out};
    void *gmem_args[] = {&iters, &scratch, &in, &out};
    dsm_error_t err = gmem ? dsm_launch_sync(&cfg, DSM_KERNEL(xchg_seed_gmem), gmem_args)
                           : dsm_launch_sync(&cfg, DSM_KERNEL(xchg_seed_dsmem), dsmem_args);
    if (err != dsmSuccess)
        fail_msg("xchg_seed_%s, %d clusters, %d threads, %d exchanges: %s (%s)", gmem ? "gmem" : "dsmem",
                 clusters, threads, iters, dsm_error_name(err), dsm_error_string(err));
    unsigned phases = 0;
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        phases = dsm_emu_last_cluster_barrier_phases();
    }
    assert_int_equal(dsm_memcpy_to_host(host_out, out, bytes), dsmSuccess);
    assert_float_array_near(expected, host_out, floats, 0.0);
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    free(host_in);
    free(expected);
    free(host_out);
    return phases;
}

static void test_xchg_seed_dsmem_every_cta_receives_its_peers_whole_tile(void **state)
{
    (void)state;
    run_seed_exchange(0, 1, 128, 1 + (int)test_random_below(3));
    run_seed_exchange(0, 2 + (int)test_random_below(2), 128, 2);
}

static void test_xchg_seed_gmem_every_cta_receives_its_peers_whole_tile(void **state)
{
    (void)state;
    run_seed_exchange(1, 1, 128, 1 + (int)test_random_below(3));
    run_seed_exchange(1, 2 + (int)test_random_below(2), 128, 2);
}

static void test_xchg_seed_works_with_blocks_other_than_the_seeds_128_threads(void **state)
{
    (void)state;
    run_seed_exchange(0, 2, 96, 2);
    run_seed_exchange(1, 2, 256, 1);
}

/* The benchmark must measure what the seed measured: one cluster.sync per
 * exchange on DSMEM (plus the seed's two before the loop), two per exchange
 * through global memory (plus one before the loop). */
static void test_xchg_seed_keeps_the_seeds_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int iters = 2 + (int)test_random_below(3);
    assert_int_equal(run_seed_exchange(0, 1, 128, iters), iters + 2);
    assert_int_equal(run_seed_exchange(1, 1, 128, iters), 2 * iters + 1);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_xchg_seed_dsmem_every_cta_receives_its_peers_whole_tile),
    cmocka_unit_test(test_xchg_seed_gmem_every_cta_receives_its_peers_whole_tile),
    cmocka_unit_test(test_xchg_seed_works_with_blocks_other_than_the_seeds_128_threads),
    cmocka_unit_test(test_xchg_seed_keeps_the_seeds_cluster_barriers),
};

DSM_TEST_MAIN(tests)
