/* test_split_barrier.c: ch03.split_barrier: the 3-point stencil with a split cluster barrier matches the CPU across CTA edges. */
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

DSM_DECLARE_KERNEL(halo_stencil);

/* ---- where each thread computed its interior (emulator: test_split_barrier_probe.h) ----
 * Thread t of a CTA computes the interior points t + 1, t + 1 + blockDim.x, ...
 * (the kernel's given loop). The split is right when the thread arrives before
 * it computes any of them and waits only after it has computed all of them. */
enum { ARRIVED_BEFORE_INTERIOR = 1, WAITED_BEFORE_INTERIOR_DONE = 2 };
static const float *probe_out;     /* the launch's out (device memory, readable here on the emulator) */
static int probe_tile;
static unsigned char *probe_seen;  /* per thread of the grid: the flags above */

void split_probe(int wait, unsigned block, unsigned thread, unsigned threads);
void split_probe(int wait, unsigned block, unsigned thread, unsigned threads)
{
    if (probe_out == NULL)
        return;
    size_t base = (size_t)block * (size_t)probe_tile;
    int written = 0, total = 0;
    for (int i = (int)thread + 1; i < probe_tile - 1; i += (int)threads) {
        uint32_t bits;
        memcpy(&bits, &probe_out[base + (size_t)i], sizeof bits);
        written += bits != 0xFFFFFFFFu;     /* out starts as all ones, a NaN the stencil never makes */
        ++total;
    }
    unsigned char *seen = &probe_seen[(size_t)block * threads + thread];
    if (!wait && written == 0)
        *seen |= ARRIVED_BEFORE_INTERIOR;
    if (wait && written < total)
        *seen |= WAITED_BEFORE_INTERIOR_DONE;
}

/* Fails unless every thread that has interior points arrived before computing
 * them and waited after (the split barrier around independent work). */
static void check_split(int blocks, int tile, int threads)
{
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < threads && t + 1 < tile - 1; ++t) {
            unsigned char seen = probe_seen[(size_t)b * (size_t)threads + (size_t)t];
            if (seen & WAITED_BEFORE_INTERIOR_DONE)
                MECH_FAIL("thread %d of block %d waited at a cluster barrier before it had computed its interior "
                          "points: the interior needs no neighbour, so compute it between the arrive and the wait",
                          t, b);
            if (!(seen & ARRIVED_BEFORE_INTERIOR))
                MECH_FAIL("thread %d of block %d computed interior points before its first cluster arrive: arrive "
                          "as soon as the tile is written, so that the neighbours can go on", t, b);
        }
}

/* Runs halo_stencil on `clusters` clusters of `cluster` CTAs with random tiles
 * of `tile` floats and compares with the stencil computed on the CPU. */
static void check_stencil(int cluster, int clusters, int tile, int threads)
{
    size_t seg = (size_t)cluster * (size_t)tile, elems = seg * (size_t)clusters;
    float *host_in = malloc(elems * sizeof(float)), *expected = malloc(elems * sizeof(float));
    float *host_out = malloc(elems * sizeof(float));
    test_fill_random_float(host_in, elems, -10.0f, 10.0f);
    for (size_t c = 0; c < (size_t)clusters; ++c) {
        const float *x = host_in + c * seg;
        for (size_t j = 0; j < seg; ++j) {
            float left = j > 0 ? x[j - 1] : 0.0f, right = j + 1 < seg ? x[j + 1] : 0.0f;
            expected[c * seg + j] = (left + x[j]) + right;
        }
    }

    float *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, elems * sizeof(float)), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(cluster * clusters, 1, 1), DSM_DIM3(threads, 1, 1),
                             DSM_DIM3(cluster, 1, 1), (size_t)tile * sizeof(float)};
    void *args[] = {&in, &out, &tile};
    probe_out = out;
    probe_tile = tile;
    probe_seen = calloc((size_t)cluster * (size_t)clusters * (size_t)threads, 1);
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(halo_stencil), args);
    probe_out = NULL;
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        check_split(cluster * clusters, tile, threads);
        /* The halo crosses DSMEM: each CTA reads only its own tile of in. */
        size_t tile_bytes = (size_t)tile * sizeof(float);
        for (uint32_t b = 0; b < (uint32_t)(cluster * clusters); ++b) {
            mech_reads_only(b, in, "in", b * tile_bytes, (b + 1) * tile_bytes);
            mech_cluster_waits(b, 2, "the split barrier, then the last one before the exit");
        }
    }
    free(probe_seen);
    probe_seen = NULL;

    assert_int_equal(dsm_memcpy_to_host(host_out, out, elems * sizeof(float)), dsmSuccess);
    assert_float_array_near(expected, host_out, elems, 0.0);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_split_barrier_stencil_matches_the_cpu_in_clusters_of_2(void **state)
{
    (void)state;
    check_stencil(2, 1 + (int)test_random_below(3), 3 + (int)test_random_below(200), 1 + (int)test_random_below(256));
}

static void test_split_barrier_stencil_matches_the_cpu_in_clusters_of_8(void **state)
{
    (void)state;
    check_stencil(8, 1 + (int)test_random_below(2), 3 + (int)test_random_below(200), 1 + (int)test_random_below(256));
}

static void test_split_barrier_stencil_matches_the_cpu_in_clusters_of_any_size(void **state)
{
    (void)state;
    for (int trial = 0; trial < 3; ++trial)
        check_stencil(1 + (int)test_random_below(8), 1 + (int)test_random_below(3), 2 + (int)test_random_below(300),
                      1 + (int)test_random_below(256));
}

/* Every boundary of the contract, deterministically: the shortest tile (2: no interior at all),
 * 3 (one interior point), a tile exactly the block and one element more, a cluster of 1 (no
 * neighbour: zeros beyond both ends) and the largest portable one. */
static void test_split_barrier_stencil_at_every_boundary_of_the_contract(void **state)
{
    (void)state;
    int threads = 32 + (int)test_random_below(96);
    check_stencil(2, 1, 2, threads);
    check_stencil(3, 1, 3, threads);
    check_stencil(2, 2, threads, threads);
    check_stencil(2, 1, threads + 1, threads);
    check_stencil(1, 2, 2 + (int)test_random_below(40), threads);
    check_stencil(8, 1, 2, 1);
}

static void test_split_barrier_stencil_with_fewer_threads_than_elements(void **state)
{
    (void)state;
    check_stencil(2 + (int)test_random_below(7), 1 + (int)test_random_below(2), 300 + (int)test_random_below(200),
                  1 + (int)test_random_below(64));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_split_barrier_stencil_matches_the_cpu_in_clusters_of_2),
    cmocka_unit_test(test_split_barrier_stencil_matches_the_cpu_in_clusters_of_8),
    cmocka_unit_test(test_split_barrier_stencil_matches_the_cpu_in_clusters_of_any_size),
    cmocka_unit_test(test_split_barrier_stencil_at_every_boundary_of_the_contract),
    cmocka_unit_test(test_split_barrier_stencil_with_fewer_threads_than_elements),
};

DSM_TEST_MAIN(tests)
