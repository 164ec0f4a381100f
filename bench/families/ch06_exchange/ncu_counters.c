/* ncu_counters.c: ch06_exchange under Nsight Compute (make bench NCU=1): the L2 and DRAM bytes of the source document's tile exchange, both paths, beside the document's own readings. */
#include <stdio.h>
#include <string.h>

#include "xchg_bench.h"

enum { MAX_VALUES = 256, MAX_LAUNCHES = 16 };

static const char *const paths[2] = {"dsmem", "gmem"};
static const char *const kernels[2] = {"xchg_seed_dsmem", "xchg_seed_gmem"};
static const struct {
    const char *metric, *key;
} metrics[3] = {{"lts__t_bytes.sum", "l2_bytes"},
                {"dram__bytes_read.sum", "dram_read_bytes"},
                {"dram__bytes_write.sum", "dram_write_bytes"}};

#define SEED_METRICS "lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum"

/* One profile per kernel: the first three launches of each in a quick run of the family. */
static const bench_counter_profile profiles[] = {
    {"ncu_seed_dsmem", "xchg_seed_dsmem", SEED_METRICS, 3, 1, NULL},
    {"ncu_seed_gmem", "xchg_seed_gmem", SEED_METRICS, 3, 1, NULL},
    {NULL, NULL, NULL, 0, 0, NULL},
};

/* The median of each counter over the profiled launches of each kernel: ncu.csv (every value), summary
 * numbers ncu_seed_exchange.<path>.<counter>, the report's table beside the document's figures. */
static int import_seed(bench *b, const char *work)
{
    static bench_ncu_value v[MAX_VALUES];
    double values[2][3][MAX_LAUNCHES];
    int counts[2][3] = {{0}}, files = 0;
    bench_csv *csv = NULL;
    for (const bench_counter_profile *p = profiles; p->name; ++p) {
        char path[1100];
        snprintf(path, sizeof path, "%s/%s.csv", work, p->name);
        int n = bench_ncu_read(path, v, MAX_VALUES);
        if (n == -1)
            continue;
        ++files;
        if (csv == NULL)
            csv = bench_csv_open(b, "ncu", "path,kernel,launch,metric,bytes");
        for (int i = 0; i < n; ++i)
            for (int k = 0; k < 2; ++k) {
                if (strncmp(v[i].kernel, kernels[k], strlen(kernels[k])) != 0)
                    continue;
                for (int m = 0; m < 3; ++m) {
                    if (strcmp(v[i].metric, metrics[m].metric) != 0 || counts[k][m] >= MAX_LAUNCHES)
                        continue;
                    values[k][m][counts[k][m]++] = v[i].value;
                    bench_csv_row(csv, "%s,%s,%s,%s,%.0f", paths[k], kernels[k], v[i].id, metrics[m].metric,
                                  v[i].value);
                }
            }
    }
    bench_csv_close(csv);
    if (files == 0) {
        bench_fail(b, "NCU=1: no counters of the tile exchange: %s/ncu_seed_*.csv are missing (see ncu.log in the "
                   "run folder)", work);
        return -1;
    }
    bench_report(b, "## Hardware counters of the seed's tile exchange (NCU=1)\n\n"
                    "Nsight Compute with `--clock-control none`, kernels `xchg_seed_dsmem` and `xchg_seed_gmem` "
                    "(chapter 6), the median over the profiled launches (`ncu.csv` has each), profiled from this "
                    "run's build: commit `%s` (every row of `ncu.csv` names it too). Seed 000 profiled "
                    "its own two kernels on an H100 PCIe.\n\n", bench_commit(b));
    if (strcmp(bench_commit(b), "unknown") == 0 || strstr(bench_commit(b), "+dirty") != NULL)
        bench_report(b, "*The commit is `%s`: the tree had no history or local changes, so this names the measured "
                        "code only approximately; run with `BENCH_COMMIT=<commit>` to name it.*\n\n",
                     bench_commit(b));
    bench_report(b, "| counter | DSMEM path | global-memory path | seed 000: DSMEM | seed 000: global |\n"
                    "|---|---:|---:|---:|---:|\n");
    static const char *const seed_gmem[3] = {"752.43 MB", "not given", "\"continuous write-back\""};
    static const char *const seed_dsmem[3] = {"139.65 MB", "not given", "\"0 bytes\""};
    int missing = 0;
    for (int m = 0; m < 3; ++m) {
        char cell[2][64];
        for (int k = 0; k < 2; ++k) {
            if (counts[k][m] == 0) {
                snprintf(cell[k], sizeof cell[k], "not read");
                ++missing;
                continue;
            }
            bench_stats s = bench_stats_of(values[k][m], counts[k][m]);
            char key[128];
            snprintf(key, sizeof key, "ncu_seed_exchange.%s.%s", paths[k], metrics[m].key);
            bench_summary_number(b, key, s.median);
            bench_bytes_text(cell[k], sizeof cell[k], s.median);
        }
        bench_report(b, "| `%s` | %s | %s | %s | %s |\n", metrics[m].metric, cell[0], cell[1], seed_dsmem[m],
                     seed_gmem[m]);
    }
    bench_report(b, "\n");
    if (missing) {
        bench_fail(b, "NCU=1: %d of 6 counters were not read from %s/ncu_seed_*.csv (see ncu.log in the run folder)",
                   missing, work);
        return -1;
    }
    return 0;
}

const bench_counters bench_counters_ch06_exchange = {profiles, import_seed};
