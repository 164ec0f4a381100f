/* jobs.c: ch07_multicast's configurations as jobs: the stream (per CTA or multicast) and own data beside a shared operand, each set up with its expected output, checked into a poisoned output and timed beside its other mode (bench_time_variants). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcast_bench.h"

DSM_DECLARE_KERNEL(bulk_stream);
DSM_DECLARE_KERNEL(mcast_stream);
DSM_DECLARE_KERNEL(mcast_operand);

const char *const mode_name[2] = {"per-CTA", "multicast"};
const char *const source_name[2] = {"L2", "HBM"};

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint32_t rng_u32(void) { return (uint32_t)(bench_xorshift64(&rng_state) >> 16); }

double mcast_tbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e12 : 0.0; }

double mcast_per_sm_clk(const bench *b, double tb_s)
{
    double mhz = bench_sm_clock_mhz(b);
    int sms = bench_sm_count(b);
    return mhz > 0 && sms > 0 ? tb_s * 1e12 / ((double)sms * mhz * 1e6) : 0.0;
}

int mcast_device_broken(const result *r) { return r->err == dsmErrorLaunchFailure || r->err == dsmErrorIllegalAddress; }

/* 1 when r holds numbers that may be shown: measured, and no check of its kernel failed in this family. */
int mcast_shown(const bench *b, const result *r)
{
    return !r->failed && r->err == dsmSuccess && r->ms.median > 0 && bench_kernel_ok(b, r->kernel);
}

/* The CSV's launch column: the launch's result, or "failed" once its kernel failed a check. */
const char *mcast_launch_name(const bench *b, const result *r)
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
bench_csv *mcast_ncu_log;


static void log_launch(const job *j)
{
    if (mcast_ncu_log)
        bench_csv_row(mcast_ncu_log, "%s,%s,%s,%d,%.0f", j->r.kernel, mode_name[j->m], source_name[j->src], j->n,
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

void mcast_job_free(job *j)
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
    mcast_job_free(j);
    return -1;
}

/* ---- part 1: the stream, per CTA or multicast ---- */

/* Prepares the stream of mode m from src in clusters of n: 0 when ready to check and time. */
int mcast_stream_job(bench *b, const plan *p, const pools *pl, enum mode m, enum source src, int n, job *j)
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


int mcast_operand_job(bench *b, const plan *p, const pools *pl, enum mode m, const op_shape *s, job *j)
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
double mcast_time_pair(bench *b, const plan *p, dsm_stream_t stream, job jobs[2], bench_stats *speed_out)
{
    bench_variant v[2];
    bench_variant_result res[2];
    int ready[2];
    for (int m = 0; m < 2; ++m) {
        ready[m] = jobs[m].out != NULL;
        v[m] = (bench_variant){jobs[m].what, jobs[m].r.kernel, &jobs[m], job_check, job_call, 0, 0, 1, NULL};
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
            r->delivered_tbps = mcast_tbps(jobs[m].delivered, r->ms.median);
            r->fetched_tbps = jobs[m].fetched > 0 ? mcast_tbps(jobs[m].fetched, r->ms.median)
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

int mcast_make_pools(bench *b, const plan *p, pools *pl)
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

void mcast_free_pools(pools *pl)
{
    for (int i = 0; i < 2; ++i) {
        dsm_free(pl->dev[i]);
        free(pl->host[i]);
    }
}
