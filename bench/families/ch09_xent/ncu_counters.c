/* ncu_counters.c: ch09_xent under Nsight Compute (make bench NCU=1): the DRAM bytes each fused cross-entropy design reads and writes per byte of logits, each profiled launch named from the family's launch log, against the design's model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { CH09_FIELDS = 32, CH09_LAUNCHES = 64, CH09_METRICS = 2, CH09_CURSORS = 16 };
static const char *const ch09_metrics[CH09_METRICS] = {"dram__bytes_read.sum", "dram__bytes_write.sum"};

typedef struct ch09_launch {
    char dtype[8], variant[16], config[24], kernel[32], status[16];
    int V, M;
    double logit_bytes, v[CH09_METRICS];
    int have[CH09_METRICS];
} ch09_launch;

/* Reads the launch log the ch09_xent family wrote under ncu (dtype,V,M,variant,config,kernel,status,
 * logit_bytes after the driver's four columns); returns the number of launches, -1 without the file. */
static int ch09_read_log(const char *path, ch09_launch *l, int max)
{
    static const char *const names[8] = {"dtype", "V", "M", "variant", "config", "kernel", "status", "logit_bytes"};
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024], *fields[CH09_FIELDS];
    int n = 0, col[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, last = -1;
    while (fgets(line, sizeof line, f) && n < max) {
        int nf = bench_csv_fields(line, fields, CH09_FIELDS);
        if (last < 0) {
            for (int i = 0; i < 8; ++i) {
                col[i] = bench_csv_column(fields, nf, names[i]);
                if (col[i] < 0) {
                    last = -1;
                    break;
                }
                last = col[i] > last ? col[i] : last;
            }
            continue;
        }
        if (nf <= last)
            continue;
        ch09_launch *x = &l[n++];
        memset(x, 0, sizeof *x);
        snprintf(x->dtype, sizeof x->dtype, "%s", fields[col[0]]);
        x->V = atoi(fields[col[1]]);
        x->M = atoi(fields[col[2]]);
        snprintf(x->variant, sizeof x->variant, "%s", fields[col[3]]);
        snprintf(x->config, sizeof x->config, "%s", fields[col[4]]);
        snprintf(x->kernel, sizeof x->kernel, "%s", fields[col[5]]);
        snprintf(x->status, sizeof x->status, "%s", fields[col[6]]);
        x->logit_bytes = atof(fields[col[7]]);
    }
    fclose(f);
    return n;
}

/* ncu's kernel name (the function's name, perhaps with its parameters) is the logged kernel's. */
static int ch09_same_kernel(const char *ncu_name, const char *logged)
{
    size_t n = strlen(logged);
    return strncmp(ncu_name, logged, n) == 0 && (ncu_name[n] == '\0' || ncu_name[n] == '(');
}

/* Sets each profiled launch's counters on its log row: the i-th launch of a kernel in ncu's ID order is
 * that kernel's i-th logged launch. Returns the number of counters set. */
static int ch09_name_launches(const bench_ncu_value *v, int nv, ch09_launch *l, int nlog)
{
    struct {
        const char *kernel; /* ncu's name */
        char id[32];
        int at;             /* log row of the current launch */
    } cur[CH09_CURSORS];
    int ncur = 0, seen = 0;
    for (int r = 0; r < nv; ++r) {
        int c = 0;
        while (c < ncur && strcmp(cur[c].kernel, v[r].kernel) != 0)
            ++c;
        if (c == ncur) {
            if (ncur == CH09_CURSORS)
                continue;
            cur[ncur].kernel = v[r].kernel;
            cur[ncur].id[0] = '\0';
            cur[ncur++].at = -1;
        }
        if (strcmp(cur[c].id, v[r].id) != 0) { /* a new launch of this kernel: its next logged launch */
            snprintf(cur[c].id, sizeof cur[c].id, "%s", v[r].id);
            int i = cur[c].at + 1;
            while (i < nlog && !ch09_same_kernel(v[r].kernel, l[i].kernel))
                ++i;
            cur[c].at = i;
        }
        if (cur[c].at >= nlog)
            continue;
        for (int m = 0; m < CH09_METRICS; ++m)
            if (strcmp(v[r].metric, ch09_metrics[m]) == 0) {
                l[cur[c].at].v[m] = v[r].value;
                l[cur[c].at].have[m] = 1;
                ++seen;
            }
    }
    return seen;
}

/* The design's model, in bytes per byte of logits: reads (0: none judged) and writes. */
static void ch09_model(const char *variant, double *read, double *write, const char **text)
{
    *write = 1;
    if (strcmp(variant, "twokernel") == 0)
        *read = 2, *text = "2, 1";
    else if (strcmp(variant, "rowpass") == 0)
        *read = 0, *text = "1 to 2 (2 when the row leaves L2 between passes), 1";
    else
        *read = 1, *text = "1, 1";
}

static int ch09_within(double x, double model) { return model <= 0 || fabs(x / model - 1) <= 0.10; }

/* Chapter 9's counters: each profiled launch named from the family's launch log, then per shape and
 * design (the rows of one checked call: two for two kernels) the DRAM bytes read and written over the
 * bytes of logits: CSV ncu_ch09, summary numbers xent.ncu.dram_{read,write}_per_logit_byte.<design>.<shape>,
 * the report's table against each design's model (within 10 %: reported, not a failed check). A design
 * whose check failed gives no number. ncu.sh leaves WORK/ch09.csv and the profiled run's
 * WORK/run-ch09/ch09-ncu-launches.csv. */
static int import_ch09(bench *b, const char *work)
{
    char path[1100], logpath[1100];
    snprintf(path, sizeof path, "%s/ch09.csv", work);
    snprintf(logpath, sizeof logpath, "%s/run-ch09/ch09-ncu-launches.csv", work);
    static bench_ncu_value v[4 * CH09_LAUNCHES * CH09_METRICS];
    int nv = bench_ncu_read(path, v, (int)(sizeof v / sizeof v[0]));
    if (nv < 0) {
        bench_fail(b, "NCU=1: no counters of chapter 9: %s is %s (see ncu.log in the run folder)", path,
                   nv == -1 ? "missing" : "not ncu's table");
        return -1;
    }
    static ch09_launch l[CH09_LAUNCHES];
    int nlog = ch09_read_log(logpath, l, CH09_LAUNCHES);
    if (nlog <= 0) {
        bench_fail(b, "NCU=1: %s has chapter 9's counters but %s has no launches to name them", path, logpath);
        return -1;
    }
    if (ch09_name_launches(v, nv, l, nlog) == 0) {
        bench_fail(b, "NCU=1: no chapter 9 counters in %s (see ncu.log in the run folder)", path);
        return -1;
    }
    bench_csv *csv = bench_csv_open(b, "ncu_ch09", "dtype,V,M,variant,config,kernel,status,logit_bytes,"
                                                   "dram_read_bytes,dram_write_bytes");
    for (int i = 0; i < nlog; ++i)
        bench_csv_row(csv, "%s,%d,%d,%s,%s,%s,%s,%.0f,%.0f,%.0f", l[i].dtype, l[i].V, l[i].M, l[i].variant,
                      l[i].config, l[i].kernel, l[i].status, l[i].logit_bytes, l[i].v[0], l[i].v[1]);
    bench_csv_close(csv);

    bench_report(b, "## DRAM traffic of chapter 9's designs (NCU=1)\n\n"
                    "Nsight Compute with `--clock-control none` and its default cache control (L2 flushed before "
                    "each profiled kernel) over a short `ch09_xent` run (`BENCH_CH09_NCU=1`: every design's checked "
                    "launch alone, on one copy of the logits; `ncu_ch09.csv` has each launch). `dram__bytes_read.sum` "
                    "and `dram__bytes_write.sum` per byte of logits (M x V x the element size); two kernels: both "
                    "launches together. Model: reads, writes per logit byte. A write below 1 can be gradient that "
                    "L2 still held when the kernel ended.\n\n"
                    "| shape | design | config | DRAM read / logit byte | DRAM write / logit byte | model | "
                    "within 10 %% of the model |\n|---|---|---|---:|---:|---|---|\n");
    int judged = 0, met = 0, missing = 0;
    for (int i = 0; i < nlog;) {
        int j = i, ok = 1, have = 1;
        double rd = 0, wr = 0;
        while (j < nlog && strcmp(l[j].dtype, l[i].dtype) == 0 && l[j].V == l[i].V && l[j].M == l[i].M &&
               strcmp(l[j].variant, l[i].variant) == 0 && strcmp(l[j].config, l[i].config) == 0) {
            ok &= strcmp(l[j].status, "ok") == 0;
            have &= l[j].have[0] && l[j].have[1];
            rd += l[j].v[0];
            wr += l[j].v[1];
            ++j;
        }
        char tag[64], kr[160], kw[160], cr[32] = "—", cw[32] = "—", judge[8] = "—";
        snprintf(tag, sizeof tag, "%s_v%d_m%d", l[i].dtype, l[i].V, l[i].M);
        snprintf(kr, sizeof kr, "xent.ncu.dram_read_per_logit_byte.%s.%s", l[i].variant, tag);
        snprintf(kw, sizeof kw, "xent.ncu.dram_write_per_logit_byte.%s.%s", l[i].variant, tag);
        double mr, mw;
        const char *model;
        ch09_model(l[i].variant, &mr, &mw, &model);
        if (!ok) {
            snprintf(cr, sizeof cr, "failed");
            snprintf(cw, sizeof cw, "failed");
            bench_summary_failed(b, kr, "its check failed in the profiled run");
            bench_summary_failed(b, kw, "its check failed in the profiled run");
        } else if (!have || l[i].logit_bytes <= 0) {
            snprintf(cr, sizeof cr, "not read");
            snprintf(cw, sizeof cw, "not read");
            bench_summary_failed(b, kr, "ncu read no counter of its launch");
            bench_summary_failed(b, kw, "ncu read no counter of its launch");
            ++missing;
        } else {
            double fr = rd / l[i].logit_bytes, fw = wr / l[i].logit_bytes;
            int in = ch09_within(fr, mr) && ch09_within(fw, mw);
            snprintf(cr, sizeof cr, "%.3f", fr);
            snprintf(cw, sizeof cw, "%.3f", fw);
            snprintf(judge, sizeof judge, "%s", in ? "yes" : "no");
            bench_summary_number(b, kr, fr);
            bench_summary_number(b, kw, fw);
            ++judged;
            met += in;
        }
        bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", tag, l[i].variant, l[i].config, cr, cw, model,
                     judge);
        i = j;
    }
    bench_report(b, "\nWithin 10 %% of the model (one CTA per row: its write alone) in %d of %d designs x shapes.\n\n",
                 met, judged);
    if (missing) {
        bench_fail(b, "NCU=1: the counters of %d of chapter 9's checked calls were not read from %s (see ncu.log in "
                   "the run folder)", missing, path);
        return -1;
    }
    return 0;
}

/* Three large shapes, every design's checked launch (BENCH_CH09_NCU=1), every launch: two DRAM counters,
 * one pass each. */
static const bench_counter_profile profiles[] = {
    {"ch09", "regex:^xent_(copy|cluster_(bf16|f32)|rowpass_(bf16|f32)|split_(stat|grad)_(bf16|f32)|gmem_(bf16|f32))$",
     "dram__bytes_read.sum,dram__bytes_write.sum", 0, 0, "BENCH_CH09_NCU=1"},
    {NULL, NULL, NULL, 0, 0, NULL},
};

const bench_counters bench_counters_ch09_xent = {profiles, import_ch09};
