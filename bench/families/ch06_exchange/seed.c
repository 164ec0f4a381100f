/* seed.c: ch06_exchange, part 1: the source document's 16 KB tile exchange as published (xchg_seed_dsmem / xchg_seed_gmem), checked (with the dry run's counters: its tiles never change) and timed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xchg_bench.h"

DSM_DECLARE_KERNEL(xchg_seed_dsmem);
DSM_DECLARE_KERNEL(xchg_seed_gmem);

/* ---- 1. the seed's exchange ---- */

typedef struct seed_ctx {
    const char *kernel, *what;
    const float *out_dev, *scratch_dev;
    const float *in_host;
    size_t blocks;
    int gmem, iters;
} seed_ctx;

/* The mechanism of the seed, counted in the dry run: every exchange moves the
 * peer's whole tile with 4-byte loads (DSMEM) or through scratch, and passes the
 * seed's barriers. The tile never changes, so the output alone cannot tell. */
static int seed_counts_ok(bench *b, const seed_ctx *c)
{
    dsm_emu_counts k;
    uint64_t tile = SEED_TILE_BYTES, want = tile * (uint64_t)c->iters;
    for (uint32_t blk = 0; blk < c->blocks; ++blk) {
        if (!xchg_counts_of(blk, &k))
            return 1; /* a GPU: the counters exist only on the emulator */
        if (!c->gmem) {
            if (k.dsmem_ld_bytes != want || k.dsmem_ld_ops != want / 4) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u read %llu bytes of its peer's shared memory in %llu "
                                  "loads, %llu bytes in %llu 4-byte loads expected (%d exchanges of 16 KB, as the seed "
                                  "does them; its tile never changes, so only the dry run's counts can see a skipped "
                                  "exchange)", c->what, blk, (unsigned long long)k.dsmem_ld_bytes,
                                  (unsigned long long)k.dsmem_ld_ops, (unsigned long long)want,
                                  (unsigned long long)(want / 4), c->iters);
                return 0;
            }
            if (!xchg_barrier_waits_ok(b, c->kernel, c->what, blk, &k, (uint32_t)c->iters + 2u, 0))
                return 0;
        } else {
            dsm_emu_gmem_use u;
            memset(&u, 0, sizeof u);
            dsm_emu_last_gmem_use(blk, c->scratch_dev, &u);
            size_t mine = (size_t)blk * tile, peer = (size_t)(blk ^ 1u) * tile;
            if (u.st_bytes != want || u.ld_bytes != want || (c->iters > 0 && (u.st_lo != mine || u.st_hi != mine + tile ||
                                                                             u.ld_lo != peer || u.ld_hi != peer + tile))) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u wrote %llu and read %llu bytes of scratch, %llu each "
                                  "expected (%d exchanges: its own tile out, its peer's tile in; only the dry run's "
                                  "counts can see a skipped exchange)", c->what, blk, (unsigned long long)u.st_bytes,
                                  (unsigned long long)u.ld_bytes, (unsigned long long)want, c->iters);
                return 0;
            }
            if (!xchg_barrier_waits_ok(b, c->kernel, c->what, blk, &k, 2u * (uint32_t)c->iters + 1u, 0))
                return 0;
            if (k.fences < (uint32_t)c->iters) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u: %u fences for %d exchanges: the seed fences once per "
                                  "exchange", c->what, blk, k.fences, c->iters);
                return 0;
            }
        }
    }
    return 1;
}

static int seed_check(bench *b, void *vctx)
{
    seed_ctx *c = vctx;
    size_t floats = c->blocks * SEED_TILE_FLOATS;
    float *got = malloc(floats * sizeof(float));
    int ok = got != NULL && seed_counts_ok(b, c);
    dsm_error_t err = got ? dsm_memcpy_to_host(got, c->out_dev, floats * sizeof(float)) : dsmErrorMemoryAllocation;
    if (err != dsmSuccess) {
        bench_fail_kernel(b, c->kernel, "%s: copying the result back: %s", c->what, dsm_error_name(err));
        ok = 0;
    }
    for (size_t i = 0; ok && i < floats; ++i) {
        size_t blk = i / SEED_TILE_FLOATS, e = i % SEED_TILE_FLOATS;
        float want = c->in_host[(blk ^ 1u) * SEED_TILE_FLOATS + e];
        if (memcmp(&got[i], &want, sizeof want) != 0) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %zu, float %zu: got %g, want %g (the peer's tile)", c->what, blk,
                              e, got[i], want);
            ok = 0;
        }
    }
    free(got);
    return ok;
}

/* Runs xchg_seed_<path> with `threads` threads on `clusters` clusters of 2. */
result xchg_seed_run(bench *b, const plan *p, int gmem, int threads, int clusters, int iters)
{
    result r = {0};
    r.kernel = gmem ? "xchg_seed_gmem" : "xchg_seed_dsmem";
    size_t blocks = 2 * (size_t)clusters, bytes = blocks * SEED_TILE_BYTES;
    float *in_host = malloc(bytes);
    for (size_t i = 0; i < bytes / 4; ++i) /* fresh data per configuration: no earlier launch left it anywhere */
        in_host[i] = (float)(int32_t)(xchg_rng_u32() >> 8) * 0.25f;
    float *in = xchg_dev_alloc(b, bytes), *out = xchg_dev_alloc(b, bytes), *scratch = xchg_dev_alloc(b, bytes);
    r.clusters = clusters;
    r.iters = iters;
    char what[96];
    snprintf(what, sizeof what, "%s, %d threads", r.kernel, threads);
    if (!in || !out || !scratch || !in_host) {
        r.failed = 1;
        bench_fail_kernel(b, r.kernel, "%s: out of memory", what);
    } else {
        dsm_memcpy_to_device(in, in_host, bytes);
        dsm_memset(out, 0xFF, bytes);
        dsm_memset(scratch, 0, bytes);
        dsm_kernel_t k = gmem ? DSM_KERNEL(xchg_seed_gmem) : DSM_KERNEL(xchg_seed_dsmem);
        dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(2, 1, 1), 0};
        dsm_occupancy_max_active_clusters(&r.max_clusters, k, &cfg);
        void *dargs[] = {&iters, &in, &out};
        void *gargs[] = {&iters, &scratch, &in, &out};
        seed_ctx ctx = {r.kernel, what, out, scratch, in_host, blocks, gmem, iters};
        xchg_check_then_time(b, p, &cfg, k, gmem ? gargs : dargs, seed_check, &ctx, what, &r);
        if (r.ran) {
            double crossing = (double)SEED_TILE_BYTES * (double)blocks * iters;
            r.crossing_tbps = xchg_tbps(crossing, r.ms.median);
            r.seed_tbps = xchg_tbps(2.0 * crossing, r.ms.median);
        }
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    free(in_host);
    return r;
}
