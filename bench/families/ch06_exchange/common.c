/* common.c: ch06_exchange's shared helpers: its data generator, units, a result's table fields, one configuration checked then timed (bench_time_variants), the dry run's mechanism counters. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xchg_bench.h"

const char *const xchg_kernel_names[K_COUNT] = {"xchg_seed_dsmem", "xchg_seed_gmem", "xchg_vec_dsmem",
                                                  "xchg_vec_gmem",   "ring_push",      "ring_global"};

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

uint32_t xchg_rng_u32(void) { return (uint32_t)(bench_xorshift64(&rng_state) >> 16); }

void *xchg_dev_alloc(bench *b, size_t bytes)
{
    void *p = NULL;
    dsm_error_t err = dsm_malloc(&p, bytes);
    if (err != dsmSuccess) {
        bench_fail(b, "dsm_malloc(%zu bytes): %s", bytes, dsm_error_name(err));
        return NULL;
    }
    return p;
}

double xchg_tbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e12 : 0.0; }

/* Bytes per clock per SM of an aggregate TB/s (0 when the clock is unknown). */
double xchg_per_sm_clk(const bench *b, double tb_s)
{
    double mhz = bench_sm_clock_mhz(b);
    int sms = bench_sm_count(b);
    return mhz > 0 && sms > 0 ? tb_s * 1e12 / ((double)sms * mhz * 1e6) : 0.0;
}

/* 1 when r measured something that may be shown: it ran, and no check of its kernel failed. */
int xchg_shown(const bench *b, const result *r)
{
    return r->ran && !r->failed && bench_kernel_ok(b, r->kernel);
}

/* A measurement as a CSV or report field: the number, "failed" for a failed
 * kernel, empty for a shape that did not run. Returns one of 16 rotating buffers. */
const char *xchg_num(const bench *b, const result *r, const char *fmt, double v)
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
const char *xchg_status_of(const bench *b, const result *r)
{
    if (r->failed || !bench_kernel_ok(b, r->kernel))
        return "failed";
    return r->ran ? "cudaSuccess" : dsm_error_name(r->err);
}

/* A launch that failed during execution leaves the GPU unusable: stop the family. */
int xchg_device_broken(const result *r)
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

/* The pair being run (xchg_run_pair): the twin runs inside the first
 * configuration's xchg_check_then_time, so that both are set up, with their
 * buffers alive, when they are checked and timed together. */
typedef struct pair_state {
    xchg_runner run;
    const void *args;
    result *out;
    point *first;       /* the first configuration, waiting for its twin */
    int twin_started;
} pair_state;
static pair_state *pair;

/* Checks the points, then times them interleaved (bench_time_variants: one
 * launch per sample, rotating rounds); fills their results, and with two, the
 * per-round ratio of the other's time over each one's. */
static void time_points(bench *b, const plan *p, point **pts, int n)
{
    static dsm_stream_t stream;     /* the family's stream, made on first use */
    if (stream == NULL && dsm_stream_create(&stream) != dsmSuccess) {
        for (int i = 0; i < n; ++i) {
            pts[i]->r->failed = 1;
            bench_fail_kernel(b, pts[i]->r->kernel, "%s: creating a stream failed", pts[i]->what);
        }
        return;
    }
    bench_variant v[2];
    bench_variant_result res[2];
    for (int i = 0; i < n; ++i)
        v[i] = (bench_variant){pts[i]->what, pts[i]->r->kernel, pts[i], point_check, point_call, 0, 0, 1, NULL};
    bench_time_variants(b, stream, v, n, p->warmup, p->repeats, res);
    for (int i = 0; i < n; ++i) {
        result *r = pts[i]->r;
        if (res[i].status != BENCH_VARIANT_TIMED) {
            r->failed = 1;
            continue;
        }
        r->ms = res[i].stats;
        r->ms.median *= 1e-3, r->ms.min *= 1e-3, r->ms.max *= 1e-3;    /* µs per launch -> ms */
        r->ran = 1;
        if (n == 2)
            r->twin_over_this = bench_pair_ratio(&res[1 - i], &res[i]);
    }
}

/* Checks, then times. The caller asked the occupancy calculator first, so a
 * shape that cannot fit never gets here: any launch error is a failure.
 * `check` compares the output with the CPU and, in the dry run, the
 * emulator's counts of that same launch with the work the configuration must
 * do. Inside xchg_run_pair, the first configuration waits here for its twin
 * and both are timed together. */
void xchg_check_then_time(bench *b, const plan *p, const dsm_launch_config *cfg, dsm_kernel_t k, void **args,
                          int (*check)(bench *, void *), void *ctx, const char *what, result *r)
{
    point pt = {b, cfg, k, args, check, ctx, what, r};
    if (pair != NULL && !pair->twin_started) {
        pair->first = &pt;
        pair->twin_started = 1;
        pair->out[1] = pair->run(b, p, pair->args, 1);  /* its xchg_check_then_time times both */
        if (pair->first == &pt) {                       /* the twin stopped before its timing */
            pair->first = NULL;
            point *one[1] = {&pt};
            time_points(b, p, one, 1);
        }
        return;
    }
    point *both[2];
    int n = 0;
    if (pair != NULL && pair->first != NULL) {
        both[n++] = pair->first;
        pair->first = NULL;
    }
    both[n++] = &pt;
    time_points(b, p, both, n);
}

void xchg_run_pair(bench *b, const plan *p, xchg_runner run, const void *args, result out[2])
{
    pair_state st = {run, args, out, NULL, 0}, *outer = pair;
    pair = &st;
    out[0] = run(b, p, args, 0);
    pair = NULL;
    if (!st.twin_started)   /* the first stopped before its timing (no fit, no memory): the twin alone */
        out[1] = run(b, p, args, 1);
    pair = outer;
}

/* Sets k's attributes for cfg (clusters above 8, dynamic shared memory above
 * 48 KB) and asks how many clusters fit (r->max_clusters): 1 when at least one
 * does; otherwise r->err says why (a shape that does not fit is a row, not a failure). */
int xchg_fits(dsm_kernel_t k, const dsm_launch_config *cfg, result *r)
{
    if (cfg->cluster.x > 8)
        dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    if (cfg->dynamic_smem_bytes > 48 * 1024)
        dsm_func_set_max_dynamic_smem(k, (int)cfg->dynamic_smem_bytes);
    r->err = dsm_occupancy_max_active_clusters(&r->max_clusters, k, cfg);
    if (r->err == dsmSuccess && r->max_clusters >= 1)
        return 1;
    if (r->err == dsmSuccess)
        r->err = dsmErrorInvalidValue;
    return 0;
}

/* ---- the dry run's proof that the work was done (the emulator's mechanism counters) ---- */

/* The counts of one block of the last launch; 0 on a GPU (nothing to check there). */
int xchg_counts_of(uint32_t block, dsm_emu_counts *c)
{
    memset(c, 0, sizeof *c);
    return dsm_emu_last_counts(block, c);
}

/* Every thread of the block completed exactly `want` cluster-barrier waits
 * (want_max: at most that many; 0 means exactly want). */
int xchg_barrier_waits_ok(bench *b, const char *kernel, const char *what, uint32_t blk, const dsm_emu_counts *c,
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
