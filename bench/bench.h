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
 * and the table of its summary keys the driver must know (headlines, source
 * figures; bench_key_info below)
 *     const bench_key_info bench_keys_<name>[];
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
 *      up, repeats, and records median/min/max: bench_time_variants() does
 *      all of it, for the variants it compares interleaved and in pairs,
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

/* The commit of the tree measured ("git describe", "+dirty" when modified, or "unknown"). */
const char *bench_commit(const bench *b);

/* One progress line on stderr, prefixed with the running family's name. */
void bench_progress(bench *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A failed check (wrong result, failed launch the family did not expect):
 * printed at once, counted, written to summary.json's "failures"; the run
 * exits non-zero at the end. The value being measured must not be recorded.
 * It fails no kernel, whatever its text says: a failed check of a kernel is
 * bench_fail_kernel. */
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

/*
 * Check, then time, variants side by side (bench/driver/variants.c): the one
 * way a family compares kernels.
 *   1. every variant is checked (its check: poison the outputs, one call,
 *      compare with the reference); a wrong one is failed there and then
 *      (bench_fail_kernel of its kernel, or bench_fail) and gives no time;
 *   2. every variant that passed is warmed up (its timed body, `warmup` times);
 *   3. `rounds` rounds: in round r the variants run in the order r, r+1, ...
 *      (rotating, so that none always runs first or after the same one), each
 *      timed once: µs per call of its body, one sample per round (or, for a
 *      variant with a sample callback, the value it read from the device).
 * The timed body is `calls` consecutive calls (call i with input copy
 * i % copies: a rotating pool the family makes at least BENCH_ROTATE_L2 x the
 * L2 size, so that inputs come from HBM), captured as one graph on `stream`
 * (graph = 1) or launched one by one from the host, between two events.
 * A pair's ratio is taken round by round (bench_pair_ratio), so a drift of the
 * GPU's clock during the run cancels out of it.
 */
#define BENCH_ROUNDS_MAX 32
#define BENCH_ROTATE_L2 4   /* a rotating input pool holds at least 4 x L2 */

typedef struct bench_variant {
    const char *name;       /* for messages: "rowpar_pdl, llama_o nb 1" */
    const char *kernel;     /* the DSM_KERNEL_ENTRY name a failed check fails; NULL: none (a vendor library) */
    void *ctx;              /* given to check and call */
    /* Poisons the outputs, makes one call, compares with the reference: 1 when
     * right; 0 when wrong or when the call failed, with the reason in why (why
     * left empty: the check reported the failure itself with bench_fail_kernel). */
    int (*check)(void *ctx, char *why, size_t why_len);
    /* Enqueues call number i (input copy i % copies) on stream; pdl: with
     * programmatic dependent launch. Returns the launch's error. */
    dsm_error_t (*call)(void *ctx, int i, dsm_stream_t stream, int pdl);
    int pdl, graph, calls;
    /* NULL: the variant is timed with events as above. Otherwise it measures
     * itself, e.g. with clock64 on the device, and call, pdl, graph and calls
     * are not used: sample runs round `round` (-1: a warm-up), checks its
     * result and stores the round's value (cycles per hop, ...) in *value: 1
     * when right; 0 when wrong, with the reason in why as for check. A wrong
     * round fails the variant there and then: no number from it. */
    int (*sample)(void *ctx, int round, double *value, char *why, size_t why_len);
} bench_variant;

typedef enum bench_variant_status {
    BENCH_VARIANT_NOT_RUN = 0,  /* not given to bench_time_variants (a zeroed result) */
    BENCH_VARIANT_TIMED,        /* checked and timed: samples are valid */
    BENCH_VARIANT_WRONG,        /* its check failed (and was reported as a failure) */
    BENCH_VARIANT_NOT_CAPTURED, /* its calls could not be captured in a graph (not a failure: e.g. PDL) */
    BENCH_VARIANT_TIMING_FAILED /* a timed call failed (reported as a failure) */
} bench_variant_status;

typedef struct bench_variant_result {
    bench_variant_status status;
    double us[BENCH_ROUNDS_MAX];    /* µs per call, round by round (a sampling variant: its samples) */
    int rounds;
    int bodies;                     /* times the timed body ran (warm-up and rounds): calls that accumulate */
    bench_stats stats;              /* over the rounds; zeros unless TIMED */
} bench_variant_result;

/* Checks and times nv variants as above on stream (which must not be NULL
 * when a variant is timed with events: graphs are captured on it; NULL when
 * every variant samples itself); res[i] for v[i]. Rounds are capped at
 * BENCH_ROUNDS_MAX; the dry run checks every variant and times one round.
 * Returns the number of variants timed. */
int bench_time_variants(bench *b, dsm_stream_t stream, const bench_variant *v, int nv, int warmup, int rounds,
                        bench_variant_result *res);

/* "not_run", "timed", "wrong", "not_captured", "timing_failed": a CSV status column's value. */
const char *bench_variant_status_name(bench_variant_status s);

/* Median, min and max over the rounds of a's time / b's time in the same round;
 * n = 0 unless both were timed. */
bench_stats bench_pair_ratio(const bench_variant_result *a, const bench_variant_result *b);

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

/* What a family says about its summary keys, read by the driver (make
 * bench-compare judges the headline ones between two runs; the report sets a
 * source document's figure beside a key). Every family defines its table,
 * ended by a NULL key (an empty table is {{NULL, 0, NULL}}):
 *     const bench_key_info bench_keys_ch01_latency[] = {{"latency_cycles.", 1, NULL}, ..., {NULL, 0, NULL}};
 * key: a summary key, or a prefix ending in '.' that covers every key below it. */
typedef struct bench_key_info {
    const char *key;
    int headline;               /* 1: two runs must agree on it (make bench-compare) */
    const char *source_figure;  /* what the source document reports for it, in its words and units; NULL: none */
} bench_key_info;

/* Nsight Compute's counters of a family's kernels (make bench NCU=1). A
 * family that reads some defines
 *     const bench_counters bench_counters_<name> = {profiles, import};
 * (a family without counters defines nothing). For every profile,
 * bench/driver/ncu.sh runs the family once under ncu (bench_driver
 * --ncu-plan lists them) and leaves in its work folder WORK/<profile>.csv
 * (ncu's table: --csv --page details --print-units base) and WORK/run-<profile>/
 * (the profiled run's folder: the family's own logs); then the driver's
 * --ncu WORK calls import, which writes the family's CSV rows, numbers and
 * report section, and returns 0 when every counter it needs was read. */
typedef struct bench_counter_profile {
    const char *name;       /* its files' name in the work folder; NULL ends the list */
    const char *kernels;    /* ncu --kernel-name: a name, or "regex:..." */
    const char *metrics;    /* ncu --metrics, comma-separated */
    int launch_count;       /* ncu --launch-count; 0: every launch */
    int quick;              /* 1: profile a --quick run */
    const char *env;        /* "NAME=value" set for the profiled run (a short mode of the family), or NULL */
} bench_counter_profile;

typedef struct bench_counters {
    const bench_counter_profile *profiles;
    int (*import)(bench *b, const char *work_dir);
} bench_counters;

/* One value of ncu's table: the launch's ID, the kernel, the metric, the value in base units (bytes,
 * sectors, ...; thousands separators dropped, a K, M or G unit prefix applied). */
typedef struct bench_ncu_value {
    char id[32], kernel[128], metric[96];
    double value;
} bench_ncu_value;

/* Reads ncu's table at path into out (at most max): the number of values; -1 when the file is missing,
 * -2 when it has no table (ncu's own lines only). */
int bench_ncu_read(const char *path, bench_ncu_value *out, int max);

/* A line of CSV split in place at commas outside double quotes (the quotes dropped); the number of
 * fields; and the index of the field that equals name (-1: none). For a family's own logs. */
int bench_csv_fields(char *line, char **fields, int max);
int bench_csv_column(char **fields, int n, const char *name);

/* Bytes as a person reads them: "5.54 MB", "29.74 GB", "4.6 KB", "12 bytes". */
void bench_bytes_text(char *buf, size_t size, double v);

/* The vendor's GEMM, to set a family's kernels beside it: cuBLAS in the GPU
 * build (bench/driver/blas.c), none in the emulator build. Open one handle on
 * the stream its calls go to: NULL, with the reason in why, when there is no
 * cuBLAS. C (m x n, fp32, column-major, ldc) = A^T B, A k x m and B k x n in
 * bf16, column-major (lda, ldb): cublasGemmEx(OP_T, OP_N), fp32 compute,
 * CUBLAS_GEMM_DEFAULT. Its launches cannot take programmatic dependent launch:
 * cuBLAS's API has no launch attributes. */
typedef struct bench_blas bench_blas;
bench_blas *bench_blas_open(dsm_stream_t stream, char *why, size_t why_len);
void bench_blas_close(bench_blas *h);
dsm_error_t bench_blas_gemm_bf16_tn(bench_blas *h, int m, int n, int k, const void *a, int lda, const void *b,
                                    int ldb, float *c, int ldc);

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
