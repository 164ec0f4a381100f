/* test_xchg_vec.c: ch06.xchg_vec: the careful tile exchange moves every byte right for every pattern and cluster size, on both paths, with one cluster barrier per exchange. */
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "../../bench/xchg_patterns.h"

DSM_DECLARE_KERNEL(xchg_vec_dsmem);
DSM_DECLARE_KERNEL(xchg_vec_gmem);

/* ---- which threads move the tile (test_xchg_vec_probe.h) ---- */

/* While probe_on, the 16-byte device-API loads each thread of CTAs 0 and 1 made. */
enum { PROBE_CTAS = 2, PROBE_THREADS = 1024 };
static int probe_on;
static unsigned probe_loads[PROBE_CTAS][PROBE_THREADS];

#ifndef DSM_BACKEND_CUDA
void dsm_emu_access(int kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line);
struct dsm_emu_thread_view {
    dsm_dim3 thread_idx, block_idx, block_dim, grid_dim;
};
extern const struct dsm_emu_thread_view *dsm_emu_self;

/* Called by the kernel in place of the emulator's device-API access (the probe header renames it). */
void probe_xv_access(int kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line);
void probe_xv_access(int kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line)
{
    unsigned b = dsm_emu_self->block_idx.x, t = dsm_emu_self->thread_idx.x;
    if (probe_on && kind == 0 /* DSM_EMU_LD of device_emu.h */ && bytes == 16 && b < PROBE_CTAS && t < PROBE_THREADS)
        probe_loads[b][t]++;
    dsm_emu_access(kind, addr, val, bytes, file, line);
}
#endif

/* make_pattern: the peer table of one pattern, with the tests' seeded random numbers. */
static void make_pattern(int *table, int n, enum pattern p)
{
    xchg_make_pattern(table, n, p, test_random_below);
}

/* The CPU reference: iters exchanges of the tiles (words) of every cluster. */
static void reference(uint32_t *tiles, size_t blocks, int n, const int *table, size_t tile_words, int iters)
{
    size_t cw = tile_words / (size_t)n, bytes = blocks * tile_words * sizeof(uint32_t);
    uint32_t *next = malloc(bytes);
    for (int it = 0; it < iters; ++it) {
        for (size_t b = 0; b < blocks; ++b) {
            size_t r = b % (size_t)n, first = b - r;
            for (int j = 0; j < n; ++j)
                memcpy(&next[b * tile_words + (size_t)j * cw],
                       &tiles[(first + (size_t)table[r * (size_t)n + (size_t)j]) * tile_words + (size_t)j * cw],
                       cw * sizeof(uint32_t));
        }
        memcpy(tiles, next, bytes);
    }
    free(next);
}

/* On the emulator: the mechanism the exercise teaches. Every CTA fetched, in
 * every exchange, at least the chunks that come from other CTAs, in 16-byte
 * accesses: DSMEM loads on the DSMEM path; on the global path its whole tile
 * out to scratch and the chunks back from scratch, every global access 16
 * bytes wide but the pattern table's n 4-byte entries. */
static void check_the_mechanism(int gmem, const int *table, int n, size_t blocks, int tile_bytes, int iters,
                                const void *scratch)
{
    uint64_t chunk = (uint64_t)tile_bytes / (uint64_t)n, tile = (uint64_t)tile_bytes * (uint64_t)iters;
    for (uint32_t b = 0; b < blocks; ++b) {
        dsm_emu_counts c;
        assert_true(dsm_emu_last_counts(b, &c));
        int r = (int)(b % (uint32_t)n);
        uint64_t remote = 0;
        for (int j = 0; j < n; ++j)
            remote += table[r * n + j] != r ? chunk : 0;
        remote *= (uint64_t)iters;
        const char *path = gmem ? "xchg_vec_gmem" : "xchg_vec_dsmem";
        if (!gmem) {
            if (c.dsmem_ld_bytes < remote || c.dsmem_ld_bytes > tile)
                fail_msg("%s, %d exchanges: CTA %u read %llu bytes of its peers' tiles, %llu to %llu expected",
                         path, iters, b, (unsigned long long)c.dsmem_ld_bytes, (unsigned long long)remote,
                         (unsigned long long)tile);
            if (c.dsmem_ld_bytes != 16 * c.dsmem_ld_ops)
                fail_msg("%s: CTA %u read %llu bytes of DSMEM in %llu loads: one 16-byte load per unit "
                         "(dsm_ld_shared_cluster_v4_u32), not several narrower ones", path, b,
                         (unsigned long long)c.dsmem_ld_bytes, (unsigned long long)c.dsmem_ld_ops);
        } else {
            dsm_emu_gmem_use u;
            assert_true(dsm_emu_last_gmem_use(b, scratch, &u));
            if (u.st_bytes != tile || u.ld_bytes < remote || u.ld_bytes > tile)
                fail_msg("%s, %d exchanges: CTA %u wrote %llu and read %llu bytes of scratch: its whole tile out "
                         "(%llu) and %llu to %llu bytes back expected", path, iters, b,
                         (unsigned long long)u.st_bytes, (unsigned long long)u.ld_bytes, (unsigned long long)tile,
                         (unsigned long long)remote, (unsigned long long)tile);
            uint64_t table_bytes = 4 * (uint64_t)n, table_ops = (uint64_t)n;
            if (c.gmem_st_bytes != 16 * c.gmem_st_ops || c.gmem_ld_ops < table_ops ||
                c.gmem_ld_bytes - table_bytes != 16 * (c.gmem_ld_ops - table_ops))
                fail_msg("%s: CTA %u moved %llu bytes of global memory in %llu loads and %llu bytes in %llu stores: "
                         "16-byte (uint4) accesses expected", path, b, (unsigned long long)c.gmem_ld_bytes,
                         (unsigned long long)c.gmem_ld_ops, (unsigned long long)c.gmem_st_bytes,
                         (unsigned long long)c.gmem_st_ops);
        }
    }
}

/* Runs one path and checks every word of every tile; fails with the
 * configuration on any difference, and on the emulator checks the mechanism.
 * Returns the emulator's count of cluster barrier phases (0 on a GPU). */
static unsigned run_exchange(int gmem, enum pattern p, int n, int clusters, int tile_bytes, int threads, int iters)
{
    size_t blocks = (size_t)n * (size_t)clusters, words = blocks * (size_t)tile_bytes / 4;
    size_t bytes = words * sizeof(uint32_t);
    int table[16 * 16];
    make_pattern(table, n, p);
    uint32_t *host_in = malloc(bytes), *expected = malloc(bytes), *host_out = malloc(bytes);
    test_fill_random_u32(host_in, words, 0, UINT32_MAX);
    memcpy(expected, host_in, bytes);
    reference(expected, blocks, n, table, (size_t)tile_bytes / 4, iters);

    void *in, *out, *scratch, *chunk_src;
    assert_int_equal(dsm_malloc(&in, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc(&out, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc(&scratch, 2 * bytes), dsmSuccess);
    assert_int_equal(dsm_malloc(&chunk_src, sizeof table), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(chunk_src, table, sizeof table), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(scratch, 0, 2 * bytes), dsmSuccess);

    dsm_kernel_t k = gmem ? DSM_KERNEL(xchg_vec_gmem) : DSM_KERNEL(xchg_vec_dsmem);
    if (n > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1),
                             (size_t)tile_bytes * (gmem ? 1u : 2u)};
    void *args[] = {&in, &out, &chunk_src, &tile_bytes, &iters, &scratch};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("xchg_vec_%s, %s, clusters of %d, %d B tiles, %d threads, %d exchanges: %s (%s)",
                 gmem ? "gmem" : "dsmem", pattern_name[p], n, tile_bytes, threads, iters, dsm_error_name(err),
                 dsm_error_string(err));
    unsigned phases = 0;
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        phases = dsm_emu_last_cluster_barrier_phases();
    }
    assert_int_equal(dsm_memcpy_to_host(host_out, out, bytes), dsmSuccess);
    for (size_t i = 0; i < words; ++i)
        if (host_out[i] != expected[i]) {
            print_error("xchg_vec_%s, %s, clusters of %d, %d B tiles, %d threads, %d exchanges: first wrong word "
                        "%zu (CTA %zu)\n", gmem ? "gmem" : "dsmem", pattern_name[p], n, tile_bytes, threads, iters,
                        i, i / ((size_t)tile_bytes / 4));
            break;
        }
    assert_u32_array_equal(expected, host_out, words);
    if (test_on_emulator())
        check_the_mechanism(gmem, table, n, blocks, tile_bytes, iters, scratch);
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    dsm_free(chunk_src);
    free(host_in);
    free(expected);
    free(host_out);
    return phases;
}

/* A tile size of 16 * n * m bytes, m in [1, max_m]. */
static int tile_for(int n, int max_m) { return 16 * n * (1 + (int)test_random_below((uint32_t)max_m)); }

static void test_xchg_vec_dsmem_moves_every_byte_for_all_three_patterns(void **state)
{
    (void)state;
    for (int p = NEIGHBOUR; p <= ALL_TO_ALL; ++p)
        for (int n = 2; n <= 4; ++n)
            run_exchange(0, (enum pattern)p, n, 2, tile_for(n, 12), 64, 1 + (int)test_random_below(4));
}

static void test_xchg_vec_gmem_moves_every_byte_for_all_three_patterns(void **state)
{
    (void)state;
    for (int p = NEIGHBOUR; p <= ALL_TO_ALL; ++p)
        for (int n = 2; n <= 4; ++n)
            run_exchange(1, (enum pattern)p, n, 2, tile_for(n, 12), 64, 1 + (int)test_random_below(4));
}

static void test_xchg_vec_both_paths_handle_clusters_of_8_and_16(void **state)
{
    (void)state;
    for (int gmem = 0; gmem <= 1; ++gmem) {
        run_exchange(gmem, PERMUTATION, 8, 1, tile_for(8, 3), 32, 3);
        run_exchange(gmem, ALL_TO_ALL, 16, 1, tile_for(16, 2), 32, 2);
        run_exchange(gmem, NEIGHBOUR, 16, 1, 16 * 16, 32, 3);
    }
}

/* Tiles larger than the block (several loads per thread) and smaller than it
 * (idle threads), odd and even numbers of exchanges. */
static void test_xchg_vec_tiles_larger_and_smaller_than_the_block(void **state)
{
    (void)state;
    for (int gmem = 0; gmem <= 1; ++gmem) {
        run_exchange(gmem, NEIGHBOUR, 2, 2, 16 * 2 * 300, 96, 3);
        run_exchange(gmem, ALL_TO_ALL, 4, 1, 16 * 4 * 5, 128, 2);
        run_exchange(gmem, PERMUTATION, 3, 2, 16 * 3 * 41, 64, 0);
    }
}

/* One exchange needs one cluster barrier: more is wasted time on the GPU. */
static void test_xchg_vec_uses_one_cluster_barrier_per_exchange(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int iters = 3 + (int)test_random_below(4);
    unsigned dsmem = run_exchange(0, ALL_TO_ALL, 4, 1, 16 * 4 * 8, 64, iters);
    unsigned gmem = run_exchange(1, ALL_TO_ALL, 4, 1, 16 * 4 * 8, 64, iters);
    if (dsmem > (unsigned)iters + 1 || gmem > (unsigned)iters + 1)
        fail_msg("%d exchanges took %u cluster barriers on DSMEM and %u through global memory: at most %d each",
                 iters, dsmem, gmem, iters + 1);
}

/* Every thread moves its share: with a tile of at least a few units per thread, each thread of
 * the block loads some of its units from the peers itself (a neighbour pattern: every chunk is
 * remote). A tile moved by one warp keeps the other warps' loads out of flight: a quarter or
 * less of the bandwidth the block could have. One schedule: the counts are per run. */
static void test_xchg_vec_dsmem_every_thread_loads_its_share(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int threads = 64 * (1 + (int)test_random_below(2)), n = 2; /* 2 * tile_bytes stays below 48 KB */
    int tile_bytes = 16 * n * threads * (2 + (int)test_random_below(3));
    memset(probe_loads, 0, sizeof probe_loads);
    assert_int_equal(dsm_emu_set_schedules("asc"), dsmSuccess);
    probe_on = 1;
    run_exchange(0, NEIGHBOUR, n, 1, tile_bytes, threads, 1);
    probe_on = 0;
    dsm_emu_set_schedules(NULL);
    for (int b = 0; b < PROBE_CTAS; ++b) {
        int idle = 0, first = -1;
        for (int t = 0; t < threads; ++t)
            if (probe_loads[b][t] == 0 && idle++ == 0)
                first = t;
        if (idle)
            fail_msg("xchg_vec_dsmem, %d threads, %d B tiles (%d units per thread): %d threads of CTA %d (the "
                     "first: thread %d, warp %d) loaded nothing from the peer: every thread loads its share of the "
                     "tile, so that all warps have loads in flight", threads, tile_bytes, tile_bytes / 16 / threads,
                     idle, b, first, first / 32);
    }
}

/* Little's law, the lesson of the chapter: a thread that waits for each load before it issues
 * the next keeps one 16-byte load in flight. With at least two units per thread in an exchange,
 * every thread that loads must issue two or more 16-byte loads before a store, a barrier or a
 * wait (the emulator's ld_burst counters; the copy-in and copy-out around the exchanges are one
 * load and one store each, so they never lengthen a run). One schedule: the counters are its. */
static void test_xchg_vec_both_paths_keep_several_loads_in_flight_per_thread(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int threads = 64 * (1 + (int)test_random_below(2)), n = 2;
    int tile_bytes = 16 * n * threads * (1 + (int)test_random_below(2));  /* 2 or 4 units per thread */
    for (int gmem = 0; gmem <= 1; ++gmem) {
        assert_int_equal(dsm_emu_set_schedules("asc"), dsmSuccess);
        run_exchange(gmem, NEIGHBOUR, n, 1, tile_bytes, threads, 2);
        dsm_emu_set_schedules(NULL);
        for (uint32_t b = 0; b < (uint32_t)n; ++b) {
            dsm_emu_counts c;
            assert_true(dsm_emu_last_counts(b, &c));
            if (c.ld_burst_min < 2)
                fail_msg("xchg_vec_%s, %d threads, %d units per thread: a thread of CTA %u never had more than %u "
                         "16-byte load(s) in flight (the most of any thread: %u): issue several loads into registers "
                         "before the first store, and let every thread of the block do so",
                         gmem ? "gmem" : "dsmem", threads, tile_bytes / 16 / threads, b, c.ld_burst_min,
                         c.ld_burst_max);
        }
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_xchg_vec_dsmem_moves_every_byte_for_all_three_patterns),
    cmocka_unit_test(test_xchg_vec_gmem_moves_every_byte_for_all_three_patterns),
    cmocka_unit_test(test_xchg_vec_both_paths_handle_clusters_of_8_and_16),
    cmocka_unit_test(test_xchg_vec_tiles_larger_and_smaller_than_the_block),
    cmocka_unit_test(test_xchg_vec_uses_one_cluster_barrier_per_exchange),
    cmocka_unit_test(test_xchg_vec_dsmem_every_thread_loads_its_share),
    cmocka_unit_test(test_xchg_vec_both_paths_keep_several_loads_in_flight_per_thread),
};

DSM_TEST_MAIN(tests)
