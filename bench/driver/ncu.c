/* ncu.c: Nsight Compute's counters for the seed's tile exchange (xchg_seed_dsmem, xchg_seed_gmem) and for chapter 7's streams (bulk_stream, mcast_stream: L2 read bytes per CTA and with multicast) into CSVs, summary.json and the report. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

enum { MAX_FIELDS = 32, MAX_LAUNCHES = 16 };

static const char *const paths[2] = {"dsmem", "gmem"};
static const char *const kernels[2] = {"xchg_seed_dsmem", "xchg_seed_gmem"};
static const struct {
    const char *metric, *key;
} metrics[3] = {{"lts__t_bytes.sum", "l2_bytes"},
                {"dram__bytes_read.sum", "dram_read_bytes"},
                {"dram__bytes_write.sum", "dram_write_bytes"}};

/* Splits one line of quoted CSV in place; returns the number of fields. */
static int split_csv(char *line, char **fields)
{
    int n = 0;
    char *p = line;
    while (*p && *p != '\n' && *p != '\r' && n < MAX_FIELDS) {
        if (*p == '"') {
            fields[n++] = ++p;
            while (*p && *p != '"')
                ++p;
            if (*p)
                *p++ = '\0';
        } else {
            fields[n++] = p;
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                ++p;
        }
        if (*p == ',')
            *p++ = '\0';
        else if (*p)
            *p = '\0';
    }
    return n;
}

static int column(char **fields, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(fields[i], name) == 0)
            return i;
    return -1;
}

/* A counter value in bytes: thousands separators dropped, the unit applied. */
static double bytes_of(const char *value, const char *unit)
{
    char digits[64];
    size_t n = 0;
    for (const char *p = value; *p && n + 1 < sizeof digits; ++p)
        if (*p != ',')
            digits[n++] = *p;
    digits[n] = '\0';
    double v = atof(digits), scale = 1;
    if (unit && tolower((unsigned char)unit[0]) == 'k')
        scale = 1e3;
    else if (unit && tolower((unsigned char)unit[0]) == 'm')
        scale = 1e6;
    else if (unit && tolower((unsigned char)unit[0]) == 'g')
        scale = 1e9;
    return v * scale;
}

/* Bytes as a person reads them: "5.54 MB", "29.74 GB", "4.6 KB". */
static void bytes_text(char *buf, size_t size, double v)
{
    if (v >= 1e9)
        snprintf(buf, size, "%.2f GB", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, size, "%.2f MB", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, size, "%.1f KB", v / 1e3);
    else
        snprintf(buf, size, "%.0f bytes", v);
}

/* ---- chapter 7: L2 reads of the streams, per CTA and multicast (ch07.csv, ch07-launches.csv beside ncu.csv) ---- */

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
        int nf = split_csv(line, fields);
        if (kc < 0) {
            kc = column(fields, nf, "kernel");
            mc = column(fields, nf, "mode");
            dc = column(fields, nf, "data");
            cc = column(fields, nf, "cluster");
            bc = column(fields, nf, "delivered_bytes");
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
 * chapter 7 (no ch07.csv). */
static void ncu_import_ch07(bench *b, const char *ncu_csv)
{
    char dir[1024], path[1100], logpath[1100];
    snprintf(dir, sizeof dir, "%s", ncu_csv);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(path, sizeof path, "%s/ch07.csv", dir);
    snprintf(logpath, sizeof logpath, "%s/ch07-launches.csv", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    static ch07_launch l[CH07_MAX_LAUNCHES];
    int nlog = ch07_read_log(logpath, l, CH07_MAX_LAUNCHES);
    if (nlog <= 0) {
        fclose(f);
        bench_fail(b, "NCU=1: %s has chapter 7's counters but %s has no launches to name them", path, logpath);
        return;
    }
    /* the profiled launches, in ID order per kernel */
    int kcol = -1, mcol = -1, ucol = -1, vcol = -1, idcol = -1, seen = 0;
    char line[4096], *fields[MAX_FIELDS], last_id[2][32] = {"", ""};
    int next[2] = {-1, -1};   /* log index of the current launch of each kernel */
    static const char *const kname[2] = {"bulk_stream", "mcast_stream"};
    while (fgets(line, sizeof line, f) != NULL) {
        int n = split_csv(line, fields);
        if (kcol < 0) {
            kcol = column(fields, n, "Kernel Name");
            mcol = column(fields, n, "Metric Name");
            ucol = column(fields, n, "Metric Unit");
            vcol = column(fields, n, "Metric Value");
            idcol = column(fields, n, "ID");
            if (mcol < 0 || vcol < 0 || idcol < 0)
                kcol = -1;
            continue;
        }
        if (n <= kcol || n <= mcol || n <= vcol || n <= idcol)
            continue;
        for (int k = 0; k < 2; ++k) {
            if (strncmp(fields[kcol], kname[k], strlen(kname[k])) != 0)
                continue;
            if (strcmp(fields[idcol], last_id[k]) != 0) {   /* a new launch of kernel k: its next logged launch */
                snprintf(last_id[k], sizeof last_id[k], "%s", fields[idcol]);
                int i = next[k] + 1;
                while (i < nlog && strcmp(l[i].kernel, kname[k]) != 0)
                    ++i;
                next[k] = i;
            }
            if (next[k] >= nlog)
                continue;
            for (int m = 0; m < CH07_METRICS; ++m)
                if (strcmp(fields[mcol], ch07_metrics[m]) == 0) {
                    double v = bytes_of(fields[vcol], ucol >= 0 && ucol < n ? fields[ucol] : NULL);
                    if (m < 2)
                        v *= 32.0;   /* sectors of 32 bytes */
                    l[next[k]].v[m] = v;
                    l[next[k]].have[m] = 1;
                    ++seen;
                }
        }
    }
    fclose(f);
    if (seen == 0) {
        bench_fail(b, "NCU=1: no chapter 7 counters in %s (see ncu.log in the run folder)", path);
        return;
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
            bytes_text(da, sizeof da, dram[0] / cnt[0]);
            bytes_text(dm, sizeof dm, dram[1] / cnt[1]);
            int have_dv = cnt_dv[0] == cnt[0] && cnt_dv[1] == cnt[1];   /* every launch knows what it delivered */
            double f_pc = 0, f_mc = 0;
            if (have_dv) {
                f_pc = rd[0] / dv[0];
                f_mc = rd[1] / dv[1];
                bytes_text(del, sizeof del, dv[1] / cnt[1]);
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
}

int ncu_import(bench *b, const char *ncu_csv)
{
    ncu_import_ch07(b, ncu_csv);
    FILE *f = fopen(ncu_csv, "r");
    if (f == NULL) {
        bench_fail(b, "NCU=1: no counters: %s is missing (see ncu.log in the run folder)", ncu_csv);
        return -1;
    }
    double values[2][3][MAX_LAUNCHES];
    int counts[2][3] = {{0}};
    int kcol = -1, mcol = -1, ucol = -1, vcol = -1, idcol = -1;
    char line[4096], *fields[MAX_FIELDS];
    bench_csv *csv = NULL;
    while (fgets(line, sizeof line, f) != NULL) {
        int n = split_csv(line, fields);
        if (kcol < 0) { /* ncu prints its own lines before the table's header */
            kcol = column(fields, n, "Kernel Name");
            mcol = column(fields, n, "Metric Name");
            ucol = column(fields, n, "Metric Unit");
            vcol = column(fields, n, "Metric Value");
            idcol = column(fields, n, "ID");
            if (kcol < 0 || mcol < 0 || vcol < 0)
                kcol = -1;
            else
                csv = bench_csv_open(b, "ncu", "path,kernel,launch,metric,bytes");
            continue;
        }
        if (n <= kcol || n <= mcol || n <= vcol)
            continue;
        for (int p = 0; p < 2; ++p) {
            if (strncmp(fields[kcol], kernels[p], strlen(kernels[p])) != 0)
                continue;
            for (int m = 0; m < 3; ++m) {
                if (strcmp(fields[mcol], metrics[m].metric) != 0 || counts[p][m] >= MAX_LAUNCHES)
                    continue;
                double v = bytes_of(fields[vcol], ucol >= 0 && ucol < n ? fields[ucol] : NULL);
                values[p][m][counts[p][m]++] = v;
                bench_csv_row(csv, "%s,%s,%s,%s,%.0f", paths[p], kernels[p], idcol >= 0 ? fields[idcol] : "",
                              metrics[m].metric, v);
            }
        }
    }
    fclose(f);
    bench_csv_close(csv);

    bench_report(b, "## Hardware counters of the seed's tile exchange (NCU=1)\n\n"
                    "Nsight Compute with `--clock-control none`, kernels `xchg_seed_dsmem` and `xchg_seed_gmem` "
                    "(chapter 6), the median over the profiled launches (`ncu.csv` has each), profiled from this "
                    "run's build: commit `%s` (every row of `ncu.csv` names it too). Seed 000 profiled "
                    "its own two kernels on an H100 PCIe.\n\n", b->machine.commit);
    if (strcmp(b->machine.commit, "unknown") == 0 || strstr(b->machine.commit, "+dirty") != NULL)
        bench_report(b, "*The commit is `%s`: the tree had no history or local changes, so this names the measured "
                        "code only approximately; run with `BENCH_COMMIT=<commit>` to name it.*\n\n",
                     b->machine.commit);
    bench_report(b, "| counter | DSMEM path | global-memory path | seed 000: DSMEM | seed 000: global |\n"
                    "|---|---:|---:|---:|---:|\n");
    static const char *const seed_gmem[3] = {"752.43 MB", "not given", "\"continuous write-back\""};
    static const char *const seed_dsmem[3] = {"139.65 MB", "not given", "\"0 bytes\""};
    int missing = 0;
    for (int m = 0; m < 3; ++m) {
        char cell[2][64];
        for (int p = 0; p < 2; ++p) {
            if (counts[p][m] == 0) {
                snprintf(cell[p], sizeof cell[p], "not read");
                ++missing;
                continue;
            }
            bench_stats s = bench_stats_of(values[p][m], counts[p][m]);
            char key[128];
            snprintf(key, sizeof key, "ncu_seed_exchange.%s.%s", paths[p], metrics[m].key);
            bench_summary_number(b, key, s.median);
            bytes_text(cell[p], sizeof cell[p], s.median);
        }
        bench_report(b, "| `%s` | %s | %s | %s | %s |\n", metrics[m].metric, cell[0], cell[1], seed_dsmem[m],
                     seed_gmem[m]);
    }
    bench_report(b, "\n");
    if (missing) {
        bench_fail(b, "NCU=1: %d of 6 counters were not read from %s (see ncu.log in the run folder)", missing,
                   ncu_csv);
        return -1;
    }
    return 0;
}
