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
 *      reference (a wrong result is bench_fail_kernel(), never a number), warms
 *      up, repeats, and records median/min/max with bench_stats_of(),
 *   3. writes rows with bench_csv_row(), numbers with bench_summary_measured()
 *      (or bench_summary_number()), and a Markdown section with bench_report().
 * It returns 0, or non-zero when a check failed or the device broke (the driver
 * then reports the family as failed and goes on with the next one).
 *
 * No number from skipped work. A check must fail for a kernel that does
 * nothing or skips part of its work: no fixed points (data that changes every
 * round, or round counts after which no tile is back where it started), and in
 * the dry run the emulator's mechanism counters (dsm_emu_last_counts,
 * dsm_emu_last_gmem_use from dsm_emu_control.h; they answer false on a GPU)
 * prove that every exchange, copy and barrier happened. A check that fails
 * names its kernel (bench_fail_kernel). From then on the kernel is FAILED for
 * the rest of the family, and the driver makes sure nothing of it survives:
 *   - every summary number measured with it (bench_summary_measured) is
 *     written as null, with the reason in summary.json's "not_measured";
 *   - every row of a CSV table with a "kernel" column that names it reads
 *     "failed" from the table's status column ("launch" or "status") to the
 *     end of the row. So a table puts its configuration columns first, then
 *     the status column, then the measurements, and says which kernel a row
 *     measured in a column named "kernel" (anywhere in the row);
 *   - the run ends with the list of failed kernels and the exercise each
 *     belongs to (failed_kernels.txt, summary.json's "failed_kernels").
 * A family that skips rows because something answered 0 (an exercise's helper,
 * an occupancy query that must succeed) records a failure for that kernel: a
 * row that was not measured is never "ok". `bench_driver --audit RUN` checks a
 * run folder against these rules; `make test` runs the dry run on fresh
 * skeletons and audits it (make test-bench-dry-exercises).
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
 * exits non-zero at the end. The value being measured must not be recorded.
 * A message that names a kernel of the build (as a whole word) marks that
 * kernel failed, as bench_fail_kernel does. */
void bench_fail(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failed check of `kernel` (its DSM_KERNEL_ENTRY name): bench_fail, and the
 * kernel is failed for the rest of the family (see "No number from skipped
 * work" above). */
void bench_fail_kernel(bench *b, const char *kernel, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* 1 while no check of `kernel` has failed in this family (a report prints
 * "failed" instead of a number of a kernel for which this is 0). */
int bench_kernel_ok(const bench *b, const char *kernel);

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
 * strings quoted by the caller where they may hold commas. A table names the
 * kernel of each row in a column "kernel" and has a status column "launch" or
 * "status" (the launch's result, or "failed") before its measurements; a
 * row whose check failed writes "failed" in the status column and in every
 * measurement column, never a number (and the driver enforces it at the end
 * of the family for every row of a failed kernel). */
bench_csv *bench_csv_open(bench *b, const char *name, const char *header);
void bench_csv_row(bench_csv *csv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bench_csv_close(bench_csv *csv);

/* A headline number in summary.json (key must be unique in the run), e.g.
 * bench_summary_number(b, "pingpong_dsmem_cycles_per_hop_best", 371.0).
 * Keys with a dot nest: "latency_cycles.dsmem" -> {"latency_cycles": {"dsmem": ...}}.
 * A value that is not finite is written as null. */
void bench_summary_number(bench *b, const char *key, double value);

/* The same for a number measured with the kernels named in `kernels`
 * (space-separated DSM_KERNEL_ENTRY names, e.g. "ring_push ring_global" for
 * their ratio): null, with the reason, when any of them failed a check in this
 * family, whenever that happened. Prefer it to bench_summary_number. */
void bench_summary_measured(bench *b, const char *key, double value, const char *kernels);

/* A number that was not measured: null in summary.json, and `why` under
 * "not_measured" (e.g. "xchg_vec_gmem failed a check"). bench-compare counts a
 * null headline as missing. */
void bench_summary_failed(bench *b, const char *key, const char *why);

/* A string beside the numbers, e.g. which kernel gave a best
 * ("bandwidth_pairs.best.dsmem_mechanism" = "ring_push"). Never compared. */
void bench_summary_text(bench *b, const char *key, const char *value);

/* Appends Markdown to the run's report.md (the family's own section: a
 * "## ..." heading, its tables, DSMEM/global ratios, the seed's figures). */
void bench_report(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The benchmark's data generator (xorshift64): advances *state (never 0) and returns it. Each family keeps
 * its own state and seed, so its inputs do not depend on which families ran before it. */
static inline uint64_t bench_xorshift64(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

#endif
