/* points.c: ch06_exchange's sweep points: one configuration run, its row written, the best of its kernel kept, a progress line. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xchg_bench.h"

/* ---- rows and bests ---- */

void xchg_note_best(best *bests, int which, const bench *b, const result *r, const char *what)
{
    if (!xchg_shown(b, r) || r->crossing_tbps <= bests[which].tbps)
        return;
    bests[which].tbps = r->crossing_tbps;
    snprintf(bests[which].what, sizeof bests[which].what, "%s", what);
}

/* Which bests entry a result's kernel feeds. */
int xchg_best_slot(const char *kernel)
{
    for (int i = 0; i < K_COUNT; ++i)
        if (strcmp(xchg_kernel_names[i], kernel) == 0)
            return i;
    return K_SEED_DSMEM;
}


static void xchg_row(bench *b, bench_csv *csv, int gmem, enum pattern pat, int n, int tile, int threads,
                     const result *r)
{
    bench_csv_row(csv, "%s,%s,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s", gmem ? "gmem" : "dsmem", pattern_name[pat],
                  n, tile, threads, r->max_clusters, r->clusters, xchg_status_of(b, r), xchg_num(b, r, "%.0f", r->iters),
                  xchg_num(b, r, "%.4f", r->ms.median), xchg_num(b, r, "%.4f", r->ms.min), xchg_num(b, r, "%.4f", r->ms.max),
                  xchg_num(b, r, "%.4f", r->crossing_tbps), xchg_num(b, r, "%.4f", r->seed_tbps),
                  xchg_num(b, r, "%.2f", xchg_per_sm_clk(b, r->crossing_tbps)), r->kernel);
}


static void ring_row(bench *b, bench_csv *csv, int n, int stages, int chunk, int threads, const result *r)
{
    bench_csv_row(csv, "%d,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s", n, stages, chunk, threads, r->max_clusters,
                  r->clusters, xchg_status_of(b, r), xchg_num(b, r, "%.0f", r->iters), xchg_num(b, r, "%.4f", r->ms.median),
                  xchg_num(b, r, "%.4f", r->ms.min), xchg_num(b, r, "%.4f", r->ms.max), xchg_num(b, r, "%.4f", r->crossing_tbps),
                  xchg_num(b, r, "%.2f", xchg_per_sm_clk(b, r->crossing_tbps)), r->kernel);
}

/* One progress line: the number, or why there is none. */
void xchg_progress(bench *b, const char *what, const result *r)
{
    if (xchg_shown(b, r))
        bench_progress(b, "%-70s %.3f TB/s", what, r->crossing_tbps);
    else
        bench_progress(b, "%-70s %s", what, r->failed || !bench_kernel_ok(b, r->kernel) ? "failed"
                                                                                         : dsm_error_name(r->err));
}

/* The arguments of one configuration of each kernel pair, for xchg_run_pair. */
typedef struct vec_args {
    enum pattern pat;
    int n, tile, threads, clusters, iters;
} vec_args;

static result vec_runner(bench *b, const plan *p, const void *a, int gmem)
{
    const vec_args *v = a;
    return xchg_vec_run(b, p, gmem, v->pat, v->n, v->tile, v->threads, v->clusters, v->iters);
}

typedef struct ring_args {
    int n, stages, chunk, threads;
} ring_args;

static result ring_runner(bench *b, const plan *p, const void *a, int gmem)
{
    const ring_args *r = a;
    return xchg_ring_run(b, p, gmem, r->n, r->stages, r->chunk, r->threads);
}

typedef struct seed_args {
    int threads, clusters, iters;
} seed_args;

static result seed_runner(bench *b, const plan *p, const void *a, int gmem)
{
    const seed_args *s = a;
    return xchg_seed_run(b, p, gmem, s->threads, s->clusters, s->iters);
}

void xchg_seed_pair(bench *b, const plan *p, int threads, int clusters, int iters, result out[2])
{
    seed_args a = {threads, clusters, iters};
    xchg_run_pair(b, p, seed_runner, &a, out);
}

void xchg_vec_pair(bench *b, const plan *p, enum pattern pat, int n, int tile, int threads, int clusters, int iters,
                   result out[2])
{
    vec_args a = {pat, n, tile, threads, clusters, iters};
    xchg_run_pair(b, p, vec_runner, &a, out);
}

/* Runs one xchg_vec configuration on both paths (timed together), writes their rows, keeps the bests; 0 when the
 * family must stop. */
int xchg_point(bench *b, const plan *p, bench_csv *csv, best *bests, enum pattern pat, int n, int tile, int threads,
               result out[2])
{
    if (p->dry) {   /* the emulator checks the kernels on tiny tiles and blocks */
        tile = 16 * n * 4;
        threads = threads > 64 ? 64 : threads;
    }
    result r[2];
    xchg_vec_pair(b, p, pat, n, tile, threads, 0, 0, r);
    for (int gmem = 0; gmem < 2; ++gmem) {
        xchg_row(b, csv, gmem, pat, n, tile, threads, &r[gmem]);
        char what[160];
        snprintf(what, sizeof what, "%s, %s, clusters of %d, %g KB tiles, %d threads", r[gmem].kernel,
                 pattern_name[pat], n, tile / 1024.0, threads);
        xchg_note_best(bests, gmem ? K_VEC_GMEM : K_VEC_DSMEM, b, &r[gmem], what);
        xchg_progress(b, what, &r[gmem]);
        if (out)
            out[gmem] = r[gmem];
    }
    return !xchg_device_broken(&r[0]) && !xchg_device_broken(&r[1]);
}

int xchg_ring_point(bench *b, const plan *p, bench_csv *csv, best *bests, int n, int stages, int chunk, int threads,
                    result out[2])
{
    if (p->dry) {
        chunk = 256;
        threads = 96;
    }
    ring_args a = {n, stages, chunk, threads};
    result r[2];
    xchg_run_pair(b, p, ring_runner, &a, r);
    for (int gmem = 0; gmem < 2; ++gmem) {
        ring_row(b, csv, n, stages, chunk, threads, &r[gmem]);
        char what[160];
        snprintf(what, sizeof what, "%s, clusters of %d, %d stages of %g KB, %d threads", r[gmem].kernel, n, stages,
                 chunk / 1024.0, threads);
        xchg_note_best(bests, xchg_best_slot(r[gmem].kernel), b, &r[gmem], what);
        xchg_progress(b, what, &r[gmem]);
        if (out)
            out[gmem] = r[gmem];
    }
    return !xchg_device_broken(&r[0]) && !xchg_device_broken(&r[1]);
}
