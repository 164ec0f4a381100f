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
 * Both paths of every configuration are set up, checked, then timed together,
 * interleaved round by round in rotating order (xchg_run_pair,
 * bench_time_variants), so that a step's DSMEM / global ratio is paired.
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

#include "ch06_exchange/xchg_bench.h"

/* Summary keys the driver must know (bench.h): the bests, the tile exchange as published and every
 * bandwidth pair are headlines; the source document's figures (an H100 PCIe) beside them, also for the
 * counters make bench NCU=1 reads of this family's kernels (bench/driver/ncu.c). */
const bench_key_info bench_keys_ch06_exchange[] = {
    {"seed_tile_exchange_dsmem_ms", 1, "30.871 ms"},
    {"seed_tile_exchange_gmem_ms", 1, "46.678 ms"},
    {"dsmem_exchange_tbps_best", 1, "0.61 TB/s (its formula, seed kernel)"},
    {"gmem_exchange_tbps_best", 1, "0.40 TB/s (its formula, seed kernel)"},
    {"bandwidth_pairs.", 1, NULL},
    {"seed_tile_exchange_dsmem_tbps_seed_formula", 0, "0.61 TB/s"},
    {"seed_tile_exchange_gmem_tbps_seed_formula", 0, "0.40 TB/s"},
    {"ncu_seed_exchange.dsmem.l2_bytes", 0, "139.65 MB"},
    {"ncu_seed_exchange.gmem.l2_bytes", 0, "752.43 MB"},
    {"ncu_seed_exchange.dsmem.dram_write_bytes", 0, "\"0 bytes\""},
    {"ncu_seed_exchange.gmem.dram_write_bytes", 0, "\"continuous write-back\" (no number)"},
    {NULL, 0, NULL},
};

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
    bench_report(b, "Both paths of a step run in the same rounds (interleaved, rotating); DSMEM / global is the median "
                    "of the per-round ratios [min, max].\n\n");
    bench_report(b, "| step | DSMEM ms | DSMEM TB/s | global ms | global TB/s | DSMEM / global | DSMEM vs seed |\n");
    bench_report(b, "|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < nsteps; ++i) {
        for (int g = 0; g < 2; ++g) {
            if (g == 1 && !steps[i].has_gmem)
                continue;
            result *r = &steps[i].r[g];
            const result *base = &steps[0].r[g];
            double speedup = xchg_shown(b, base) && base->crossing_tbps > 0 ? r->crossing_tbps / base->crossing_tbps : NAN;
            bench_csv_row(csv, "\"%s\",%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s", steps[i].name, g ? "gmem" : "dsmem",
                          r->clusters, xchg_status_of(b, r), xchg_num(b, r, "%.0f", r->iters), xchg_num(b, r, "%.4f", r->ms.median),
                          xchg_num(b, r, "%.4f", r->ms.min), xchg_num(b, r, "%.4f", r->ms.max),
                          xchg_num(b, r, "%.4f", r->crossing_tbps), xchg_num(b, r, "%.4f", r->seed_tbps),
                          xchg_num(b, r, "%.2f", xchg_per_sm_clk(b, r->crossing_tbps)),
                          isfinite(speedup) ? xchg_num(b, r, "%.3f", speedup) : (xchg_shown(b, r) ? "" : "failed"), r->kernel);
        }
        const result *d = &steps[i].r[0], *g = &steps[i].r[1], *base = &steps[0].r[0];
        char ratio[48] = "—", vs_seed[32] = "failed";
        /* the same work on both paths, timed in the same rounds: the median of the per-round ratios */
        if (steps[i].has_gmem && xchg_shown(b, d) && xchg_shown(b, g) && d->iters == g->iters &&
            d->clusters == g->clusters && d->twin_over_this.n > 0)
            snprintf(ratio, sizeof ratio, "%.2fx [%.2f, %.2f]", d->twin_over_this.median, d->twin_over_this.min,
                     d->twin_over_this.max);
        else if (steps[i].has_gmem && xchg_shown(b, d) && xchg_shown(b, g) && g->crossing_tbps > 0)
            snprintf(ratio, sizeof ratio, "%.2fx", d->crossing_tbps / g->crossing_tbps);
        else if (steps[i].has_gmem)
            snprintf(ratio, sizeof ratio, "failed");
        if (xchg_shown(b, d) && xchg_shown(b, base) && base->crossing_tbps > 0)
            snprintf(vs_seed, sizeof vs_seed, "%.1fx", d->crossing_tbps / base->crossing_tbps);
        if (steps[i].has_gmem)
            bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", steps[i].name, xchg_num(b, d, "%.2f", d->ms.median),
                         xchg_num(b, d, "%.2f", d->crossing_tbps), xchg_num(b, g, "%.2f", g->ms.median),
                         xchg_num(b, g, "%.2f", g->crossing_tbps), ratio, vs_seed);
        else
            bench_report(b, "| %s | %s | %s | — | — | — | %s |\n", steps[i].name, xchg_num(b, d, "%.2f", d->ms.median),
                         xchg_num(b, d, "%.2f", d->crossing_tbps), vs_seed);
    }
    bench_csv_close(csv);
}

/* A pair's three numbers in summary.json and one row of the report's pairs table. */
static void report_pair(bench *b, const char *name, const char *what, const best *bests, int dsmem, int gmem)
{
    char key[96], kernels[96];
    snprintf(kernels, sizeof kernels, "%s %s", xchg_kernel_names[dsmem], xchg_kernel_names[gmem]);
    const best *d = &bests[dsmem], *g = &bests[gmem];
    int have_d = d->tbps > 0 && bench_kernel_ok(b, xchg_kernel_names[dsmem]);
    int have_g = g->tbps > 0 && bench_kernel_ok(b, xchg_kernel_names[gmem]);
    snprintf(key, sizeof key, "bandwidth_pairs.%s.dsmem_tbps", name);
    if (have_d)
        bench_summary_measured(b, key, d->tbps, xchg_kernel_names[dsmem]);
    else
        bench_summary_failed(b, key, "no configuration of the DSMEM kernel passed its checks");
    snprintf(key, sizeof key, "bandwidth_pairs.%s.gmem_tbps", name);
    if (have_g)
        bench_summary_measured(b, key, g->tbps, xchg_kernel_names[gmem]);
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
    bench_report(b, "| %s | %s | %s (%s) | %s (%s) | %s |\n", name, what, dt, have_d ? d->what : xchg_kernel_names[dsmem],
                 gt, have_g ? g->what : xchg_kernel_names[gmem], rt);
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
#define TRACK(r) do { broken |= xchg_device_broken(&(r)); } while (0)

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
    for (int t = 0; t < 2 && !broken; ++t) {
        result pair[2];
        xchg_seed_pair(b, &p, seed_threads[t], seed_clusters, seed_iters, pair);
        for (int g = 0; g < 2 && !broken; ++g) {
            result *r = &seed[g][t];
            *r = pair[g];
            TRACK(*r);
            bench_csv_row(seed_csv, "%s,%d,%d,%d,%s,%s,%s,%s,%s,%s", r->kernel, seed_threads[t], r->clusters,
                          r->iters, xchg_status_of(b, r), xchg_num(b, r, "%.4f", r->ms.median), xchg_num(b, r, "%.4f", r->ms.min),
                          xchg_num(b, r, "%.4f", r->ms.max), xchg_num(b, r, "%.4f", r->seed_tbps),
                          xchg_num(b, r, "%.4f", r->crossing_tbps));
            char what[96];
            snprintf(what, sizeof what, "%s, %d threads (seed's formula %s TB/s)", r->kernel, seed_threads[t],
                     xchg_num(b, r, "%.3f", r->seed_tbps));
            xchg_progress(b, what, r);
            snprintf(what, sizeof what, "%s, %d threads, seed's shape", r->kernel, seed_threads[t]);
            xchg_note_best(bests, g ? K_SEED_GMEM : K_SEED_DSMEM, b, r, what);
        }
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
        int threads = p.dry ? 64 : vec_threads[t];
        /* the seed's shape and exchange count, made odd: in clusters of 2 an even count brings every tile home */
        xchg_vec_pair(b, &p, NEIGHBOUR, 2, p.dry ? 16 * 2 * 8 : SEED_TILE_BYTES, threads, seed_clusters, seed_iters,
                      st->r);
        for (int g = 0; g < 2 && !broken; ++g) {
            vec_iters = st->r[g].iters;
            TRACK(st->r[g]);
            xchg_note_best(bests, g ? K_VEC_GMEM : K_VEC_DSMEM, b, &st->r[g], names[t]);
            char what[160];
            snprintf(what, sizeof what, "%s, seed's shape, %d threads, %d exchanges", st->r[g].kernel, threads,
                     st->r[g].iters);
            xchg_progress(b, what, &st->r[g]);
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
        broken |= !xchg_ring_point(b, &p, ring_csv, bests, 2, 4, 32768, 576, st->r);
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
            broken |= !xchg_ring_point(b, &p, ring_csv, bests, 2, depths[d], chunks[c], 576, NULL);
        }
    int ring_clusters[] = {4, 8, 16};
    for (int i = 0; i < 3 && !broken; ++i)
        broken |= !xchg_ring_point(b, &p, ring_csv, bests, ring_clusters[i], 6, 16384, 576, NULL);
    int ring_threads[] = {320, 1024};
    for (int i = 0; i < 2 && !broken && !p.quick; ++i)
        broken |= !xchg_ring_point(b, &p, ring_csv, bests, 2, 6, 16384, ring_threads[i], NULL);
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
            broken |= !xchg_point(b, &p, pat_csv, bests, (enum pattern)pat, sizes[i], 16384, 512, NULL);
        }
    bench_csv_close(pat_csv);

    bench_csv *tile_csv = bench_csv_open(b, "ch06-tile-sweep", XCHG_HEADER);
    int tiles[] = {4096, 8192, 16384, 32768, 65536};
    for (int i = 0; i < 5 && !broken; ++i) {
        if (p.quick && (i == 1 || i == 3))
            continue;
        broken |= !xchg_point(b, &p, tile_csv, bests, NEIGHBOUR, 2, tiles[i], 512, NULL);
    }
    bench_csv_close(tile_csv);

    bench_csv *thr_csv = bench_csv_open(b, "ch06-threads-sweep", XCHG_HEADER);
    int threads[] = {128, 256, 512, 1024};
    for (int i = 0; i < 4 && !broken; ++i) {
        if (p.quick && (i == 1 || i == 2))
            continue;
        broken |= !xchg_point(b, &p, thr_csv, bests, NEIGHBOUR, 2, 16384, threads[i], NULL);
    }
    bench_csv_close(thr_csv);
    if (broken)
        return 1;

    /* summary.json: the seed's numbers, then the pairs, then best against best with both kernels named */
    const result *sd = &seed[0][0], *sg = &seed[1][0];
    if (xchg_shown(b, sd)) {
        bench_summary_measured(b, "seed_tile_exchange_dsmem_ms", sd->ms.median, sd->kernel);
        bench_summary_measured(b, "seed_tile_exchange_dsmem_tbps_seed_formula", sd->seed_tbps, sd->kernel);
    } else {
        bench_summary_failed(b, "seed_tile_exchange_dsmem_ms", "xchg_seed_dsmem failed a check");
        bench_summary_failed(b, "seed_tile_exchange_dsmem_tbps_seed_formula", "xchg_seed_dsmem failed a check");
    }
    if (xchg_shown(b, sg)) {
        bench_summary_measured(b, "seed_tile_exchange_gmem_ms", sg->ms.median, sg->kernel);
        bench_summary_measured(b, "seed_tile_exchange_gmem_tbps_seed_formula", sg->seed_tbps, sg->kernel);
    } else {
        bench_summary_failed(b, "seed_tile_exchange_gmem_ms", "xchg_seed_gmem failed a check");
        bench_summary_failed(b, "seed_tile_exchange_gmem_tbps_seed_formula", "xchg_seed_gmem failed a check");
    }
    /* the seed pair is the seed's shape exactly, 128 threads: not the best of the two 512-thread rows */
    best seed_pair[K_COUNT];
    memset(seed_pair, 0, sizeof seed_pair);
    if (xchg_shown(b, sd)) {
        seed_pair[K_SEED_DSMEM].tbps = sd->crossing_tbps;
        snprintf(seed_pair[K_SEED_DSMEM].what, sizeof seed_pair[0].what, "xchg_seed_dsmem, the seed's shape");
    }
    if (xchg_shown(b, sg)) {
        seed_pair[K_SEED_GMEM].tbps = sg->crossing_tbps;
        snprintf(seed_pair[K_SEED_GMEM].what, sizeof seed_pair[0].what, "xchg_seed_gmem, the seed's shape");
    }

    /* the best DSMEM and the best global-memory kernel of the run, among kernels that never failed */
    int best_d = -1, best_g = -1;
    for (int i = 0; i < K_COUNT; ++i) {
        int gm = i == K_SEED_GMEM || i == K_VEC_GMEM || i == K_RING_GMEM;
        int *slot = gm ? &best_g : &best_d;
        if (bests[i].tbps > 0 && bench_kernel_ok(b, xchg_kernel_names[i]) && (*slot < 0 || bests[i].tbps > bests[*slot].tbps))
            *slot = i;
    }
    if (best_d >= 0)
        bench_summary_measured(b, "dsmem_exchange_tbps_best", bests[best_d].tbps, xchg_kernel_names[best_d]);
    else
        bench_summary_failed(b, "dsmem_exchange_tbps_best", "no DSMEM kernel passed its checks");
    if (best_g >= 0)
        bench_summary_measured(b, "gmem_exchange_tbps_best", bests[best_g].tbps, xchg_kernel_names[best_g]);
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
    if (xchg_shown(b, sd) && xchg_shown(b, sg)) {
        snprintf(ratio_ms, sizeof ratio_ms, "%.2fx", sg->ms.median / sd->ms.median);
        snprintf(ratio_tbps, sizeof ratio_tbps, "%.2fx", sd->seed_tbps / sg->seed_tbps);
    }
    bench_report(b, "| | DSMEM | global memory | global / DSMEM | seed's H100 PCIe claim |\n|---|---|---|---|---|\n");
    bench_report(b, "| time per launch, median of %d | %s ms | %s ms | %s | %.1f vs %.1f ms, %.2fx |\n", p.repeats,
                 xchg_num(b, sd, "%.2f", sd->ms.median), xchg_num(b, sg, "%.2f", sg->ms.median), ratio_ms, SEED_DSMEM_MS,
                 SEED_GMEM_MS, SEED_GMEM_MS / SEED_DSMEM_MS);
    bench_report(b, "| \"exchange bandwidth\", the seed's formula (2 x 16 KB x CTAs x exchanges / time) | %s TB/s | "
                    "%s TB/s | %s | %.2f vs %.2f TB/s |\n", xchg_num(b, sd, "%.2f", sd->seed_tbps),
                 xchg_num(b, sg, "%.2f", sg->seed_tbps), ratio_tbps, SEED_DSMEM_TBPS, SEED_GMEM_TBPS);
    bench_report(b, "| bytes that cross between SMs (16 KB x CTAs x exchanges / time) | %s TB/s | %s TB/s | | |\n\n",
                 xchg_num(b, sd, "%.2f", sd->crossing_tbps), xchg_num(b, sg, "%.2f", sg->crossing_tbps));
    if (xchg_shown(b, sd) && xchg_shown(b, sg))
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
        bench_report(b, "| DSMEM | %.2f | %.1f | %s |\n", bests[best_d].tbps, xchg_per_sm_clk(b, bests[best_d].tbps),
                     bests[best_d].what);
    else
        bench_report(b, "| DSMEM | failed | | no DSMEM kernel passed its checks |\n");
    if (best_g >= 0)
        bench_report(b, "| global memory (L2) | %.2f | %.1f | %s |\n", bests[best_g].tbps,
                     xchg_per_sm_clk(b, bests[best_g].tbps), bests[best_g].what);
    else
        bench_report(b, "| global memory (L2) | failed | | no global-memory kernel passed its checks |\n");
    if (best_d >= 0 && best_g >= 0) {
        bench_summary_measured(b, "bandwidth_pairs.best.dsmem_tbps", bests[best_d].tbps, xchg_kernel_names[best_d]);
        bench_summary_measured(b, "bandwidth_pairs.best.gmem_tbps", bests[best_g].tbps, xchg_kernel_names[best_g]);
        char both[96];
        snprintf(both, sizeof both, "%s %s", xchg_kernel_names[best_d], xchg_kernel_names[best_g]);
        bench_summary_measured(b, "bandwidth_pairs.best.dsmem_over_gmem", bests[best_d].tbps / bests[best_g].tbps,
                               both);
        bench_summary_text(b, "bandwidth_pairs.best.dsmem_mechanism", xchg_kernel_names[best_d]);
        bench_summary_text(b, "bandwidth_pairs.best.gmem_mechanism", xchg_kernel_names[best_g]);
        bench_report(b, "\nBest against best: %s over %s, %.2fx; ", xchg_kernel_names[best_d], xchg_kernel_names[best_g],
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
                     xchg_shown(b, sd) && sd->crossing_tbps > 0 ? xchg_num(b, sd, "%.1fx", bests[best_d].tbps / sd->crossing_tbps)
                                                           : "failed");
    bench_report(b, "Sweeps: ch06-pattern-sweep.csv, ch06-tile-sweep.csv, ch06-threads-sweep.csv, "
                    "ch06-ring-sweep.csv (occupancy and launch result per row).\n");
#undef TRACK
    int failed = 0;
    for (int i = 0; i < K_COUNT; ++i)
        failed |= !bench_kernel_ok(b, xchg_kernel_names[i]);
    return failed || broken;
}
