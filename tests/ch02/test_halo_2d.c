/* test_halo_2d.c: ch02.halo_2d: the 6-neighbour sum over each cluster's box matches the CPU for random 2-D and 3-D cluster shapes (up to 16 CTAs), tile sizes and block shapes, each CTA reads only its own tile, every halo cell crosses through DSMEM exactly once, and every thread passes exactly two cluster barriers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(halo_2d);

typedef struct halo_shape {
    uint32_t c[3]; /* cluster shape, in CTAs */
    uint32_t g[3]; /* grid, in CTAs (multiples of c) */
    uint32_t t[3]; /* tile, in voxels */
    uint32_t b[3]; /* block, in threads */
} halo_shape;

enum {
    CHECK_GLOBAL = 1,   /* own tile of in, once; own tile of out, once; nothing else */
    CHECK_DSMEM = 2,    /* every halo cell crosses once through DSMEM, no more */
    CHECK_BARRIERS = 4, /* exactly two cluster barriers per thread */
};

#define SHAPE_FMT "clusters of %ux%ux%u CTAs, grid %ux%ux%u, tiles of %ux%ux%u voxels, blocks of %ux%ux%u threads " \
                  "(repeat with DSM_SEED=%" PRIu32 ")"
#define SHAPE_ARGS(s) (s)->c[0], (s)->c[1], (s)->c[2], (s)->g[0], (s)->g[1], (s)->g[2], (s)->t[0], (s)->t[1], \
                      (s)->t[2], (s)->b[0], (s)->b[1], (s)->b[2], test_seed()

static size_t dim(const halo_shape *s, int a) { return (size_t)s->g[a] * s->t[a]; }

/* The flat index of voxel (x, y, z). */
static size_t at(const halo_shape *s, size_t x, size_t y, size_t z)
{
    return (z * dim(s, 1) + y) * dim(s, 0) + x;
}

/* The expected sum at voxel p, and how many of its neighbours lie in another
 * tile of its cluster's box (the halo cells it needs) in *crossing. */
static uint32_t cpu_halo(const halo_shape *s, const uint32_t *img, const size_t p[3], uint32_t *crossing)
{
    uint32_t sum = 0;
    *crossing = 0;
    for (int k = 0; k < 6; ++k) {
        long q[3] = {(long)p[0], (long)p[1], (long)p[2]};
        int a = k / 2;
        q[a] += k % 2 ? 1 : -1;
        long box = (long)s->c[a] * s->t[a];
        if (q[a] < 0 || (size_t)q[a] >= dim(s, a) || q[a] / box != (long)p[a] / box)
            continue; /* outside the volume or the cluster's box */
        sum += img[at(s, (size_t)q[0], (size_t)q[1], (size_t)q[2])];
        if (q[a] / (long)s->t[a] != (long)p[a] / (long)s->t[a])
            ++*crossing;
    }
    return sum;
}

/* The lowest and one past the highest flat index of block (bx, by, bz)'s tile. */
static void tile_bounds(const halo_shape *s, const uint32_t blk[3], size_t *lo, size_t *hi)
{
    *lo = at(s, (size_t)blk[0] * s->t[0], (size_t)blk[1] * s->t[1], (size_t)blk[2] * s->t[2]);
    *hi = at(s, (size_t)(blk[0] + 1) * s->t[0] - 1, (size_t)(blk[1] + 1) * s->t[1] - 1,
             (size_t)(blk[2] + 1) * s->t[2] - 1) + 1;
}

static void check_mechanism(const halo_shape *s, int checks, const uint32_t *in, const uint32_t *out,
                            const uint64_t *halo_cells)
{
    uint32_t nc[3] = {s->g[0] / s->c[0], s->g[1] / s->c[1], s->g[2] / s->c[2]};
    uint32_t threads = s->b[0] * s->b[1] * s->b[2];
    uint64_t voxels = (uint64_t)s->t[0] * s->t[1] * s->t[2];
    for (uint32_t cl = 0; cl < nc[0] * nc[1] * nc[2]; ++cl) {
        uint32_t cpos[3] = {cl % nc[0], cl / nc[0] % nc[1], cl / nc[0] / nc[1]};
        uint64_t moved = 0;
        for (uint32_t r = 0; r < s->c[0] * s->c[1] * s->c[2]; ++r) {
            uint32_t blk[3] = {cpos[0] * s->c[0] + r % s->c[0], cpos[1] * s->c[1] + r / s->c[0] % s->c[1],
                               cpos[2] * s->c[2] + r / s->c[0] / s->c[1]};
            uint32_t b = blk[0] + s->g[0] * (blk[1] + s->g[1] * blk[2]);
            size_t lo, hi;
            tile_bounds(s, blk, &lo, &hi);
            dsm_emu_counts k;
            dsm_emu_gmem_use ui, uo;
            assert_true(dsm_emu_last_counts(b, &k));
            assert_true(dsm_emu_last_gmem_use(b, in, &ui));
            assert_true(dsm_emu_last_gmem_use(b, out, &uo));
            if (checks & CHECK_GLOBAL) {
                if (ui.ld_bytes != 4 * voxels || ui.ld_lo < 4 * lo || ui.ld_hi > 4 * hi || ui.st_bytes)
                    fail_msg("block %" PRIu32 " (%u, %u, %u) read %" PRIu64 " bytes of in in [%zu, %zu); it must "
                             "read its own tile, %" PRIu64 " voxels, once each, and nothing else: a neighbour in "
                             "another tile comes from that tile's CTA through DSMEM: " SHAPE_FMT,
                             b, blk[0], blk[1], blk[2], ui.ld_bytes, ui.ld_lo, ui.ld_hi, voxels, SHAPE_ARGS(s));
                if (uo.st_bytes != 4 * voxels || uo.st_lo < 4 * lo || uo.st_hi > 4 * hi || uo.ld_bytes)
                    fail_msg("block %" PRIu32 " (%u, %u, %u) wrote %" PRIu64 " bytes of out in [%zu, %zu); it must "
                             "write its own tile, %" PRIu64 " voxels, once each: " SHAPE_FMT,
                             b, blk[0], blk[1], blk[2], uo.st_bytes, uo.st_lo, uo.st_hi, voxels, SHAPE_ARGS(s));
                if (k.gmem_ld_bytes != ui.ld_bytes || k.gmem_st_bytes != uo.st_bytes)
                    fail_msg("block %" PRIu32 " used global memory beyond its tiles of in and out: " SHAPE_FMT, b,
                             SHAPE_ARGS(s));
            }
            moved += k.dsmem_ld_bytes + k.dsmem_st_bytes + 4 * k.dsmem_atom_ops;
            if ((checks & CHECK_BARRIERS) &&
                (k.cluster_waits_min != 2 || k.cluster_waits_max != 2 ||
                 k.cluster_arrives_release + k.cluster_arrives_relaxed != 2 * threads))
                fail_msg("the threads of block %" PRIu32 " passed %" PRIu32 " to %" PRIu32 " cluster barriers (%" PRIu32
                         " arrivals of %" PRIu32 " threads); the contract asks for exactly two: " SHAPE_FMT,
                         b, k.cluster_waits_min, k.cluster_waits_max,
                         k.cluster_arrives_release + k.cluster_arrives_relaxed, threads, SHAPE_ARGS(s));
        }
        if ((checks & CHECK_DSMEM) && moved != 4 * halo_cells[cl])
            fail_msg("cluster %" PRIu32 " moved %" PRIu64 " bytes through its CTAs' shared memory; its box has %" PRIu64
                     " (voxel, neighbour) pairs that cross between tiles, so exactly %" PRIu64 " bytes: every halo "
                     "cell once, %s: " SHAPE_FMT,
                     cl, moved, halo_cells[cl], 4 * halo_cells[cl],
                     moved < 4 * halo_cells[cl] ? "through DSMEM, not global memory" : "and nothing more", SHAPE_ARGS(s));
    }
}

/* Launches halo_2d on a random volume of shape s and checks every voxel; on
 * the emulator, no report, and the claims in `checks`. */
static void run_halo(const halo_shape *s, int checks)
{
    size_t n = dim(s, 0) * dim(s, 1) * dim(s, 2);
    uint32_t nc[3] = {s->g[0] / s->c[0], s->g[1] / s->c[1], s->g[2] / s->c[2]};
    uint32_t *host_in = malloc(n * 4), *want = malloc(n * 4), *got = malloc(n * 4);
    uint64_t *halo_cells = calloc((size_t)nc[0] * nc[1] * nc[2], sizeof(uint64_t));
    test_fill_random_u32(host_in, n, 0, 0xFFFFFFFFu);
    for (size_t z = 0; z < dim(s, 2); ++z)
        for (size_t y = 0; y < dim(s, 1); ++y)
            for (size_t x = 0; x < dim(s, 0); ++x) {
                size_t p[3] = {x, y, z};
                uint32_t crossing;
                want[at(s, x, y, z)] = cpu_halo(s, host_in, p, &crossing);
                size_t cl = x / s->t[0] / s->c[0] +
                            nc[0] * (y / s->t[1] / s->c[1] + nc[1] * (z / s->t[2] / s->c[2]));
                halo_cells[cl] += crossing;
            }

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, n * 4), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, n * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, n * 4), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, n * 4), dsmSuccess);
    dsm_kernel_t kernel = DSM_KERNEL(halo_2d);
    if (s->c[0] * s->c[1] * s->c[2] > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(kernel, 1), dsmSuccess);
    size_t smem = (size_t)(s->t[0] + 2) * (s->t[1] + 2) * (s->t[2] + 2) * 4;
    dsm_launch_config cfg = {DSM_DIM3(s->g[0], s->g[1], s->g[2]), DSM_DIM3(s->b[0], s->b[1], s->b[2]),
                             DSM_DIM3(s->c[0], s->c[1], s->c[2]), smem};
    uint32_t tx = s->t[0], ty = s->t[1], tz = s->t[2];
    void *args[] = {&in, &out, &tx, &ty, &tz};
    dsm_error_t err = dsm_launch_sync(&cfg, kernel, args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s): " SHAPE_FMT, dsm_error_name(err), dsm_error_string(err),
                 SHAPE_ARGS(s));
    if (test_on_emulator() && dsm_emu_last_report()->kind != DSM_REPORT_NONE)
        fail_msg("the emulator reported %s (above): " SHAPE_FMT, dsm_report_kind_name(dsm_emu_last_report()->kind),
                 SHAPE_ARGS(s));
    assert_int_equal(dsm_memcpy_to_host(got, out, n * 4), dsmSuccess);
    for (size_t i = 0; i < n; ++i)
        if (got[i] != want[i]) {
            size_t x = i % dim(s, 0), y = i / dim(s, 0) % dim(s, 1), z = i / dim(s, 0) / dim(s, 1);
            fail_msg("voxel (%zu, %zu, %zu) of tile (%zu, %zu, %zu), at (%zu, %zu, %zu) in its tile, is 0x%08" PRIx32
                     ", expected 0x%08" PRIx32 ": " SHAPE_FMT,
                     x, y, z, x / s->t[0], y / s->t[1], z / s->t[2], x % s->t[0], y % s->t[1], z % s->t[2], got[i],
                     want[i], SHAPE_ARGS(s));
        }
    if (checks && test_on_emulator())
        check_mechanism(s, checks, in, out, halo_cells);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(want);
    free(got);
    free(halo_cells);
}

static uint32_t pick(uint32_t lo, uint32_t hi) { return lo + test_random_below(hi - lo + 1); }

/* A random block shape of at most max_threads threads, unrelated to the tile. */
static void random_block(halo_shape *s, int three_d, uint32_t max_threads)
{
    do {
        s->b[0] = pick(1, 16);
        s->b[1] = pick(1, 8);
        s->b[2] = three_d ? pick(1, 3) : 1;
    } while (s->b[0] * s->b[1] * s->b[2] > max_threads ||
             (s->b[0] == s->t[0] && s->b[1] == s->t[1] && s->b[2] == s->t[2]));
}

/* A random 2-D (cz = 1, one plane) or 3-D shape with a cluster of at most
 * max_cluster CTAs; each grid dimension holds one or two clusters. */
static halo_shape random_shape(int three_d, uint32_t max_cluster)
{
    halo_shape s;
    do {
        s.c[0] = pick(1, 4);
        s.c[1] = pick(1, 4);
        s.c[2] = three_d ? pick(2, 4) : 1;
    } while (s.c[0] * s.c[1] * s.c[2] > max_cluster || s.c[0] * s.c[1] * s.c[2] < 2);
    for (int a = 0; a < 3; ++a) {
        s.g[a] = s.c[a] * (a == 2 && !three_d ? 1 : pick(1, 2));
        s.t[a] = a == 2 ? (three_d ? pick(1, 4) : 1) : pick(1, three_d ? 6 : 11);
    }
    random_block(&s, three_d, 128);
    return s;
}

static void test_halo_2d_matches_the_cpu_for_random_2d_cluster_shapes(void **state)
{
    (void)state;
    for (int i = 0; i < 4; ++i) {
        halo_shape s = random_shape(0, 8);
        run_halo(&s, 0);
    }
}

static void test_halo_2d_matches_the_cpu_for_random_3d_cluster_shapes(void **state)
{
    (void)state;
    for (int i = 0; i < 3; ++i) {
        halo_shape s = random_shape(1, 8);
        run_halo(&s, 0);
    }
}

/* Rows, columns and stacks of CTAs are clusters too, and a cluster of 16 needs the non-portable attribute. */
static void test_halo_2d_matches_the_cpu_for_1d_clusters_and_clusters_of_16(void **state)
{
    (void)state;
    static const uint32_t shapes[][3] = {{4, 1, 1}, {1, 5, 1}, {1, 1, 3}, {4, 4, 1}, {2, 2, 4}, {16, 1, 1}, {2, 8, 1}};
    for (int i = 0; i < 2; ++i) {
        const uint32_t *c = shapes[test_random_below(sizeof shapes / sizeof shapes[0])];
        halo_shape s = {{c[0], c[1], c[2]}, {c[0], c[1], c[2]}, {pick(1, 5), pick(1, 5), c[2] > 1 ? pick(1, 3) : 1},
                        {0, 0, 0}};
        random_block(&s, c[2] > 1, 64);
        run_halo(&s, 0);
    }
}

/* Tiles of one voxel in some direction (every neighbour in that direction lives in another CTA), blocks with
 * more threads than the tile has voxels, and blocks with far fewer. */
static void test_halo_2d_thin_tiles_and_blocks_larger_or_smaller_than_the_tile(void **state)
{
    (void)state;
    halo_shape few = {{2, 2, 1}, {2, 2, 1}, {5 + pick(0, 4), 4 + pick(0, 4), 1}, {pick(1, 4), pick(1, 3), 1}};
    run_halo(&few, 0);
    halo_shape s = {{2, 2, 2}, {2, 2, 2}, {1, pick(1, 3), 1}, {0, 0, 0}};
    random_block(&s, 1, 128);
    run_halo(&s, 0);
    halo_shape big = {{2, 3, 1}, {4, 3, 1}, {3, 2, 1}, {16, 8, 1}}; /* 128 threads for 6 voxels */
    run_halo(&big, 0);
}

static void test_halo_2d_each_cta_reads_only_its_own_tile_from_global_memory(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    halo_shape s = random_shape(0, 8);
    run_halo(&s, CHECK_GLOBAL);
    s = random_shape(1, 8);
    run_halo(&s, CHECK_GLOBAL);
}

static void test_halo_2d_every_halo_cell_crosses_through_dsmem_exactly_once(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    halo_shape s = random_shape(0, 8);
    run_halo(&s, CHECK_DSMEM);
    s = random_shape(1, 8);
    run_halo(&s, CHECK_DSMEM);
}

static void test_halo_2d_every_thread_passes_exactly_two_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    halo_shape s = random_shape(test_random_below(2), 8);
    run_halo(&s, CHECK_BARRIERS);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_halo_2d_matches_the_cpu_for_random_2d_cluster_shapes),
    cmocka_unit_test(test_halo_2d_matches_the_cpu_for_random_3d_cluster_shapes),
    cmocka_unit_test(test_halo_2d_matches_the_cpu_for_1d_clusters_and_clusters_of_16),
    cmocka_unit_test(test_halo_2d_thin_tiles_and_blocks_larger_or_smaller_than_the_tile),
    cmocka_unit_test(test_halo_2d_each_cta_reads_only_its_own_tile_from_global_memory),
    cmocka_unit_test(test_halo_2d_every_halo_cell_crosses_through_dsmem_exactly_once),
    cmocka_unit_test(test_halo_2d_every_thread_passes_exactly_two_cluster_barriers),
};

DSM_TEST_MAIN(tests)
