/* latency_ladder.c: measures SM cycles per dependent load in local shared memory, DSMEM, L2 and HBM with the chase kernels of solutions/ch01/latency_chain.cu; prints a table and writes CSV. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsm_host.h"
#ifdef DSM_BACKEND_CUDA
#include <cuda_runtime_api.h>
#endif

DSM_DECLARE_KERNEL(chase_global);
DSM_DECLARE_KERNEL(chase_shared);

enum {
    LINE_WORDS = 128 / sizeof(uint32_t), /* one chain element per 128-byte cache line */
    MAX_REPEATS = 16,
    SHARED_THREADS = 128,                /* threads that copy the chain into shared memory */
};

/* What one run measures. The GPU sizes follow chapter 1; the emulator dry
 * run uses small ones, only to check that the program and its chains work. */
typedef struct ladder_sizes {
    uint32_t repeats;        /* timed launches per level (after one warm-up) */
    uint32_t shared_words;   /* chain length in shared memory (local and DSMEM) */
    uint32_t shared_steps;   /* loads per timed launch in shared memory */
    size_t l2_bytes;         /* working set that fits in L2 */
    size_t hbm_bytes;        /* working set far larger than L2 */
    uint32_t global_steps;   /* loads per timed launch in global memory */
    size_t flush_bytes;      /* written before the HBM chase to push the chain's lines out of L2 */
    uint32_t spread_bytes;   /* dynamic shared memory per CTA: more than half an SM's, so the two
                              * CTAs of the cluster cannot share an SM and DSMEM loads really cross */
} ladder_sizes;

static const ladder_sizes gpu_sizes = {9, 4096, 65536, (size_t)4 << 20, (size_t)1 << 30, 32768,
                                       (size_t)256 << 20, 120 << 10};
static const ladder_sizes emu_sizes = {3, 1024, 4096, (size_t)64 << 10, (size_t)1 << 20, 2048,
                                       (size_t)2 << 20, 4 << 10};

/* One row of the table: cycles per load over the timed repeats. */
typedef struct ladder_row {
    const char *level;
    size_t working_set;
    uint32_t steps, repeats;
    double median, min, max;
} ladder_row;

/* ---- random single-cycle chains ---- */

static uint64_t rng_state = 0x00c0ffee12345678ull; /* fixed: the same chains every run */

/* splitmix64: the next 64 random bits. */
static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A random permutation of 0..n-1 that is a single cycle (Sattolo's
 * algorithm), so a chase never revisits an element before all n were seen. */
static uint32_t *single_cycle(uint32_t n)
{
    uint32_t *perm = malloc((size_t)n * sizeof *perm);
    if (perm == NULL) {
        fprintf(stderr, "latency_ladder: out of host memory for %u elements\n", n);
        exit(EXIT_FAILURE);
    }
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

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fills row's median, min and max from the per-repeat cycles per load. */
static void summarize(ladder_row *row, double *per_load, uint32_t repeats)
{
    qsort(per_load, repeats, sizeof *per_load, cmp_double);
    row->repeats = repeats;
    row->min = per_load[0];
    row->max = per_load[repeats - 1];
    row->median = repeats % 2 ? per_load[repeats / 2]
                              : 0.5 * (per_load[repeats / 2 - 1] + per_load[repeats / 2]);
}

static void chain_mismatch(const char *level, uint32_t got, uint32_t want)
{
    fprintf(stderr, "latency_ladder: %s: the chase ended at %u, the CPU reference at %u; "
                    "the timing is not trusted\n", level, got, want);
    exit(EXIT_FAILURE);
}

/* ---- levels ---- */

/* Local shared memory (remote == 0) or DSMEM (remote == 1): a cluster of 2
 * CTAs, each with its own random chain, each on an SM of its own; CTA 0's
 * thread 0 is timed. */
static ladder_row measure_shared(const ladder_sizes *sz, uint32_t remote)
{
    uint32_t n = sz->shared_words, ctas = 2;
    uint32_t *chains[2] = {single_cycle(n), single_cycle(n)};
    uint32_t *d_next, *d_last, last[2];
    unsigned long long *d_cycles, cycles[2];
    DSM_CHECK(dsm_malloc((void **)&d_next, (size_t)ctas * n * sizeof(uint32_t)));
    DSM_CHECK(dsm_malloc((void **)&d_last, ctas * sizeof(uint32_t)));
    DSM_CHECK(dsm_malloc((void **)&d_cycles, ctas * sizeof(unsigned long long)));
    for (uint32_t b = 0; b < ctas; ++b)
        DSM_CHECK(dsm_memcpy_to_device(d_next + (size_t)b * n, chains[b], n * sizeof(uint32_t)));

    size_t smem = (size_t)n * sizeof(uint32_t);
    if (smem < sz->spread_bytes)
        smem = sz->spread_bytes;
    DSM_CHECK(dsm_func_set_max_dynamic_smem(DSM_KERNEL(chase_shared), (int)smem));
    dsm_launch_config cfg = {DSM_DIM3(ctas, 1, 1), DSM_DIM3(SHARED_THREADS, 1, 1), DSM_DIM3(ctas, 1, 1), smem};
    uint32_t start = 0, steps = sz->shared_steps;
    const uint32_t *next_arg = d_next;
    void *args[] = {&next_arg, &n, &start, &steps, &remote, &d_last, &d_cycles};
    double per_load[MAX_REPEATS];
    const char *level = remote ? "DSMEM (peer CTA, cluster of 2)" : "local shared memory";

    for (uint32_t r = 0; r <= sz->repeats; ++r) { /* r == 0: warm-up, not counted */
        DSM_CHECK(dsm_memset(d_last, 0xff, ctas * sizeof(uint32_t)));
        DSM_CHECK(dsm_launch_sync(&cfg, DSM_KERNEL(chase_shared), args));
        DSM_CHECK(dsm_memcpy_to_host(last, d_last, sizeof last));
        DSM_CHECK(dsm_memcpy_to_host(cycles, d_cycles, sizeof cycles));
        for (uint32_t b = 0; b < ctas; ++b) {
            uint32_t want = follow(chains[remote ? (b + 1) % ctas : b], start, steps);
            if (last[b] != want)
                chain_mismatch(level, last[b], want);
        }
        if (r > 0)
            per_load[r - 1] = (double)cycles[0] / steps;
    }

    ladder_row row = {level, (size_t)n * sizeof(uint32_t), steps, 0, 0, 0, 0};
    summarize(&row, per_load, sz->repeats);
    DSM_CHECK(dsm_free(d_next));
    DSM_CHECK(dsm_free(d_last));
    DSM_CHECK(dsm_free(d_cycles));
    free(chains[0]);
    free(chains[1]);
    return row;
}

/* Global memory: one element per 128-byte line of a `bytes` working set, in
 * a random single cycle. Every launch continues where the last one stopped,
 * so no line is loaded twice unless the whole cycle was walked: the L2 level
 * first walks it once (warm-up) so that every line sits in L2; the HBM level
 * never completes it, so every load misses. */
static ladder_row measure_global(const ladder_sizes *sz, const char *level, size_t bytes, int warm_whole_set)
{
    uint32_t lines = (uint32_t)(bytes / 128);
    uint32_t *perm = single_cycle(lines);
    uint32_t *next = calloc((size_t)lines * LINE_WORDS, sizeof *next);
    if (next == NULL) {
        fprintf(stderr, "latency_ladder: out of host memory for a %zu-byte chain\n", bytes);
        exit(EXIT_FAILURE);
    }
    for (uint32_t i = 0; i < lines; ++i)
        next[(size_t)i * LINE_WORDS] = perm[i] * LINE_WORDS; /* indices are in words */

    uint32_t *d_next, *d_last, last;
    unsigned long long *d_cycles, cycles;
    DSM_CHECK(dsm_malloc((void **)&d_next, (size_t)lines * LINE_WORDS * sizeof(uint32_t)));
    DSM_CHECK(dsm_malloc((void **)&d_last, sizeof(uint32_t)));
    DSM_CHECK(dsm_malloc((void **)&d_cycles, sizeof(unsigned long long)));
    DSM_CHECK(dsm_memcpy_to_device(d_next, next, (size_t)lines * LINE_WORDS * sizeof(uint32_t)));
    free(next);
    if (!warm_whole_set) { /* the copy left the chain's last lines in L2: write something else over them */
        void *scratch;
        DSM_CHECK(dsm_malloc(&scratch, sz->flush_bytes));
        DSM_CHECK(dsm_memset(scratch, 0x5a, sz->flush_bytes));
        DSM_CHECK(dsm_device_synchronize());
        DSM_CHECK(dsm_free(scratch));
    }

    dsm_launch_config cfg = {DSM_DIM3(1, 1, 1), DSM_DIM3(1, 1, 1), DSM_DIM3(1, 1, 1), 0};
    uint32_t pos = 0; /* current line */
    double per_load[MAX_REPEATS];
    for (uint32_t r = 0; r <= sz->repeats; ++r) { /* r == 0: warm-up, not counted */
        uint32_t steps = (r == 0 && warm_whole_set) ? lines : sz->global_steps;
        uint32_t start = pos * LINE_WORDS;
        const uint32_t *next_arg = d_next;
        void *args[] = {&next_arg, &start, &steps, &d_last, &d_cycles};
        DSM_CHECK(dsm_memset(d_last, 0xff, sizeof(uint32_t)));
        DSM_CHECK(dsm_launch_sync(&cfg, DSM_KERNEL(chase_global), args));
        DSM_CHECK(dsm_memcpy_to_host(&last, d_last, sizeof last));
        DSM_CHECK(dsm_memcpy_to_host(&cycles, d_cycles, sizeof cycles));
        pos = follow(perm, pos, steps);
        if (last != pos * LINE_WORDS)
            chain_mismatch(level, last, pos * LINE_WORDS);
        if (r > 0)
            per_load[r - 1] = (double)cycles / steps;
    }

    ladder_row row = {level, bytes, sz->global_steps, 0, 0, 0, 0};
    summarize(&row, per_load, sz->repeats);
    DSM_CHECK(dsm_free(d_next));
    DSM_CHECK(dsm_free(d_last));
    DSM_CHECK(dsm_free(d_cycles));
    free(perm);
    return row;
}

/* ---- the machine ---- */

typedef struct machine {
    char gpu[256];
    char driver[128];
    double sm_clock_mhz; /* 0 when unknown */
    char date[32];
} machine;

#ifdef DSM_BACKEND_CUDA
/* The kernel driver's version from /proc/driver/nvidia/version ("580.159.04"),
 * or an empty string. */
static void kernel_driver_version(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (f == NULL)
        return;
    char line[512], tok[64];
    if (fgets(line, sizeof line, f) != NULL) {
        for (char *p = line; *p != '\0'; ++p) {
            unsigned a, b;
            if ((p == line || p[-1] == ' ') && sscanf(p, "%u.%u", &a, &b) == 2 && sscanf(p, "%63s", tok) == 1) {
                snprintf(out, size, "%s", tok);
                break;
            }
        }
    }
    fclose(f);
}
#endif

static machine describe_machine(void)
{
    machine m;
    memset(&m, 0, sizeof m);
    time_t now = time(NULL);
    strftime(m.date, sizeof m.date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
#ifdef DSM_BACKEND_CUDA
    int dev = 0, khz = 0, cuda_driver = 0;
    struct cudaDeviceProp prop;
    char kmod[64];
    cudaGetDevice(&dev);
    if (cudaGetDeviceProperties(&prop, dev) == cudaSuccess)
        snprintf(m.gpu, sizeof m.gpu, "%s", prop.name);
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
        m.sm_clock_mhz = khz / 1000.0;
    cudaDriverGetVersion(&cuda_driver);
    kernel_driver_version(kmod, sizeof kmod);
    snprintf(m.driver, sizeof m.driver, "%s%sCUDA %d.%d", kmod, kmod[0] ? " / " : "", cuda_driver / 1000,
             (cuda_driver % 1000) / 10);
#else
    snprintf(m.gpu, sizeof m.gpu, "CPU cluster emulator");
    snprintf(m.driver, sizeof m.driver, "none");
#endif
    return m;
}

/* ---- output ---- */

static void print_table(const machine *m, const ladder_row *rows, int count, int dry_run)
{
    printf("latency ladder: %s, driver %s, SM clock %.0f MHz (max), %s\n", m->gpu, m->driver, m->sm_clock_mhz,
           m->date);
    if (dry_run)
        printf("emulator dry run: chains are checked, cycles are a fake counter and mean nothing\n");
    printf("%-32s %12s %14s %10s %10s %8s\n", "level", "working set", "cycles/load", "min", "max", "repeats");
    for (int i = 0; i < count; ++i) {
        const ladder_row *r = &rows[i];
        char ws[32];
        if (r->working_set >= ((size_t)1 << 30))
            snprintf(ws, sizeof ws, "%zu GiB", r->working_set >> 30);
        else if (r->working_set >= ((size_t)1 << 20))
            snprintf(ws, sizeof ws, "%zu MiB", r->working_set >> 20);
        else
            snprintf(ws, sizeof ws, "%zu KiB", r->working_set >> 10);
        printf("%-32s %12s %14.1f %10.1f %10.1f %8u\n", r->level, ws, r->median, r->min, r->max, r->repeats);
    }
}

/* Writes one CSV line per level (with a header) to path. */
static void write_csv(const char *path, const machine *m, const ladder_row *rows, int count)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        exit(EXIT_FAILURE);
    }
    fprintf(f, "gpu,driver,sm_clock_mhz,date,backend,level,working_set_bytes,cycles_per_load,"
               "min_cycles_per_load,max_cycles_per_load,repeats,loads_per_repeat\n");
    for (int i = 0; i < count; ++i) {
        const ladder_row *r = &rows[i];
        fprintf(f, "\"%s\",\"%s\",%.0f,%s,%s,\"%s\",%zu,%.2f,%.2f,%.2f,%u,%u\n", m->gpu, m->driver, m->sm_clock_mhz,
                m->date, dsm_backend_name(), r->level, r->working_set, r->median, r->min, r->max, r->repeats,
                r->steps);
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(EXIT_FAILURE);
    }
}

int main(int argc, char **argv)
{
    const char *why = "";
    if (dsm_device_check(&why) != dsmSuccess) {
        printf("waived: no Hopper GPU (%s)\n", why != NULL ? why : "no reason given");
        return 0;
    }
    int dry_run = strcmp(dsm_backend_name(), "emulator") == 0;
    const ladder_sizes *sz = dry_run ? &emu_sizes : &gpu_sizes;
    machine m = describe_machine();

    ladder_row rows[4];
    rows[0] = measure_shared(sz, 0);
    rows[1] = measure_shared(sz, 1);
    rows[2] = measure_global(sz, "L2", sz->l2_bytes, 1);
    rows[3] = measure_global(sz, "HBM", sz->hbm_bytes, 0);

    print_table(&m, rows, 4, dry_run);
    if (argc > 1) {
        write_csv(argv[1], &m, rows, 4);
        printf("wrote %s\n", argv[1]);
    } else {
        printf("(no CSV written: give a path as the first argument)\n");
    }
    return 0;
}
