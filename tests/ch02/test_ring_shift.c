/* test_ring_shift.c: ch02.ring_shift: every CTA gets its left neighbour's tile, in clusters of 2 to 8. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

DSM_DECLARE_KERNEL(ring_shift);

/* Runs ring_shift on `clusters` clusters of `cluster` CTAs with random tiles of
 * tile_elems floats and checks out against the rotated input. */
static void check_ring_shift(int cluster, int clusters, int tile_elems, int threads)
{
    size_t blocks = (size_t)cluster * (size_t)clusters, elems = blocks * (size_t)tile_elems;
    float *host_in = malloc(elems * sizeof(float)), *expected = malloc(elems * sizeof(float));
    float *host_out = malloc(elems * sizeof(float));
    test_fill_random_float(host_in, elems, -1000.0f, 1000.0f);
    for (size_t b = 0; b < blocks; ++b) {
        size_t rank = b % (size_t)cluster, first = b - rank;
        size_t left = first + (rank + (size_t)cluster - 1) % (size_t)cluster;
        for (int i = 0; i < tile_elems; ++i)
            expected[b * (size_t)tile_elems + (size_t)i] = host_in[left * (size_t)tile_elems + (size_t)i];
    }

    float *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, elems * sizeof(float)), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(cluster, 1, 1),
                             (size_t)tile_elems * sizeof(float)};
    void *args[] = {&in, &out, &tile_elems};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(ring_shift), args);
    if (err != dsmSuccess)
        fail_msg("clusters of %d: dsm_launch_sync returned %s (%s)", cluster, dsm_error_name(err),
                 dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        /* The lesson: the left neighbour's tile crosses DSMEM; in[] is read only for one's own tile. */
        size_t tile_bytes = (size_t)tile_elems * sizeof(float);
        for (uint32_t b = 0; b < (uint32_t)blocks; ++b) {
            mech_reads_only(b, in, "in", b * tile_bytes, (b + 1) * tile_bytes);
            mech_writes_only(b, out, "out", b * tile_bytes, (b + 1) * tile_bytes);
            dsm_emu_counts c = mech_counts(b);
            if (c.dsmem_ld_bytes < tile_bytes)
                MECH_FAIL("CTA %u (clusters of %d) read %" PRIu64 " bytes from peers' shared memory, less than "
                          "its left neighbour's tile (%zu bytes)", b, cluster, c.dsmem_ld_bytes, tile_bytes);
        }
    }

    assert_int_equal(dsm_memcpy_to_host(host_out, out, elems * sizeof(float)), dsmSuccess);
    assert_float_array_near(expected, host_out, elems, 0.0);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_ring_shift_every_cta_gets_its_left_neighbours_tile_in_clusters_of_2_to_8(void **state)
{
    (void)state;
    for (int cluster = 2; cluster <= 8; ++cluster)
        check_ring_shift(cluster, 1 + (int)test_random_below(3), 1 + (int)test_random_below(256),
                         1 + (int)test_random_below(256));
}

static void test_ring_shift_tiles_larger_than_the_block(void **state)
{
    (void)state;
    check_ring_shift(2 + (int)test_random_below(7), 1 + (int)test_random_below(3), 700 + (int)test_random_below(300),
                     1 + (int)test_random_below(160));
}

/* The boundaries between the cases a kernel handles: a tile of one element, a tile exactly the
 * block, one element more (a second pass for one thread), one element less (an idle thread). */
static void test_ring_shift_tiles_at_every_boundary_of_the_block(void **state)
{
    (void)state;
    int threads = 32 + (int)test_random_below(96);
    check_ring_shift(2, 1, 1, threads);
    check_ring_shift(3, 1, threads, threads);
    check_ring_shift(2, 2, threads + 1, threads);
    check_ring_shift(4, 1, threads - 1, threads);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ring_shift_every_cta_gets_its_left_neighbours_tile_in_clusters_of_2_to_8),
    cmocka_unit_test(test_ring_shift_tiles_larger_than_the_block),
    cmocka_unit_test(test_ring_shift_tiles_at_every_boundary_of_the_block),
};

DSM_TEST_MAIN(tests)
