/* gemv_report.c: ch08_gemv's headline (paired ratios, geometric means over the shapes) and its section of report.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gemv_bench.h"

#define GEMV_SMALL_M_MAX 1536   /* "small M": M <= 1536 and K >= 7168 (the model layers) */
#define GEMV_SMALL_M_MIN_K 7168
#define GEMV_BIG_BYTES 32e6     /* the 85 % target applies from 32 MB of weights */

static int timed(const bench_variant_result *r) { return r->status == BENCH_VARIANT_TIMED; }
static double us_of(const bench_variant_result *r) { return timed(r) ? r->stats.median : 0.0; }

static double geomean(const double *x, int n)
{
    double s = 0;
    int k = 0;
    for (int i = 0; i < n; ++i)
        if (x[i] > 0)
            s += log(x[i]), ++k;
    return k ? exp(s / k) : 0.0;
}

static void config_text(char *buf, size_t n, int v, const best *bs)
{
    if (!bs->have)
        snprintf(buf, n, "-");
    else if (v == V_CUBLAS)
        snprintf(buf, n, "cublasGemmEx, %s", bs->c.rows ? "y^T = x^T W^T" : "y = W x");
    else if (v == V_FLOOR)
        snprintf(buf, n, "%d CTAs x %d, %d in flight", bs->c.split, bs->c.threads, bs->c.unroll);
    else if (v == V_ROWPAR)
        snprintf(buf, n, "%d rows, %d thr, unroll %d", bs->c.rows, bs->c.threads, bs->c.unroll);
    else if ((v == V_CLUSTER || v == V_CLUSTER_GMEM) && bs->c.split == 1)
        snprintf(buf, n, "cluster 1 (%s), %d rows, %d thr, unroll %d", bs->c.cattr ? "cluster attribute" : "plain launch",
                 bs->c.rows, bs->c.threads, bs->c.unroll);
    else
        snprintf(buf, n, "%s %d, %d rows, %d thr, unroll %d",
                 v == V_CLUSTER || v == V_CLUSTER_GMEM ? "cluster" : "split", bs->c.split, bs->c.rows, bs->c.threads,
                 bs->c.unroll);
}

void gemv_report(ctx *c, const shape *shapes, int nshapes, best table[][4][V_COUNT], best planned[][4],
                 const best *cattr_pt, const int *nbs, int n_nb)
{
    /* ---- headline, nb = 1: paired medians, geometric means over the model layers ---- */
    double ratio_cublas[GEMV_NSHAPES_MAX], ratio_nc[GEMV_NSHAPES_MAX], ratio_twin[GEMV_NSHAPES_MAX];
    double rc_small[GEMV_NSHAPES_MAX], rn_small[GEMV_NSHAPES_MAX], rc_all[GEMV_NSHAPES_MAX], rn_all[GEMV_NSHAPES_MAX];
    double tw_all[GEMV_NSHAPES_MAX], split_win[GEMV_NSHAPES_MAX];
    /* what a kernel at the read floor would score: the ceiling of each ratio in this measurement */
    double fc_small[GEMV_NSHAPES_MAX], fn_small[GEMV_NSHAPES_MAX], fc_all[GEMV_NSHAPES_MAX], fn_all[GEMV_NSHAPES_MAX];
    double fc_models[GEMV_NSHAPES_MAX];
    int small[GEMV_NSHAPES_MAX], nsmall = 0, nall = 0, nsplit = 0, nfloor_small = 0, nfloor_all = 0;
    double min_pct_big = 1e9;
    int cublas_no_graph = 0;
    for (int si = 0; si < nshapes; ++si) {
        best *bs = table[si][0];
        ratio_cublas[si] = ratio_nc[si] = ratio_twin[si] = fc_all[si] = fn_all[si] = 0;
        small[si] = shapes[si].group == SHAPE_MODEL && shapes[si].M <= GEMV_SMALL_M_MAX &&
                    shapes[si].K >= GEMV_SMALL_M_MIN_K;
        cublas_no_graph |= bs[V_CUBLAS].no_graph;
        int nc = gemv_best_noncluster(bs);
        ratio_cublas[si] = gemv_pair(&bs[V_CUBLAS], &bs[V_CLUSTER], 0).median;
        ratio_nc[si] = nc >= 0 ? gemv_pair(&bs[nc], &bs[V_CLUSTER], 0).median : 0.0;
        ratio_twin[si] = gemv_pair(&bs[V_CLUSTER_GMEM], &bs[V_CLUSTER], 0).median;
        fc_all[si] = gemv_pair(&bs[V_CUBLAS], &bs[V_FLOOR], 0).median;
        fn_all[si] = nc >= 0 ? gemv_pair(&bs[nc], &bs[V_FLOOR], 0).median : 0.0;
        if (shapes[si].group == SHAPE_SPLIT) {
            split_win[nsplit++] = gemv_pair(&bs[V_ROWPAR], &bs[V_CLUSTER], 1).median;
            continue;
        }
        rc_all[nall] = ratio_cublas[si];
        rn_all[nall] = ratio_nc[si];
        tw_all[nall] = ratio_twin[si];
        fc_models[nfloor_all++] = fc_all[si];
        ++nall;
        size_t bytes = (size_t)shapes[si].M * shapes[si].K * 2;
        double cl = us_of(&bs[V_CLUSTER].graph);
        double pct = cl > 0 && c->hbm_gbps > 0 ? 100.0 * bytes / (cl * 1e-6) / 1e9 / c->hbm_gbps : 0;
        if (bytes >= GEMV_BIG_BYTES && pct < min_pct_big)
            min_pct_big = pct;
        if (small[si]) {
            rc_small[nsmall] = ratio_cublas[si];
            rn_small[nsmall++] = ratio_nc[si];
            fc_small[nfloor_small] = fc_all[si];
            fn_small[nfloor_small++] = fn_all[si];
        }
    }
    double g_c_small = geomean(rc_small, nsmall), g_c_all = geomean(rc_all, nall);
    double g_n_small = geomean(rn_small, nsmall), g_n_all = geomean(rn_all, nall);
    double g_twin = geomean(tw_all, nall), g_split = geomean(split_win, nsplit);
    double f_c_small = geomean(fc_small, nfloor_small), f_c_all = geomean(fc_models, nfloor_all);
    double f_n_small = geomean(fn_small, nfloor_small);
    if (c->have_cublas) {
        gemv_summary_measured(c, "gemv.ceiling.cublas_over_floor_geomean_small_m", f_c_small, "stream_read");
        gemv_summary_measured(c, "gemv.ceiling.cublas_over_floor_geomean_all", f_c_all, "stream_read");
        gemv_summary_measured(c, "gemv.headline.cluster_vs_cublas_geomean_small_m", g_c_small, "gemv_cluster_t1");
        gemv_summary_measured(c, "gemv.headline.cluster_vs_cublas_geomean_all", g_c_all, "gemv_cluster_t1");
    }
    gemv_summary_measured(c, "gemv.ceiling.best_noncluster_over_floor_geomean_small_m", f_n_small,
                          K_NONCLUSTER " stream_read");
    gemv_summary_measured(c, "gemv.headline.cluster_vs_best_noncluster_geomean_small_m", g_n_small,
                          "gemv_cluster_t1 " K_NONCLUSTER);
    gemv_summary_measured(c, "gemv.headline.cluster_vs_best_noncluster_geomean_all", g_n_all,
                          "gemv_cluster_t1 " K_NONCLUSTER);
    gemv_summary_measured(c, "gemv.cluster_vs_gmem_twin_geomean_all", g_twin, "gemv_cluster_t1 gemv_cluster_gmem_t1");
    if (nsplit)
        gemv_summary_measured(c, "gemv.headline.split_shapes_rowpar_pdl_over_cluster_pdl_geomean", g_split,
                              "gemv_cluster_t1 gemv_rowpar_t1");
    if (min_pct_big < 1e9)
        gemv_summary_measured(c, "gemv.cluster_min_pct_hbm_from_32mb", min_pct_big, "gemv_cluster_t1 stream_read");

    bench_report(c->b, "Every time below is the median over interleaved rounds (the variants of one shape timed in "
                 "rotating order, round by round); every ratio is the median of the per-round ratios, its min and "
                 "max in ch08_gemv.csv.\n\n");
    bench_report(c->b, "### One token (batch 1): µs per call (CUDA graph of consecutive calls, weights from HBM)\n\n");
    bench_report(c->b, "| shape | M x K | MB | read floor | cuBLAS | row-parallel | split-K atomics | split-K two kernels | "
                 "cluster, global twin | **cluster, DSMEM** | DSMEM %% HBM | vs cuBLAS | vs best non-cluster | DSMEM "
                 "configuration |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int si = 0; si < nshapes; ++si) {
        best *bs = table[si][0];
        size_t bytes = (size_t)shapes[si].M * shapes[si].K * 2;
        char cfgtxt[96], cell[V_COUNT][32];
        config_text(cfgtxt, sizeof cfgtxt, V_CLUSTER, &bs[V_CLUSTER]);
        for (int v = 0; v < V_COUNT; ++v)
            if (timed(&bs[v].graph))
                snprintf(cell[v], sizeof cell[v], "%.2f", us_of(&bs[v].graph));
            else if (gemv_variant_kernel(v, 1) && !bench_kernel_ok(c->b, gemv_variant_kernel(v, 1)))
                snprintf(cell[v], sizeof cell[v], "failed");
            else
                snprintf(cell[v], sizeof cell[v], "-");
        double cl = us_of(&bs[V_CLUSTER].graph);
        bench_report(c->b, "| %s%s | %d x %d | %.1f | %s | %s | %s | %s | %s | %s | **%s** | %.0f%% | %.2fx | %.2fx | %s |\n",
                     shapes[si].name, small[si] ? " (small M)" : "", shapes[si].M, shapes[si].K, bytes / 1e6,
                     cell[V_FLOOR], cell[V_CUBLAS], cell[V_ROWPAR], cell[V_ATOMIC], cell[V_TWOKERNEL],
                     cell[V_CLUSTER_GMEM], cell[V_CLUSTER],
                     cl > 0 && c->hbm_gbps > 0 ? 100.0 * bytes / (cl * 1e-6) / 1e9 / c->hbm_gbps : 0.0, ratio_cublas[si],
                     ratio_nc[si], cfgtxt);
    }
    if (cublas_no_graph)
        bench_report(c->b, "\n**cuBLAS could not be captured in a CUDA graph here: its times are calls launched from the "
                     "host**, which include its launch and heuristics; the ratios to it favour our kernels.\n");
    bench_report(c->b, "\nHeadline (batch 1; ratios are the other's time over the cluster version's, > 1: the cluster "
                 "version is faster):\n\n");
    bench_report(c->b, "- cluster vs cuBLAS, geometric mean: small M (M <= %d, K >= %d; %d shapes) **%.2fx** (target >= "
                 "2), all %d shapes **%.2fx** (target >= 1.3)%s\n", GEMV_SMALL_M_MAX, GEMV_SMALL_M_MIN_K, nsmall,
                 g_c_small, nall, g_c_all, c->have_cublas ? "" : " (no cuBLAS in this run)");
    bench_report(c->b, "- cluster vs the best non-cluster variant of each shape (row-parallel, atomics, two kernels), "
                 "geometric mean: small M **%.2fx** (target >= 1.2), all **%.2fx**\n", g_n_small, g_n_all);
    bench_report(c->b, "- cluster through DSMEM vs the same cluster kernel through global memory: %.2fx (geometric "
                 "mean, all shapes)\n", g_twin);
    if (min_pct_big < 1e9)
        bench_report(c->b, "- the cluster version's lowest %% of the measured HBM bandwidth on shapes of at least 32 MB: "
                     "%.0f%% (target >= 85%%)\n", min_pct_big);
    bench_report(c->b, "\nWhere cuBLAS is faster than the cluster version (batch 1), with the read floor of the same "
                 "bytes beside it:\n\n");
    int wins = 0;
    for (int si = 0; si < nshapes; ++si)
        if (ratio_cublas[si] > 0 && ratio_cublas[si] < 1.0) {
            best *bs = table[si][0];
            bench_report(c->b, "- %s: cuBLAS %.2f us, cluster %.2f us, reading the weights alone %.2f us\n",
                         shapes[si].name, us_of(&bs[V_CUBLAS].graph), us_of(&bs[V_CLUSTER].graph),
                         us_of(&bs[V_FLOOR].graph));
            ++wins;
        }
    if (!wins)
        bench_report(c->b, "- none%s\n", c->have_cublas ? "" : " measured (no cuBLAS)");

    bench_report(c->b, "\n### With programmatic dependent launch (batch 1): µs per call, plain / PDL\n\n"
                 "Each kernel launched with PDL in the same graphs, timed in the same rounds (cuBLAS's API takes no "
                 "launch attributes, so it has no PDL column). The last column is row-parallel's time over the "
                 "cluster version's, both with PDL, per round: above 1 the split wins.\n\n"
                 "| shape | M x K | read floor | row-parallel | cluster, DSMEM | row-parallel PDL / cluster PDL "
                 "[min, max] |\n|---|---|---|---|---|---|\n");
    for (int si = 0; si < nshapes; ++si) {
        best *bs = table[si][0];
        bench_stats w = gemv_pair(&bs[V_ROWPAR], &bs[V_CLUSTER], 1);
        bench_report(c->b, "| %s%s | %d x %d | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2fx [%.2f, %.2f] |\n",
                     shapes[si].name, shapes[si].group == SHAPE_SPLIT ? " (few rows)" : "", shapes[si].M,
                     shapes[si].K, us_of(&bs[V_FLOOR].graph), us_of(&bs[V_FLOOR].pdl), us_of(&bs[V_ROWPAR].graph),
                     us_of(&bs[V_ROWPAR].pdl), us_of(&bs[V_CLUSTER].graph), us_of(&bs[V_CLUSTER].pdl), w.median, w.min,
                     w.max);
    }
    if (nsplit)
        bench_report(c->b, "\nOn the %d few-row shapes the cluster split against row-parallel, both with PDL: "
                     "**%.2fx** (geometric mean of the paired medians).\n", nsplit, g_split);

    bench_report(c->b, "\n### What the targets ask, against the read floor (batch 1)\n\n"
                 "A kernel cannot beat the read floor, the stream kernel reading the same bytes in the same graph. "
                 "If even the floor misses a target, no GEMV meets it in this measurement.\n\n"
                 "| shape | read floor | floor with PDL | 2x cuBLAS needs | 1.2x best non-cluster needs | 85%% HBM "
                 "needs | cuBLAS / floor | best non-cluster / floor |\n|---|---|---|---|---|---|---|---|\n");
    for (int si = 0; si < nshapes; ++si) {
        best *bs = table[si][0];
        if (!timed(&bs[V_FLOOR].graph))
            continue;
        size_t bytes = (size_t)shapes[si].M * shapes[si].K * 2;
        int ncv = gemv_best_noncluster(bs);
        double nc = ncv >= 0 ? us_of(&bs[ncv].graph) : 1e30;
        char pdl[32], hbm[32];
        if (timed(&bs[V_FLOOR].pdl))
            snprintf(pdl, sizeof pdl, "%.2f", us_of(&bs[V_FLOOR].pdl));
        else
            snprintf(pdl, sizeof pdl, "-");
        if (bytes >= GEMV_BIG_BYTES && c->hbm_gbps > 0)
            snprintf(hbm, sizeof hbm, "%.2f", bytes / (0.85 * c->hbm_gbps * 1e9) * 1e6);
        else
            snprintf(hbm, sizeof hbm, "-");
        bench_report(c->b, "| %s%s | %.2f | %s | %.2f | %.2f | %s | %.2fx | %.2fx |\n", shapes[si].name,
                     small[si] ? " (small M)" : "", us_of(&bs[V_FLOOR].graph), pdl,
                     timed(&bs[V_CUBLAS].graph) ? us_of(&bs[V_CUBLAS].graph) / 2 : 0.0, nc < 1e30 ? nc / 1.2 : 0.0, hbm,
                     fc_all[si], fn_all[si]);
    }
    bench_report(c->b, "\nAt the read floor a kernel would be **%.2fx** cuBLAS on the small-M shapes and **%.2fx** on all "
                 "shapes (geometric means; targets 2 and 1.3), and **%.2fx** the best non-cluster variant on the "
                 "small-M shapes (target 1.2). A target above its ceiling cannot be met by any kernel measured this "
                 "way; PDL (programmatic dependent launch, which lets a kernel start while the previous one "
                 "finishes) lowers the floor, but cuBLAS's API gives no way to launch its kernels with it, so the "
                 "comparison stays without.\n", f_c_small, f_c_all, f_n_small);

    bench_report(c->b, "\n### The cluster version's configurations (batch 1)\n\n| shape | best of the sweep | µs | "
                 "gemv_cluster_plan's choice | µs | best split-1 configuration launched with the cluster attribute "
                 "| µs |\n|---|---|---|---|---|---|---|\n");
    for (int si = 0; si < nshapes; ++si) {
        best *bs = table[si][0];
        char sw[96], pl[96];
        config_text(sw, sizeof sw, V_CLUSTER, &bs[V_CLUSTER]);
        config_text(pl, sizeof pl, V_CLUSTER, &planned[si][0]);
        bench_report(c->b, "| %s | %s | %.2f | %s | %.2f | %s | %.2f |\n", shapes[si].name, sw,
                     us_of(&bs[V_CLUSTER].graph), pl, planned[si][0].sweep.median,
                     cattr_pt[si].have ? "the same" : "- (split > 1)", cattr_pt[si].sweep.median);
    }

    bench_report(c->b, "\n### Host launches: µs per call when every call is launched from the host (no graph)\n\n");
    bench_report(c->b, "| shape | cuBLAS | row-parallel | split-K atomics | split-K two kernels | cluster, DSMEM |\n"
                 "|---|---|---|---|---|---|\n");
    for (int si = 0; si < nshapes; ++si) {
        best *bs = table[si][0];
        bench_report(c->b, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n", shapes[si].name, us_of(&bs[V_CUBLAS].stream),
                     us_of(&bs[V_ROWPAR].stream), us_of(&bs[V_ATOMIC].stream), us_of(&bs[V_TWOKERNEL].stream),
                     us_of(&bs[V_CLUSTER].stream));
    }
    for (int ni = 1; ni < n_nb; ++ni) {
        bench_report(c->b, "\n### %d tokens: µs per call (graph)\n\n| shape | read floor | cuBLAS | best non-cluster | "
                     "cluster, global twin | cluster, DSMEM | vs cuBLAS | DSMEM configuration | plan's choice, µs "
                     "|\n|---|---|---|---|---|---|---|---|---|\n", nbs[ni]);
        for (int si = 0; si < nshapes; ++si) {
            best *bs = table[si][ni];
            int ncv = gemv_best_noncluster(bs);
            double nc = ncv >= 0 ? us_of(&bs[ncv].graph) : 1e30;
            char cfgtxt[96];
            config_text(cfgtxt, sizeof cfgtxt, V_CLUSTER, &bs[V_CLUSTER]);
            double cl = us_of(&bs[V_CLUSTER].graph);
            bench_report(c->b, "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx | %s | %.2f |\n", shapes[si].name,
                         us_of(&bs[V_FLOOR].graph), us_of(&bs[V_CUBLAS].graph), nc < 1e30 ? nc : 0.0,
                         us_of(&bs[V_CLUSTER_GMEM].graph), cl,
                         cl > 0 && timed(&bs[V_CUBLAS].graph) ? us_of(&bs[V_CUBLAS].graph) / cl : 0.0, cfgtxt,
                         planned[si][ni].sweep.median);
        }
    }
    bench_report(c->b, "\nEvery configuration of every variant, with its occupancy and check: ch08_gemv_sweep.csv; the "
                 "best of each: ch08_gemv.csv.\n");
}
