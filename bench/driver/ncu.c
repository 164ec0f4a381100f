/* ncu.c: Nsight Compute's counters for the seed's tile exchange (xchg_seed_dsmem, xchg_seed_gmem) into ncu.csv, summary.json and the report. */
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

int ncu_import(bench *b, const char *ncu_csv)
{
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
