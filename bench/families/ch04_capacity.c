/* ch04_capacity.c: chapter 4's measurements: which cluster shapes fit and how many are resident (occupancy API and launch), and the big histogram's throughput against cluster size. */
// bench-kernels: ch04/fit_cluster.cu ch04/big_histogram.cu
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dsm_emu_control.h"
#include "ch04/big_histogram.h"

DSM_DECLARE_KERNEL(fit_cluster_fill);
DSM_DECLARE_KERNEL(big_histogram);
DSM_DECLARE_KERNEL(big_histogram_global);

/* Summary keys the driver must know (bench.h): none is a headline, no source figure stands beside one. */
const bench_key_info bench_keys_ch04_capacity[] = {{NULL, 0, NULL}};

#define KB ((size_t)1024)

/* The value fit_cluster_fill stores for word i of cluster `cluster` (fit_cluster.cu). */
static uint32_t fill_value(uint32_t cluster, uint32_t i) { return i * 2654435761u + cluster; }

/* ---- part 1: the capacity sweep ---- */

/* Launches `clusters` clusters of `c` CTAs of fit_cluster_fill, each cluster
 * sharing c * smem bytes, and checks every word. Returns the launch or kernel
 * error; *checked is 1 when the words were right, 0 when they were not (a
 * bench_fail) or the launch did not run. */
static dsm_error_t launch_and_check_fill(bench *b, int c, int threads, size_t smem, int clusters, int *checked)
{
    *checked = 0;
    uint32_t words = (uint32_t)((size_t)c * smem / 4);   /* smem is a multiple of 4 KB */
    size_t out_bytes = sizeof(uint32_t) * (size_t)words * (size_t)clusters;
    uint32_t *out = NULL, *host = malloc(out_bytes);
    if (host == NULL || dsm_malloc((void **)&out, out_bytes) != dsmSuccess) {
        free(host);
        bench_fail_kernel(b, "fit_cluster_fill", "capacity: cannot allocate %zu bytes for cluster %d", out_bytes, c);
        return dsmErrorMemoryAllocation;
    }
    dsm_memset(out, 0xff, out_bytes);
    void *args[] = {&out, &words};
    /* smem bytes per CTA: at least the CTA's share of `words` (4 bytes when smem is 0). */
    dsm_launch_config cfg = {DSM_DIM3(c * clusters, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(c, 1, 1), smem};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(fit_cluster_fill), args);
    if (err == dsmSuccess && dsm_memcpy_to_host(host, out, out_bytes) == dsmSuccess) {
        *checked = 1;
        for (uint32_t g = 0; g < (uint32_t)clusters && *checked; g++)
            for (uint32_t i = 0; i < words; i++)
                if (host[(size_t)g * words + i] != fill_value(g, i)) {
                    bench_fail_kernel(b, "fit_cluster_fill",
                                      "capacity: cluster %d, %d threads, %zu B: cluster %u word %u is %u, expected %u", c,
                                      threads, smem, g, i, host[(size_t)g * words + i], fill_value(g, i));
                    *checked = 0;
                    break;
                }
    }
    dsm_free(out);
    free(host);
    return err;
}

/* One shape of the sweep: the occupancy API's answers, then a launch of every
 * resident cluster (one on the emulator), written as one CSV row. ctas_per_sm
 * is what the same block shape gives at cluster size 1 (clusters / SMs);
 * idle_sm_equiv is the unused CTA slots when every resident cluster runs, in
 * SMs (SMs - resident CTAs / ctas_per_sm): SMs left idle at one CTA per SM. */
static void capacity_row(bench *b, bench_csv *csv, const char *set, int non_portable, int c, int threads,
                         size_t smem, double ctas_per_sm, int *clusters_out)
{
    dsm_launch_config cfg = {DSM_DIM3(c, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(c, 1, 1), smem};
    int clusters = -1, potential = -1;
    dsm_error_t qerr = dsm_occupancy_max_active_clusters(&clusters, DSM_KERNEL(fit_cluster_fill), &cfg);
    dsm_error_t perr = dsm_occupancy_max_potential_cluster_size(&potential, DSM_KERNEL(fit_cluster_fill), &cfg);
    if (qerr != dsmSuccess)
        clusters = -1;
    if (perr != dsmSuccess)
        potential = -1;
    int launch_clusters = clusters > 0 ? (bench_dry(b) ? 1 : clusters) : 1;
    int checked = 0;
    dsm_error_t lerr = launch_and_check_fill(b, c, threads, smem, launch_clusters, &checked);
    int sms = bench_sm_count(b);
    double idle = clusters >= 0 && ctas_per_sm > 0 ? sms - clusters * c / ctas_per_sm : -1;
    if (clusters > 0 && non_portable && (lerr != dsmSuccess || !checked))
        bench_fail_kernel(b, "fit_cluster_fill",
                          "capacity: cluster %d, %d threads, %zu B: %d clusters resident, but the launch gave %s", c,
                          threads, smem, clusters, dsm_error_name(lerr));
    bench_csv_row(csv, "%s,%d,%d,%d,%zu,%s,%d,%d,%.2f,%d,%.1f,%s,%d,%d,fit_cluster_fill", set, non_portable, c, threads,
                  smem, dsm_error_name(qerr), clusters, potential, ctas_per_sm, clusters >= 0 ? clusters * c : -1, idle,
                  dsm_error_name(lerr), launch_clusters, checked);
    *clusters_out = clusters;
}

static int capacity_sweep(bench *b)
{
    static const int threads_full[] = {128, 1024};
    static const size_t smem_full[] = {16 * KB, 64 * KB, 100 * KB, 160 * KB, 227 * KB};
    static const int threads_dry[] = {128};
    static const size_t smem_dry[] = {4 * KB, 64 * KB};
    static const int sizes_dry[] = {1, 2, 3, 8, 9, 16};
    const int *threads = bench_dry(b) ? threads_dry : threads_full;
    const size_t *smems = bench_dry(b) ? smem_dry : smem_full;
    int nthreads = bench_dry(b) ? 1 : 2, nsmem = bench_dry(b) ? 2 : 5;
    int nsizes = bench_dry(b) ? 6 : 16;
    int fails = 0;

    bench_csv *csv = bench_csv_open(b, "ch04_capacity",
                                    "set,non_portable,cluster_size,threads,smem_per_cta,query_error,max_active_clusters,"
                                    "max_potential_cluster_size,ctas_per_sm,ctas_resident,idle_sm_equiv,launch,"
                                    "clusters_launched,checked,kernel");
    dsm_kernel_t k = DSM_KERNEL(fit_cluster_fill);
    int clusters = 0;

    /* Before any attribute: 64 KB and a cluster of 9 are refused. */
    bench_progress(b, "capacity: shapes without the attributes");
    dsm_emu_set_verbose(0);     /* the emulator would print its invalid-launch reports: they are expected here */
    capacity_row(b, csv, "bare", 0, 2, 128, 32 * KB, 0, &clusters);
    capacity_row(b, csv, "bare", 0, 2, 128, 64 * KB, 0, &clusters);
    capacity_row(b, csv, "bare", 0, 9, 128, 32 * KB, 0, &clusters);
    dsm_emu_set_verbose(1);

    size_t optin = bench_smem_per_block_optin(b);
    if (dsm_func_set_max_dynamic_smem(k, (int)optin) != dsmSuccess ||
        dsm_func_set_non_portable_cluster_size_allowed(k, 1) != dsmSuccess) {
        bench_fail_kernel(b, "fit_cluster_fill", "capacity: cannot set the attributes of fit_cluster_fill");
        bench_csv_close(csv);
        return 1;
    }

    /* best[t][s][c]: resident clusters, for the report. */
    int table[2][5][17];
    memset(table, 0xff, sizeof table);
    for (int t = 0; t < nthreads; t++)
        for (int s = 0; s < nsmem; s++) {
            size_t smem = smems[s] < optin ? smems[s] : optin;
            bench_progress(b, "capacity: %d threads, %zu KB per CTA, cluster sizes 1..16", threads[t], smem / KB);
            /* CTAs per SM of this block shape: what clusters of one CTA give, per SM. */
            dsm_launch_config one = {DSM_DIM3(1, 1, 1), DSM_DIM3(threads[t], 1, 1), DSM_DIM3(1, 1, 1), smem};
            int singles = 0;
            double per_sm = dsm_occupancy_max_active_clusters(&singles, k, &one) == dsmSuccess
                                ? (double)singles / bench_sm_count(b) : 0;
            for (int i = 0; i < nsizes; i++) {
                int c = bench_dry(b) ? sizes_dry[i] : i + 1;
                capacity_row(b, csv, "sweep", 1, c, threads[t], smem, per_sm, &clusters);
                table[t][s][c] = clusters;
                if (clusters < 0)
                    fails++;    /* with both attributes set every size up to 16 must be answered */
            }
        }
    bench_csv_close(csv);

    int sms = bench_sm_count(b);
    bench_report(b, "## Capacity (chapter 4, `ch04_capacity`)\n\n"
                    "Resident clusters of `fit_cluster_fill` (`cudaOccupancyMaxActiveClusters`) by cluster size, "
                    "and in brackets the SMs without a CTA when every resident cluster runs "
                    "(%d SMs; every shape was also launched with all its resident clusters and its DSMEM "
                    "contents checked: `ch04_capacity.csv`).\n\n| threads | KB per CTA |", sms);
    for (int i = 0; i < nsizes; i++)
        bench_report(b, " %d |", bench_dry(b) ? sizes_dry[i] : i + 1);
    bench_report(b, "\n|---|---|");
    for (int i = 0; i < nsizes; i++)
        bench_report(b, "---|");
    bench_report(b, "\n");
    for (int t = 0; t < nthreads; t++)
        for (int s = 0; s < nsmem; s++) {
            bench_report(b, "| %d | %zu |", threads[t], smems[s] / KB);
            int c1 = table[t][s][1];
            for (int i = 0; i < nsizes; i++) {
                int c = bench_dry(b) ? sizes_dry[i] : i + 1;
                int n = table[t][s][c];
                if (n >= 0 && c1 > 0)
                    bench_report(b, " %d (%.0f) |", n, sms - (double)n * c * sms / c1);
                else
                    bench_report(b, " %d |", n);
            }
            bench_report(b, "\n");
        }
    if (!bench_dry(b) && table[1][1][16] >= 0 && table[1][1][1] > 0) {
        bench_summary_number(b, "ch04.clusters_resident_1024t_64k_c16", table[1][1][16]);
        bench_summary_number(b, "ch04.idle_sms_1024t_64k_c16",
                             sms - (double)table[1][1][16] * 16 * sms / table[1][1][1]);
        bench_summary_number(b, "ch04.idle_sms_1024t_64k_c8", sms - (double)table[1][1][8] * 8 * sms / table[1][1][1]);
    }
    return fails;
}

/* ---- part 2: the big histogram against cluster size ---- */

/* Checks bins == times * reference; a failed check of `kernel` naming the first bad bin otherwise. */
static int check_bins(bench *b, const char *kernel, const char *what, const uint32_t *dev_bins, const uint32_t *ref,
                      int nbins, uint32_t times)
{
    uint32_t *host = malloc(sizeof(uint32_t) * (size_t)nbins);
    if (host == NULL || dsm_memcpy_to_host(host, dev_bins, sizeof(uint32_t) * (size_t)nbins) != dsmSuccess) {
        free(host);
        bench_fail_kernel(b, kernel, "histogram %s: cannot read the bins back", what);
        return 0;
    }
    for (int i = 0; i < nbins; i++)
        if (host[i] != ref[i] * times) {
            bench_fail_kernel(b, kernel, "histogram %s (%s): bin %d holds %u, expected %u", what, kernel, i, host[i],
                              ref[i] * times);
            free(host);
            return 0;
        }
    free(host);
    return 1;
}

/* The fewest CTAs of at most 227 KB that hold nbins 4-byte bins: the family's
 * own answer, so that an exercise answering 0 cannot make it skip its rows. */
static int least_cluster(int nbins)
{
    for (int c = 1; c <= 16; c++)
        if (((size_t)nbins + (size_t)c - 1) / (size_t)c * sizeof(uint32_t) <= 227 * KB)
            return c;
    return 0;
}

/* One row of the histogram table: a measured configuration, a failed one
 * ("failed" in every measurement) or a shape that does not fit (empty). */
static void histogram_row(bench_csv *csv, const char *variant, const char *kernel, int nbins, int n, int c,
                          int clusters, size_t smem, const char *status, const bench_stats *st, double g)
{
    if (st)
        bench_csv_row(csv, "%s,%d,%d,%d,%d,%zu,%s,%.4f,%.4f,%.4f,%.3f,%s", variant, nbins, n, c, clusters, smem,
                      status, st->median, st->min, st->max, g, kernel);
    else if (strcmp(status, "failed") == 0)
        bench_csv_row(csv, "%s,%d,%d,%d,%d,%zu,failed,failed,failed,failed,failed,%s", variant, nbins, n, c, clusters,
                      smem, kernel);
    else
        bench_csv_row(csv, "%s,%d,%d,%d,%d,%zu,%s,,,,,%s", variant, nbins, n, c, clusters, smem, status, kernel);
}

/* One histogram launch as bench_time_variants sees it: from zero bins, checked; then launches that accumulate. */
typedef struct hist_point {
    bench *b;
    const char *kernel, *what;
    const dsm_launch_config *cfg;
    dsm_kernel_t k;
    void **args;
    uint32_t *bins;
    const uint32_t *ref;
    int nbins, n, c, clusters;  /* c > 0: the cluster version, launched the first time by big_histogram_launch */
    const uint32_t *in;
} hist_point;

static dsm_error_t hist_call(void *vp, int i, dsm_stream_t stream, int pdl)
{
    hist_point *h = vp;
    (void)i;
    dsm_launch_options opt = {stream, pdl, 0};
    return dsm_launch_ex(h->cfg, &opt, h->k, h->args);
}

/* The checked launch: bins from zero, the exercise's launcher (cluster version) or the kernel, every bin compared. */
static int hist_check(void *vp, char *why, size_t why_len)
{
    hist_point *h = vp;
    dsm_memset(h->bins, 0, sizeof(uint32_t) * (size_t)h->nbins);
    dsm_error_t err = h->c > 0 ? big_histogram_launch(h->bins, h->nbins, h->in, h->n, h->c, h->clusters)
                               : dsm_launch_sync(h->cfg, h->k, h->args);
    if (err == dsmSuccess)
        err = dsm_device_synchronize();
    if (err != dsmSuccess) {
        snprintf(why, why_len, "%s: %s", h->c > 0 ? "big_histogram_launch" : "the launch", dsm_error_name(err));
        return 0;
    }
    return check_bins(h->b, h->kernel, h->what, h->bins, h->ref, h->nbins, 1);   /* reports a wrong bin itself */
}

/* Checks, warms up and times one histogram (bench_time_variants, one launch per sample), then checks the bins
 * the timed launches accumulated: 1 with its times in *st, 0 when a check failed (reported). */
static int hist_time(bench *b, hist_point *h, int warmup, int repeats, bench_stats *st)
{
    static dsm_stream_t stream;
    if (stream == NULL && dsm_stream_create(&stream) != dsmSuccess) {
        bench_fail_kernel(b, h->kernel, "%s: creating a stream failed", h->what);
        return 0;
    }
    bench_variant v = {h->what, h->kernel, h, hist_check, hist_call, 0, 0, 1, NULL};
    bench_variant_result res;
    bench_time_variants(b, stream, &v, 1, warmup, repeats, &res);
    if (res.status != BENCH_VARIANT_TIMED)
        return 0;
    char timed[96];
    snprintf(timed, sizeof timed, "%s (timed)", h->what);
    if (!check_bins(b, h->kernel, timed, h->bins, h->ref, h->nbins, (uint32_t)(1 + res.bodies)))
        return 0;
    *st = res.stats;
    st->median *= 1e-3, st->min *= 1e-3, st->max *= 1e-3;   /* µs per launch -> ms */
    return 1;
}

static int histogram_sweep(bench *b)
{
    const int nbins = 96 * 1024;   /* 384 KB of bins: no single CTA holds them */
    int n = bench_dry(b) ? 1 << 14 : (bench_quick(b) ? 1 << 24 : 1 << 26);
    int warmup = bench_dry(b) ? 1 : 2, repeats = bench_dry(b) ? 2 : (bench_quick(b) ? 5 : 10);
    int fails = 0;

    uint32_t *host_in = malloc(sizeof(uint32_t) * (size_t)n);
    uint32_t *ref = calloc((size_t)nbins, sizeof(uint32_t));
    uint32_t *in = NULL, *bins = NULL;
    if (!host_in || !ref || dsm_malloc((void **)&in, sizeof(uint32_t) * (size_t)n) != dsmSuccess ||
        dsm_malloc((void **)&bins, sizeof(uint32_t) * (size_t)nbins) != dsmSuccess) {
        bench_fail(b, "histogram: cannot allocate %d inputs", n);
        return 1;
    }
    uint64_t x = 0x2545f4914f6cdd1dull;
    for (int i = 0; i < n; i++) {   /* uniform over the bins (xorshift64) */
        host_in[i] = (uint32_t)(bench_xorshift64(&x) % (uint64_t)nbins);
        ref[host_in[i]]++;
    }
    dsm_memcpy_to_device(in, host_in, sizeof(uint32_t) * (size_t)n);

    /* "status" before the measurements: a failed row says so in every one of them (bench/bench.h) */
    bench_csv *csv = bench_csv_open(b, "ch04_histogram",
                                    "variant,nbins,inputs,cluster_size,clusters,smem_per_cta,status,median_ms,min_ms,"
                                    "max_ms,ginputs_per_s,kernel");
    bench_report(b, "\n### The big histogram (%d bins of 32 bits = %d KB, %d uniform inputs)\n\n"
                    "Each configuration is checked (one launch from zero, then the timed launches, whose "
                    "accumulated bins are checked again); median of %d launches after %d warm-up "
                    "(bench_time_variants).\n\n"
                    "| variant | cluster size | resident clusters launched | KB per CTA | median ms | G inputs/s |\n"
                    "|---|---|---|---|---|---|\n",
                    nbins, nbins * 4 / 1024, n, repeats, warmup);

    dsm_kernel_t k = DSM_KERNEL(big_histogram);
    dsm_func_set_max_dynamic_smem(k, (int)bench_smem_per_block_optin(b));
    dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    double best = 0;
    int best_c = 0;
    int args_nbins = nbins;
    void *args[] = {&bins, &args_nbins, &in, &n};
    /* The sizes come from the family, not from the exercise: a helper that answers 0 is a failed check, not a
     * sweep with no rows. */
    int least = least_cluster(nbins), answered = big_histogram_min_cluster_size(nbins);
    if (answered != least) {
        bench_fail_kernel(b, "big_histogram", "histogram: big_histogram_min_cluster_size(%d) answered %d, the fewest "
                          "CTAs of at most 227 KB that hold the bins are %d (exercise ch04.big_histogram)", nbins,
                          answered, least);
        fails++;
    }
    for (int c = least; c >= 1 && c <= 16; c++) {
        size_t smem = ((size_t)nbins + (size_t)c - 1) / (size_t)c * sizeof(uint32_t);
        dsm_launch_config cfg = {DSM_DIM3(c, 1, 1), DSM_DIM3(BIG_HISTOGRAM_THREADS, 1, 1), DSM_DIM3(c, 1, 1), smem};
        int clusters = 0;
        dsm_error_t err = dsm_occupancy_max_active_clusters(&clusters, k, &cfg);
        if (err != dsmSuccess || clusters < 1) {
            /* a shape that does not fit is a row without a time, not a failure */
            histogram_row(csv, "dsmem", "big_histogram", nbins, n, c, clusters, smem,
                          err != dsmSuccess ? dsm_error_name(err) : "does-not-fit", NULL, 0);
            continue;
        }
        if (bench_dry(b) && clusters > 2)
            clusters = 2;
        bench_progress(b, "histogram: cluster %d, %d clusters, %zu KB per CTA", c, clusters, smem / KB);
        cfg.grid = DSM_DIM3(c * clusters, 1, 1);
        hist_point h = {b, "big_histogram", "dsmem", &cfg, k, args, bins, ref, nbins, n, c, clusters, in};
        bench_stats st;
        if (!hist_time(b, &h, warmup, repeats, &st)) {
            histogram_row(csv, "dsmem", "big_histogram", nbins, n, c, clusters, smem, "failed", NULL, 0);
            bench_report(b, "| DSMEM | %d | %d | %zu | failed | failed |\n", c, clusters, smem / KB);
            fails++;
            continue;
        }
        double g = n / (st.median * 1e-3) / 1e9;
        histogram_row(csv, "dsmem", "big_histogram", nbins, n, c, clusters, smem, "cudaSuccess", &st, g);
        bench_report(b, "| DSMEM | %d | %d | %zu | %.3f | %.2f |\n", c, clusters, smem / KB, st.median, g);
        if (g > best) {
            best = g;
            best_c = c;
        }
    }

    /* The baseline: the same counts with global atomics, 8 CTAs of 256 threads per SM. */
    {
        int blocks = bench_dry(b) ? 2 : bench_sm_count(b) * 8;
        dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(BIG_HISTOGRAM_THREADS, 1, 1), DSM_DIM3(0, 0, 0), 0};
        dsm_kernel_t g = DSM_KERNEL(big_histogram_global);
        hist_point h = {b, "big_histogram_global", "global", &cfg, g, args, bins, ref, nbins, n, 0, 0, in};
        bench_stats st;
        int ok = hist_time(b, &h, warmup, repeats, &st);
        if (!ok) {
            histogram_row(csv, "global", "big_histogram_global", nbins, n, 0, blocks, 0, "failed", NULL, 0);
            bench_report(b, "| global atomics | - | %d CTAs | - | failed | failed |\n", blocks);
            fails++;
        } else {
            double gi = n / (st.median * 1e-3) / 1e9;
            histogram_row(csv, "global", "big_histogram_global", nbins, n, 0, blocks, 0, "cudaSuccess", &st, gi);
            bench_report(b, "| global atomics | - | %d CTAs | - | %.3f | %.2f |\n", blocks, st.median, gi);
            if (!bench_dry(b))
                bench_summary_measured(b, "ch04.histogram_global_ginputs_per_s", gi, "big_histogram_global");
        }
    }
    bench_csv_close(csv);
    if (!bench_dry(b) && best_c > 0) {
        bench_summary_measured(b, "ch04.histogram_best_cluster_size", best_c, "big_histogram");
        bench_summary_measured(b, "ch04.histogram_best_ginputs_per_s", best, "big_histogram");
    }
    bench_report(b, "\n");
    dsm_free(in);
    dsm_free(bins);
    free(host_in);
    free(ref);
    return fails;
}

int bench_family_ch04_capacity(bench *b)
{
    int fails = capacity_sweep(b);
    fails += histogram_sweep(b);
    return fails != 0;
}
