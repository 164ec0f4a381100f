/* test_xchg_seed.c: ch06.xchg_seed: seed 000's tile exchange on both paths moves every float of the peer's tile in every exchange, with the seed's 4-byte loads, fences and barriers in the seed's order. */
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(xchg_seed_dsmem);
DSM_DECLARE_KERNEL(xchg_seed_gmem);

#define TILE_FLOATS 4096
#define TILE_BYTES (TILE_FLOATS * 4)

/* ---- the order of fences and cluster barriers, per thread (test_xchg_seed_probe.h) ---- */
#define PROBE_BLOCKS 2
#define PROBE_THREADS 128
#define PROBE_EVENTS 64
/* "F" for a fence, "B" for a cluster-barrier arrival, in the order each thread made them. */
static char probe_events[PROBE_BLOCKS][PROBE_THREADS][PROBE_EVENTS + 1];
static int probe_recording;

#ifndef DSM_BACKEND_CUDA
void dsm_emu_barrier_cluster_arrive(int relaxed, const char *file, int line);
void dsm_emu_fence(const char *file, int line);
/* The emulated thread that runs now (runtime/emu/device_emu.h). */
struct dsm_emu_thread_view {
    dsm_dim3 thread_idx, block_idx, block_dim, grid_dim;
};
extern const struct dsm_emu_thread_view *dsm_emu_self;

static void probe_note(char what)
{
    unsigned b = dsm_emu_self->block_idx.x, t = dsm_emu_self->thread_idx.x;
    if (!probe_recording || b >= PROBE_BLOCKS || t >= PROBE_THREADS)
        return;
    size_t n = strlen(probe_events[b][t]);
    if (n < PROBE_EVENTS)
        probe_events[b][t][n] = what;
}

/* Called by the kernel in place of the emulator's arrive and fence (the probe header renames them). */
void probe_seed_arrive(int relaxed, const char *file, int line);
void probe_seed_arrive(int relaxed, const char *file, int line)
{
    probe_note('B');
    dsm_emu_barrier_cluster_arrive(relaxed, file, line);
}
void probe_seed_fence(const char *file, int line);
void probe_seed_fence(const char *file, int line)
{
    probe_note('F');
    dsm_emu_fence(file, line);
}
#endif

/* On the emulator: every CTA did every exchange, the seed's way. On the DSMEM
 * path it read its peer's whole tile once per exchange in 4-byte loads; on the
 * global path it wrote its own tile to its scratch tile and read its peer's
 * scratch tile once per exchange (and nothing else of scratch). The source tile
 * never changes, so the output alone cannot tell one exchange from 5000. */
static void check_every_exchange_happened(int gmem, size_t blocks, int iters, const float *scratch)
{
    uint64_t want = (uint64_t)TILE_BYTES * (uint64_t)iters;
    for (uint32_t b = 0; b < blocks; ++b) {
        dsm_emu_counts c;
        assert_true(dsm_emu_last_counts(b, &c));
        if (!gmem) {
            if (c.dsmem_ld_bytes != want)
                fail_msg("xchg_seed_dsmem, %d exchanges: CTA %u read %llu bytes of its peer's tile, %llu expected: "
                         "every exchange copies the whole 16 KB", iters, b, (unsigned long long)c.dsmem_ld_bytes,
                         (unsigned long long)want);
            if (c.dsmem_ld_ops * 4 != c.dsmem_ld_bytes)
                fail_msg("xchg_seed_dsmem: CTA %u read %llu bytes in %llu loads: the seed copies one 4-byte float per "
                         "load (this exercise reproduces it; xchg_vec improves it)", b,
                         (unsigned long long)c.dsmem_ld_bytes, (unsigned long long)c.dsmem_ld_ops);
        } else {
            dsm_emu_gmem_use u;
            assert_true(dsm_emu_last_gmem_use(b, scratch, &u));
            size_t mine = (size_t)b * TILE_BYTES, peer = (size_t)(b ^ 1u) * TILE_BYTES;
            if (u.st_bytes != want || u.ld_bytes != want)
                fail_msg("xchg_seed_gmem, %d exchanges: CTA %u wrote %llu and read %llu bytes of scratch, %llu each "
                         "expected: every exchange writes its tile out and reads its peer's back", iters, b,
                         (unsigned long long)u.st_bytes, (unsigned long long)u.ld_bytes, (unsigned long long)want);
            if (iters > 0 && (u.st_lo != mine || u.st_hi != mine + TILE_BYTES || u.ld_lo != peer ||
                              u.ld_hi != peer + TILE_BYTES))
                fail_msg("xchg_seed_gmem: CTA %u wrote scratch bytes [%zu, %zu) and read [%zu, %zu): its own tile "
                         "[%zu, %zu) out, its peer's [%zu, %zu) in", b, u.st_lo, u.st_hi, u.ld_lo, u.ld_hi, mine,
                         mine + TILE_BYTES, peer, peer + TILE_BYTES);
        }
    }
}

/* Runs one path on `clusters` clusters of 2 with random tiles for iters
 * exchanges and checks that every CTA's output is its peer's whole tile, and on
 * the emulator that every exchange did its work.
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
    if (test_on_emulator())
        check_every_exchange_happened(gmem, blocks, iters, scratch);
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

/* The output cannot tell one exchange from many (the tile never changes):
 * the counts can. Several numbers of exchanges, both paths. */
static void test_xchg_seed_every_exchange_moves_the_whole_tile_on_both_paths(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    for (int gmem = 0; gmem <= 1; ++gmem) {
        run_seed_exchange(gmem, 1, 128, 2 + (int)test_random_below(4));
        run_seed_exchange(gmem, 2, 64 + 32 * (int)test_random_below(4), 3);
    }
}

/* The seed's global path, in the seed's order in every exchange: fence, barrier
 * (the peer's tile is in scratch), barrier (the peer is done reading mine).
 * Barriers moved out of the loop keep their count but race on scratch. */
static void test_xchg_seed_gmem_fences_then_meets_twice_in_every_exchange(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int iters = 2 + (int)test_random_below(3);
    char want[PROBE_EVENTS + 1] = "B";    /* the given barrier before the loop */
    for (int it = 0; it < iters; ++it)
        strcat(want, "FBB");
    memset(probe_events, 0, sizeof probe_events);
    dsm_emu_set_schedules("asc");         /* one schedule: one sequence per thread */
    probe_recording = 1;
    run_seed_exchange(1, 1, PROBE_THREADS, iters);
    probe_recording = 0;
    const char *env = getenv("DSM_EMU_SCHEDULES");
    if (env == NULL || dsm_emu_set_schedules(env) != dsmSuccess)
        dsm_emu_set_schedules(NULL);
    for (int b = 0; b < PROBE_BLOCKS; ++b)
        for (int t = 0; t < PROBE_THREADS; ++t)
            if (strcmp(probe_events[b][t], want) != 0)
                fail_msg("xchg_seed_gmem, %d exchanges: CTA %d thread %d fenced (F) and arrived at cluster barriers (B) "
                         "in the order %s; the seed's order is %s (B before the loop, then F B B per exchange)", iters,
                         b, t, probe_events[b][t], want);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_xchg_seed_dsmem_every_cta_receives_its_peers_whole_tile),
    cmocka_unit_test(test_xchg_seed_gmem_every_cta_receives_its_peers_whole_tile),
    cmocka_unit_test(test_xchg_seed_works_with_blocks_other_than_the_seeds_128_threads),
    cmocka_unit_test(test_xchg_seed_keeps_the_seeds_cluster_barriers),
    cmocka_unit_test(test_xchg_seed_every_exchange_moves_the_whole_tile_on_both_paths),
    cmocka_unit_test(test_xchg_seed_gmem_fences_then_meets_twice_in_every_exchange),
};

DSM_TEST_MAIN(tests)
