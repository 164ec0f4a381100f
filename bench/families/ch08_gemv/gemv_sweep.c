/* gemv_sweep.c: ch08_gemv's sweeps: every configuration of a variant's design space checked and timed (bench_time_variants), a row of ch08_gemv_sweep.csv each, the best kept; the plan's choice; the HBM read bandwidth. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch08/gemv_shape.h"
#include "ch08/gemv_cluster.h"
#include "gemv_bench.h"

/* GB/s of reading one copy of W in us microseconds. */
double gemv_gbps(const problem *p, double us) { return us > 0 ? (double)p->bytes / (us * 1e-6) / 1e9 : 0.0; }

/* Worth timing: a block size the kernel is compiled for, enough CTAs for half
 * the SMs (unless none has more), not more warps than a row group has
 * 32-chunk strips of its slice, at least 512 bytes of W per CTA, a grid of at
 * most 64 K CTAs; and a cluster launch of more than one CTA per cluster only
 * when all its clusters are resident at once (act, the occupancy API's
 * answer): the first H200 run found that CTAs launched in clusters cost about
 * 2 to 4 ns each beyond a plain launch's, so a cluster grid of several waves
 * loses to the same work in one wave every time. */
static int worth_it(const ctx *c, const problem *p, int v, const config *g, int act)
{
    if (v == V_FLOOR || v == V_CUBLAS)
        return 1;
    int kc = p->sh->K / 8, split = g->split, tiles = (p->sh->M + g->rows - 1) / g->rows;
    if (split > kc || split > 16 || g->threads > gemv_max_threads(p->nb))
        return 0;
    if (c->dry)
        return 1;   /* the dry run checks the kernels on every shape it can */
    long long ctas = (long long)tiles * split;
    int rt = GEMV_RT(gemv_kernel_nb(p->nb)), groups = (g->rows + rt - 1) / rt;
    int strips = (kc / split + 31) / 32;
    if (g->threads / 32 > 2 * groups * strips)
        return 0;
    if ((double)g->rows * p->sh->K * 2 / split < 512 || ctas > 65536)
        return 0;
    /* fewer CTAs than half the SMs: skipped where a split could give every SM one; row-parallel
     * cannot split, so with fewer rows than SMs its one CTA per row is all it has */
    if (ctas < c->sms / 2 && (long long)p->sh->M * (v == V_ROWPAR ? 1 : 16) >= c->sms)
        return 0;
    if ((v == V_CLUSTER || v == V_CLUSTER_GMEM) && split > 1 && act > 0 && tiles > act)
        return 0;
    return 1;
}

/* A summary number measured with `kernels`: null (with the reason) when one of
 * them failed a check in the family (bench_summary_measured), or when the
 * number is missing (0: its variants gave no number) on a GPU; the dry run
 * measures nothing, and its numbers stay what they are. */
void gemv_summary_measured(ctx *c, const char *key, double value, const char *kernels)
{
    if (c->dry || (value > 0 && isfinite(value)))
        bench_summary_measured(c->b, key, value, kernels);
    else
        bench_summary_failed(c->b, key, "not measured: a variant it needs gave no number (a failed check?)");
}

/* Checks and times one configuration (bench_time_variants: a check into
 * poisoned outputs, a warm-up, `repeats` rounds of a graph of p->ncalls
 * calls), writes its row, keeps the best. `source`: "sweep", "plan" for
 * gemv_cluster_plan's own choice, or the name of a variation. */
static void sweep_point_as(ctx *c, const problem *p, int v, const config *g, int repeats, best *bst, const char *source)
{
    if (c->broken)
        return;
    /* A kernel that failed a check has no numbers left to give: skip its other
     * points (every shape, this token count) instead of failing each of them,
     * so that an unfinished exercise prints one line per kernel. */
    const char *kernel = gemv_variant_kernel(v, p->nb);
    if (kernel != NULL && !bench_kernel_ok(c->b, kernel))
        return;
    if (v != V_CUBLAS && v != V_FLOOR && g->threads > gemv_max_threads(p->nb))
        return;     /* not launchable: the kernels are compiled for fewer threads (GEMV_BOUNDS) */
    gemv_prepare_attrs(p, v, g);
    int act = gemv_max_active(p, v, g);
    if (strcmp(source, "plan") != 0 && !worth_it(c, p, v, g, act))
        return;
    gemv_point pt;
    bench_variant var = gemv_point_variant(&pt, c, p, v, g, 1);
    bench_variant_result res;
    memset(&res, 0, sizeof res);
    const char *result = "ok";
    int no_graph = 0;
    if (v == V_CUBLAS && g->rows == 1 &&
        (gemv_enqueue_call(c, p, v, g, 0) != dsmSuccess || dsm_stream_synchronize(c->s) != dsmSuccess)) {
        result = "not_supported";   /* cuBLAS refused the other operand order: a choice it does not offer */
    } else if (v != V_CUBLAS && act == 0) {
        result = "does_not_fit";
    } else {
        bench_time_variants(c->b, c->s, &var, 1, 1, repeats, &res);
        if (res.status == BENCH_VARIANT_NOT_CAPTURED && v == V_CUBLAS) {
            /* this cuBLAS cannot be captured in a graph: its calls launched from the host, and said so */
            var = gemv_point_variant(&pt, c, p, v, g, 0);
            bench_time_variants(c->b, c->s, &var, 1, 1, repeats, &res);
            no_graph = 1;
        }
        if (res.status == BENCH_VARIANT_TIMED)
            result = no_graph ? "ok_no_graph" : "ok";
        else if (res.status == BENCH_VARIANT_NOT_CAPTURED && g->pdl)
            result = "pdl_not_captured";
        else
            result = res.status == BENCH_VARIANT_WRONG ? "wrong" : "timing_failed", c->failed = 1;
    }
    bench_stats st = res.stats;
    bench_csv_row(c->sweep, "%s,%d,%d,%.2f,%d,%s,%d,%d,%d,%d,%d,%d,%s,%d,%.3f,%.3f,%.3f,%.1f,%.2f,%d,%d,%s",
                  p->sh->name, p->sh->M, p->sh->K, p->bytes / 1e6, p->nb, gemv_vname[v], g->split, g->rows, g->threads,
                  g->unroll, v == V_FLOOR || g->rows < 1 ? g->split : (p->sh->M + g->rows - 1) / g->rows * g->split,
                  act, result, p->ncalls, st.median, st.min, st.max, gemv_gbps(p, st.median),
                  c->hbm_gbps > 0 ? 100.0 * gemv_gbps(p, st.median) / c->hbm_gbps : 0.0, g->cattr, g->pdl, source);
    if (res.status == BENCH_VARIANT_TIMED && (!bst->have || st.median < bst->sweep.median)) {
        memset(bst, 0, sizeof *bst);
        bst->have = 1;
        bst->c = *g;
        bst->sweep = st;
        bst->max_active = act;
        bst->no_graph = no_graph;
    }
}

static void sweep_point(ctx *c, const problem *p, int v, const config *g, int repeats, best *bst)
{
    sweep_point_as(c, p, v, g, repeats, bst, "sweep");
}

/* One configuration again with the cluster attribute at split 1: the same
 * check and timing, its own row (source "what"), its own result. */
void gemv_variation_point(ctx *c, const problem *p, int v, const best *of, int cattr, best *out, const char *what)
{
    memset(out, 0, sizeof *out);
    if (!of->have)
        return;
    config g = of->c;
    g.cattr = cattr;
    sweep_point_as(c, p, v, &g, 5, out, what);
}

/*
 * The design space of a variant for nb tokens (QUICK: a few points). What the
 * first H200 run (2026-12-02, 6990 points) taught, and this sweep skips:
 * 1024 threads won only for a whole row per CTA (rows 1 or 2, split 1); with 2
 * to 8 tokens one load in flight per row and round more than unroll 2 never
 * won, nor did 1 row per CTA; cluster grids of more than one wave never won
 * (worth_it).
 */
void gemv_sweep_variant(ctx *c, const problem *p, int v, best *bst)
{
    static const int splits_c[] = {1, 2, 4, 8, 16}, splits_nc[] = {2, 4, 8, 16};
    static const int rows_all[] = {1, 2, 4, 8, 16};
    static const int threads_all[] = {128, 256, 512, 1024};
    int reps = 3;
    memset(bst, 0, sizeof *bst);
    if (v == V_CUBLAS) {    /* its two operand orders for one token: the same care as our variants */
        for (int layout = 0; layout <= (p->nb == 1); ++layout) {
            config g = {0, layout, 0, 0, 0, 0};
            if (c->have_cublas)
                sweep_point(c, p, v, &g, reps, bst);
        }
        return;
    }
    if (v == V_FLOOR) {
        static const int per_sm[] = {1, 2, 4}, fthreads[] = {256, 512, 1024}, funroll[] = {4, 8};
        for (int a = 0; a < 3; ++a)
            for (int t = 0; t < 3; ++t)
                for (int u = 0; u < 2; ++u) {
                    if ((c->quick || c->dry) && (a != 1 || u != 0 || t == 0))
                        continue;
                    config g = {c->sms * per_sm[a], 0, fthreads[t], funroll[u], 0, 0};
                    if (c->dry)
                        g.split = 2, g.threads = 64;
                    sweep_point(c, p, v, &g, reps, bst);
                }
        return;
    }
    const char *only = getenv("GEMV_CONFIG");     /* split:rows:threads:unroll[:cattr]: this point alone */
    config one = {0, 0, 0, 0, 0, 0};
    if (only && sscanf(only, "%d:%d:%d:%d:%d", &one.split, &one.rows, &one.threads, &one.unroll, &one.cattr) >= 4) {
        sweep_point(c, p, v, &one, reps, bst);
        return;
    }
    int clusterish = v == V_CLUSTER || v == V_CLUSTER_GMEM;
    const int *splits = clusterish ? splits_c : splits_nc;
    int nsplits = clusterish ? 5 : 4;
    if (v == V_ROWPAR)
        nsplits = 1;
    int batch = p->nb > 1;
    for (int si = 0; si < nsplits; ++si)
        for (int ri = 0; ri < 5; ++ri)
            for (int ti = 0; ti < 4; ++ti)
                for (int unroll = 2; unroll <= 4; unroll += 2) {
                    int split = v == V_ROWPAR ? 1 : splits[si], rows = rows_all[ri], threads = threads_all[ti];
                    int whole_rows = split == 1 && rows <= 2;   /* a whole row or two per CTA */
                    if (c->dry) {   /* the emulator: a few small blocks */
                        if (unroll == 4 || (ri != 0 && ri != 4) || ti != 0)
                            continue;
                        threads = 64;
                    } else if (c->quick) {
                        if (unroll != 4 || threads != (split == 1 && rows == 1 ? 512 : 256) ||
                            (rows != 1 && rows != 4) || (split != 1 && split != 4))
                            continue;
                    } else if (batch) {     /* 2 to 8 tokens: the middle of the space */
                        if (unroll != 2 || rows == 1 || threads == 1024 || split == 16)
                            continue;
                    } else if (threads == 1024 && !whole_rows) {
                        continue;
                    }
                    config g = {split, rows, threads, unroll, 0, 0};
                    sweep_point(c, p, v, &g, reps, bst);
                }
}

/* gemv_cluster_plan's own choice for this shape on this GPU, checked and
 * timed like a sweep point (a row of the sweep CSV with source "plan"). */
void gemv_time_plan(ctx *c, const problem *p, best *bst)
{
    memset(bst, 0, sizeof *bst);
    int kc = p->sh->K / 8;
    if ((long long)p->sh->M * (kc < 16 ? kc : 16) < c->sms)
        return;     /* too few rows for any plan to fill the SMs (the dry run's small shapes) */
    if (!bench_kernel_ok(c->b, gemv_variant_kernel(V_CLUSTER, p->nb)))
        return;     /* the exercise's kernel failed a check: its plan would give no number */
    gemv_plan plan;
    dsm_error_t err = gemv_cluster_plan(p->sh->M, p->sh->K, p->nb, c->sms, &plan);
    if (err != dsmSuccess) {
        const char *k = gemv_variant_kernel(V_CLUSTER, p->nb);
        bench_fail_kernel(c->b, k, "%s nb %d: gemv_cluster_plan failed: %s [kernel %s]", p->sh->name, p->nb,
                          dsm_error_name(err), k);
        c->failed = 1;
        return;
    }
    config g = {plan.split, plan.rows, plan.threads, plan.unroll, 0, 0};
    sweep_point_as(c, p, V_CLUSTER, &g, 3, bst, "plan");
}


/* Measures the HBM read bandwidth: stream_read over the whole pool. */
void gemv_measure_hbm(ctx *c)
{
    shape whole = {"hbm", "the whole weight pool", 1, 8, SHAPE_MODEL};
    problem p = {&whole, 1, c->pool_bytes - c->pool_bytes % 16, 1, c->dry ? 1 : 8, NULL, NULL};
    best bst;
    memset(&bst, 0, sizeof bst);
    static const int per_sm[] = {1, 2, 4, 8}, threads[] = {256, 512, 1024}, unrolls[] = {4, 8};
    for (int a = 0; a < 4; ++a)
        for (int t = 0; t < 3; ++t)
            for (int u = 0; u < 2; ++u) {
                if ((c->quick || c->dry) && (a != 1 || t != 1))
                    continue;
                config g = {c->sms * per_sm[a], 0, threads[t], unrolls[u], 0, 0};
                if (c->dry)
                    g.split = 2, g.threads = 64;
                sweep_point(c, &p, V_FLOOR, &g, c->quick ? 3 : 5, &bst);
            }
    c->hbm_gbps = bst.have && bst.sweep.median > 0 ? gemv_gbps(&p, bst.sweep.median) : 0.0;
    bench_progress(c->b, "HBM read bandwidth: %.0f GB/s (stream_read over %.2f GB, %d CTAs x %d threads, %d loads in "
                   "flight)", c->hbm_gbps, p.bytes / 1e9, bst.c.split, bst.c.threads, bst.c.unroll);
    gemv_summary_measured(c, "gemv.hbm_read_tbps", c->hbm_gbps / 1e3, "stream_read");
    bench_report(c->b, "Measured HBM read bandwidth: **%.0f GB/s** (stream_read over %.2f GB of weights, %d CTAs of %d "
                 "threads, %d 16-byte loads in flight per thread, median of a graph of %d reads; every word summed "
                 "and checked). %% HBM below is relative to it.\n\n", c->hbm_gbps, p.bytes / 1e9, bst.c.split,
                 bst.c.threads, bst.c.unroll, p.ncalls);
}
