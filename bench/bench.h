/* bench.h: the interface between `make bench`'s driver (bench/driver/) and its measurement families (bench/families/). */
#ifndef DSM_BENCH_H
#define DSM_BENCH_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "dsm_host.h"

/*
 * How a family works. A family is one C file bench/families/<name>.c that
 * defines
 *     int bench_family_<name>(bench *b);
 * The build finds families by file name (no list to edit) and runs them in
 * file-name order, so names start with their chapter: ch01_latency,
 * ch04_capacity, ch05_pingpong, ch06_exchange, ... A family names the kernel
 * files it launches, relative to the source tree (solutions/ or exercises/),
 * on one line of its own anywhere in the file:
 *     // bench-kernels: ch05/pingpong_seed.cu ch05/pingpong_mbarrier.cu
 * Kernel names must be unique across the course (prefix them by exercise).
 * The driver calls each family in turn (all, or those named on its command
 * line); the family
 *   1. sizes its work with bench_dry() and bench_quick() (the dry run on the
 *      emulator uses tiny sizes: it checks kernels and the pipeline, it measures
 *      nothing),
 *   2. for every configuration: launches, CHECKS the result against a CPU
 *      reference (a wrong result is bench_fail(), never a number), warms up,
 *      repeats, and records median/min/max with bench_stats_of(),
 *   3. writes rows with bench_csv_row(), headline numbers with
 *      bench_summary_number(), and a Markdown section with bench_report().
 * It returns 0, or non-zero when a check failed or the device broke (the driver
 * then reports the family as failed and goes on with the next one).
 *
 * Kernels come from the solutions (or SRC=exercises): the build links the
 * files the families name from the chosen tree, so a family only declares
 * them with DSM_DECLARE_KERNEL and launches them through dsm_host.h.
 */

typedef struct bench bench;         /* one run of the benchmark (owned by the driver) */
typedef struct bench_csv bench_csv; /* one CSV file of the run */

/* 1 for the emulator dry run (tiny sizes, timings meaningless), 0 on a GPU. */
int bench_dry(const bench *b);

/* 1 when QUICK=1: the whole run must stay under 30 s on an H200. */
int bench_quick(const bench *b);

/* The device: SM count, SM clock in MHz as the driver reads it (0 when unknown),
 * and shared memory per SM and per block (opt-in) in bytes. */
int bench_sm_count(const bench *b);
double bench_sm_clock_mhz(const bench *b);
size_t bench_smem_per_sm(const bench *b);
size_t bench_smem_per_block_optin(const bench *b);

/* One progress line on stderr, prefixed with the running family's name. */
void bench_progress(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failed check (wrong result, failed launch the family did not expect):
 * printed at once, counted, written to summary.json's "failures"; the run
 * exits non-zero at the end. The value being measured must not be recorded. */
void bench_fail(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Median, min and max of n samples (n >= 1); samples are not modified. */
typedef struct bench_stats {
    double median, min, max;
    int n;
} bench_stats;
bench_stats bench_stats_of(const double *samples, int n);

/* Times `repeats` launches of kernel after `warmup` untimed ones, each launch
 * timed on its own (CUDA events on the GPU; the wall clock on the emulator).
 * ms[i] receives launch i's time in milliseconds. Returns the first launch or
 * execution error (the family decides whether that is a failure, e.g. a shape
 * that does not fit is a row with its error name, not a failure). */
dsm_error_t bench_time_launches(bench *b, const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args,
                                int warmup, int repeats, double *ms);

/* Opens <run folder>/<name>.csv and writes its header line, to which the
 * driver prepends the columns gpu,sm_clock_mhz,date,commit (so every row says
 * where it was measured). Rows are the family's columns, comma-separated,
 * strings quoted by the caller where they may hold commas. */
bench_csv *bench_csv_open(bench *b, const char *name, const char *header);
void bench_csv_row(bench_csv *csv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bench_csv_close(bench_csv *csv);

/* A headline number in summary.json (key must be unique in the run), e.g.
 * bench_summary_number(b, "pingpong_dsmem_cycles_per_hop_best", 371.0).
 * Keys with a dot nest: "latency_cycles.dsmem" -> {"latency_cycles": {"dsmem": ...}}. */
void bench_summary_number(bench *b, const char *key, double value);

/* Appends Markdown to the run's report.md (the family's own section: a
 * "## ..." heading, its tables, DSMEM/global ratios, the seed's figures). */
void bench_report(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
