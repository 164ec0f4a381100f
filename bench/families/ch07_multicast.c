/* ch07_multicast.c: make bench's chapter 7 family: loading what every CTA of a cluster needs per CTA or once per cluster with multicast, delivered and fetched bandwidth per cluster size from L2 and from HBM, and the sweep that finds where multicast wins and where it loses. */
// bench-kernels: ch07/bulk_stream.cu ch07/mcast_stream.cu ch07/mcast_operand.cu
/*
 * What it measures (each configuration checked before it is timed; a wrong result is
 * bench_fail_kernel(), never a number):
 *   1. stream:  every CTA of a cluster needs every chunk of the cluster's stream.
 *               "per CTA": bulk_stream, each CTA loads every chunk itself (its own
 *               ring, local mbarriers); "multicast": mcast_stream, each chunk read once
 *               per cluster and multicast into every CTA's ring. Both from L2 (the same
 *               8 MB region for every cluster) and from HBM (a region of its own per
 *               cluster, 512 MB in all, so that nothing stays in L2), clusters of 1, 2, 4,
 *               8 and 16, as many clusters as fit, one CTA per SM (8 slots of 16 KB).
 *               Delivered = bytes landed in shared memory per second; fetched = bytes
 *               the copies requested from L2 per second (delivered / n for multicast;
 *               NCU=1 measures it: bench/driver/ncu.sh). Full runs add the ring's
 *               shape (chunk 8-32 KB x 4-8 slots) in clusters of 2 from L2, both ways.
 *   2. operand: mcast_operand, every CTA streams its own data and an operand its cluster
 *               shares, per CTA and with the operand multicast, swept over cluster size,
 *               where each stream comes from (L2 or HBM), the operand's share of the
 *               bytes and the step size: the winning experiment is the configuration
 *               with the largest per-CTA / multicast time ratio, the losing ones those
 *               below 1 (and the pure L2 stream of part 1).
 * The two modes of every configuration are checked, then timed side by side
 * (bench_time_variants: one launch per sample, interleaved round by round in
 * rotating order); a speed-up is the median of the per-round ratios, with its
 * min and max (speedup_min, speedup_max).
 * Every configuration fills the GPU with as many clusters as
 * cudaOccupancyMaxActiveClusters allows and records that number and the launch's result.
 * Outputs are poisoned before the checked launch and every word of every CTA's sums is
 * compared with the CPU, so a kernel that skips work or does nothing fails.
 * BENCH_CH07_NCU=1 (set by bench/driver/ncu.sh under Nsight Compute): only part 1, one
 * timed launch per configuration, and ch07-ncu-launches.csv lists every launch in order,
 * with the bytes its CTAs receive, so that ncu.c can name each profiled launch and set its
 * L2 reads against what was delivered.
 * A failed check names its kernel (bench_fail_kernel): its rows read "failed" (both tables
 * end with a "kernel" column), its progress lines print no number, and no summary number
 * measured with it survives (bench_summary_measured).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

DSM_DECLARE_KERNEL(bulk_stream);
DSM_DECLARE_KERNEL(mcast_stream);
DSM_DECLARE_KERNEL(mcast_operand);

#define CONSUMERS 256                     /* consumer threads per CTA, both ways */
#define RING_BYTES (128 * 1024)           /* slots x chunk: one CTA per SM, as in the probe */
#define L2_REGION_BYTES (8u << 20)        /* part 1 from L2: one 8 MB region for every cluster */
#define HBM_POOL_BYTES (512u << 20)       /* from HBM: the regions of all clusters together */
#define OWN_L2_STEPS 2                    /* part 2: an L2-resident own region (steps of it) per CTA */
#define OPND_L2_STEPS 8                   /* ... and an L2-resident operand region per cluster */
#define TARGET_WIN 1.2                    /* the winning experiment's target on an H200 */
#define TARGET_L2_TBPS 8.5                /* per-CTA delivered from L2, target on an H200 */
#define TARGET_MC_TBPS 6.0                /* multicast delivered from L2 at every cluster size (the probe: 6.0-6.6) */

enum mode { PER_CTA = 0, MULTICAST = 1 };
enum source { FROM_L2 = 0, FROM_HBM = 1 };
static const char *const mode_name[2] = {"per-CTA", "multicast"};
static const char *const source_name[2] = {"L2", "HBM"};

typedef struct plan {
    int dry, quick, ncu, warmup, repeats;
    double target_bytes;      /* bytes delivered into shared memory per timed launch */
    size_t pool_bytes;        /* the HBM pool (the L2 region is its first L2_REGION_BYTES) */
    int chunk, stages;        /* part 1's ring */
} plan;

typedef struct result {
    const char *kernel;       /* the DSM_KERNEL_ENTRY name this configuration ran */
    dsm_error_t err;
    int failed, max_clusters, clusters, iters;
    bench_stats ms;
    double delivered_tbps, fetched_tbps;
} result;

/* The data every configuration reads: two pools of random words, on the device and on the host. */
typedef struct pools {
    uint32_t *dev[2], *host[2];
    size_t bytes;
} pools;

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint32_t rng_u32(void) { return (uint32_t)(bench_xorshift64(&rng_state) >> 16); }

static double tbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e12 : 0.0; }

static double per_sm_clk(const bench *b, double tb_s)
{
    double mhz = bench_sm_clock_mhz(b);
    int sms = bench_sm_count(b);
    return mhz > 0 && sms > 0 ? tb_s * 1e12 / ((double)sms * mhz * 1e6) : 0.0;
}

static int device_broken(const result *r) { return r->err == dsmErrorLaunchFailure || r->err == dsmErrorIllegalAddress; }

/* 1 when r holds numbers that may be shown: measured, and no check of its kernel failed in this family. */
static int shown(const bench *b, const result *r)
{
    return !r->failed && r->err == dsmSuccess && r->ms.median > 0 && bench_kernel_ok(b, r->kernel);
}

/* The CSV's launch column: the launch's result, or "failed" once its kernel failed a check. */
static const char *launch_name(const bench *b, const result *r)
{
    return r->failed || (r->kernel && !bench_kernel_ok(b, r->kernel)) ? "failed" : dsm_error_name(r->err);
}

/* out[w] = sum over k < nchunks of (k + 1) * region[(k mod region_chunks) * words + w]. */
static void stream_ref(const uint32_t *region, size_t words, size_t region_chunks, long nchunks, uint32_t *out)
{
    uint32_t *weight = calloc(region_chunks, sizeof *weight);
    for (long k = 0; k < nchunks; ++k)
        weight[(size_t)k % region_chunks] += (uint32_t)k + 1u;
    memset(out, 0, words * 4);
    for (size_t p = 0; p < region_chunks && (long)p < nchunks; ++p)
        for (size_t w = 0; w < words; ++w)
            out[w] += weight[p] * region[p * words + w];
    free(weight);
}

/* The first difference between `words` words of CTA blk's output and want, into why: 1 when none. */
static int same(size_t blk, const uint32_t *got, const uint32_t *want, size_t words, char *why, size_t why_len)
{
    for (size_t w = 0; w < words; ++w)
        if (got[w] != want[w]) {
            snprintf(why, why_len, "CTA %zu, word %zu: got 0x%08x, want 0x%08x", blk, w, got[w], want[w]);
            return 0;
        }
    return 1;
}

/* The launches of BENCH_CH07_NCU=1, in the order they are made (ncu.c names each profiled launch from it). */
static bench_csv *ncu_log;

/* One configuration of one mode, ready to check and time: its launch, its
 * arguments (held here: a timed call reads them after the setup returned),
 * its poisoned output and the output it must leave. */
typedef struct job {
    bench *b;
    result r;
    enum mode m;
    enum source src;
    int n;
    dsm_launch_config cfg;
    dsm_kernel_t k;
    const void *in[2];
    uint32_t *out, *want;
    size_t out_words;
    int a[8];
    void *args[10];
    double delivered;         /* bytes landed in shared memory per launch */
    double fetched;           /* bytes the copies ask of L2 per launch; 0: delivered (per CTA) or delivered / n */
    char what[200];
} job;

static void log_launch(const job *j)
{
    if (ncu_log)
        bench_csv_row(ncu_log, "%s,%s,%s,%d,%.0f", j->r.kernel, mode_name[j->m], source_name[j->src], j->n,
                      j->delivered);
}

static dsm_error_t job_call(void *ctx, int i, dsm_stream_t stream, int pdl)
{
    job *j = ctx;
    (void)i;
    dsm_launch_options opt = {stream, pdl, 0};
    log_launch(j);
    return dsm_launch_ex(&j->cfg, &opt, j->k, j->args);
}

/* bench_variant's check: the output poisoned, one launch, every word of every CTA compared. */
static int job_check(void *ctx, char *why, size_t why_len)
{
    job *j = ctx;
    size_t bytes = j->out_words * 4;
    dsm_memset(j->out, 0xFF, bytes);
    dsm_error_t err = dsm_device_synchronize();
    if (err == dsmSuccess)
        err = job_call(j, 0, NULL, 0);
    if (err == dsmSuccess)
        err = dsm_device_synchronize();
    if (err != dsmSuccess) {
        j->r.err = err;
        snprintf(why, why_len, "the launch failed: %s (%s)", dsm_error_name(err), dsm_error_string(err));
        return 0;
    }
    uint32_t *got = malloc(bytes);
    int ok = got && dsm_memcpy_to_host(got, j->out, bytes) == dsmSuccess;
    size_t words = j->out_words / j->cfg.grid.x;
    for (size_t blk = 0; ok && blk < j->cfg.grid.x; ++blk)
        ok = same(blk, got + blk * words, j->want + blk * words, words, why, why_len);
    free(got);
    return ok;
}

static void job_free(job *j)
{
    dsm_free(j->out);
    free(j->want);
    j->out = NULL;
    j->want = NULL;
}

/* Sets k's attributes for cfg (non-portable cluster sizes above 8, dynamic shared memory above 48 KB) and
 * asks how many clusters fit into r->max_clusters. 0 when at least one fits; otherwise the row fails. */
static int fit_clusters(bench *b, result *r, dsm_kernel_t k, const dsm_launch_config *cfg)
{
    int n = (int)cfg->cluster.x;
    if (n > 8)
        dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    if (cfg->dynamic_smem_bytes > 48 * 1024)
        dsm_func_set_max_dynamic_smem(k, (int)cfg->dynamic_smem_bytes);
    r->err = dsm_occupancy_max_active_clusters(&r->max_clusters, k, cfg);
    if (r->err == dsmSuccess && r->max_clusters >= 1)
        return 0;
    if (r->err == dsmSuccess)
        r->err = dsmErrorInvalidValue;
    /* a row that was not measured is never "ok": every shape of this family fits on a Hopper GPU */
    r->failed = 1;
    bench_fail_kernel(b, r->kernel, "%s, clusters of %d: no cluster fits (%s, %d clusters)", r->kernel, n,
                      dsm_error_name(r->err), r->max_clusters);
    return -1;
}

/* The output buffer and the expected output of j (out_words words each): 0 when allocated, else the row fails. */
static int job_buffers(job *j)
{
    j->want = malloc(j->out_words * 4 + 4);
    if (j->want && dsm_malloc((void **)&j->out, j->out_words * 4) == dsmSuccess)
        return 0;
    bench_fail_kernel(j->b, j->r.kernel, "%s: no memory for the output", j->r.kernel);
    j->r.failed = 1;
    job_free(j);
    return -1;
}

/* ---- part 1: the stream, per CTA or multicast ---- */

/* Prepares the stream of mode m from src in clusters of n: 0 when ready to check and time. */
static int stream_job(bench *b, const plan *p, const pools *pl, enum mode m, enum source src, int n, job *j)
{
    memset(j, 0, sizeof *j);
    j->b = b;
    j->m = m;
    j->src = src;
    j->n = n;
    result *r = &j->r;
    r->kernel = m == PER_CTA ? "bulk_stream" : "mcast_stream";
    j->k = m == PER_CTA ? DSM_KERNEL(bulk_stream) : DSM_KERNEL(mcast_stream);
    int threads = CONSUMERS + (m == PER_CTA ? 32 : 64), chunk = p->chunk, stages = p->stages;
    if (p->dry)
        threads = m == PER_CTA ? 64 : 96;
    size_t smem = (size_t)stages * (size_t)chunk;
    j->cfg = (dsm_launch_config){DSM_DIM3(n, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    if (fit_clusters(b, r, j->k, &j->cfg) != 0)
        return -1;
    r->clusters = p->dry ? 1 : r->max_clusters;
    size_t blocks = (size_t)n * (size_t)r->clusters, words = (size_t)chunk / 4;
    /* L2: one region for everybody; HBM: the pool cut into a region per cluster */
    size_t region_chunks = src == FROM_L2 ? L2_REGION_BYTES / (size_t)chunk : p->pool_bytes / (size_t)r->clusters / (size_t)chunk;
    if (p->dry)
        region_chunks = src == FROM_L2 ? 3 : 5;
    long nchunks = p->dry ? 2 * stages + 1 : (long)(p->target_bytes / ((double)blocks * chunk));
    if (nchunks < 4 * stages)
        nchunks = 4 * stages;
    r->iters = (int)nchunks;
    j->out_words = blocks * words;
    if (job_buffers(j) != 0)
        return -1;
    j->cfg.grid = DSM_DIM3(blocks, 1, 1);
    j->in[0] = pl->dev[0];
    int *a = j->a;
    a[0] = chunk, a[1] = stages, a[2] = (int)nchunks, a[3] = (int)region_chunks;
    a[4] = m == PER_CTA ? (src == FROM_L2 ? (int)blocks : n) : src == FROM_L2;   /* group, or shared_region */
    void *args[] = {&j->in[0], &j->out, &a[0], &a[1], &a[2], &a[3], &a[4]};
    memcpy(j->args, args, sizeof args);
    snprintf(j->what, sizeof j->what, "%s (%s stream) from %s, clusters of %d", r->kernel, mode_name[m],
             source_name[src], n);
    j->delivered = (double)blocks * (double)nchunks * chunk;
    size_t regions = src == FROM_L2 ? 1 : (size_t)r->clusters;
    for (size_t reg = 0; reg < regions; ++reg) {
        size_t first = src == FROM_L2 ? 0 : reg * (size_t)n, last = src == FROM_L2 ? blocks : first + (size_t)n;
        stream_ref(pl->host[0] + reg * region_chunks * words, words, region_chunks, nchunks, j->want + first * words);
        for (size_t blk = first + 1; blk < last; ++blk)
            memcpy(j->want + blk * words, j->want + first * words, words * 4);
    }
    return 0;
}

/* ---- part 2: own data beside a shared operand ---- */

typedef struct op_shape {
    int n, step, share_pct;   /* cluster size, bytes per step, the operand's share of them */
    enum source own_src, opnd_src;
} op_shape;

static int operand_job(bench *b, const plan *p, const pools *pl, enum mode m, const op_shape *s, job *j)
{
    memset(j, 0, sizeof *j);
    j->b = b;
    j->m = m;
    j->src = s->own_src;
    j->n = s->n;
    result *r = &j->r;
    r->kernel = "mcast_operand";
    j->k = DSM_KERNEL(mcast_operand);
    int n = s->n, threads = p->dry ? 96 : CONSUMERS + 64;
    int opnd_bytes = s->step * s->share_pct / 100 / 16 * 16, own_bytes = s->step - opnd_bytes;
    int stages = RING_BYTES / s->step > 8 ? 8 : RING_BYTES / s->step;
    if (p->dry)
        stages = 2;
    size_t smem = (size_t)stages * (size_t)s->step;
    j->cfg = (dsm_launch_config){DSM_DIM3(n, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    if (fit_clusters(b, r, j->k, &j->cfg) != 0)
        return -1;
    r->clusters = p->dry ? 1 : r->max_clusters;
    size_t blocks = (size_t)n * (size_t)r->clusters, clusters = (size_t)r->clusters;
    size_t ow = (size_t)own_bytes / 4, pw = (size_t)opnd_bytes / 4, W = ow + pw;
    /* the regions: small and L2-resident, or the whole pool (nothing stays in L2) */
    size_t own_steps = own_bytes == 0 ? 1
                       : s->own_src == FROM_L2 ? OWN_L2_STEPS : p->pool_bytes / blocks / (size_t)own_bytes;
    size_t opnd_steps = opnd_bytes == 0 ? 1
                        : s->opnd_src == FROM_L2 ? OPND_L2_STEPS : p->pool_bytes / clusters / (size_t)opnd_bytes;
    if (p->dry) {
        own_steps = s->own_src == FROM_L2 ? 1 : 3;
        opnd_steps = s->opnd_src == FROM_L2 ? 2 : 5;
    }
    long nsteps = p->dry ? 2 * stages + 1 : (long)(p->target_bytes / ((double)blocks * s->step));
    if (nsteps < 4 * stages)
        nsteps = 4 * stages;
    r->iters = (int)nsteps;
    j->out_words = blocks * W;
    if (job_buffers(j) != 0)
        return -1;
    j->cfg.grid = DSM_DIM3(blocks, 1, 1);
    j->in[0] = pl->dev[0];
    j->in[1] = pl->dev[1];
    int *a = j->a;
    a[0] = own_bytes, a[1] = opnd_bytes, a[2] = stages, a[3] = (int)nsteps, a[4] = (int)own_steps;
    a[5] = (int)opnd_steps, a[6] = m == MULTICAST;
    void *args[] = {&j->in[0], &j->in[1], &j->out, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6]};
    memcpy(j->args, args, sizeof args);
    snprintf(j->what, sizeof j->what, "mcast_operand, %s: clusters of %d, %d KB steps, %d %% operand, own data from "
             "%s, operand from %s", mode_name[m], n, s->step / 1024, s->share_pct, source_name[s->own_src],
             source_name[s->opnd_src]);
    j->delivered = (double)blocks * (double)nsteps * s->step;
    uint32_t *ref = j->want;
    for (size_t c = 0; c < clusters; ++c)
        for (size_t blk = c * (size_t)n; blk < (c + 1) * (size_t)n; ++blk) {
            if (blk == c * (size_t)n)
                stream_ref(pl->host[1] + c * opnd_steps * pw, pw, opnd_steps, nsteps, ref + blk * W + ow);
            else
                memcpy(ref + blk * W + ow, ref + c * (size_t)n * W + ow, pw * 4);
            stream_ref(pl->host[0] + blk * own_steps * ow, ow, own_steps, nsteps, ref + blk * W);
        }
    double fetched = m == PER_CTA ? (double)blocks * s->step : (double)blocks * own_bytes + (double)clusters * opnd_bytes;
    j->fetched = fetched * (double)nsteps;
    return 0;
}

/* Checks and times the per-CTA and the multicast job of one configuration
 * side by side (bench_time_variants: interleaved, rotating, one launch per
 * sample); fills their results; returns multicast's speed over per-CTA's, the
 * median of the per-round ratios (0 when either gave no time). */
static double time_pair(bench *b, const plan *p, dsm_stream_t stream, job jobs[2], bench_stats *speed_out)
{
    bench_variant v[2];
    bench_variant_result res[2];
    int ready[2];
    for (int m = 0; m < 2; ++m) {
        ready[m] = jobs[m].out != NULL;
        v[m] = (bench_variant){jobs[m].what, jobs[m].r.kernel, &jobs[m], job_check, job_call, 0, 0, 1};
    }
    bench_stats speed = {0, 0, 0, 0};
    if (ready[0] && ready[1]) {
        bench_time_variants(b, stream, v, 2, p->warmup, p->repeats, res);
    } else {    /* one side could not be set up (already failed): the other is still checked and timed */
        for (int m = 0; m < 2; ++m)
            if (ready[m])
                bench_time_variants(b, stream, &v[m], 1, p->warmup, p->repeats, &res[m]);
            else
                memset(&res[m], 0, sizeof res[m]);
    }
    for (int m = 0; m < 2; ++m) {
        result *r = &jobs[m].r;
        if (!ready[m])
            continue;
        if (res[m].status != BENCH_VARIANT_TIMED) {
            r->failed = 1;
        } else {
            r->ms = res[m].stats;
            r->ms.median *= 1e-3, r->ms.min *= 1e-3, r->ms.max *= 1e-3;    /* µs per launch -> ms */
            r->delivered_tbps = tbps(jobs[m].delivered, r->ms.median);
            r->fetched_tbps = jobs[m].fetched > 0 ? tbps(jobs[m].fetched, r->ms.median)
                              : jobs[m].m == PER_CTA ? r->delivered_tbps : r->delivered_tbps / jobs[m].n;
        }
    }
    if (ready[0] && ready[1])
        speed = bench_pair_ratio(&res[0], &res[1]);
    if (speed_out)
        *speed_out = speed;
    return speed.n > 0 ? speed.median : 0.0;
}

/* ---- the family ---- */

static int make_pools(bench *b, const plan *p, pools *pl)
{
    memset(pl, 0, sizeof *pl);
    pl->bytes = p->pool_bytes;
    for (int i = 0; i < 2; ++i) {
        pl->host[i] = malloc(pl->bytes);
        if (!pl->host[i] || dsm_malloc((void **)&pl->dev[i], pl->bytes) != dsmSuccess) {
            bench_fail(b, "cannot allocate the %zu MB data pools", pl->bytes >> 20);
            return 0;
        }
        for (size_t w = 0; w < pl->bytes / 4; ++w)
            pl->host[i][w] = rng_u32();
        dsm_memcpy_to_device(pl->dev[i], pl->host[i], pl->bytes);
    }
    return 1;
}

static void free_pools(pools *pl)
{
    for (int i = 0; i < 2; ++i) {
        dsm_free(pl->dev[i]);
        free(pl->host[i]);
    }
}

#define STREAM_HEADER \
    "data,cluster,mode,chunk_bytes,stages,threads,max_active_clusters,clusters,launch,nchunks,ms_median,ms_min,ms_max," \
    "delivered_tbps,fetched_tbps,delivered_bytes_per_clk_per_sm,speedup_vs_per_cta,kernel,speedup_min,speedup_max"

#define OPERAND_HEADER \
    "cluster,step_bytes,operand_pct,own_from,operand_from,mode,max_active_clusters,clusters,launch,nsteps,ms_median," \
    "ms_min,ms_max,delivered_tbps,fetched_tbps,speedup_vs_per_cta,kernel,speedup_min,speedup_max"

int bench_family_ch07_multicast(bench *b)
{
    plan p = {bench_dry(b), bench_quick(b), 0, 1, 5, 4e9, HBM_POOL_BYTES, 16384, 8};
    if (!p.dry && getenv("BENCH_CH07_NCU"))
        p.ncu = 1;
    if (p.quick) {
        p.target_bytes = 1.5e9;
        p.pool_bytes = HBM_POOL_BYTES / 2;   /* still several times L2 */
    }
    if (p.ncu) {
        p.warmup = 0;
        p.repeats = 1;
        p.target_bytes = 1e9;
    }
    if (p.dry) {
        p.repeats = 1;
        p.warmup = 0;
        p.pool_bytes = 1u << 20;
        p.chunk = 256;
        p.stages = 2;
    }
    pools pl;
    if (!make_pools(b, &p, &pl)) {
        free_pools(&pl);
        return 1;
    }
    int failed = 0, broken = 0;
    dsm_stream_t stream = NULL;     /* the timed launches' stream (ordered with the default one) */
    if (dsm_stream_create(&stream) != dsmSuccess) {
        bench_fail(b, "creating a stream");
        free_pools(&pl);
        return 1;
    }
#define TRACK(r) do { failed |= (r).failed; broken |= device_broken(&(r)); } while (0)
    if (p.ncu)
        ncu_log = bench_csv_open(b, "ch07-ncu-launches", "kernel,mode,data,cluster,delivered_bytes");

    /* 1. the stream, both ways, per cluster size, from L2 and from HBM */
    bench_csv *csv = bench_csv_open(b, "ch07_multicast", STREAM_HEADER);
    int sizes[] = {1, 2, 4, 8, 16};
    result st[2][5][2];   /* [source][size][mode] */
    memset(st, 0, sizeof st);
    double best_l2_percta = 0;
    char best_l2_what[96] = "";
    bench_stats st_speed[2][5];   /* [source][size]: multicast's speed over per-CTA's, paired */
    memset(st_speed, 0, sizeof st_speed);
    for (int src = 0; src < 2 && !broken; ++src)
        for (int i = 0; i < 5 && !broken; ++i) {
            if (((p.quick && !p.ncu) || p.dry) && (sizes[i] == 4 || sizes[i] == 16))
                continue;
            job jobs[2];
            for (int m = 0; m < 2; ++m)
                stream_job(b, &p, &pl, (enum mode)m, (enum source)src, sizes[i], &jobs[m]);
            bench_stats speed;
            time_pair(b, &p, stream, jobs, &speed);
            for (int m = 0; m < 2; ++m) {
                result *r = &st[src][i][m];
                *r = jobs[m].r;
                job_free(&jobs[m]);
                TRACK(*r);
                bench_csv_row(csv, "%s,%d,%s,%d,%d,%d,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.3f,%s,%.3f,%.3f",
                              source_name[src], sizes[i], mode_name[m], p.chunk, p.stages,
                              (p.dry ? 32 : CONSUMERS) + (m == PER_CTA ? 32 : 64), r->max_clusters, r->clusters,
                              launch_name(b, r), r->iters, r->ms.median, r->ms.min, r->ms.max, r->delivered_tbps,
                              r->fetched_tbps, per_sm_clk(b, r->delivered_tbps), m ? speed.median : 1.0, r->kernel,
                              m ? speed.min : 1.0, m ? speed.max : 1.0);
                if (shown(b, r))
                    bench_progress(b, "stream from %-3s clusters of %2d, %-9s delivered %.2f TB/s, fetched %.2f TB/s",
                                   source_name[src], sizes[i], mode_name[m], r->delivered_tbps, r->fetched_tbps);
                else
                    bench_progress(b, "stream from %-3s clusters of %2d, %-9s %s: failed", source_name[src], sizes[i],
                                   mode_name[m], r->kernel);
                if (src == FROM_L2 && m == PER_CTA && shown(b, r) && r->delivered_tbps > best_l2_percta) {
                    best_l2_percta = r->delivered_tbps;
                    snprintf(best_l2_what, sizeof best_l2_what, "clusters of %d, %d slots of %d KB", sizes[i], p.stages,
                             p.chunk / 1024);
                }
            }
            if (speed.n > 0)
                st_speed[src][i] = speed;
        }
    /* 1b. the ring's shape, from L2, in clusters of 2 (full runs only): the per-CTA best is the target's number */
    if (!p.quick && !p.dry && !p.ncu && !broken) {
        int chunks[] = {8192, 16384, 24576, 32768}, depths[] = {4, 6, 8};
        for (int c = 0; c < 4 && !broken; ++c)
            for (int d = 0; d < 3 && !broken; ++d) {
                if ((size_t)chunks[c] * (size_t)depths[d] > 200u * 1024u || (chunks[c] == p.chunk && depths[d] == p.stages))
                    continue;
                plan q = p;
                q.chunk = chunks[c];
                q.stages = depths[d];
                result r2[2];
                job jobs[2];
                for (int m = 0; m < 2; ++m)
                    stream_job(b, &q, &pl, (enum mode)m, FROM_L2, 2, &jobs[m]);
                bench_stats speed;
                time_pair(b, &q, stream, jobs, &speed);
                for (int m = 0; m < 2; ++m) {
                    r2[m] = jobs[m].r;
                    job_free(&jobs[m]);
                    TRACK(r2[m]);
                    bench_csv_row(csv, "%s,%d,%s,%d,%d,%d,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.3f,%s,%.3f,%.3f",
                                  "L2", 2, mode_name[m], q.chunk, q.stages, CONSUMERS + (m == PER_CTA ? 32 : 64),
                                  r2[m].max_clusters, r2[m].clusters, launch_name(b, &r2[m]), r2[m].iters,
                                  r2[m].ms.median, r2[m].ms.min, r2[m].ms.max, r2[m].delivered_tbps,
                                  r2[m].fetched_tbps, per_sm_clk(b, r2[m].delivered_tbps), m ? speed.median : 1.0,
                                  r2[m].kernel, m ? speed.min : 1.0, m ? speed.max : 1.0);
                    if (shown(b, &r2[m]))
                        bench_progress(b, "stream from L2  clusters of  2, %-9s %2d x %2d KB: delivered %.2f TB/s",
                                       mode_name[m], q.stages, q.chunk / 1024, r2[m].delivered_tbps);
                    else
                        bench_progress(b, "stream from L2  clusters of  2, %-9s %2d x %2d KB: %s failed", mode_name[m],
                                       q.stages, q.chunk / 1024, r2[m].kernel);
                }
                if (!broken && shown(b, &r2[0]) && r2[0].delivered_tbps > best_l2_percta) {
                    best_l2_percta = r2[0].delivered_tbps;
                    snprintf(best_l2_what, sizeof best_l2_what, "clusters of 2, %d slots of %d KB", q.stages,
                             q.chunk / 1024);
                }
            }
    }
    bench_csv_close(csv);
    if (ncu_log) {
        bench_csv_close(ncu_log);
        ncu_log = NULL;
    }
    if (broken || p.ncu) {
        free_pools(&pl);
        dsm_stream_destroy(stream);
        return failed || broken;
    }

    /* 2. own data beside a shared operand: the sweep that finds the win and the losses */
    bench_csv *ocsv = bench_csv_open(b, "ch07_multicast_operand", OPERAND_HEADER);
    int op_sizes[] = {2, 4, 8, 16}, steps[] = {16384, 32768}, shares[] = {50, 75, 90};
    double best = 0, worst = 1e9;
    char best_what[200] = "none", worst_what[200] = "none";
    result best_r[2], worst_r[2];
    memset(best_r, 0, sizeof best_r);
    memset(worst_r, 0, sizeof worst_r);
    int nconf = 0, wins = 0;
    for (int i = 0; i < 4 && !broken; ++i)
        for (int own_src = 0; own_src < 2 && !broken; ++own_src)
            for (int opnd_src = 0; opnd_src < 2 && !broken; ++opnd_src)
                for (int sh = 0; sh < 3 && !broken; ++sh)
                    for (int stp = 0; stp < 2 && !broken; ++stp) {
                        if ((p.quick || p.dry) && (op_sizes[i] != 4 || shares[sh] != 50 || stp != 0))
                            continue;
                        op_shape s = {op_sizes[i], p.dry ? 512 : steps[stp], shares[sh], (enum source)own_src,
                                      (enum source)opnd_src};
                        result r[2];
                        job jobs[2];
                        for (int m = 0; m < 2; ++m)
                            operand_job(b, &p, &pl, (enum mode)m, &s, &jobs[m]);
                        bench_stats sp;
                        double speed = time_pair(b, &p, stream, jobs, &sp);
                        for (int m = 0; m < 2; ++m) {
                            r[m] = jobs[m].r;
                            job_free(&jobs[m]);
                            TRACK(r[m]);
                        }
                        if (broken)
                            break;
                        for (int m = 0; m < 2; ++m)
                            bench_csv_row(ocsv, "%d,%d,%d,%s,%s,%s,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%s,%.3f,%.3f",
                                          s.n, s.step, s.share_pct, source_name[s.own_src], source_name[s.opnd_src],
                                          mode_name[m], r[m].max_clusters, r[m].clusters, launch_name(b, &r[m]),
                                          r[m].iters, r[m].ms.median, r[m].ms.min, r[m].ms.max, r[m].delivered_tbps,
                                          r[m].fetched_tbps, m ? speed : 1.0, r[m].kernel, m ? sp.min : 1.0,
                                          m ? sp.max : 1.0);
                        char what[200];
                        snprintf(what, sizeof what, "clusters of %d, %d KB steps, %d %% operand, own data from %s, "
                                                    "operand from %s", s.n, s.step / 1024, s.share_pct,
                                 source_name[s.own_src], source_name[s.opnd_src]);
                        if (!shown(b, &r[0]) || !shown(b, &r[1]) || speed <= 0) {
                            bench_progress(b, "operand, %s: mcast_operand failed", what);
                            continue;
                        }
                        bench_progress(b, "operand, %s: per CTA %.3f ms, multicast %.3f ms: %.2fx", what,
                                       r[0].ms.median, r[1].ms.median, speed);
                        ++nconf;
                        wins += speed >= TARGET_WIN;
                        if (speed > best) {
                            best = speed;
                            snprintf(best_what, sizeof best_what, "%s", what);
                            best_r[0] = r[0];
                            best_r[1] = r[1];
                        }
                        if (speed < worst) {
                            worst = speed;
                            snprintf(worst_what, sizeof worst_what, "%s", what);
                            worst_r[0] = r[0];
                            worst_r[1] = r[1];
                        }
                    }
    bench_csv_close(ocsv);
    free_pools(&pl);
    dsm_stream_destroy(stream);
    if (broken)
        return 1;

    /* the multicast stream's worst cluster size from L2 (n >= 2, the main ring shape) */
    double mc_l2_min = 1e9;
    char mc_l2_min_what[32] = "";
    for (int i = 1; i < 5; ++i) {
        const result *r = &st[FROM_L2][i][MULTICAST];
        if (shown(b, r) && r->delivered_tbps < mc_l2_min) {
            mc_l2_min = r->delivered_tbps;
            snprintf(mc_l2_min_what, sizeof mc_l2_min_what, "clusters of %d", sizes[i]);
        }
    }
    /* summary.json */
    char key[128];
    for (int src = 0; src < 2; ++src)
        for (int i = 0; i < 5; ++i)
            for (int m = 0; m < 2; ++m) {
                const result *r = &st[src][i][m];
                if (!shown(b, r))
                    continue;
                snprintf(key, sizeof key, "multicast_stream.%s.%s_delivered_tbps.c%d", src ? "hbm" : "l2",
                         m ? "multicast" : "per_cta", sizes[i]);
                bench_summary_measured(b, key, r->delivered_tbps, r->kernel);
            }
    if (!bench_kernel_ok(b, "bulk_stream"))
        best_l2_percta = 0;   /* a kernel that failed anywhere in the family gives no best */
    if (!bench_kernel_ok(b, "mcast_operand"))
        nconf = 0;
    if (best_l2_percta > 0)
        bench_summary_measured(b, "multicast_per_cta_l2_delivered_tbps_best", best_l2_percta, "bulk_stream");
    if (mc_l2_min < 1e9)
        bench_summary_measured(b, "multicast_l2_delivered_tbps_min", mc_l2_min, "mcast_stream");
    if (nconf > 0) {
        bench_summary_measured(b, "multicast_win_speedup_best", best, "mcast_operand");
        bench_summary_measured(b, "multicast_win_speedup_worst", worst, "mcast_operand");
    }
    const result *l2_2 = st[FROM_L2][1];
    double lose = shown(b, &l2_2[0]) && shown(b, &l2_2[1]) ? st_speed[FROM_L2][1].median : 0;
    if (lose > 0)
        bench_summary_measured(b, "multicast_lose_speedup_l2_stream_c2", lose, "bulk_stream mcast_stream");

    /* report.md */
    bench_report(b, "\n## Chapter 7: one load, many CTAs (ch07_multicast)\n\n");
    if (p.dry)
        bench_report(b, "Dry run on the emulator: every kernel checked on tiny sizes; the times below mean nothing.\n\n");
    const char *jit = getenv("CUDA_FORCE_PTX_JIT");
    if (!p.dry && jit && jit[0] == '1')
        bench_report(b, "**This run forced the PTX JIT (PTX_ONLY=1): the `compute_90` PTX has no `.multicast::cluster`; "
                        "\"multicast\" below is one unicast copy per CTA of the mask (the same bytes, n reads from L2).**\n\n");
    bench_report(b, "Every CTA of a cluster needs every chunk of its cluster's stream: loaded by each CTA itself "
                    "(`bulk_stream`) or once per cluster with `.multicast::cluster` (`mcast_stream`); %d slots of "
                    "%d KB per CTA, %d consumer threads, as many clusters as fit. \"Fetched\" is what the copies ask "
                    "of L2 (delivered / n with multicast); what L2 served is `make bench NCU=1`'s counter (when "
                    "every CTA reads the same lines at nearly the same time, L2 may serve several SMs' requests "
                    "for a line as one).\n\n",
                 p.stages, p.chunk / 1024, CONSUMERS);
    bench_report(b, "| data | cluster | CTAs | per CTA delivered TB/s (B/clk/SM) | multicast delivered TB/s (B/clk/SM) "
                    "| multicast fetched TB/s | multicast / per CTA speed |\n|---|---|---|---|---|---|---|\n");
    for (int src = 0; src < 2; ++src)
        for (int i = 0; i < 5; ++i) {
            const result *a = &st[src][i][0], *c = &st[src][i][1];
            if (!a->kernel || !c->kernel)
                continue;   /* not run (QUICK and dry runs skip clusters of 4 and 16) */
            char pc[48] = "failed", mc[48] = "failed", fetched[24] = "failed", speed[48] = "failed";
            if (shown(b, a))
                snprintf(pc, sizeof pc, "%.2f (%.1f)", a->delivered_tbps, per_sm_clk(b, a->delivered_tbps));
            if (shown(b, c)) {
                snprintf(mc, sizeof mc, "%.2f (%.1f)", c->delivered_tbps, per_sm_clk(b, c->delivered_tbps));
                snprintf(fetched, sizeof fetched, "%.2f", c->fetched_tbps);
            }
            if (shown(b, a) && shown(b, c))
                snprintf(speed, sizeof speed, "%.2fx [%.2f, %.2f]", st_speed[src][i].median, st_speed[src][i].min,
                         st_speed[src][i].max);
            bench_report(b, "| %s | %d | %d | %s | %s | %s | %s |\n",
                         src ? "own region per cluster (HBM)" : "the same 8 MB for every cluster (L2)", sizes[i],
                         a->clusters * sizes[i], pc, mc, fetched, speed);
        }
    if (best_l2_percta <= 0)
        bench_report(b, "\nPer-CTA loading from L2: failed (no configuration of bulk_stream passed its checks).\n");
    else
        bench_report(b, "\nPer-CTA loading from L2 delivered at best %.2f TB/s (%.1f B/clk/SM), %s (target on an H200: "
                    "at least %.1f, %s; other ring shapes: the rows of `ch07_multicast.csv` with other chunk_bytes "
                    "and stages; near 64 B/clk/SM it is what each SM can take in that limits it).\n",
                 best_l2_percta, per_sm_clk(b, best_l2_percta), best_l2_what, TARGET_L2_TBPS,
                 p.dry ? "not measured in a dry run"
                 : p.quick ? "not judged in a QUICK run"
                 : best_l2_percta >= TARGET_L2_TBPS ? "met" : "not met");
    if (mc_l2_min < 1e9)
        bench_report(b, "Multicast from L2 delivered at least %.2f TB/s in clusters of 2 and more, at %s (target on an "
                        "H200: at least %.1f at every cluster size, %s).\n", mc_l2_min, mc_l2_min_what, TARGET_MC_TBPS,
                     p.dry ? "not measured in a dry run" : mc_l2_min >= TARGET_MC_TBPS ? "met" : "not met");
    if (nconf == 0)
        bench_report(b, "\nOwn data beside a shared operand (mcast_operand): failed (no configuration passed its "
                        "checks).\n");
    if (nconf > 0) {
        bench_report(b, "\n### Own data beside a shared operand (mcast_operand, %d configurations, "
                        "`ch07_multicast_operand.csv`)\n\n", nconf);
        bench_report(b, "| experiment | configuration | per CTA ms (delivered TB/s) | multicast ms (delivered TB/s) | "
                        "speedup |\n|---|---|---|---|---|\n");
        bench_report(b, "| multicast wins most | %s | %.3f (%.2f) | %.3f (%.2f) | %.2fx |\n", best_what,
                     best_r[0].ms.median, best_r[0].delivered_tbps, best_r[1].ms.median, best_r[1].delivered_tbps,
                     best);
        bench_report(b, "| multicast loses most | %s | %.3f (%.2f) | %.3f (%.2f) | %.2fx |\n", worst_what,
                     worst_r[0].ms.median, worst_r[0].delivered_tbps, worst_r[1].ms.median, worst_r[1].delivered_tbps,
                     worst);
        if (lose > 0)
            bench_report(b, "| pure stream from L2 | clusters of 2, part 1 | %.3f (%.2f) | %.3f (%.2f) | %.2fx |\n",
                         l2_2[0].ms.median, l2_2[0].delivered_tbps, l2_2[1].ms.median, l2_2[1].delivered_tbps, lose);
        bench_report(b, "\nMulticast was at least %.1fx faster in %d of %d configurations; the best, %.2fx (target on an "
                        "H200: at least %.1fx, %s).\n", TARGET_WIN, wins, nconf, best, TARGET_WIN,
                     p.dry ? "not measured in a dry run" : best >= TARGET_WIN ? "met" : "not met");
    }
#undef TRACK
    return failed || broken;
}
