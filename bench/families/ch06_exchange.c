/* ch06_exchange.c: make bench's chapter 6 family: seed 000's 16 KB tile exchange as published, each improvement, the bulk-copy ring, and sweeps over pattern, cluster size, tile size and threads, on DSMEM and through global memory. */
// bench-kernels: ch06/xchg_seed.cu ch06/xchg_vec.cu ch06/ring_push.cu ch06/ring_global.cu
/*
 * What it measures (each configuration checked before it is timed; a wrong
 * result is bench_fail_kernel(), never a number):
 *   1. seed:    xchg_seed_dsmem / xchg_seed_gmem as seed 000 published them
 *               (clusters of 2, 128 threads, one cluster per two SMs, 5000
 *               exchanges of 16 KB), then the same kernels with 512 threads;
 *   2. steps:   xchg_vec_dsmem / xchg_vec_gmem in the seed's shape (16-byte
 *               accesses, one barrier per exchange) with 128, 512 and 1024 threads;
 *   3. ring:    ring_push (cp.async.bulk into the neighbour, full/empty mbarriers)
 *               and its twin ring_global (the same slots, stages and roles through
 *               global memory: cp.async.bulk shared->global, then global->shared);
 *   4. sweeps:  pattern x cluster size, tile size, threads (both paths), and the
 *               ring's depth, chunk size, cluster size and threads (both rings).
 * Every sweep configuration fills the GPU with as many clusters as
 * cudaOccupancyMaxActiveClusters allows and records that number and the launch
 * result; a shape that does not fit is a row with its error, not a failure.
 * Bandwidth: "crossing" counts the bytes that arrive in a CTA from another
 * CTA's tile (what moves between SMs); the seed's formula counts
 * 2 x tile bytes x CTAs x exchanges.
 *
 * No number from skipped work. The seed's own check cannot see a skipped
 * exchange (its tiles never change, and the port must reproduce the seed), so
 * in the dry run the emulator's mechanism counters prove that every exchange
 * moved its bytes and passed its barriers. The careful exchange runs a number
 * of exchanges after which no chunk that moves is back home (1 modulo the
 * period of the pattern), so a kernel that does nothing fails on a GPU too,
 * and the dry run counts its bytes as well. The ring folds every chunk into a
 * position-weighted sum of data that changes from chunk to chunk.
 *
 * Pairs (summary.json "bandwidth_pairs", bench/README.md): each DSMEM
 * mechanism beside its global-memory twin, measured over the same
 * configurations, and best against best only with both kernels named.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dsm_emu_control.h"
#include "xchg_patterns.h"

DSM_DECLARE_KERNEL(xchg_seed_dsmem);
DSM_DECLARE_KERNEL(xchg_seed_gmem);
DSM_DECLARE_KERNEL(xchg_vec_dsmem);
DSM_DECLARE_KERNEL(xchg_vec_gmem);
DSM_DECLARE_KERNEL(ring_push);
DSM_DECLARE_KERNEL(ring_global);

#define SEED_TILE_BYTES 16384
#define SEED_TILE_FLOATS (SEED_TILE_BYTES / 4)
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

/* One configuration: not run (a shape that does not fit), failed, or measured. */
typedef struct result {
    const char *kernel;     /* what ran: its DSM_KERNEL_ENTRY name */
    dsm_error_t err;        /* occupancy or launch error of a shape that was not run */
    int ran;                /* checked, then timed: the numbers below mean something */
    int failed;             /* a check failed (bench_fail_kernel was called) */
    int max_clusters;       /* cudaOccupancyMaxActiveClusters */
    int clusters, iters;    /* launched */
    bench_stats ms;
    double crossing_tbps, seed_tbps;
} result;

/* The kernels whose best configuration the run keeps, and the pairs they form. */
enum { K_SEED_DSMEM, K_SEED_GMEM, K_VEC_DSMEM, K_VEC_GMEM, K_RING_DSMEM, K_RING_GMEM, K_COUNT };
static const char *const kernel_names[K_COUNT] = {"xchg_seed_dsmem", "xchg_seed_gmem", "xchg_vec_dsmem",
                                                  "xchg_vec_gmem",   "ring_push",      "ring_global"};

typedef struct best {
    double tbps;
    char what[160];
} best;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rng_u32(void) { return (uint32_t)(bench_xorshift64(&rng_state) >> 16); }

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

/* 1 when r measured something that may be shown: it ran, and no check of its kernel failed. */
static int shown(const bench *b, const result *r)
{
    return r->ran && !r->failed && bench_kernel_ok(b, r->kernel);
}

/* A measurement as a CSV or report field: the number, "failed" for a failed
 * kernel, empty for a shape that did not run. Returns one of 16 rotating buffers. */
static const char *num(const bench *b, const result *r, const char *fmt, double v)
{
    static char bufs[16][48];
    static int next;
    char *s = bufs[next++ % 16];
    if (r->failed || !bench_kernel_ok(b, r->kernel))
        snprintf(s, 48, "failed");
    else if (!r->ran)
        s[0] = '\0';
    else
        snprintf(s, 48, fmt, v);
    return s;
}

/* The status column: the launch's result, or "failed". */
static const char *status_of(const bench *b, const result *r)
{
    if (r->failed || !bench_kernel_ok(b, r->kernel))
        return "failed";
    return r->ran ? "cudaSuccess" : dsm_error_name(r->err);
}

/* A launch that failed during execution leaves the GPU unusable: stop the family. */
static int device_broken(const result *r)
{
    return r->err == dsmErrorLaunchFailure || r->err == dsmErrorIllegalAddress;
}

/* One configuration as bench_time_variants sees it: its launch and its check. */
typedef struct point {
    bench *b;
    const dsm_launch_config *cfg;
    dsm_kernel_t k;
    void **args;
    int (*check)(bench *, void *);
    void *ctx;
    const char *what;
    result *r;
} point;

static dsm_error_t point_call(void *vp, int i, dsm_stream_t stream, int pdl)
{
    point *pt = vp;
    (void)i;
    dsm_launch_options opt = {stream, pdl, 0};
    return dsm_launch_ex(pt->cfg, &opt, pt->k, pt->args);
}

/* One launch (outputs poisoned by the caller), then the configuration's own
 * check, which reports a wrong result itself (bench_fail_kernel). */
static int point_check(void *vp, char *why, size_t why_len)
{
    point *pt = vp;
    dsm_error_t err = point_call(pt, 0, NULL, 0);
    if (err == dsmSuccess)
        err = dsm_device_synchronize();
    if (err != dsmSuccess) {
        pt->r->err = err;
        snprintf(why, why_len, "the launch failed: %s (%s)", dsm_error_name(err), dsm_error_string(err));
        return 0;
    }
    return pt->check(pt->b, pt->ctx);
}

/* Checks, then times (bench_time_variants: one launch per sample). The caller
 * asked the occupancy calculator first, so a shape that cannot fit never gets
 * here: any launch error is a failure. `check` compares the output with the
 * CPU and, in the dry run, the emulator's counts of that same launch with the
 * work the configuration must do. */
static void check_then_time(bench *b, const plan *p, const dsm_launch_config *cfg, dsm_kernel_t k, void **args,
                            int (*check)(bench *, void *), void *ctx, const char *what, result *r)
{
    static dsm_stream_t stream;     /* the family's stream, made on first use */
    if (stream == NULL && dsm_stream_create(&stream) != dsmSuccess) {
        r->failed = 1;
        bench_fail_kernel(b, r->kernel, "%s: creating a stream failed", what);
        return;
    }
    point pt = {b, cfg, k, args, check, ctx, what, r};
    bench_variant v = {what, r->kernel, &pt, point_check, point_call, 0, 0, 1};
    bench_variant_result res;
    bench_time_variants(b, stream, &v, 1, p->warmup, p->repeats, &res);
    if (res.status != BENCH_VARIANT_TIMED) {
        r->failed = 1;
        return;
    }
    r->ms = res.stats;
    r->ms.median *= 1e-3, r->ms.min *= 1e-3, r->ms.max *= 1e-3;    /* µs per launch -> ms */
    r->ran = 1;
}

/* ---- the dry run's proof that the work was done (the emulator's mechanism counters) ---- */

/* The counts of one block of the last launch; 0 on a GPU (nothing to check there). */
static int counts_of(uint32_t block, dsm_emu_counts *c)
{
    memset(c, 0, sizeof *c);
    return dsm_emu_last_counts(block, c);
}

/* Every thread of the block completed exactly `want` cluster-barrier waits
 * (want_max: at most that many; 0 means exactly want). */
static int barrier_waits_ok(bench *b, const char *kernel, const char *what, uint32_t blk, const dsm_emu_counts *c,
                            uint32_t want, uint32_t want_max)
{
    uint32_t hi = want_max ? want_max : want;
    if (c->cluster_waits_min >= want && c->cluster_waits_max <= hi)
        return 1;
    bench_fail_kernel(b, kernel, "%s: CTA %u: its threads passed %u to %u cluster barriers, %u%s expected (the dry "
                      "run counts them: every exchange must pass its barriers)", what, blk, c->cluster_waits_min,
                      c->cluster_waits_max, want, want_max ? " or one more" : "");
    return 0;
}

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
        if (!counts_of(blk, &k))
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
            if (!barrier_waits_ok(b, c->kernel, c->what, blk, &k, (uint32_t)c->iters + 2u, 0))
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
            if (!barrier_waits_ok(b, c->kernel, c->what, blk, &k, 2u * (uint32_t)c->iters + 1u, 0))
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
static result seed_run(bench *b, const plan *p, int gmem, int threads, int clusters, int iters)
{
    result r = {0};
    r.kernel = gmem ? "xchg_seed_gmem" : "xchg_seed_dsmem";
    size_t blocks = 2 * (size_t)clusters, bytes = blocks * SEED_TILE_BYTES;
    float *in_host = malloc(bytes);
    for (size_t i = 0; i < bytes / 4; ++i) /* fresh data per configuration: no earlier launch left it anywhere */
        in_host[i] = (float)(int32_t)(rng_u32() >> 8) * 0.25f;
    float *in = dev_alloc(b, bytes), *out = dev_alloc(b, bytes), *scratch = dev_alloc(b, bytes);
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
        check_then_time(b, p, &cfg, k, gmem ? gargs : dargs, seed_check, &ctx, what, &r);
        if (r.ran) {
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

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* The smallest count >= want (and >= 1) that is 1 modulo the period of the
 * pattern: the lcm of the cycle lengths of every chunk's rank map
 * r -> table[r * n + j]. After that many exchanges every chunk that moves at
 * all sits one step from home, exactly as after one exchange: no tile is back
 * where it started, and a kernel that does nothing fails the check. */
static int iters_without_fixed_point(const int *table, int n, int want)
{
    long period = 1;
    for (int j = 0; j < n; ++j)
        for (int r = 0; r < n; ++r) {
            int len = 1;
            for (int x = table[r * n + j]; x != r && len <= n; x = table[x * n + j])
                ++len;
            period = period / gcd((int)(period % 1000000), len) * len;
        }
    if (want < 1)
        want = 1;
    long iters = (want - 1 + period - 1) / period * period + 1;
    return iters > 1000000 ? want : (int)iters;
}

typedef struct vec_ctx {
    const char *kernel, *what;
    const uint32_t *out_dev, *in_host;
    const void *scratch_dev;
    const int *table;
    int n, iters, gmem;
    size_t blocks, tile_words;
} vec_ctx;

/* The bytes of its tile that rank r takes from other CTAs in one exchange. */
static uint64_t remote_bytes(const vec_ctx *c, int r)
{
    uint64_t chunk = (uint64_t)c->tile_words * 4 / (uint64_t)c->n, bytes = 0;
    for (int j = 0; j < c->n; ++j)
        bytes += c->table[r * c->n + j] != r ? chunk : 0;
    return bytes;
}

/* The careful exchange's mechanism, counted in the dry run: every exchange
 * fetched at least the chunks that come from other CTAs (16 bytes per access
 * on the DSMEM path), and passed one cluster barrier. */
static int vec_counts_ok(bench *b, const vec_ctx *c)
{
    dsm_emu_counts k;
    uint64_t tile = (uint64_t)c->tile_words * 4;
    for (uint32_t blk = 0; blk < c->blocks; ++blk) {
        if (!counts_of(blk, &k))
            return 1;
        uint64_t lo = remote_bytes(c, (int)(blk % (uint32_t)c->n)) * (uint64_t)c->iters, hi = tile * (uint64_t)c->iters;
        uint64_t got = k.dsmem_ld_bytes, ops = k.dsmem_ld_ops;
        const char *where = "its peers' shared memory";
        if (c->gmem) {
            dsm_emu_gmem_use u;
            memset(&u, 0, sizeof u);
            dsm_emu_last_gmem_use(blk, c->scratch_dev, &u);
            got = u.ld_bytes;
            ops = got / 16; /* the widths of global accesses are checked below, over all buffers */
            where = "scratch";
            if (u.st_bytes != hi) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u wrote %llu bytes of scratch, %llu expected (its whole "
                                  "tile, %d exchanges)", c->what, blk, (unsigned long long)u.st_bytes,
                                  (unsigned long long)hi, c->iters);
                return 0;
            }
            /* every global store is 16 bytes wide; loads too, but for the n ranks of the pattern table */
            if (k.gmem_st_bytes != 16 * k.gmem_st_ops ||
                k.gmem_ld_bytes - 4 * (uint64_t)c->n != 16 * (k.gmem_ld_ops - (uint64_t)c->n)) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u: global memory in %llu loads of %llu bytes and %llu stores "
                                  "of %llu bytes: 16-byte accesses expected", c->what, blk,
                                  (unsigned long long)k.gmem_ld_ops, (unsigned long long)k.gmem_ld_bytes,
                                  (unsigned long long)k.gmem_st_ops, (unsigned long long)k.gmem_st_bytes);
                return 0;
            }
        }
        if (got < lo || got > hi || got != 16 * ops) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u read %llu bytes of %s in %llu accesses: %llu to %llu bytes in "
                              "16-byte accesses expected (%d exchanges; the dry run counts them)", c->what, blk,
                              (unsigned long long)got, where, (unsigned long long)ops, (unsigned long long)lo,
                              (unsigned long long)hi, c->iters);
            return 0;
        }
        if (!barrier_waits_ok(b, c->kernel, c->what, blk, &k, (uint32_t)c->iters, (uint32_t)c->iters + 1u))
            return 0;
    }
    return 1;
}

/* After iters exchanges chunk j of rank r holds chunk j of rank f_j^iters(r),
 * f_j(r) = table[r * n + j]: the check composes the rank map instead of
 * replaying thousands of exchanges. */
static int vec_check(bench *b, void *vctx)
{
    vec_ctx *c = vctx;
    size_t words = c->blocks * c->tile_words, cw = c->tile_words / (size_t)c->n;
    uint32_t *got = malloc(words * 4);
    int ok = got != NULL && vec_counts_ok(b, c);
    if (ok && dsm_memcpy_to_host(got, c->out_dev, words * 4) != dsmSuccess) {
        bench_fail_kernel(b, c->kernel, "%s: copying the result back failed", c->what);
        ok = 0;
    }
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
                bench_fail_kernel(b, c->kernel, "%s: CTA %zu, word %zu: got 0x%08x, want 0x%08x", c->what, blk, w,
                                  got[blk * c->tile_words + w], want);
                ok = 0;
                break;
            }
        }
    }
    free(got);
    return ok;
}

/* One xchg_vec configuration, filling the GPU (or `clusters` when > 0); `iters`
 * > 0 asks for about that many exchanges (rounded so that no tile comes home). */
static result vec_run(bench *b, const plan *p, int gmem, enum pattern pat, int n, int tile_bytes, int threads,
                      int clusters, int iters)
{
    result r = {0};
    r.kernel = gmem ? "xchg_vec_gmem" : "xchg_vec_dsmem";
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
    xchg_make_pattern(table, n, pat, rng_below);
    int remote = 0;
    for (int i = 0; i < n * n; ++i)
        remote += table[i] != i / n;
    size_t blocks = (size_t)n * (size_t)r.clusters, bytes = blocks * (size_t)tile_bytes;
    double crossing_per_iter = (double)remote / n * tile_bytes * (double)r.clusters;
    int want = p->dry ? 3 : (int)(p->target_bytes / crossing_per_iter);
    if (want < 20 && !p->dry)
        want = 20;
    if (want > SEED_ITERS)
        want = SEED_ITERS;
    if (iters > 0)
        want = iters;
    r.iters = iters_without_fixed_point(table, n, want);

    uint32_t *in_host = malloc(bytes);
    for (size_t i = 0; in_host && i < bytes / 4; ++i)
        in_host[i] = rng_u32();
    void *in = dev_alloc(b, bytes), *out = dev_alloc(b, bytes), *scratch = dev_alloc(b, 2 * bytes);
    void *chunk_src = dev_alloc(b, sizeof table);
    char what[160];
    snprintf(what, sizeof what, "%s, %s, clusters of %d, %d B tiles, %d threads", r.kernel, pattern_name[pat], n,
             tile_bytes, threads);
    if (!in || !out || !scratch || !chunk_src || !in_host) {
        r.failed = 1;
        bench_fail_kernel(b, r.kernel, "%s: out of memory", what);
    } else {
        dsm_memcpy_to_device(in, in_host, bytes);
        dsm_memcpy_to_device(chunk_src, table, sizeof table);
        dsm_memset(out, 0xFF, bytes);
        dsm_memset(scratch, 0, 2 * bytes);
        cfg.grid = DSM_DIM3(blocks, 1, 1);
        void *args[] = {&in, &out, &chunk_src, &tile_bytes, &r.iters, &scratch};
        vec_ctx ctx = {r.kernel, what, out, in_host, scratch, table, n, r.iters, gmem, blocks, (size_t)tile_bytes / 4};
        check_then_time(b, p, &cfg, k, args, vec_check, &ctx, what, &r);
        if (r.ran) {
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
    const char *kernel, *what;
    const uint32_t *out_dev, *in_host;
    int n, stages, nchunks, chunk_bytes, gmem;
    size_t blocks, chunk_words, src_words;
} ring_ctx;

/* The ring's mechanism, counted in the dry run: every chunk left through the
 * copy engine and arrived in the neighbour's shared memory (ring_push), or went
 * out to global memory and came back in by bulk copy, with no DSMEM access at
 * all (ring_global); and no cluster barrier sat inside the loop. */
static int ring_counts_ok(bench *b, const ring_ctx *c)
{
    dsm_emu_counts k;
    uint64_t want = (uint64_t)c->nchunks * (uint64_t)c->chunk_bytes;
    for (uint32_t blk = 0; blk < c->blocks; ++blk) {
        if (!counts_of(blk, &k))
            return 1;
        uint64_t out = c->gmem ? k.bulk_s2g_bytes : k.async_out_bytes;
        uint64_t in = c->gmem ? k.bulk_g2s_landed_bytes : k.async_in_bytes;
        if (out != want || in != want) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u sent %llu and received %llu bytes by bulk copy%s, %llu each "
                              "expected (%d chunks)", c->what, blk, (unsigned long long)out, (unsigned long long)in,
                              c->gmem ? " through global memory" : "", (unsigned long long)want, c->nchunks);
            return 0;
        }
        if (c->gmem && (k.dsmem_ld_bytes || k.dsmem_st_bytes || k.async_out_bytes || k.mbarrier_remote_arrives)) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u used DSMEM (%llu bytes loaded, %llu stored, %llu sent, %u "
                              "remote arrives): the global twin must not", c->what, blk,
                              (unsigned long long)k.dsmem_ld_bytes, (unsigned long long)k.dsmem_st_bytes,
                              (unsigned long long)k.async_out_bytes, k.mbarrier_remote_arrives);
            return 0;
        }
        if (!barrier_waits_ok(b, c->kernel, c->what, blk, &k, 1, 3))
            return 0;
    }
    return 1;
}

/* Word w of CTA b's sum is sum_m W_m * src_left[4m + w] with
 * W_m = sum of (k + 1) over the k < nchunks with k mod (stages + 1) = m. */
static int ring_check(bench *b, void *vctx)
{
    ring_ctx *c = vctx;
    size_t words = c->blocks * c->chunk_words;
    uint32_t *got = malloc(words * 4), weight[RING_WEIGHTS_MAX];
    int ok = got != NULL && ring_counts_ok(b, c);
    if (ok && dsm_memcpy_to_host(got, c->out_dev, words * 4) != dsmSuccess) {
        bench_fail_kernel(b, c->kernel, "%s: copying the result back failed", c->what);
        ok = 0;
    }
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
                bench_fail_kernel(b, c->kernel, "%s: CTA %zu, word %zu of its sum: got 0x%08x, want 0x%08x", c->what,
                                  blk, w, got[blk * c->chunk_words + w], want);
                ok = 0;
                break;
            }
        }
    }
    free(got);
    return ok;
}

/* One ring_push (or, gmem, ring_global) configuration, filling the GPU with clusters of n. */
static result ring_run(bench *b, const plan *p, int gmem, int n, int stages, int chunk_bytes, int threads)
{
    result r = {0};
    r.kernel = gmem ? "ring_global" : "ring_push";
    dsm_kernel_t k = gmem ? DSM_KERNEL(ring_global) : DSM_KERNEL(ring_push);
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
    for (size_t i = 0; in_host && i < blocks * src_words; ++i)
        in_host[i] = rng_u32();
    void *in = dev_alloc(b, blocks * src_words * 4), *out = dev_alloc(b, blocks * chunk_words * 4);
    /* the global twin's slots (stages chunks per block) and flags (2 x stages per block) */
    size_t scratch_bytes = gmem ? blocks * (size_t)stages * (size_t)chunk_bytes : 16;
    size_t flag_bytes = gmem ? blocks * 2 * (size_t)stages * sizeof(uint32_t) : 16;
    void *scratch = dev_alloc(b, scratch_bytes), *flags = dev_alloc(b, flag_bytes);
    char what[160];
    snprintf(what, sizeof what, "%s, clusters of %d, %d stages of %d B, %d threads", r.kernel, n, stages, chunk_bytes,
             threads);
    if (!in || !out || !in_host || !scratch || !flags) {
        r.failed = 1;
        bench_fail_kernel(b, r.kernel, "%s: out of memory", what);
    } else {
        dsm_memcpy_to_device(in, in_host, blocks * src_words * 4);
        dsm_memset(out, 0xFF, blocks * chunk_words * 4);
        dsm_memset(scratch, 0, scratch_bytes);
        dsm_memset(flags, 0xFF, flag_bytes);    /* the kernel clears its own flags */
        cfg.grid = DSM_DIM3(blocks, 1, 1);
        void *args[] = {&in, &out, &chunk_bytes, &stages, &nchunks, &scratch, &flags};
        ring_ctx ctx = {r.kernel, what, out, in_host, n, stages, nchunks, chunk_bytes, gmem, blocks, chunk_words,
                        src_words};
        check_then_time(b, p, &cfg, k, args, ring_check, &ctx, what, &r);
        if (r.ran)
            r.crossing_tbps = tbps((double)chunk_bytes * (double)blocks * nchunks, r.ms.median);
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    dsm_free(flags);
    free(in_host);
    return r;
}

/* ---- rows and bests ---- */

static void note_best(best *bests, int which, const bench *b, const result *r, const char *what)
{
    if (!shown(b, r) || r->crossing_tbps <= bests[which].tbps)
        return;
    bests[which].tbps = r->crossing_tbps;
    snprintf(bests[which].what, sizeof bests[which].what, "%s", what);
}

/* Which bests entry a result's kernel feeds. */
static int best_slot(const char *kernel)
{
    for (int i = 0; i < K_COUNT; ++i)
        if (strcmp(kernel_names[i], kernel) == 0)
            return i;
    return K_SEED_DSMEM;
}

/* Columns of the pattern, tile and threads sweeps; "kernel" last, so that the
 * plots' column numbers stay those of earlier runs. */
#define XCHG_HEADER \
    "path,pattern,cluster,tile_bytes,threads,max_active_clusters,clusters,launch,iters,ms_median,ms_min,ms_max," \
    "crossing_tbps,seed_formula_tbps,crossing_bytes_per_clk_per_sm,kernel"

static void xchg_row(bench *b, bench_csv *csv, int gmem, enum pattern pat, int n, int tile, int threads,
                     const result *r)
{
    bench_csv_row(csv, "%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s", gmem ? "gmem" : "dsmem", pattern_name[pat],
                  n, tile, threads, r->max_clusters, r->clusters, status_of(b, r), num(b, r, "%.0f", r->iters),
                  num(b, r, "%.4f", r->ms.median), num(b, r, "%.4f", r->ms.min), num(b, r, "%.4f", r->ms.max),
                  num(b, r, "%.4f", r->crossing_tbps), num(b, r, "%.4f", r->seed_tbps),
                  num(b, r, "%.2f", per_sm_clk(b, r->crossing_tbps)), r->kernel);
}

#define RING_HEADER \
    "cluster,stages,chunk_bytes,threads,max_active_clusters,clusters,launch,nchunks,ms_median,ms_min,ms_max," \
    "crossing_tbps,crossing_bytes_per_clk_per_sm,kernel"

static void ring_row(bench *b, bench_csv *csv, int n, int stages, int chunk, int threads, const result *r)
{
    bench_csv_row(csv, "%d,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s", n, stages, chunk, threads, r->max_clusters,
                  r->clusters, status_of(b, r), num(b, r, "%.0f", r->iters), num(b, r, "%.4f", r->ms.median),
                  num(b, r, "%.4f", r->ms.min), num(b, r, "%.4f", r->ms.max), num(b, r, "%.4f", r->crossing_tbps),
                  num(b, r, "%.2f", per_sm_clk(b, r->crossing_tbps)), r->kernel);
}

/* One progress line: the number, or why there is none. */
static void progress(bench *b, const char *what, const result *r)
{
    if (shown(b, r))
        bench_progress(b, "%-70s %.3f TB/s", what, r->crossing_tbps);
    else
        bench_progress(b, "%-70s %s", what, r->failed || !bench_kernel_ok(b, r->kernel) ? "failed"
                                                                                         : dsm_error_name(r->err));
}

/* Runs one xchg_vec point, writes its row, keeps the best; 0 when the family must stop. */
static int xchg_point(bench *b, const plan *p, bench_csv *csv, best *bests, int gmem, enum pattern pat, int n,
                      int tile, int threads, result *out)
{
    if (p->dry) {   /* the emulator checks the kernels on tiny tiles and blocks */
        tile = 16 * n * 4;
        threads = threads > 64 ? 64 : threads;
    }
    result r = vec_run(b, p, gmem, pat, n, tile, threads, 0, 0);
    xchg_row(b, csv, gmem, pat, n, tile, threads, &r);
    char what[160];
    snprintf(what, sizeof what, "%s, %s, clusters of %d, %g KB tiles, %d threads", r.kernel, pattern_name[pat], n,
             tile / 1024.0, threads);
    note_best(bests, gmem ? K_VEC_GMEM : K_VEC_DSMEM, b, &r, what);
    progress(b, what, &r);
    if (out)
        *out = r;
    return !device_broken(&r);
}

static int ring_point(bench *b, const plan *p, bench_csv *csv, best *bests, int gmem, int n, int stages, int chunk,
                      int threads, result *out)
{
    if (p->dry) {
        chunk = 256;
        threads = 96;
    }
    result r = ring_run(b, p, gmem, n, stages, chunk, threads);
    ring_row(b, csv, n, stages, chunk, threads, &r);
    char what[160];
    snprintf(what, sizeof what, "%s, clusters of %d, %d stages of %g KB, %d threads", r.kernel, n, stages,
             chunk / 1024.0, threads);
    note_best(bests, best_slot(r.kernel), b, &r, what);
    progress(b, what, &r);
    if (out)
        *out = r;
    return !device_broken(&r);
}

/* ---- the family ---- */

/* One step of the improvement ladder, on both paths. */
typedef struct step {
    const char *name;
    result r[2];
    int has_gmem;
} step;

static void steps_csv_and_report(bench *b, step *steps, int nsteps, int tile, int seed_iters, int vec_iters)
{
    bench_csv *csv = bench_csv_open(b, "ch06-exchange-steps",
                                    "step,path,clusters,launch,iters,ms_median,ms_min,ms_max,crossing_tbps,"
                                    "seed_formula_tbps,crossing_bytes_per_clk_per_sm,speedup_vs_seed,kernel");
    bench_report(b, "\n### Step by step, in the seed's shape (clusters of 2, %d KB tiles; %d exchanges for the seed's "
                    "kernels, %d for the careful ones, an odd count so that no tile is back home)\n\n",
                 tile / 1024, seed_iters, vec_iters);
    bench_report(b, "| step | DSMEM ms | DSMEM TB/s | global ms | global TB/s | DSMEM / global | DSMEM vs seed |\n");
    bench_report(b, "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nsteps; ++i) {
        for (int g = 0; g < 2; ++g) {
            if (g == 1 && !steps[i].has_gmem)
                continue;
            result *r = &steps[i].r[g];
            const result *base = &steps[0].r[g];
            double speedup = shown(b, base) && base->crossing_tbps > 0 ? r->crossing_tbps / base->crossing_tbps : NAN;
            bench_csv_row(csv, "\"%s\",%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s", steps[i].name, g ? "gmem" : "dsmem",
                          r->clusters, status_of(b, r), num(b, r, "%.0f", r->iters), num(b, r, "%.4f", r->ms.median),
                          num(b, r, "%.4f", r->ms.min), num(b, r, "%.4f", r->ms.max),
                          num(b, r, "%.4f", r->crossing_tbps), num(b, r, "%.4f", r->seed_tbps),
                          num(b, r, "%.2f", per_sm_clk(b, r->crossing_tbps)),
                          isfinite(speedup) ? num(b, r, "%.3f", speedup) : (shown(b, r) ? "" : "failed"), r->kernel);
        }
        const result *d = &steps[i].r[0], *g = &steps[i].r[1], *base = &steps[0].r[0];
        char ratio[32] = "—", vs_seed[32] = "failed";
        if (steps[i].has_gmem && shown(b, d) && shown(b, g) && g->crossing_tbps > 0)
            snprintf(ratio, sizeof ratio, "%.2fx", d->crossing_tbps / g->crossing_tbps);
        else if (steps[i].has_gmem)
            snprintf(ratio, sizeof ratio, "failed");
        if (shown(b, d) && shown(b, base) && base->crossing_tbps > 0)
            snprintf(vs_seed, sizeof vs_seed, "%.1fx", d->crossing_tbps / base->crossing_tbps);
        if (steps[i].has_gmem)
            bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", steps[i].name, num(b, d, "%.2f", d->ms.median),
                         num(b, d, "%.2f", d->crossing_tbps), num(b, g, "%.2f", g->ms.median),
                         num(b, g, "%.2f", g->crossing_tbps), ratio, vs_seed);
        else
            bench_report(b, "| %s | %s | %s | — | — | — | %s |\n", steps[i].name, num(b, d, "%.2f", d->ms.median),
                         num(b, d, "%.2f", d->crossing_tbps), vs_seed);
    }
    bench_csv_close(csv);
}

/* A pair's three numbers in summary.json and one row of the report's pairs table. */
static void report_pair(bench *b, const char *name, const char *what, const best *bests, int dsmem, int gmem)
{
    char key[96], kernels[96];
    snprintf(kernels, sizeof kernels, "%s %s", kernel_names[dsmem], kernel_names[gmem]);
    const best *d = &bests[dsmem], *g = &bests[gmem];
    int have_d = d->tbps > 0 && bench_kernel_ok(b, kernel_names[dsmem]);
    int have_g = g->tbps > 0 && bench_kernel_ok(b, kernel_names[gmem]);
    snprintf(key, sizeof key, "bandwidth_pairs.%s.dsmem_tbps", name);
    if (have_d)
        bench_summary_measured(b, key, d->tbps, kernel_names[dsmem]);
    else
        bench_summary_failed(b, key, "no configuration of the DSMEM kernel passed its checks");
    snprintf(key, sizeof key, "bandwidth_pairs.%s.gmem_tbps", name);
    if (have_g)
        bench_summary_measured(b, key, g->tbps, kernel_names[gmem]);
    else
        bench_summary_failed(b, key, "no configuration of the global-memory kernel passed its checks");
    snprintf(key, sizeof key, "bandwidth_pairs.%s.dsmem_over_gmem", name);
    if (have_d && have_g)
        bench_summary_measured(b, key, d->tbps / g->tbps, kernels);
    else
        bench_summary_failed(b, key, "one side of the pair failed its checks");
    char dt[32] = "failed", gt[32] = "failed", rt[32] = "failed";
    if (have_d)
        snprintf(dt, sizeof dt, "%.2f", d->tbps);
    if (have_g)
        snprintf(gt, sizeof gt, "%.2f", g->tbps);
    if (have_d && have_g)
        snprintf(rt, sizeof rt, "%.2fx", d->tbps / g->tbps);
    bench_report(b, "| %s | %s | %s (%s) | %s (%s) | %s |\n", name, what, dt, have_d ? d->what : kernel_names[dsmem],
                 gt, have_g ? g->what : kernel_names[gmem], rt);
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
    best bests[K_COUNT];
    memset(bests, 0, sizeof bests);
    int broken = 0;
#define TRACK(r) do { broken |= device_broken(&(r)); } while (0)

    /* 1. the seed as published: one cluster of 2 per two SMs, like the seed's 57 clusters on 114 SMs
     * (the seed does not say how many CTAs shared an SM; this is the shape its numbers imply) */
    int seed_clusters = p.dry ? 1 : bench_sm_count(b) / 2;
    int seed_iters = p.dry ? 2 : SEED_ITERS;
    bench_csv *seed_csv = bench_csv_open(b, "ch06-seed-exchange",
                                         "kernel,threads,clusters,iters,launch,ms_median,ms_min,ms_max,"
                                         "seed_formula_tbps,crossing_tbps");
    result seed[2][2];
    memset(seed, 0, sizeof seed);
    int seed_threads[2] = {128, 512};
    for (int t = 0; t < 2 && !broken; ++t)
        for (int g = 0; g < 2 && !broken; ++g) {
            result *r = &seed[g][t];
            *r = seed_run(b, &p, g, seed_threads[t], seed_clusters, seed_iters);
            TRACK(*r);
            bench_csv_row(seed_csv, "%s,%d,%d,%d,%s,%s,%s,%s,%s,%s", r->kernel, seed_threads[t], r->clusters,
                          r->iters, status_of(b, r), num(b, r, "%.4f", r->ms.median), num(b, r, "%.4f", r->ms.min),
                          num(b, r, "%.4f", r->ms.max), num(b, r, "%.4f", r->seed_tbps),
                          num(b, r, "%.4f", r->crossing_tbps));
            char what[96];
            snprintf(what, sizeof what, "%s, %d threads (seed's formula %s TB/s)", r->kernel, seed_threads[t],
                     num(b, r, "%.3f", r->seed_tbps));
            progress(b, what, r);
            snprintf(what, sizeof what, "%s, %d threads, seed's shape", r->kernel, seed_threads[t]);
            note_best(bests, g ? K_SEED_GMEM : K_SEED_DSMEM, b, r, what);
        }
    bench_csv_close(seed_csv);
    if (broken)
        return 1;

    /* 2. the improvement ladder in the seed's shape, then the ring */
    step steps[7];
    memset(steps, 0, sizeof steps);
    int nsteps = 0;
    steps[nsteps++] = (step){"seed as published: 4-byte loads, 128 threads", {seed[0][0], seed[1][0]}, 1};
    steps[nsteps++] = (step){"seed's kernel with 512 threads", {seed[0][1], seed[1][1]}, 1};
    int vec_threads[3] = {128, 512, 1024}, vec_iters = 0;
    for (int t = 0; t < 3 && !broken; ++t) {
        static const char *const names[3] = {"16-byte accesses, one barrier per exchange, 128 threads",
                                             "16-byte accesses, one barrier per exchange, 512 threads",
                                             "16-byte accesses, one barrier per exchange, 1024 threads"};
        step *st = &steps[nsteps++];
        st->name = names[t];
        st->has_gmem = 1;
        for (int g = 0; g < 2 && !broken; ++g) {
            int threads = p.dry ? 64 : vec_threads[t];
            /* the seed's shape and exchange count, made odd: in clusters of 2 an even count brings every tile home */
            st->r[g] = vec_run(b, &p, g, NEIGHBOUR, 2, p.dry ? 16 * 2 * 8 : SEED_TILE_BYTES, threads, seed_clusters,
                               seed_iters);
            vec_iters = st->r[g].iters;
            TRACK(st->r[g]);
            note_best(bests, g ? K_VEC_GMEM : K_VEC_DSMEM, b, &st->r[g], names[t]);
            char what[160];
            snprintf(what, sizeof what, "%s, seed's shape, %d threads, %d exchanges", st->r[g].kernel, threads,
                     st->r[g].iters);
            progress(b, what, &st->r[g]);
        }
    }
    if (broken)
        return 1;

    /* the bulk-copy ring and its global-memory twin: every configuration on both */
    bench_csv *ring_csv = bench_csv_open(b, "ch06-ring-sweep", RING_HEADER);
    {
        step *st = &steps[nsteps++];
        st->name = "bulk-copy ring, 4 stages of 32 KB, 576 threads";
        st->has_gmem = 1;
        for (int g = 0; g < 2 && !broken; ++g)
            broken |= !ring_point(b, &p, ring_csv, bests, g, 2, 4, 32768, 576, &st->r[g]);
    }

    /* 3. the ring's sweeps: depth x chunk size, cluster size, threads, both rings */
    int depths[] = {1, 2, 4, 6, 8}, chunks[] = {8192, 16384, 32768};
    for (int d = 0; d < 5 && !broken; ++d)
        for (int c = 0; c < 3 && !broken; ++c) {
            if ((p.quick || p.dry) && (d == 0 || c == 0))
                continue;
            if ((size_t)(depths[d] + 1) * (size_t)chunks[c] + 128 * (size_t)depths[d] > 227 * 1024 ||
                (depths[d] == 4 && chunks[c] == 32768))
                continue;   /* does not fit in 227 KB with its source; 4 x 32 KB is the step above */
            for (int g = 0; g < 2 && !broken; ++g)
                broken |= !ring_point(b, &p, ring_csv, bests, g, 2, depths[d], chunks[c], 576, NULL);
        }
    int ring_clusters[] = {4, 8, 16};
    for (int i = 0; i < 3 && !broken; ++i)
        for (int g = 0; g < 2 && !broken; ++g)
            broken |= !ring_point(b, &p, ring_csv, bests, g, ring_clusters[i], 6, 16384, 576, NULL);
    int ring_threads[] = {320, 1024};
    for (int i = 0; i < 2 && !broken && !p.quick; ++i)
        for (int g = 0; g < 2 && !broken; ++g)
            broken |= !ring_point(b, &p, ring_csv, bests, g, 2, 6, 16384, ring_threads[i], NULL);
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
            for (int g = 0; g < 2 && !broken; ++g)
                broken |= !xchg_point(b, &p, pat_csv, bests, g, (enum pattern)pat, sizes[i], 16384, 512, NULL);
        }
    bench_csv_close(pat_csv);

    bench_csv *tile_csv = bench_csv_open(b, "ch06-tile-sweep", XCHG_HEADER);
    int tiles[] = {4096, 8192, 16384, 32768, 65536};
    for (int i = 0; i < 5 && !broken; ++i) {
        if (p.quick && (i == 1 || i == 3))
            continue;
        for (int g = 0; g < 2 && !broken; ++g)
            broken |= !xchg_point(b, &p, tile_csv, bests, g, NEIGHBOUR, 2, tiles[i], 512, NULL);
    }
    bench_csv_close(tile_csv);

    bench_csv *thr_csv = bench_csv_open(b, "ch06-threads-sweep", XCHG_HEADER);
    int threads[] = {128, 256, 512, 1024};
    for (int i = 0; i < 4 && !broken; ++i) {
        if (p.quick && (i == 1 || i == 2))
            continue;
        for (int g = 0; g < 2 && !broken; ++g)
            broken |= !xchg_point(b, &p, thr_csv, bests, g, NEIGHBOUR, 2, 16384, threads[i], NULL);
    }
    bench_csv_close(thr_csv);
    if (broken)
        return 1;

    /* summary.json: the seed's numbers, then the pairs, then best against best with both kernels named */
    const result *sd = &seed[0][0], *sg = &seed[1][0];
    if (shown(b, sd)) {
        bench_summary_measured(b, "seed_tile_exchange_dsmem_ms", sd->ms.median, sd->kernel);
        bench_summary_measured(b, "seed_tile_exchange_dsmem_tbps_seed_formula", sd->seed_tbps, sd->kernel);
    } else {
        bench_summary_failed(b, "seed_tile_exchange_dsmem_ms", "xchg_seed_dsmem failed a check");
        bench_summary_failed(b, "seed_tile_exchange_dsmem_tbps_seed_formula", "xchg_seed_dsmem failed a check");
    }
    if (shown(b, sg)) {
        bench_summary_measured(b, "seed_tile_exchange_gmem_ms", sg->ms.median, sg->kernel);
        bench_summary_measured(b, "seed_tile_exchange_gmem_tbps_seed_formula", sg->seed_tbps, sg->kernel);
    } else {
        bench_summary_failed(b, "seed_tile_exchange_gmem_ms", "xchg_seed_gmem failed a check");
        bench_summary_failed(b, "seed_tile_exchange_gmem_tbps_seed_formula", "xchg_seed_gmem failed a check");
    }
    /* the seed pair is the seed's shape exactly, 128 threads: not the best of the two 512-thread rows */
    best seed_pair[K_COUNT];
    memset(seed_pair, 0, sizeof seed_pair);
    if (shown(b, sd)) {
        seed_pair[K_SEED_DSMEM].tbps = sd->crossing_tbps;
        snprintf(seed_pair[K_SEED_DSMEM].what, sizeof seed_pair[0].what, "xchg_seed_dsmem, the seed's shape");
    }
    if (shown(b, sg)) {
        seed_pair[K_SEED_GMEM].tbps = sg->crossing_tbps;
        snprintf(seed_pair[K_SEED_GMEM].what, sizeof seed_pair[0].what, "xchg_seed_gmem, the seed's shape");
    }

    /* the best DSMEM and the best global-memory kernel of the run, among kernels that never failed */
    int best_d = -1, best_g = -1;
    for (int i = 0; i < K_COUNT; ++i) {
        int gm = i == K_SEED_GMEM || i == K_VEC_GMEM || i == K_RING_GMEM;
        int *slot = gm ? &best_g : &best_d;
        if (bests[i].tbps > 0 && bench_kernel_ok(b, kernel_names[i]) && (*slot < 0 || bests[i].tbps > bests[*slot].tbps))
            *slot = i;
    }
    if (best_d >= 0)
        bench_summary_measured(b, "dsmem_exchange_tbps_best", bests[best_d].tbps, kernel_names[best_d]);
    else
        bench_summary_failed(b, "dsmem_exchange_tbps_best", "no DSMEM kernel passed its checks");
    if (best_g >= 0)
        bench_summary_measured(b, "gmem_exchange_tbps_best", bests[best_g].tbps, kernel_names[best_g]);
    else
        bench_summary_failed(b, "gmem_exchange_tbps_best", "no global-memory kernel passed its checks");
    if (bests[K_RING_DSMEM].tbps > 0 && bench_kernel_ok(b, "ring_push"))
        bench_summary_measured(b, "ring_push_tbps_best", bests[K_RING_DSMEM].tbps, "ring_push");
    else
        bench_summary_failed(b, "ring_push_tbps_best", "ring_push failed a check");
    if (bests[K_RING_GMEM].tbps > 0 && bench_kernel_ok(b, "ring_global"))
        bench_summary_measured(b, "ring_global_tbps_best", bests[K_RING_GMEM].tbps, "ring_global");
    else
        bench_summary_failed(b, "ring_global_tbps_best", "ring_global failed a check");

    /* report.md */
    bench_report(b, "\n## Chapter 6: moving tiles between CTAs (ch06_exchange)\n\n");
    if (p.dry)
        bench_report(b, "Dry run on the emulator: every kernel checked on tiny sizes, and the emulator's counters "
                        "checked that every exchange moved its bytes and passed its barriers; the times below mean "
                        "nothing.\n\n");
    bench_report(b, "Seed 000's 16 KB tile exchange as published (%d clusters of 2 CTAs x 128 threads, %d exchanges), "
                    "beside the seed's claims for an H100 PCIe (57 clusters on 114 SMs):\n\n", seed_clusters,
                 seed_iters);
    char ratio_ms[32] = "failed", ratio_tbps[32] = "failed";
    if (shown(b, sd) && shown(b, sg)) {
        snprintf(ratio_ms, sizeof ratio_ms, "%.2fx", sg->ms.median / sd->ms.median);
        snprintf(ratio_tbps, sizeof ratio_tbps, "%.2fx", sd->seed_tbps / sg->seed_tbps);
    }
    bench_report(b, "| | DSMEM | global memory | global / DSMEM | seed's H100 PCIe claim |\n|---|---|---|---|---|\n");
    bench_report(b, "| time per launch, median of %d | %s ms | %s ms | %s | %.1f vs %.1f ms, %.2fx |\n", p.repeats,
                 num(b, sd, "%.2f", sd->ms.median), num(b, sg, "%.2f", sg->ms.median), ratio_ms, SEED_DSMEM_MS,
                 SEED_GMEM_MS, SEED_GMEM_MS / SEED_DSMEM_MS);
    bench_report(b, "| \"exchange bandwidth\", the seed's formula (2 x 16 KB x CTAs x exchanges / time) | %s TB/s | "
                    "%s TB/s | %s | %.2f vs %.2f TB/s |\n", num(b, sd, "%.2f", sd->seed_tbps),
                 num(b, sg, "%.2f", sg->seed_tbps), ratio_tbps, SEED_DSMEM_TBPS, SEED_GMEM_TBPS);
    bench_report(b, "| bytes that cross between SMs (16 KB x CTAs x exchanges / time) | %s TB/s | %s TB/s | | |\n\n",
                 num(b, sd, "%.2f", sd->crossing_tbps), num(b, sg, "%.2f", sg->crossing_tbps));
    if (shown(b, sd) && shown(b, sg))
        bench_report(b, "This GPU against the seed's claim: DSMEM %.2fx, global memory %.2fx of the seed's speed "
                        "(seed's ms / our ms; the seed ran 114 CTAs, this run %d).\n",
                     SEED_DSMEM_MS / sd->ms.median, SEED_GMEM_MS / sg->ms.median, 2 * seed_clusters);
    steps_csv_and_report(b, steps, nsteps, SEED_TILE_BYTES, seed_iters, vec_iters);

    bench_report(b, "\n### Like for like: each DSMEM mechanism beside its global-memory twin (crossing bytes, data "
                    "checked)\n\nEach pair ran the same configurations on both paths; each side is its best one. "
                    "`summary.json`: `bandwidth_pairs.<pair>.{dsmem_tbps,gmem_tbps,dsmem_over_gmem}`.\n\n"
                    "| pair | mechanism | DSMEM TB/s (configuration) | global TB/s (configuration) | DSMEM / global |\n"
                    "|---|---|---|---|---|\n");
    report_pair(b, "seed", "the seed's kernels as published (4-byte copies, cluster.sync per exchange)", seed_pair,
                K_SEED_DSMEM, K_SEED_GMEM);
    report_pair(b, "vec", "careful exchange (16-byte accesses, one barrier per exchange)", bests, K_VEC_DSMEM,
                K_VEC_GMEM);
    report_pair(b, "ring", "bulk-copy ring (ring_push into the neighbour / ring_global out to L2 and back)", bests,
                K_RING_DSMEM, K_RING_GMEM);

    /* best against best, with both mechanisms named */
    bench_report(b, "\n### Best against best (each mechanism named)\n\n");
    bench_report(b, "| path | TB/s | B/clk per SM | kernel and configuration |\n|---|---|---|---|\n");
    if (best_d >= 0)
        bench_report(b, "| DSMEM | %.2f | %.1f | %s |\n", bests[best_d].tbps, per_sm_clk(b, bests[best_d].tbps),
                     bests[best_d].what);
    else
        bench_report(b, "| DSMEM | failed | | no DSMEM kernel passed its checks |\n");
    if (best_g >= 0)
        bench_report(b, "| global memory (L2) | %.2f | %.1f | %s |\n", bests[best_g].tbps,
                     per_sm_clk(b, bests[best_g].tbps), bests[best_g].what);
    else
        bench_report(b, "| global memory (L2) | failed | | no global-memory kernel passed its checks |\n");
    if (best_d >= 0 && best_g >= 0) {
        bench_summary_measured(b, "bandwidth_pairs.best.dsmem_tbps", bests[best_d].tbps, kernel_names[best_d]);
        bench_summary_measured(b, "bandwidth_pairs.best.gmem_tbps", bests[best_g].tbps, kernel_names[best_g]);
        char both[96];
        snprintf(both, sizeof both, "%s %s", kernel_names[best_d], kernel_names[best_g]);
        bench_summary_measured(b, "bandwidth_pairs.best.dsmem_over_gmem", bests[best_d].tbps / bests[best_g].tbps,
                               both);
        bench_summary_text(b, "bandwidth_pairs.best.dsmem_mechanism", kernel_names[best_d]);
        bench_summary_text(b, "bandwidth_pairs.best.gmem_mechanism", kernel_names[best_g]);
        bench_report(b, "\nBest against best: %s over %s, %.2fx; ", kernel_names[best_d], kernel_names[best_g],
                     bests[best_d].tbps / bests[best_g].tbps);
    } else {
        bench_summary_failed(b, "bandwidth_pairs.best.dsmem_tbps", "a kernel failed its checks");
        bench_summary_failed(b, "bandwidth_pairs.best.gmem_tbps", "a kernel failed its checks");
        bench_summary_failed(b, "bandwidth_pairs.best.dsmem_over_gmem", "a kernel failed its checks");
        bench_report(b, "\n");
    }
    if (best_d >= 0)
        bench_report(b, "best DSMEM %.2f TB/s (target on an H200: at least 5.0 TB/s, %s); best DSMEM / the seed's "
                        "DSMEM kernel: %s. ", bests[best_d].tbps,
                     p.dry     ? "not measured in a dry run"
                     : p.quick ? "not judged in a QUICK run, whose shorter launches read a few % low"
                     : bests[best_d].tbps >= 5.0 ? "met" : "not met",
                     shown(b, sd) && sd->crossing_tbps > 0 ? num(b, sd, "%.1fx", bests[best_d].tbps / sd->crossing_tbps)
                                                           : "failed");
    bench_report(b, "Sweeps: ch06-pattern-sweep.csv, ch06-tile-sweep.csv, ch06-threads-sweep.csv, "
                    "ch06-ring-sweep.csv (occupancy and launch result per row).\n");
#undef TRACK
    int failed = 0;
    for (int i = 0; i < K_COUNT; ++i)
        failed |= !bench_kernel_ok(b, kernel_names[i]);
    return failed || broken;
}
