/* ncu_counters.c: ch07_multicast under Nsight Compute (make bench NCU=1): the L2 reads of the streams per CTA and with multicast, each profiled launch named from the family's launch log, against the bytes its CTAs received. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcast_bench.h"

enum { MAX_FIELDS = 32 };


enum { CH07_METRICS = 4, CH07_MAX_LAUNCHES = 128, CH07_SIZES = 5 };
static const char *const ch07_metrics[CH07_METRICS] = {"lts__t_sectors_op_read.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                                                       "lts__t_bytes.sum", "dram__bytes_read.sum"};

typedef struct ch07_launch {
    char kernel[32], mode[16], data[8];
    int cluster;
    double delivered;   /* bytes the launch's CTAs received (the family's log; 0 when an older log lacks it) */
    double v[CH07_METRICS];
    int have[CH07_METRICS];
} ch07_launch;

/* Reads the launch log the ch07_multicast family wrote under ncu (kernel,mode,data,cluster and
 * delivered_bytes after the driver's four columns); returns the number of launches. */
static int ch07_read_log(const char *path, ch07_launch *l, int max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024], *fields[MAX_FIELDS];
    int n = 0, kc = -1, mc = -1, dc = -1, cc = -1, bc = -1;
    while (fgets(line, sizeof line, f) && n < max) {
        int nf = bench_csv_fields(line, fields, MAX_FIELDS);
        if (kc < 0) {
            kc = bench_csv_column(fields, nf, "kernel");
            mc = bench_csv_column(fields, nf, "mode");
            dc = bench_csv_column(fields, nf, "data");
            cc = bench_csv_column(fields, nf, "cluster");
            bc = bench_csv_column(fields, nf, "delivered_bytes");
            if (mc < 0 || dc < 0 || cc < 0)
                kc = -1;
            continue;
        }
        if (nf <= kc || nf <= mc || nf <= dc || nf <= cc)
            continue;
        memset(&l[n], 0, sizeof l[n]);
        snprintf(l[n].kernel, sizeof l[n].kernel, "%s", fields[kc]);
        snprintf(l[n].mode, sizeof l[n].mode, "%s", fields[mc]);
        snprintf(l[n].data, sizeof l[n].data, "%s", fields[dc]);
        l[n].cluster = atoi(fields[cc]);
        l[n].delivered = bc >= 0 && bc < nf ? atof(fields[bc]) : 0;
        ++n;
    }
    fclose(f);
    return n;
}

/* The L2 reads a launch's copies asked for: the SMs' reads (srcunit_tex) when profiled, else all L2 reads. */
static double ch07_read(const ch07_launch *l) { return l->have[1] ? l->v[1] : l->v[0]; }

/* Chapter 7's counters: each profiled launch of bulk_stream / mcast_stream named from the family's
 * launch log (the i-th launch of a kernel in ID order is its i-th logged launch), then per data source
 * and cluster size each mode's L2 reads as a fraction of the bytes its CTAs received, multicast's
 * against delivered / n (one read per cluster: the target, within 5 %), and the multicast / per-CTA
 * ratio times n (per-CTA loading's counter is below what it delivers when CTAs ask for the same lines
 * at about the same time: L2 counts merged requests once). Nothing to do when ncu.sh did not profile
 * chapter 7 (no ch07.csv). The family's launch log is the profiled run's ch07-ncu-launches.csv. */
static int import_ch07(bench *b, const char *work)
{
    char path[1100], logpath[1100];
    snprintf(path, sizeof path, "%s/ch07.csv", work);
    snprintf(logpath, sizeof logpath, "%s/run-ch07/ch07-ncu-launches.csv", work);
    static bench_ncu_value v[4 * CH07_MAX_LAUNCHES * CH07_METRICS];
    int nv = bench_ncu_read(path, v, (int)(sizeof v / sizeof v[0]));
    if (nv == -1)
        return 0;   /* chapter 7 was not profiled */
    static ch07_launch l[CH07_MAX_LAUNCHES];
    int nlog = ch07_read_log(logpath, l, CH07_MAX_LAUNCHES);
    if (nlog <= 0) {
        bench_fail(b, "NCU=1: %s has chapter 7's counters but %s has no launches to name them", path, logpath);
        return -1;
    }
    /* the profiled launches, in ID order per kernel */
    int seen = 0;
    char last_id[2][32] = {"", ""};
    int next[2] = {-1, -1};   /* log index of the current launch of each kernel */
    static const char *const kname[2] = {"bulk_stream", "mcast_stream"};
    for (int r = 0; r < nv; ++r)
        for (int k = 0; k < 2; ++k) {
            if (strncmp(v[r].kernel, kname[k], strlen(kname[k])) != 0)
                continue;
            if (strcmp(v[r].id, last_id[k]) != 0) {   /* a new launch of kernel k: its next logged launch */
                memcpy(last_id[k], v[r].id, sizeof last_id[k]);   /* both 32 bytes, NUL-terminated */
                int i = next[k] + 1;
                while (i < nlog && strcmp(l[i].kernel, kname[k]) != 0)
                    ++i;
                next[k] = i;
            }
            if (next[k] >= nlog)
                continue;
            for (int m = 0; m < CH07_METRICS; ++m)
                if (strcmp(v[r].metric, ch07_metrics[m]) == 0) {
                    double x = v[r].value;
                    if (m < 2)
                        x *= 32.0;   /* sectors of 32 bytes */
                    l[next[k]].v[m] = x;
                    l[next[k]].have[m] = 1;
                    ++seen;
                }
        }
    if (seen == 0) {
        bench_fail(b, "NCU=1: no chapter 7 counters in %s (see ncu.log in the run folder)", path);
        return -1;
    }
    bench_csv *csv = bench_csv_open(b, "ncu_ch07", "kernel,mode,data,cluster,l2_read_bytes,l2_read_tex_bytes,l2_bytes,"
                                                   "dram_read_bytes,delivered_bytes");
    for (int i = 0; i < nlog; ++i)
        if (l[i].have[0] || l[i].have[1] || l[i].have[2])
            bench_csv_row(csv, "%s,%s,%s,%d,%.0f,%.0f,%.0f,%.0f,%.0f", l[i].kernel, l[i].mode, l[i].data, l[i].cluster,
                          l[i].v[0], l[i].v[1], l[i].v[2], l[i].v[3], l[i].delivered);
    bench_csv_close(csv);

    bench_report(b, "## Hardware counters of chapter 7's streams (NCU=1)\n\n"
                    "Nsight Compute with `--clock-control none` over a short `ch07_multicast` run (`BENCH_CH07_NCU=1`: "
                    "part 1 only, the checked launch and one timed launch per configuration; `ncu_ch07.csv` has each). "
                    "L2 read = `lts__t_sectors_srcunit_tex_op_read.sum` x 32, the reads the SMs' copies asked of L2 "
                    "(`lts__t_sectors_op_read.sum`, which also counts traffic between L2's partitions, beside it in "
                    "the CSV), the mean over a configuration's launches (per CTA: min-max in brackets); delivered = "
                    "the bytes the kernel's CTAs received per launch. Target: multicast reads delivered / n (each "
                    "byte once per cluster), within 5 %%. Per-CTA loading asks for every byte it delivers, but L2 "
                    "counts identical requests from several CTAs at about the same time once, so its counter is "
                    "below what it delivers, and multicast / per CTA x n is above 1.\n\n"
                    "| data | cluster | delivered | per CTA: L2 read / delivered | multicast: L2 read / delivered | "
                    "multicast / (delivered / n) | multicast / per CTA x n | DRAM read, per CTA / multicast | "
                    "multicast within 5 %% of delivered / n |\n|---|---|---:|---:|---:|---:|---:|---|---|\n");
    static const char *const data_names[2] = {"L2", "HBM"};
    static const int sizes[CH07_SIZES] = {1, 2, 4, 8, 16};
    int judged = 0, met = 0, met_pc = 0;
    for (int d = 0; d < 2; ++d)
        for (int z = 0; z < CH07_SIZES; ++z) {
            double rd[2] = {0, 0}, dv[2] = {0, 0}, dram[2] = {0, 0}, fmin = 1e300, fmax = 0;
            int cnt[2] = {0, 0}, cnt_dv[2] = {0, 0};
            for (int i = 0; i < nlog; ++i) {
                if (strcmp(l[i].data, data_names[d]) != 0 || l[i].cluster != sizes[z] || !(l[i].have[0] || l[i].have[1]))
                    continue;
                int mc = strcmp(l[i].mode, "multicast") == 0;
                rd[mc] += ch07_read(&l[i]);
                dram[mc] += l[i].v[3];
                ++cnt[mc];
                if (l[i].delivered > 0) {
                    double f = ch07_read(&l[i]) / l[i].delivered;
                    dv[mc] += l[i].delivered;
                    ++cnt_dv[mc];
                    if (!mc && f < fmin)
                        fmin = f;
                    if (!mc && f > fmax)
                        fmax = f;
                }
            }
            if (!cnt[0] || !cnt[1])
                continue;
            int n = sizes[z];
            double pc = rd[0] / cnt[0], mc = rd[1] / cnt[1], ratio = pc > 0 ? mc / pc : 0;
            char key[128], da[32], dm[32], del[32] = "—", fpc[48] = "—", fmc[32] = "—", vs_dv[32] = "—", judge[8];
            bench_bytes_text(da, sizeof da, dram[0] / cnt[0]);
            bench_bytes_text(dm, sizeof dm, dram[1] / cnt[1]);
            int have_dv = cnt_dv[0] == cnt[0] && cnt_dv[1] == cnt[1];   /* every launch knows what it delivered */
            double f_pc = 0, f_mc = 0;
            if (have_dv) {
                f_pc = rd[0] / dv[0];
                f_mc = rd[1] / dv[1];
                bench_bytes_text(del, sizeof del, dv[1] / cnt[1]);
                snprintf(fpc, sizeof fpc, "%.3f (%.3f-%.3f)", f_pc, fmin, fmax);
                snprintf(fmc, sizeof fmc, "%.4f", f_mc);
                snprintf(vs_dv, sizeof vs_dv, "%.3f", f_mc * n);
            }
            int ok = have_dv && f_mc * n > 0.95 && f_mc * n < 1.05;
            int ok_pc = ratio * n > 0.95 && ratio * n < 1.05;
            snprintf(judge, sizeof judge, "%s", n == 1 || !have_dv ? "—" : ok ? "yes" : "no");
            if (n > 1) {
                ++judged;
                met += ok;
                met_pc += ok_pc;
            }
            bench_report(b, "| %s | %d | %s | %s | %s | %s | %.3f | %s / %s | %s |\n", data_names[d], n, del, fpc, fmc,
                         vs_dv, ratio * n, da, dm, judge);
            snprintf(key, sizeof key, "ncu_multicast.%s.l2_read_ratio_times_n.c%d", d ? "hbm" : "l2", n);
            bench_summary_number(b, key, ratio * n);
            if (have_dv) {
                snprintf(key, sizeof key, "ncu_multicast.%s.per_cta_l2_read_of_delivered.c%d", d ? "hbm" : "l2", n);
                bench_summary_number(b, key, f_pc);
                snprintf(key, sizeof key, "ncu_multicast.%s.multicast_l2_read_times_n_of_delivered.c%d",
                         d ? "hbm" : "l2", n);
                bench_summary_number(b, key, f_mc * n);
            }
        }
    bench_report(b, "\nMulticast read within 5 %% of delivered / n in %d of %d configurations (n >= 2); within 5 %% of "
                    "1/n of per-CTA loading's counter in %d of %d.\n\n", met, judged, met_pc, judged);
    return 0;
}

/* Part 1 only, the checked launch and one timed launch per configuration (BENCH_CH07_NCU=1), every launch. */
static const bench_counter_profile profiles[] = {
    {"ch07", "regex:^(bulk_stream|mcast_stream)$",
     "lts__t_sectors_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_bytes.sum,dram__bytes_read.sum", 0, 0,
     "BENCH_CH07_NCU=1"},
    {NULL, NULL, NULL, 0, 0, NULL},
};

const bench_counters bench_counters_ch07_multicast = {profiles, import_ch07};
