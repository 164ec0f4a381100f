/* ch06_exchange.c: make bench's chapter 6 family: seed 000's 16 KB tile exchange as published, each improvement, the bulk-copy ring, and sweeps over pattern, cluster size, tile size and threads, on DSMEM and through global memory. */
// bench-kernels: ch06/xchg_seed.cu ch06/xchg_vec.cu ch06/ring_push.cu
/*
 * What it measures (each configuration checked before it is timed; a wrong
 * result is bench_fail(), never a number):
 *   1. seed:    xchg_seed_dsmem / xchg_seed_gmem as seed 000 published them
 *               (clusters of 2, 128 threads, one CTA per SM, 5000 exchanges of
 *               16 KB), then the same kernels with 512 threads;
 *   2. steps:   xchg_vec_dsmem / xchg_vec_gmem in the seed's shape (16-byte
 *               accesses, one barrier per exchange) with 128, 512 and 1024 threads;
 *   3. ring:    ring_push (cp.async.bulk into the neighbour, full/empty mbarriers);
 *   4. sweeps:  pattern x cluster size, tile size, threads (both paths), and the
 *               ring's depth, chunk size, cluster size and threads.
 * Every sweep configuration fills the GPU with as many clusters as
 * cudaOccupancyMaxActiveClusters allows and records that number and the launch
 * result; a shape that does not fit is a row with its error, not a failure.
 * Bandwidth: "crossing" counts the bytes that arrive in a CTA from another
 * CTA's tile (what moves between SMs); the seed's formula counts
 * 2 x tile bytes x CTAs x exchanges.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "xchg_patterns.h"

DSM_DECLARE_KERNEL(xchg_seed_dsmem);
DSM_DECLARE_KERNEL(xchg_seed_gmem);
DSM_DECLARE_KERNEL(xchg_vec_dsmem);
DSM_DECLARE_KERNEL(xchg_vec_gmem);
DSM_DECLARE_KERNEL(ring_push);

#define SEED_TILE_BYTES 16384
#define SEED_ITERS 5000
#define RING_WEIGHTS_MAX 9   /* ring_push allows up to 8 stages: stages + 1 source offsets */

/* Seed 000's H100 PCIe claims (114 SMs, 57 clusters of 2, 5000 exchanges). */
#define SEED_DSMEM_MS 30.871
#define SEED_GMEM_MS 46.678
#define SEED_DSMEM_TBPS 0.61
#define SEED_GMEM_TBPS 0.40


/* How big and how often: set once from bench_dry() / bench_quick(). */
typedef struct plan {
    int dry, quick, warmup, repeats;
    double target_bytes;   /* crossing bytes per timed launch of a sweep point */
} plan;

/* One measured configuration. */
typedef struct result {
    dsm_error_t err;        /* launch or occupancy error (a row, not a failure) */
    int failed;             /* the check failed or the device broke: bench_fail was called */
    int max_clusters;       /* cudaOccupancyMaxActiveClusters */
    int clusters, iters;    /* launched */
    bench_stats ms;
    double crossing_tbps, seed_tbps;
} result;

/* The best numbers of the run, for summary.json and the report. */
typedef struct bests {
    double dsmem_tbps, gmem_tbps, ring_tbps;
    char dsmem_what[160], gmem_what[160], ring_what[160];
    double seed_ms[2], seed_tbps[2], seed_crossing_tbps[2];
} bests;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rng_u32(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static void *dev_alloc(bench *b, size_t bytes)
{
    void *p = NULL;
    dsm_error_t err = dsm_malloc(&p, bytes);
    if (err != dsmSuccess) {
        bench_fail(b, "dsm_malloc(%zu bytes): %s", bytes, dsm_error_name(err));
        return NULL;
    }
    return p;
}

static double tbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e12 : 0.0; }

/* Bytes per clock per SM of an aggregate TB/s (0 when the clock is unknown). */
static double per_sm_clk(const bench *b, double tb_s)
{
    double mhz = bench_sm_clock_mhz(b);
    int sms = bench_sm_count(b);
    return mhz > 0 && sms > 0 ? tb_s * 1e12 / ((double)sms * mhz * 1e6) : 0.0;
}

/* Launches once for the check (outputs poisoned by the caller), then times.
 * The caller asked the occupancy calculator first, so a shape that cannot fit
 * never gets here: any launch error is a failure. */
static int check_then_time(bench *b, const plan *p, const dsm_launch_config *cfg, dsm_kernel_t k, void **args,
                           int (*check)(bench *, void *), void *ctx, const char *what, result *r)
{
    dsm_error_t err = dsm_launch_sync(cfg, k, args);
    if (err != dsmSuccess) {
        r->err = err;
        r->failed = 1;
        bench_fail(b, "%s: the launch failed: %s (%s)", what, dsm_error_name(err), dsm_error_string(err));
        return 0;
    }
    if (!check(b, ctx)) {
        r->failed = 1;
        return 0;
    }
    double ms[32];
    err = bench_time_launches(b, cfg, k, args, p->warmup, p->repeats, ms);
    if (err != dsmSuccess) {
        bench_fail(b, "timing launches failed after a good check: %s", dsm_error_name(err));
        r->failed = 1;
        return 0;
    }
    r->ms = bench_stats_of(ms, p->repeats);
    return 1;
}

/* ---- 1. the seed's exchange ---- */

typedef struct seed_ctx {
    const float *out_dev;
    const float *in_host;
    size_t blocks;
    const char *what;
} seed_ctx;

static int seed_check(bench *b, void *vctx)
{
    seed_ctx *c = vctx;
    size_t floats = c->blocks * (SEED_TILE_BYTES / 4);
    float *got = malloc(floats * sizeof(float));
    dsm_error_t err = dsm_memcpy_to_host(got, c->out_dev, floats * sizeof(float));
    int ok = err == dsmSuccess;
    for (size_t i = 0; ok && i < floats; ++i) {
        size_t blk = i / (SEED_TILE_BYTES / 4), e = i % (SEED_TILE_BYTES / 4);
        float want = c->in_host[(blk ^ 1u) * (SEED_TILE_BYTES / 4) + e];
        if (memcmp(&got[i], &want, sizeof want) != 0) {
            bench_fail(b, "%s: CTA %zu, float %zu: got %g, want %g (the peer's tile)", c->what, blk, e, got[i], want);
            ok = 0;
        }
    }
    if (err != dsmSuccess)
        bench_fail(b, "%s: copying the result back: %s", c->what, dsm_error_name(err));
    free(got);
    return ok;
}

/* Runs xchg_seed_<path> with `threads` threads on `clusters` clusters of 2. */
static result seed_run(bench *b, const plan *p, int gmem, int threads, int clusters, int iters)
{
    result r = {0};
    size_t blocks = 2 * (size_t)clusters, bytes = blocks * SEED_TILE_BYTES;
    float *in_host = malloc(bytes);
    for (size_t i = 0; i < bytes / 4; ++i)
        in_host[i] = (float)(int32_t)(rng_u32() >> 8) * 0.25f;
    float *in = dev_alloc(b, bytes), *out = dev_alloc(b, bytes), *scratch = dev_alloc(b, bytes);
    r.clusters = clusters;
    r.iters = iters;
    if (!in || !out || !scratch) {
        r.failed = 1;
    } else {
        dsm_memcpy_to_device(in, in_host, bytes);
        dsm_memset(out, 0xFF, bytes);
        dsm_memset(scratch, 0, bytes);
        dsm_kernel_t k = gmem ? DSM_KERNEL(xchg_seed_gmem) : DSM_KERNEL(xchg_seed_dsmem);
        dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(2, 1, 1), 0};
        dsm_occupancy_max_active_clusters(&r.max_clusters, k, &cfg);
        void *dargs[] = {&iters, &in, &out};
        void *gargs[] = {&iters, &scratch, &in, &out};
        char what[96];
        snprintf(what, sizeof what, "xchg_seed_%s, %d threads", gmem ? "gmem" : "dsmem", threads);
        seed_ctx ctx = {out, in_host, blocks, what};
        if (check_then_time(b, p, &cfg, k, gmem ? gargs : dargs, seed_check, &ctx, what, &r)) {
            double crossing = (double)SEED_TILE_BYTES * (double)blocks * iters;
            r.crossing_tbps = tbps(crossing, r.ms.median);
            r.seed_tbps = tbps(2.0 * crossing, r.ms.median);
        }
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    free(in_host);
    return r;
}

/* ---- 2. the careful exchange ---- */

static uint32_t rng_below(uint32_t k)
{
    return rng_u32() % k;
}

static void make_pattern(int *table, int n, enum pattern pat)
{
    xchg_make_pattern(table, n, pat, rng_below);
}

typedef struct vec_ctx {
    const uint32_t *out_dev, *in_host;
    const int *table;
    int n, iters;
    size_t blocks, tile_words;
    const char *what;
} vec_ctx;

/* After iters exchanges chunk j of rank r holds chunk j of rank f_j^iters(r),
 * f_j(r) = table[r * n + j]: the check composes the rank map instead of
 * replaying thousands of exchanges. */
static int vec_check(bench *b, void *vctx)
{
    vec_ctx *c = vctx;
    size_t words = c->blocks * c->tile_words, cw = c->tile_words / (size_t)c->n;
    uint32_t *got = malloc(words * 4);
    int ok = dsm_memcpy_to_host(got, c->out_dev, words * 4) == dsmSuccess;
    int origin[16 * 16];
    for (int r = 0; r < c->n; ++r)
        for (int j = 0; j < c->n; ++j) {
            int x = r;
            for (int it = 0; it < c->iters; ++it)
                x = c->table[x * c->n + j];
            origin[r * c->n + j] = x;
        }
    for (size_t blk = 0; ok && blk < c->blocks; ++blk) {
        size_t r = blk % (size_t)c->n, first = blk - r;
        for (size_t w = 0; w < c->tile_words; ++w) {
            size_t j = w / cw, from = first + (size_t)origin[r * (size_t)c->n + j];
            uint32_t want = c->in_host[from * c->tile_words + w];
            if (got[blk * c->tile_words + w] != want) {
                bench_fail(b, "%s: CTA %zu, word %zu: got 0x%08x, want 0x%08x", c->what, blk, w,
                           got[blk * c->tile_words + w], want);
                ok = 0;
                break;
            }
        }
    }
    free(got);
    return ok;
}

/* One xchg_vec configuration, filling the GPU (or `clusters` when > 0). */
static result vec_run(bench *b, const plan *p, int gmem, enum pattern pat, int n, int tile_bytes, int threads,
                      int clusters, int iters)
{
    result r = {0};
    dsm_kernel_t k = gmem ? DSM_KERNEL(xchg_vec_gmem) : DSM_KERNEL(xchg_vec_dsmem);
    size_t smem = (size_t)tile_bytes * (gmem ? 1u : 2u);
    if (n > 8)
        dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    if (smem > 48 * 1024)
        dsm_func_set_max_dynamic_smem(k, (int)smem);
    dsm_launch_config cfg = {DSM_DIM3(n, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    r.err = dsm_occupancy_max_active_clusters(&r.max_clusters, k, &cfg);
    if (r.err != dsmSuccess || r.max_clusters < 1) {
        if (r.err == dsmSuccess)
            r.err = dsmErrorInvalidValue;   /* zero clusters fit: recorded, not launched */
        return r;
    }
    r.clusters = clusters > 0 ? clusters : r.max_clusters;
    if (p->dry && r.clusters > 2)
        r.clusters = 2;
    int table[16 * 16];
    make_pattern(table, n, pat);
    int remote = 0;
    for (int i = 0; i < n * n; ++i)
        remote += table[i] != i / n;
    size_t blocks = (size_t)n * (size_t)r.clusters, bytes = blocks * (size_t)tile_bytes;
    double crossing_per_iter = (double)remote / n * tile_bytes * (double)r.clusters;
    r.iters = p->dry ? 3 : (int)(p->target_bytes / crossing_per_iter);
    if (r.iters < 20 && !p->dry)
        r.iters = 20;
    if (r.iters > SEED_ITERS)
        r.iters = SEED_ITERS;
    if (iters > 0)
        r.iters = iters;

    uint32_t *in_host = malloc(bytes);
    for (size_t i = 0; i < bytes / 4; ++i)
        in_host[i] = rng_u32();
    void *in = dev_alloc(b, bytes), *out = dev_alloc(b, bytes), *scratch = dev_alloc(b, 2 * bytes);
    void *chunk_src = dev_alloc(b, sizeof table);
    if (!in || !out || !scratch || !chunk_src) {
        r.failed = 1;
    } else {
        dsm_memcpy_to_device(in, in_host, bytes);
        dsm_memcpy_to_device(chunk_src, table, sizeof table);
        dsm_memset(out, 0xFF, bytes);
        dsm_memset(scratch, 0, 2 * bytes);
        cfg.grid = DSM_DIM3(blocks, 1, 1);
        void *args[] = {&in, &out, &chunk_src, &tile_bytes, &r.iters, &scratch};
        char what[160];
        snprintf(what, sizeof what, "xchg_vec_%s, %s, clusters of %d, %d B tiles, %d threads",
                 gmem ? "gmem" : "dsmem", pattern_name[pat], n, tile_bytes, threads);
        vec_ctx ctx = {out, in_host, table, n, r.iters, blocks, (size_t)tile_bytes / 4, what};
        if (check_then_time(b, p, &cfg, k, args, vec_check, &ctx, what, &r)) {
            r.crossing_tbps = tbps(crossing_per_iter * r.iters, r.ms.median);
            r.seed_tbps = tbps(2.0 * tile_bytes * (double)blocks * r.iters, r.ms.median);
        }
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    dsm_free(chunk_src);
    free(in_host);
    return r;
}

/* ---- 3. the bulk-copy ring ---- */

typedef struct ring_ctx {
    const uint32_t *out_dev, *in_host;
    int n, stages, nchunks;
    size_t blocks, chunk_words, src_words;
    const char *what;
} ring_ctx;

/* Word w of CTA b's sum is sum_m W_m * src_left[4m + w] with
 * W_m = sum of (k + 1) over the k < nchunks with k mod (stages + 1) = m. */
static int ring_check(bench *b, void *vctx)
{
    ring_ctx *c = vctx;
    size_t words = c->blocks * c->chunk_words;
    uint32_t *got = malloc(words * 4), weight[RING_WEIGHTS_MAX];
    int ok = dsm_memcpy_to_host(got, c->out_dev, words * 4) == dsmSuccess;
    for (int m = 0; m <= c->stages; ++m)
        weight[m] = 0;
    for (int k = 0; k < c->nchunks; ++k)
        weight[k % (c->stages + 1)] += (uint32_t)k + 1u;
    for (size_t blk = 0; ok && blk < c->blocks; ++blk) {
        size_t r = blk % (size_t)c->n, left = blk - r + (r + (size_t)c->n - 1) % (size_t)c->n;
        const uint32_t *src = c->in_host + left * c->src_words;
        for (size_t w = 0; w < c->chunk_words; ++w) {
            uint32_t want = 0;
            for (int m = 0; m <= c->stages; ++m)
                want += weight[m] * src[32 * (size_t)m + w];
            if (got[blk * c->chunk_words + w] != want) {
                bench_fail(b, "%s: CTA %zu, word %zu of its sum: got 0x%08x, want 0x%08x", c->what, blk, w,
                           got[blk * c->chunk_words + w], want);
                ok = 0;
                break;
            }
        }
    }
    free(got);
    return ok;
}

/* One ring_push configuration, filling the GPU with clusters of n. */
static result ring_run(bench *b, const plan *p, int n, int stages, int chunk_bytes, int threads)
{
    result r = {0};
    dsm_kernel_t k = DSM_KERNEL(ring_push);
    size_t smem = (size_t)(stages + 1) * (size_t)chunk_bytes + 128 * (size_t)stages;
    if (n > 8)
        dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    if (smem > 48 * 1024)
        dsm_func_set_max_dynamic_smem(k, (int)smem);
    dsm_launch_config cfg = {DSM_DIM3(n, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    r.err = dsm_occupancy_max_active_clusters(&r.max_clusters, k, &cfg);
    if (r.err != dsmSuccess || r.max_clusters < 1) {
        if (r.err == dsmSuccess)
            r.err = dsmErrorInvalidValue;
        return r;
    }
    r.clusters = p->dry ? 1 : r.max_clusters;
    size_t blocks = (size_t)n * (size_t)r.clusters;
    size_t src_words = (size_t)chunk_bytes / 4 + 32 * (size_t)stages, chunk_words = (size_t)chunk_bytes / 4;
    int nchunks = p->dry ? 2 * stages + 1 : (int)(p->target_bytes / ((double)chunk_bytes * (double)blocks));
    if (nchunks < 4 * stages)
        nchunks = 4 * stages;
    r.iters = nchunks;

    uint32_t *in_host = malloc(blocks * src_words * 4);
    for (size_t i = 0; i < blocks * src_words; ++i)
        in_host[i] = rng_u32();
    void *in = dev_alloc(b, blocks * src_words * 4), *out = dev_alloc(b, blocks * chunk_words * 4);
    if (!in || !out) {
        r.failed = 1;
    } else {
        dsm_memcpy_to_device(in, in_host, blocks * src_words * 4);
        dsm_memset(out, 0xFF, blocks * chunk_words * 4);
        cfg.grid = DSM_DIM3(blocks, 1, 1);
        void *args[] = {&in, &out, &chunk_bytes, &stages, &nchunks};
        char what[160];
        snprintf(what, sizeof what, "ring_push, clusters of %d, %d stages of %d B, %d threads", n, stages,
                 chunk_bytes, threads);
        ring_ctx ctx = {out, in_host, n, stages, nchunks, blocks, chunk_words, src_words, what};
        if (check_then_time(b, p, &cfg, k, args, ring_check, &ctx, what, &r))
            r.crossing_tbps = tbps((double)chunk_bytes * (double)blocks * nchunks, r.ms.median);
    }
    dsm_free(in);
    dsm_free(out);
    free(in_host);
    return r;
}

/* ---- rows, bests, failures ---- */

/* A launch that failed during execution leaves the GPU unusable: stop the family. */
static int device_broken(const result *r)
{
    return r->err == dsmErrorLaunchFailure || r->err == dsmErrorIllegalAddress;
}

static const char *launch_name(const result *r) { return r->failed ? "check-failed" : dsm_error_name(r->err); }

static void note_best(bests *best, int gmem, const result *r, const char *what)
{
    if (r->failed || r->err != dsmSuccess)
        return;
    double *v = gmem ? &best->gmem_tbps : &best->dsmem_tbps;
    char *w = gmem ? best->gmem_what : best->dsmem_what;
    if (r->crossing_tbps > *v) {
        *v = r->crossing_tbps;
        snprintf(w, 160, "%s", what);
    }
}

#define XCHG_HEADER \
    "path,pattern,cluster,tile_bytes,threads,max_active_clusters,clusters,launch,iters,ms_median,ms_min,ms_max," \
    "crossing_tbps,seed_formula_tbps,crossing_bytes_per_clk_per_sm"

static void xchg_row(bench *b, bench_csv *csv, int gmem, enum pattern pat, int n, int tile, int threads,
                     const result *r)
{
    bench_csv_row(csv, "%s,%s,%d,%d,%d,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f", gmem ? "gmem" : "dsmem",
                  pattern_name[pat], n, tile, threads, r->max_clusters, r->clusters, launch_name(r), r->iters,
                  r->ms.median, r->ms.min, r->ms.max, r->crossing_tbps, r->seed_tbps,
                  per_sm_clk(b, r->crossing_tbps));
}

#define RING_HEADER \
    "cluster,stages,chunk_bytes,threads,max_active_clusters,clusters,launch,nchunks,ms_median,ms_min,ms_max," \
    "crossing_tbps,crossing_bytes_per_clk_per_sm"

static void ring_row(bench *b, bench_csv *csv, int n, int stages, int chunk, int threads, const result *r)
{
    bench_csv_row(csv, "%d,%d,%d,%d,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.2f", n, stages, chunk, threads,
                  r->max_clusters, r->clusters, launch_name(r), r->iters, r->ms.median, r->ms.min, r->ms.max,
                  r->crossing_tbps, per_sm_clk(b, r->crossing_tbps));
}

/* Runs one xchg_vec point, writes its row, keeps the best; 0 when the family must stop. */
static int xchg_point(bench *b, const plan *p, bench_csv *csv, bests *best, int gmem, enum pattern pat, int n,
                      int tile, int threads, result *out)
{
    if (p->dry) {   /* the emulator checks the kernels on tiny tiles and blocks */
        tile = 16 * n * 4;
        threads = threads > 64 ? 64 : threads;
    }
    result r = vec_run(b, p, gmem, pat, n, tile, threads, 0, 0);
    xchg_row(b, csv, gmem, pat, n, tile, threads, &r);
    char what[160];
    snprintf(what, sizeof what, "xchg_vec_%s, %s, clusters of %d, %g KB tiles, %d threads", gmem ? "gmem" : "dsmem",
             pattern_name[pat], n, tile / 1024.0, threads);
    note_best(best, gmem, &r, what);
    bench_progress(b, "%-70s %s %.3f TB/s", what, launch_name(&r), r.crossing_tbps);
    if (out)
        *out = r;
    return !device_broken(&r);
}

static int ring_point(bench *b, const plan *p, bench_csv *csv, bests *best, int n, int stages, int chunk,
                      int threads, result *out)
{
    if (p->dry) {
        chunk = 256;
        threads = 96;
    }
    result r = ring_run(b, p, n, stages, chunk, threads);
    ring_row(b, csv, n, stages, chunk, threads, &r);
    char what[160];
    snprintf(what, sizeof what, "ring_push, clusters of %d, %d stages of %g KB, %d threads", n, stages,
             chunk / 1024.0, threads);
    if (!r.failed && r.err == dsmSuccess && r.crossing_tbps > best->ring_tbps) {
        best->ring_tbps = r.crossing_tbps;
        snprintf(best->ring_what, sizeof best->ring_what, "%s", what);
    }
    note_best(best, 0, &r, what);
    bench_progress(b, "%-70s %s %.3f TB/s", what, launch_name(&r), r.crossing_tbps);
    if (out)
        *out = r;
    return !device_broken(&r);
}

/* ---- the family ---- */

/* One step of the improvement ladder, on both paths (ring: DSMEM only). */
typedef struct step {
    const char *name;
    result r[2];
    int has_gmem;
} step;

static void steps_csv_and_report(bench *b, step *steps, int nsteps, int tile, int iters)
{
    bench_csv *csv = bench_csv_open(b, "ch06-exchange-steps",
                                    "step,path,clusters,launch,iters,ms_median,ms_min,ms_max,crossing_tbps,"
                                    "seed_formula_tbps,crossing_bytes_per_clk_per_sm,speedup_vs_seed");
    bench_report(b, "\n### Step by step, in the seed's shape (clusters of 2, %d KB tiles, %d exchanges per launch "
                    "unless the ring)\n\n", tile / 1024, iters);
    bench_report(b, "| step | DSMEM ms | DSMEM TB/s | global ms | global TB/s | DSMEM / global | DSMEM vs seed |\n");
    bench_report(b, "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nsteps; ++i) {
        for (int g = 0; g < 2; ++g) {
            if (g == 1 && !steps[i].has_gmem)
                continue;
            result *r = &steps[i].r[g];
            double base = steps[0].r[g].crossing_tbps;
            bench_csv_row(csv, "\"%s\",%s,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.3f", steps[i].name,
                          g ? "gmem" : "dsmem", r->clusters, launch_name(r), r->iters, r->ms.median, r->ms.min,
                          r->ms.max, r->crossing_tbps, r->seed_tbps, per_sm_clk(b, r->crossing_tbps),
                          base > 0 ? r->crossing_tbps / base : 0.0);
        }
        result *d = &steps[i].r[0], *g = &steps[i].r[1];
        double base = steps[0].r[0].crossing_tbps;
        if (steps[i].has_gmem)
            bench_report(b, "| %s | %.2f | %.2f | %.2f | %.2f | %.2fx | %.1fx |\n", steps[i].name, d->ms.median,
                         d->crossing_tbps, g->ms.median, g->crossing_tbps,
                         g->crossing_tbps > 0 ? d->crossing_tbps / g->crossing_tbps : 0.0,
                         base > 0 ? d->crossing_tbps / base : 0.0);
        else
            bench_report(b, "| %s | %.2f | %.2f | — | — | — | %.1fx |\n", steps[i].name, d->ms.median,
                         d->crossing_tbps, base > 0 ? d->crossing_tbps / base : 0.0);
    }
    bench_csv_close(csv);
}

int bench_family_ch06_exchange(bench *b)
{
    plan p = {bench_dry(b), bench_quick(b), 1, 7, 8e9};
    if (p.quick) {
        p.repeats = 3;
        p.target_bytes = 2e9;
    }
    if (p.dry)
        p.repeats = 1;
    bests best;
    memset(&best, 0, sizeof best);
    int failed = 0, broken = 0;
#define TRACK(r) do { failed |= (r).failed; broken |= device_broken(&(r)); } while (0)

    /* 1. the seed as published: one CTA per SM, like the seed's 57 clusters on 114 SMs */
    int seed_clusters = p.dry ? 1 : bench_sm_count(b) / 2;
    int seed_iters = p.dry ? 2 : SEED_ITERS;
    bench_csv *seed_csv = bench_csv_open(b, "ch06-seed-exchange",
                                         "kernel,threads,clusters,iters,launch,ms_median,ms_min,ms_max,"
                                         "seed_formula_tbps,crossing_tbps");
    result seed[2][2];
    int seed_threads[2] = {128, 512};
    for (int t = 0; t < 2 && !broken; ++t)
        for (int g = 0; g < 2 && !broken; ++g) {
            seed[g][t] = seed_run(b, &p, g, seed_threads[t], seed_clusters, seed_iters);
            TRACK(seed[g][t]);
            result *r = &seed[g][t];
            bench_csv_row(seed_csv, "%s,%d,%d,%d,%s,%.4f,%.4f,%.4f,%.4f,%.4f", g ? "xchg_seed_gmem" : "xchg_seed_dsmem",
                          seed_threads[t], r->clusters, r->iters, launch_name(r), r->ms.median, r->ms.min, r->ms.max,
                          r->seed_tbps, r->crossing_tbps);
            bench_progress(b, "xchg_seed_%s, %d threads: %.3f ms (seed's formula %.3f TB/s)", g ? "gmem" : "dsmem",
                           seed_threads[t], r->ms.median, r->seed_tbps);
            note_best(&best, g, r, g ? "xchg_seed_gmem" : "xchg_seed_dsmem");
        }
    bench_csv_close(seed_csv);
    if (broken)
        return 1;

    /* 2. the improvement ladder in the seed's shape, then the ring */
    step steps[7];
    int nsteps = 0;
    steps[nsteps++] = (step){"seed as published: 4-byte loads, 128 threads", {seed[0][0], seed[1][0]}, 1};
    steps[nsteps++] = (step){"seed's kernel with 512 threads", {seed[0][1], seed[1][1]}, 1};
    int vec_threads[3] = {128, 512, 1024};
    for (int t = 0; t < 3 && !broken; ++t) {
        static const char *const names[3] = {"16-byte accesses, one barrier per exchange, 128 threads",
                                             "16-byte accesses, one barrier per exchange, 512 threads",
                                             "16-byte accesses, one barrier per exchange, 1024 threads"};
        step *st = &steps[nsteps++];
        st->name = names[t];
        st->has_gmem = 1;
        for (int g = 0; g < 2 && !broken; ++g) {
            int threads = p.dry ? 64 : vec_threads[t];
            st->r[g] = vec_run(b, &p, g, NEIGHBOUR, 2, p.dry ? 16 * 2 * 8 : SEED_TILE_BYTES, threads, seed_clusters,
                               seed_iters);
            TRACK(st->r[g]);
            note_best(&best, g, &st->r[g], names[t]);
            bench_progress(b, "xchg_vec_%s, seed's shape, %d threads: %.3f ms, %.3f TB/s", g ? "gmem" : "dsmem",
                           threads, st->r[g].ms.median, st->r[g].crossing_tbps);
        }
    }
    if (broken)
        return 1;

    bench_csv *ring_csv = bench_csv_open(b, "ch06-ring-sweep", RING_HEADER);
    {
        step *st = &steps[nsteps++];
        st->name = "bulk-copy ring, 4 stages of 32 KB, 576 threads";
        st->has_gmem = 0;
        if (!ring_point(b, &p, ring_csv, &best, 2, 4, 32768, 576, &st->r[0]))
            broken = 1;
        TRACK(st->r[0]);
    }

    /* 3. the ring's sweeps: depth x chunk size, cluster size, threads */
    int depths[] = {1, 2, 4, 6, 8}, chunks[] = {8192, 16384, 32768};
    for (int d = 0; d < 5 && !broken; ++d)
        for (int c = 0; c < 3 && !broken; ++c) {
            if ((p.quick || p.dry) && (d == 0 || c == 0))
                continue;
            if ((size_t)(depths[d] + 1) * (size_t)chunks[c] + 128 * (size_t)depths[d] > 227 * 1024 ||
                (depths[d] == 4 && chunks[c] == 32768))
                continue;   /* does not fit in 227 KB with its source; 4 x 32 KB is the step above */
            result r;
            broken |= !ring_point(b, &p, ring_csv, &best, 2, depths[d], chunks[c], 576, &r);
            TRACK(r);
        }
    int ring_clusters[] = {4, 8, 16};
    for (int i = 0; i < 3 && !broken; ++i) {
        result r;
        broken |= !ring_point(b, &p, ring_csv, &best, ring_clusters[i], 6, 16384, 576, &r);
        TRACK(r);
    }
    int ring_threads[] = {320, 1024};
    for (int i = 0; i < 2 && !broken && !p.quick; ++i) {
        result r;
        broken |= !ring_point(b, &p, ring_csv, &best, 2, 6, 16384, ring_threads[i], &r);
        TRACK(r);
    }
    bench_csv_close(ring_csv);
    if (broken)
        return 1;

    /* 4. the exchange's sweeps, both paths */
    bench_csv *pat_csv = bench_csv_open(b, "ch06-pattern-sweep", XCHG_HEADER);
    int sizes[] = {2, 4, 8, 16};
    for (int pat = NEIGHBOUR; pat <= ALL_TO_ALL && !broken; ++pat)
        for (int i = 0; i < 4 && !broken; ++i) {
            if (p.quick && (i == 1 || i == 2))
                continue;
            for (int g = 0; g < 2 && !broken; ++g) {
                result r;
                broken |= !xchg_point(b, &p, pat_csv, &best, g, (enum pattern)pat, sizes[i], 16384, 512, &r);
                TRACK(r);
            }
        }
    bench_csv_close(pat_csv);

    bench_csv *tile_csv = bench_csv_open(b, "ch06-tile-sweep", XCHG_HEADER);
    int tiles[] = {4096, 8192, 16384, 32768, 65536};
    for (int i = 0; i < 5 && !broken; ++i) {
        if (p.quick && (i == 1 || i == 3))
            continue;
        for (int g = 0; g < 2 && !broken; ++g) {
            result r;
            broken |= !xchg_point(b, &p, tile_csv, &best, g, NEIGHBOUR, 2, tiles[i], 512, &r);
            TRACK(r);
        }
    }
    bench_csv_close(tile_csv);

    bench_csv *thr_csv = bench_csv_open(b, "ch06-threads-sweep", XCHG_HEADER);
    int threads[] = {128, 256, 512, 1024};
    for (int i = 0; i < 4 && !broken; ++i) {
        if (p.quick && (i == 1 || i == 2))
            continue;
        for (int g = 0; g < 2 && !broken; ++g) {
            result r;
            broken |= !xchg_point(b, &p, thr_csv, &best, g, NEIGHBOUR, 2, 16384, threads[i], &r);
            TRACK(r);
        }
    }
    bench_csv_close(thr_csv);
    if (broken)
        return 1;

    /* summary.json */
    bench_summary_number(b, "seed_tile_exchange_dsmem_ms", seed[0][0].ms.median);
    bench_summary_number(b, "seed_tile_exchange_gmem_ms", seed[1][0].ms.median);
    bench_summary_number(b, "seed_tile_exchange_dsmem_tbps_seed_formula", seed[0][0].seed_tbps);
    bench_summary_number(b, "seed_tile_exchange_gmem_tbps_seed_formula", seed[1][0].seed_tbps);
    bench_summary_number(b, "dsmem_exchange_tbps_best", best.dsmem_tbps);
    bench_summary_number(b, "gmem_exchange_tbps_best", best.gmem_tbps);
    bench_summary_number(b, "ring_push_tbps_best", best.ring_tbps);

    /* report.md */
    const result *sd = &seed[0][0], *sg = &seed[1][0];
    bench_report(b, "\n## Chapter 6: moving tiles between CTAs (ch06_exchange)\n\n");
    if (p.dry)
        bench_report(b, "Dry run on the emulator: every kernel checked on tiny sizes; the times below mean nothing.\n\n");
    bench_report(b, "Seed 000's 16 KB tile exchange as published (%d clusters of 2 CTAs x 128 threads, %d exchanges), "
                    "beside the seed's claims for an H100 PCIe (57 clusters on 114 SMs):\n\n", seed_clusters,
                 seed_iters);
    bench_report(b, "| | DSMEM | global memory | global / DSMEM | seed's H100 PCIe claim |\n|---|---|---|---|---|\n");
    bench_report(b, "| time per launch, median of %d | %.2f ms | %.2f ms | %.2fx | %.1f vs %.1f ms, %.2fx |\n", p.repeats,
                 sd->ms.median, sg->ms.median, sd->ms.median > 0 ? sg->ms.median / sd->ms.median : 0.0,
                 SEED_DSMEM_MS, SEED_GMEM_MS, SEED_GMEM_MS / SEED_DSMEM_MS);
    bench_report(b, "| \"exchange bandwidth\", the seed's formula (2 x 16 KB x CTAs x exchanges / time) | %.2f TB/s | "
                    "%.2f TB/s | %.2fx | %.2f vs %.2f TB/s |\n", sd->seed_tbps, sg->seed_tbps,
                 sg->seed_tbps > 0 ? sd->seed_tbps / sg->seed_tbps : 0.0, SEED_DSMEM_TBPS, SEED_GMEM_TBPS);
    bench_report(b, "| bytes that cross between SMs (16 KB x CTAs x exchanges / time) | %.2f TB/s | %.2f TB/s | | |\n\n",
                 sd->crossing_tbps, sg->crossing_tbps);
    bench_report(b, "This GPU against the seed's claim: DSMEM %.2fx, global memory %.2fx of the seed's speed "
                    "(seed's ms / our ms; the seed ran 114 CTAs, this run %d).\n",
                 sd->ms.median > 0 ? SEED_DSMEM_MS / sd->ms.median : 0.0,
                 sg->ms.median > 0 ? SEED_GMEM_MS / sg->ms.median : 0.0, 2 * seed_clusters);
    steps_csv_and_report(b, steps, nsteps, SEED_TILE_BYTES, seed_iters);
    bench_report(b, "\n### Best of the run (crossing bytes, data checked)\n\n");
    bench_report(b, "| path | TB/s | B/clk per SM | configuration |\n|---|---|---|---|\n");
    bench_report(b, "| DSMEM | %.2f | %.1f | %s |\n", best.dsmem_tbps, per_sm_clk(b, best.dsmem_tbps), best.dsmem_what);
    bench_report(b, "| global memory (L2) | %.2f | %.1f | %s |\n", best.gmem_tbps, per_sm_clk(b, best.gmem_tbps),
                 best.gmem_what);
    bench_report(b, "\nBest DSMEM %.2f TB/s (target on an H200: at least 5.0 TB/s, %s).", best.dsmem_tbps,
                 p.dry     ? "not measured in a dry run"
                 : p.quick ? "not judged in a QUICK run, whose shorter launches read a few % low"
                 : best.dsmem_tbps >= 5.0 ? "met" : "not met");
    bench_report(b, " Best DSMEM / best global memory: %.2fx; best DSMEM / the seed's DSMEM kernel: %.1fx. "
                    "Sweeps: ch06-pattern-sweep.csv, ch06-tile-sweep.csv, ch06-threads-sweep.csv, "
                    "ch06-ring-sweep.csv (occupancy and launch result per row).\n",
                 best.gmem_tbps > 0 ? best.dsmem_tbps / best.gmem_tbps : 0.0,
                 sd->crossing_tbps > 0 ? best.dsmem_tbps / sd->crossing_tbps : 0.0);
#undef TRACK
    return failed || broken;
}
