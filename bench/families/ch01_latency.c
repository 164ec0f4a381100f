/* ch01_latency.c: the latency ladder of chapter 1: SM cycles per dependent load in local shared memory, DSMEM, L2 and HBM. */
// bench-kernels: ch01/latency_chain.cu
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

DSM_DECLARE_KERNEL(chase_global);
DSM_DECLARE_KERNEL(chase_shared);

/* Summary keys the driver must know (bench.h): the ladder is a headline; the deep dive's diagram beside it. */
const bench_key_info bench_keys_ch01_latency[] = {
    {"latency_cycles.", 1, NULL},
    {"latency_cycles.local_shared", 1, "20-30 (diagram, not measured)"},
    {"latency_cycles.dsmem", 1, "100-180 (diagram, not measured)"},
    {"latency_cycles.l2", 1, "200-300 (diagram, not measured)"},
    {"latency_cycles.hbm", 1, "450-600 (diagram, not measured)"},
    {NULL, 0, NULL},
};

enum {
    LINE_WORDS = 128 / sizeof(uint32_t), /* one chain element per 128-byte cache line */
    SHARED_THREADS = 128,                /* threads that copy the chain into shared memory */
    LEVELS = 7,
    MAX_CLUSTER = 16,
};

/* What one run measures. The GPU sizes follow chapter 1; QUICK=1 shortens the
 * HBM chain (still four times the L2) and the repeats; the emulator dry run
 * uses small ones, only to check the kernels, the chains and the output. */
typedef struct ladder_sizes {
    uint32_t repeats;      /* sampled launches per level (after the check and one warm-up; the dry run samples one) */
    uint32_t shared_words; /* chain length in shared memory (local and DSMEM) */
    uint32_t shared_steps; /* loads per timed launch in shared memory */
    size_t l2_bytes;       /* working set that fits in L2 */
    size_t hbm_bytes;      /* working set far larger than L2 */
    uint32_t global_steps; /* loads per timed launch in global memory */
    size_t flush_bytes;    /* written before the HBM chase to push the chain's lines out of L2 */
    uint32_t spread_bytes; /* dynamic shared memory per CTA: more than half an SM's, so the two
                            * CTAs of the cluster cannot share an SM and DSMEM loads really cross */
} ladder_sizes;

/* Step counts are odd on purpose: a chain of 2^k elements walked a multiple of
 * 2^k steps ends where it started, so a kernel that did not walk at all would
 * pass the check. */
static const ladder_sizes full_sizes = {9, 4096, 65535, (size_t)4 << 20, (size_t)1 << 30, 32767,
                                        (size_t)256 << 20, 120 << 10};
static const ladder_sizes quick_sizes = {5, 4096, 65535, (size_t)4 << 20, (size_t)256 << 20, 16383,
                                         (size_t)256 << 20, 120 << 10};
static const ladder_sizes dry_sizes = {1, 1024, 4095, (size_t)64 << 10, (size_t)1 << 20, 2047,
                                       (size_t)2 << 20, 4 << 10};

/* One level of the ladder: cycles per load over the timed repeats. */
typedef struct ladder_row {
    const char *level, *key; /* key: the summary name (below latency_cycles. for the ladder itself) */
    uint32_t cluster;        /* shared-memory levels: CTAs in the cluster (the chase goes to rank + 1) */
    size_t working_set;
    uint32_t steps;
    bench_stats cycles;
    int measured;            /* 0 when a check or a call failed: no number */
    const char *unfit;       /* the launch error of a cluster that does not fit (a row, not a failure) */
} ladder_row;

/* ---- random single-cycle chains ---- */

static uint64_t rng_state;

/* splitmix64: the next 64 random bits. */
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random permutation of 0..n-1 that is a single cycle (Sattolo's
 * algorithm), so a chase never revisits an element before all n were seen.
 * NULL when the host is out of memory. */
static uint32_t *single_cycle(uint32_t n)
{
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    if (perm == NULL)
        return NULL;
    for (uint32_t i = 0; i < n; ++i)
        perm[i] = i;
    for (uint32_t i = n - 1; i > 0; --i) {
        uint32_t j = (uint32_t)(rng_next() % i); /* j < i: one cycle */
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    return perm;
}

/* Where `steps` links of perm lead from idx (the CPU reference). */
static uint32_t follow(const uint32_t *perm, uint32_t idx, uint64_t steps)
{
    for (uint64_t s = 0; s < steps; ++s)
        idx = perm[idx];
    return idx;
}

/* 1 when err is success; otherwise a failed check of `kernel`, named after the call. */
static int ok(bench *b, const char *kernel, const char *level, const char *what, dsm_error_t err)
{
    if (err == dsmSuccess)
        return 1;
    bench_fail_kernel(b, kernel, "%s: %s failed: %s", level, what, dsm_error_name(err));
    return 0;
}

/* ---- levels ---- */

/* One level's chase as a variant of bench_time_variants (its check and its sample, below): the
 * chains on the host (the CPU reference), the device buffers and the launch. */
typedef struct chase {
    bench *b;
    ladder_row *row;
    const char *kernel;           /* chase_shared or chase_global: what a wrong chase fails */
    uint32_t *chains[MAX_CLUSTER]; /* shared levels: CTA c's chain; global levels: chains[0] */
    uint32_t *d_next, *d_last;
    unsigned long long *d_cycles;
    dsm_launch_config cfg;
    uint32_t n, ctas, remote;     /* shared levels */
    uint32_t lines, pos;          /* global levels: the chain's length in lines, the line it is at */
    int warm_whole_set;           /* global levels: the check walks the whole chain (L2) */
} chase;

static void chase_free(chase *c)
{
    dsm_free(c->d_next);
    dsm_free(c->d_last);
    dsm_free(c->d_cycles);
    for (uint32_t i = 0; i < MAX_CLUSTER; ++i)
        free(c->chains[i]);
}

/* One launch of a shared level's chase_shared, every CTA's end of chain checked against the CPU walk;
 * CTA 0's cycles per load in *per_load. 0 when wrong (reported). */
static int shared_launch(chase *c, double *per_load)
{
    bench *b = c->b;
    const char *level = c->row->level;
    uint32_t start = 0, steps = c->row->steps, last[MAX_CLUSTER];
    unsigned long long cycles[MAX_CLUSTER];
    const uint32_t *next_arg = c->d_next;
    void *args[] = {&next_arg, &c->n, &start, &steps, &c->remote, &c->d_last, &c->d_cycles};
    if (!(ok(b, "chase_shared", level, "dsm_memset", dsm_memset(c->d_last, 0xff, c->ctas * sizeof(uint32_t))) &&
          ok(b, "chase_shared", level, "launch of chase_shared", dsm_launch_sync(&c->cfg, DSM_KERNEL(chase_shared), args)) &&
          ok(b, "chase_shared", level, "dsm_memcpy_to_host", dsm_memcpy_to_host(last, c->d_last, c->ctas * sizeof last[0])) &&
          ok(b, "chase_shared", level, "dsm_memcpy_to_host",
             dsm_memcpy_to_host(cycles, c->d_cycles, c->ctas * sizeof cycles[0]))))
        return 0;
    for (uint32_t k = 0; k < c->ctas; ++k) {
        uint32_t want = follow(c->chains[c->remote ? (k + 1) % c->ctas : k], start, steps);
        if (last[k] != want) {
            bench_fail_kernel(b, "chase_shared", "%s: chase_shared: CTA %u's chase ended at %u, the CPU reference at %u",
                              level, k, last[k], want);
            return 0;
        }
    }
    *per_load = (double)cycles[0] / steps;
    return 1;
}

/* One launch of a global level's chase_global for `steps` loads from where the last one stopped,
 * its end of chain checked against the CPU walk; cycles per load in *per_load. 0 when wrong (reported). */
static int global_launch(chase *c, uint32_t steps, double *per_load)
{
    bench *b = c->b;
    const char *level = c->row->level;
    uint32_t start = c->pos * LINE_WORDS, last = 0;
    unsigned long long cycles = 0;
    const uint32_t *next_arg = c->d_next;
    void *args[] = {&next_arg, &start, &steps, &c->d_last, &c->d_cycles};
    if (!(ok(b, "chase_global", level, "dsm_memset", dsm_memset(c->d_last, 0xff, sizeof(uint32_t))) &&
          ok(b, "chase_global", level, "launch of chase_global", dsm_launch_sync(&c->cfg, DSM_KERNEL(chase_global), args)) &&
          ok(b, "chase_global", level, "dsm_memcpy_to_host", dsm_memcpy_to_host(&last, c->d_last, sizeof last)) &&
          ok(b, "chase_global", level, "dsm_memcpy_to_host", dsm_memcpy_to_host(&cycles, c->d_cycles, sizeof cycles))))
        return 0;
    c->pos = follow(c->chains[0], c->pos, steps);
    if (last != c->pos * LINE_WORDS) {
        bench_fail_kernel(b, "chase_global", "%s: chase_global: the chase ended at %u, the CPU reference at %u", level,
                          last, c->pos * LINE_WORDS);
        return 0;
    }
    *per_load = (double)cycles / steps;
    return 1;
}

/* bench_variant's check: one launch checked (for L2: the whole chain walked once, so that every line
 * sits in L2). The launches report their failures themselves. */
static int chase_check(void *ctx, char *why, size_t why_len)
{
    chase *c = ctx;
    double unused;
    (void)why, (void)why_len;
    if (c->ctas > 0) /* a shared level */
        return shared_launch(c, &unused);
    return global_launch(c, c->warm_whole_set ? c->lines : c->row->steps, &unused);
}

/* bench_variant's sample: one checked launch, its cycles per load. */
static int chase_sample(void *ctx, int round, double *value, char *why, size_t why_len)
{
    chase *c = ctx;
    (void)round, (void)why, (void)why_len;
    return c->ctas > 0 ? shared_launch(c, value) : global_launch(c, c->row->steps, value);
}

/* Local shared memory (remote == 0) or DSMEM (remote == 1): a cluster of
 * row->cluster CTAs, each with its own random chain, each on an SM of its own;
 * every CTA's thread 0 chases (its peer's copy, rank + 1), CTA 0's is timed
 * with clock64 inside the kernel. Returns 1 when c is ready to run; 0 when a
 * setup call failed (reported) or the cluster cannot be launched (too big for
 * a GPC with one CTA per SM: row->unfit, a row with the launch's error). */
static int setup_shared(bench *b, const ladder_sizes *sz, uint32_t remote, ladder_row *row, chase *c)
{
    uint32_t n = sz->shared_words, ctas = row->cluster;
    *c = (chase){b, row, "chase_shared", {0}, NULL, NULL, NULL, {DSM_DIM3(ctas, 1, 1), DSM_DIM3(SHARED_THREADS, 1, 1),
                 DSM_DIM3(ctas, 1, 1), 0}, n, ctas, remote, 0, 0, 0};
    row->working_set = (size_t)n * sizeof(uint32_t);
    row->steps = sz->shared_steps;
    int good = 1;
    for (uint32_t k = 0; k < ctas; ++k)
        good &= (c->chains[k] = single_cycle(n)) != NULL;
    if (!good)
        bench_fail_kernel(b, "chase_shared", "%s: out of host memory", row->level);
    good = good && ok(b, "chase_shared", row->level, "dsm_malloc", dsm_malloc((void **)&c->d_next, (size_t)ctas * n * sizeof(uint32_t)));
    good = good && ok(b, "chase_shared", row->level, "dsm_malloc", dsm_malloc((void **)&c->d_last, ctas * sizeof(uint32_t)));
    good = good && ok(b, "chase_shared", row->level, "dsm_malloc", dsm_malloc((void **)&c->d_cycles, ctas * sizeof(unsigned long long)));
    for (uint32_t k = 0; good && k < ctas; ++k)
        good = ok(b, "chase_shared", row->level, "dsm_memcpy_to_device",
                  dsm_memcpy_to_device(c->d_next + (size_t)k * n, c->chains[k], n * sizeof(uint32_t)));

    size_t smem = (size_t)n * sizeof(uint32_t);
    if (smem < sz->spread_bytes)
        smem = sz->spread_bytes;
    c->cfg.dynamic_smem_bytes = smem;
    good = good && ok(b, "chase_shared", row->level, "dsm_func_set_max_dynamic_smem",
                      dsm_func_set_max_dynamic_smem(DSM_KERNEL(chase_shared), (int)smem));
    if (good && ctas > 8) /* clusters above 8 CTAs are non-portable: they must be allowed */
        good = ok(b, "chase_shared", row->level, "dsm_func_set_non_portable_cluster_size_allowed",
                  dsm_func_set_non_portable_cluster_size_allowed(DSM_KERNEL(chase_shared), 1));
    int fits = 0;
    if (good && ctas > 2 && (dsm_occupancy_max_active_clusters(&fits, DSM_KERNEL(chase_shared), &c->cfg) != dsmSuccess ||
                             fits < 1)) {
        row->unfit = "does not fit (cudaOccupancyMaxActiveClusters: 0)";
        good = 0;
    }
    return good;
}

/* Global memory: one element per 128-byte line of a `bytes` working set, in
 * a random single cycle. Every launch continues where the last one stopped,
 * so no line is loaded twice unless the whole cycle was walked: the L2 level's
 * check first walks it once so that every line sits in L2; the HBM level
 * never completes it, so every load misses. Returns 1 when c is ready to run;
 * 0 when a setup call failed (reported). */
static int setup_global(bench *b, const ladder_sizes *sz, size_t bytes, int warm_whole_set, ladder_row *row, chase *c)
{
    uint32_t lines = (uint32_t)(bytes / 128);
    *c = (chase){b, row, "chase_global", {0}, NULL, NULL, NULL, {DSM_DIM3(1, 1, 1), DSM_DIM3(1, 1, 1), DSM_DIM3(1, 1, 1), 0},
                 0, 0, 0, lines, 0, warm_whole_set};
    uint32_t *next = calloc((size_t)lines * LINE_WORDS, sizeof *next);
    c->chains[0] = single_cycle(lines);
    row->working_set = bytes;
    row->steps = sz->global_steps;
    int good = c->chains[0] != NULL && next != NULL;
    if (!good)
        bench_fail_kernel(b, "chase_global", "%s: out of host memory for a %zu-byte chain", row->level, bytes);
    for (uint32_t i = 0; good && i < lines; ++i)
        next[(size_t)i * LINE_WORDS] = c->chains[0][i] * LINE_WORDS; /* indices are in words */
    good = good && ok(b, "chase_global", row->level, "dsm_malloc",
                      dsm_malloc((void **)&c->d_next, (size_t)lines * LINE_WORDS * sizeof(uint32_t)));
    good = good && ok(b, "chase_global", row->level, "dsm_malloc", dsm_malloc((void **)&c->d_last, sizeof(uint32_t)));
    good = good && ok(b, "chase_global", row->level, "dsm_malloc", dsm_malloc((void **)&c->d_cycles, sizeof(unsigned long long)));
    good = good && ok(b, "chase_global", row->level, "dsm_memcpy_to_device",
                      dsm_memcpy_to_device(c->d_next, next, (size_t)lines * LINE_WORDS * sizeof(uint32_t)));
    free(next);
    if (good && !warm_whole_set) { /* the copy left the chain's last lines in L2: write something else over them */
        void *scratch = NULL;
        good = ok(b, "chase_global", row->level, "dsm_malloc", dsm_malloc(&scratch, sz->flush_bytes)) &&
               ok(b, "chase_global", row->level, "dsm_memset", dsm_memset(scratch, 0x5a, sz->flush_bytes)) &&
               ok(b, "chase_global", row->level, "dsm_device_synchronize", dsm_device_synchronize());
        dsm_free(scratch);
    }
    return good;
}

/* Checks, then samples, the n chases c (each set up) interleaved in rotating rounds
 * (bench_time_variants): sz->repeats rounds after one warm-up; each row gets its cycles per load. */
static void run_chases(bench *b, const ladder_sizes *sz, chase *c, int n)
{
    bench_variant v[LEVELS] = {{0}};
    bench_variant_result res[LEVELS];
    for (int i = 0; i < n; ++i)
        v[i] = (bench_variant){c[i].row->level, c[i].kernel, &c[i], chase_check, NULL, 0, 0, 0, chase_sample};
    bench_time_variants(b, NULL, v, n, 1, (int)sz->repeats, res); /* sampling variants use no stream */
    for (int i = 0; i < n; ++i)
        if (res[i].status == BENCH_VARIANT_TIMED) {
            c[i].row->cycles = res[i].stats;
            c[i].row->measured = 1;
        }
}

/* ---- output ---- */

static void size_text(char *buf, size_t size, size_t bytes)
{
    if (bytes >= ((size_t)1 << 30))
        snprintf(buf, size, "%zu GiB", bytes >> 30);
    else if (bytes >= ((size_t)1 << 20))
        snprintf(buf, size, "%zu MiB", bytes >> 20);
    else
        snprintf(buf, size, "%zu KiB", bytes >> 10);
}

static void write_results(bench *b, const ladder_sizes *sz, const ladder_row *rows)
{
    bench_csv *csv = bench_csv_open(b, "ch01_latency",
                                    "level,working_set_bytes,cycles_per_load,min_cycles_per_load,"
                                    "max_cycles_per_load,repeats,loads_per_repeat,cluster_size");
    double mhz = bench_sm_clock_mhz(b);
    const ladder_row *dsmem = &rows[1];
    bench_report(b, "## Latency ladder (chapter 1, `ch01_latency`)\n\n"
                    "One thread follows a random single-cycle chain of dependent loads and times its loop with "
                    "`clock64`: SM cycles per load, median (min-max) of %u launches after a warm-up, every "
                    "launch's end of chain checked against a CPU walk. DSMEM: thread 0 of every CTA of a "
                    "cluster chases the copy of the next CTA (rank + 1), each CTA on an SM of its own (%u KB "
                    "of shared memory each); CTA 0 is timed. L2: `ld.global.cg` over a warmed working set; "
                    "HBM: one that is never walked twice.%s\n\n"
                    "| level | working set | cycles per load | min | max | ns at %.0f MHz | / DSMEM (cluster of 2) |\n"
                    "|---|---:|---:|---:|---:|---:|---:|\n",
                 sz->repeats, sz->spread_bytes >> 10,
                 bench_dry(b) ? " (Dry run: the cycle counter is the emulator's and means nothing.)" : "", mhz);
    for (int i = 0; i < LEVELS; ++i) {
        const ladder_row *r = &rows[i];
        char ws[32], key[64];
        size_text(ws, sizeof ws, r->working_set);
        if (!r->measured) {
            bench_report(b, "| %s | %s | %s | | | | |\n", r->level, ws, r->unfit ? r->unfit : "failed");
            continue;
        }
        bench_csv_row(csv, "\"%s\",%zu,%.2f,%.2f,%.2f,%d,%u,%u", r->level, r->working_set, r->cycles.median,
                      r->cycles.min, r->cycles.max, r->cycles.n, r->steps, r->cluster);
        snprintf(key, sizeof key, "%s", r->key);
        bench_summary_number(b, key, r->cycles.median);
        char ratio[32] = "";
        if (dsmem->measured && dsmem->cycles.median > 0)
            snprintf(ratio, sizeof ratio, "%.2fx", r->cycles.median / dsmem->cycles.median);
        bench_report(b, "| %s | %s | %.1f | %.1f | %.1f | %.1f | %s |\n", r->level, ws, r->cycles.median,
                     r->cycles.min, r->cycles.max, mhz > 0 ? 1e3 * r->cycles.median / mhz : 0.0, ratio);
    }
    bench_report(b, "\nSeed 000 draws the ladder as ranges, not measurements: local 20-30, DSMEM 100-180, "
                    "L2 200-300, HBM 450-600 cycles. Luo et al. (arXiv 2501.12084) measured remote shared "
                    "memory on an H800 at 181 cycles in a cluster of 2 and 213 in a cluster of 16. HBM runs on a "
                    "clock of its own and the L2's is not documented, so their cycle counts need not stay the "
                    "same at another SM clock (the run header gives the clock; this run did not change it).\n\n");
    bench_csv_close(csv);
}

int bench_family_ch01_latency(bench *b)
{
    const ladder_sizes *sz = bench_dry(b) ? &dry_sizes : bench_quick(b) ? &quick_sizes : &full_sizes;
    rng_state = 0x00c0ffee12345678ull; /* fixed: the same chains every run */
    /* The ladder (latency_cycles.*), with DSMEM in larger clusters beside it. */
    ladder_row rows[LEVELS] = {
        {"local shared memory", "latency_cycles.local_shared", 2, 0, 0, {0, 0, 0, 0}, 0, NULL},
        {"DSMEM (peer CTA, cluster of 2)", "latency_cycles.dsmem", 2, 0, 0, {0, 0, 0, 0}, 0, NULL},
        {"DSMEM (peer CTA, cluster of 4)", "latency_dsmem_cycles_by_cluster_size.c4", 4, 0, 0, {0, 0, 0, 0}, 0, NULL},
        {"DSMEM (peer CTA, cluster of 8)", "latency_dsmem_cycles_by_cluster_size.c8", 8, 0, 0, {0, 0, 0, 0}, 0, NULL},
        {"DSMEM (peer CTA, cluster of 16)", "latency_dsmem_cycles_by_cluster_size.c16", 16, 0, 0, {0, 0, 0, 0}, 0,
         NULL},
        {"L2", "latency_cycles.l2", 0, 0, 0, {0, 0, 0, 0}, 0, NULL},
        {"HBM", "latency_cycles.hbm", 0, 0, 0, {0, 0, 0, 0}, 0, NULL},
    };
    /* The shared-memory levels interleaved, round by round; L2 and HBM each alone: a chase of the other
     * between two of its rounds would move its lines in or out of L2. */
    chase c[LEVELS];
    int n = 0;
    for (int i = 0; i < LEVELS; ++i)
        if (rows[i].cluster > 0 && setup_shared(b, sz, i > 0, &rows[i], &c[n]))
            ++n;
        else if (rows[i].cluster > 0)
            chase_free(&c[n]);
    bench_progress(b, "local shared memory and DSMEM (%d levels that fit, interleaved)", n);
    run_chases(b, sz, c, n);
    for (int i = 0; i < n; ++i)
        chase_free(&c[i]);
    for (int i = 0; i < LEVELS; ++i) {
        char ws[32];
        if (rows[i].cluster > 0)
            continue;
        int l2 = strcmp(rows[i].key, "latency_cycles.l2") == 0;
        size_t bytes = l2 ? sz->l2_bytes : sz->hbm_bytes;
        size_text(ws, sizeof ws, bytes);
        bench_progress(b, "%s (%s working set)", rows[i].level, ws);
        if (setup_global(b, sz, bytes, l2, &rows[i], &c[0]))
            run_chases(b, sz, c, 1);
        chase_free(&c[0]);
    }
    write_results(b, sz, rows);
    int failed = 0;
    for (int i = 0; i < LEVELS; ++i)
        failed |= !rows[i].measured && rows[i].unfit == NULL;
    return failed;
}
