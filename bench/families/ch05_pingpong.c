/* ch05_pingpong.c: the ping-pong token of chapter 5: SM cycles per hop between two CTAs of a cluster for every signalling mechanism, the deep dive's two kernels as published among them. */
// bench-kernels: ch05/pingpong_seed.cu ch05/pingpong_mbarrier.cu ch05/pingpong_flags.cu
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

DSM_DECLARE_KERNEL(pp_seed_dsmem);
DSM_DECLARE_KERNEL(pp_seed_global);
DSM_DECLARE_KERNEL(pp_mbar_arrive);
DSM_DECLARE_KERNEL(pp_mbar_st_async);
DSM_DECLARE_KERNEL(pp_flag_relaxed);
DSM_DECLARE_KERNEL(pp_flag_release);
DSM_DECLARE_KERNEL(pp_flag_global);

enum {
    THREADS = 128,     /* per CTA, as in the deep dive's benchmark; thread 0 plays */
    MAX_REPEATS = 16,
    SEED_ROUNDS = 1000 /* the deep dive's count: 1000 round trips, 2000 hops */
};

/* The deep dive's figures (seed 000, NVIDIA H100 PCIe, 1000 round trips). */
static const double SEED_DSMEM_CYCLES = 736.1, SEED_GMEM_CYCLES = 1419.2;

/* How long each configuration runs. */
typedef struct pp_sizes {
    uint32_t rounds;       /* round trips per timed launch */
    uint32_t check_rounds; /* round trips of the checked launch that records every hop */
    int repeats;           /* timed launches after one warm-up */
    size_t spread_bytes;   /* dynamic shared memory per CTA: more than half an SM's, so that the two
                            * CTAs of the cluster sit on different SMs and every hop crosses */
} pp_sizes;

static const pp_sizes full_sizes = {20000, 1000, 9, 0};
static const pp_sizes quick_sizes = {5000, 1000, 5, 0};
static const pp_sizes dry_sizes = {5, 4, 2, 4096};

/* One signalling mechanism: a kernel of chapter 5 and what it stands for. */
typedef struct pp_mechanism {
    const char *key;       /* summary: pingpong_cycles_per_hop.<key> */
    const char *label;     /* the report's words */
    const char *path;      /* "DSMEM" or "global" */
    dsm_kernel_t (*kernel)(void);
    int with_slots;        /* takes the global-memory slots */
    uint32_t rounds;       /* 0: the run's pp_sizes.rounds */
    uint32_t threads;      /* 0: THREADS */
} pp_mechanism;

/* What one mechanism measured. */
typedef struct pp_result {
    int measured;
    uint32_t rounds;
    bench_stats cycles;    /* per hop, CTA 0's clock64 over its loop */
    bench_stats event_ns;  /* per hop, CUDA events around the launch (includes the launch) */
} pp_result;

static dsm_kernel_t k_seed_dsmem(void) { return DSM_KERNEL(pp_seed_dsmem); }
static dsm_kernel_t k_seed_global(void) { return DSM_KERNEL(pp_seed_global); }
static dsm_kernel_t k_mbar_arrive(void) { return DSM_KERNEL(pp_mbar_arrive); }
static dsm_kernel_t k_mbar_st_async(void) { return DSM_KERNEL(pp_mbar_st_async); }
static dsm_kernel_t k_flag_relaxed(void) { return DSM_KERNEL(pp_flag_relaxed); }
static dsm_kernel_t k_flag_release(void) { return DSM_KERNEL(pp_flag_release); }
static dsm_kernel_t k_flag_global(void) { return DSM_KERNEL(pp_flag_global); }

/* In the order of the chapter. Rows with a round count or a block size of
 * their own are variants of the deep dive's kernels (its 1000 round trips; one
 * warp instead of four, to see what the cluster barrier's thread count costs):
 * they do not compete for "best". */
static const pp_mechanism mechanisms[] = {
    {"seed_dsmem", "remote store + cluster barrier per hop (seed 000)", "DSMEM", k_seed_dsmem, 0, 0, 0},
    {"seed_gmem", "global store + __threadfence + cluster barrier per hop (seed 000)", "global", k_seed_global,
     1, 0, 0},
    {"seed_dsmem_1000", "seed 000 as published: DSMEM, 1000 round trips", "DSMEM", k_seed_dsmem, 0, SEED_ROUNDS, 0},
    {"seed_gmem_1000", "seed 000 as published: global, 1000 round trips", "global", k_seed_global, 1, SEED_ROUNDS, 0},
    {"seed_dsmem_1warp", "seed 000's DSMEM kernel, 32 threads per CTA", "DSMEM", k_seed_dsmem, 0, 0, 32},
    {"seed_gmem_1warp", "seed 000's global kernel, 32 threads per CTA", "global", k_seed_global, 1, 0, 32},
    {"mbar_arrive", "remote store + remote mbarrier arrive, parity wait", "DSMEM", k_mbar_arrive, 0, 0, 0},
    {"st_async", "st.async + mbarrier complete_tx, parity wait", "DSMEM", k_mbar_st_async, 0, 0, 0},
    {"flag_relaxed", "remote relaxed store, relaxed poll of own shared memory", "DSMEM", k_flag_relaxed, 0, 0, 0},
    {"flag_release", "remote release store, acquire poll of own shared memory", "DSMEM", k_flag_release, 0, 0, 0},
    {"flag_gmem", "global flag: st.release.gpu, ld.acquire.gpu poll", "global", k_flag_global, 1, 0, 0},
};
enum { MECHANISMS = sizeof mechanisms / sizeof mechanisms[0] };

/* Device buffers of one run, for a single cluster of 2 CTAs. */
typedef struct pp_buffers {
    uint32_t *first, *slots, *trace, *last;
    unsigned long long *cycles;
} pp_buffers;

/* 1 when err is success; otherwise a failed check named after the call. */
static int ok(bench *b, const char *key, const char *what, dsm_error_t err)
{
    if (err == dsmSuccess)
        return 1;
    bench_fail(b, "%s: %s failed: %s", key, what, dsm_error_name(err));
    return 0;
}

/* The token CTA `rank` receives in its receipt i when the first token is `first`. */
static uint32_t expected_token(uint32_t first, uint32_t rank, uint32_t i)
{
    return first + 2u * i + (1u - rank);
}

/* One launch of m with `rounds` round trips starting at token `first`,
 * recording every hop when trace is set. Checks last[] (and the trace) against
 * the tokens the contract says; returns 1 when right, with CTA 0's cycles and
 * the launch's event time in *cycles and *ms. */
static int launch_checked(bench *b, const pp_mechanism *m, const pp_buffers *d, const dsm_launch_config *cfg,
                          uint32_t rounds, uint32_t first, int with_trace, unsigned long long *cycles, double *ms)
{
    uint32_t *trace = with_trace ? d->trace : NULL;
    const uint32_t *first_arg = d->first;
    void *args_plain[] = {&first_arg, &rounds, &trace, (void *)&d->last, (void *)&d->cycles};
    void *args_slots[] = {&first_arg, &rounds, (void *)&d->slots, &trace, (void *)&d->last, (void *)&d->cycles};
    uint32_t last[2], poison[2] = {~first, ~first};
    unsigned long long cyc[2] = {0, 0};
    if (!ok(b, m->key, "dsm_memcpy_to_device", dsm_memcpy_to_device(d->first, &first, sizeof first)) ||
        !ok(b, m->key, "dsm_memcpy_to_device", dsm_memcpy_to_device(d->last, poison, sizeof poison)))
        return 0;
    dsm_error_t err = bench_time_launches(b, cfg, m->kernel(), m->with_slots ? args_slots : args_plain, 0, 1, ms);
    if (!ok(b, m->key, "launch", err) ||
        !ok(b, m->key, "dsm_memcpy_to_host", dsm_memcpy_to_host(last, d->last, sizeof last)) ||
        !ok(b, m->key, "dsm_memcpy_to_host", dsm_memcpy_to_host(cyc, d->cycles, sizeof cyc)))
        return 0;
    for (uint32_t r = 0; r < 2; ++r) {
        uint32_t want = expected_token(first, r, rounds - 1);
        if (last[r] != want) {
            bench_fail(b, "%s: rank %u's last token is %u, the contract says %u (%u round trips)", m->key, r,
                       last[r], want, rounds);
            return 0;
        }
    }
    if (with_trace) {
        uint32_t *got = malloc(2 * (size_t)rounds * sizeof *got);
        if (got == NULL) {
            bench_fail(b, "%s: out of host memory for the trace", m->key);
            return 0;
        }
        size_t bytes = 2 * (size_t)rounds * sizeof *got;
        int good = ok(b, m->key, "dsm_memcpy_to_host", dsm_memcpy_to_host(got, d->trace, bytes));
        for (uint32_t r = 0; good && r < 2; ++r)
            for (uint32_t i = 0; good && i < rounds; ++i)
                if (got[(size_t)r * rounds + i] != expected_token(first, r, i)) {
                    bench_fail(b, "%s: rank %u's receipt %u is %u, the token of that hop is %u", m->key, r, i,
                               got[(size_t)r * rounds + i], expected_token(first, r, i));
                    good = 0;
                }
        free(got);
        if (!good)
            return 0;
    }
    *cycles = cyc[0];
    return 1;
}

/* Checks m once with every hop recorded, then times it: one warm-up and
 * sz->repeats launches, each checked, each giving cycles per hop. */
static void measure(bench *b, const pp_sizes *sz, const pp_mechanism *m, const pp_buffers *d,
                    const dsm_launch_config *base, pp_result *res)
{
    dsm_launch_config launch = *base;
    const dsm_launch_config *cfg = &launch;
    if (m->threads)
        launch.block = DSM_DIM3(m->threads, 1, 1);
    uint32_t rounds = m->rounds ? m->rounds : sz->rounds;
    if (bench_dry(b) && rounds > sz->rounds)
        rounds = sz->rounds;
    uint32_t check_rounds = sz->check_rounds < rounds ? sz->check_rounds : rounds;
    double cycles[MAX_REPEATS], event_ns[MAX_REPEATS], ms = 0;
    unsigned long long cyc = 0;
    res->rounds = rounds;
    res->measured = 0;
    if (!ok(b, m->key, "dsm_func_set_max_dynamic_smem",
            dsm_func_set_max_dynamic_smem(m->kernel(), (int)cfg->dynamic_smem_bytes)))
        return;
    /* check: every hop of a shorter run, then the warm-up (its last token checked too) */
    if (!launch_checked(b, m, d, cfg, check_rounds, 0x9e3779b9u, 1, &cyc, &ms) ||
        !launch_checked(b, m, d, cfg, rounds, 0x12345678u, 0, &cyc, &ms))
        return;
    for (int r = 0; r < sz->repeats; ++r) {
        uint32_t first = 0x1000u * (uint32_t)(r + 1) + 0xabcu; /* a new token each time: stale ones fail */
        if (!launch_checked(b, m, d, cfg, rounds, first, 0, &cyc, &ms))
            return;
        cycles[r] = (double)cyc / (2.0 * rounds);
        event_ns[r] = ms * 1e6 / (2.0 * rounds);
    }
    res->cycles = bench_stats_of(cycles, sz->repeats);
    res->event_ns = bench_stats_of(event_ns, sz->repeats);
    res->measured = 1;
}

/* The lowest median among the measured mechanisms of one path (variants aside); -1 if none. */
static int best_of(const pp_result *res, const char *path)
{
    int best = -1;
    for (int i = 0; i < MECHANISMS; ++i) {
        if (!res[i].measured || strcmp(mechanisms[i].path, path) != 0 || mechanisms[i].rounds != 0 ||
            mechanisms[i].threads != 0)
            continue;
        if (best < 0 || res[i].cycles.median < res[best].cycles.median)
            best = i;
    }
    return best;
}

static int index_of(const char *key)
{
    for (int i = 0; i < MECHANISMS; ++i)
        if (strcmp(mechanisms[i].key, key) == 0)
            return i;
    return -1;
}

static void write_results(bench *b, const pp_sizes *sz, const pp_result *res)
{
    double mhz = bench_sm_clock_mhz(b);
    bench_csv *csv = bench_csv_open(b, "ch05_pingpong",
                                    "mechanism,path,label,round_trips,threads,cycles_per_hop,min_cycles_per_hop,"
                                    "max_cycles_per_hop,repeats,event_ns_per_hop,clock_mhz_from_events");
    bench_report(b, "## Ping-pong: one hop between two CTAs (chapter 5, `ch05_pingpong`)\n\n"
                    "One cluster of 2 CTAs of %d threads (32 where a row says so), each CTA on an SM of its "
                    "own (%zu bytes of dynamic shared memory each); thread 0 of each CTA passes a token back "
                    "and forth. Cycles per hop: "
                    "CTA 0's `clock64` over its loop / hops, median (min-max) of %d launches after a warm-up; "
                    "every launch's last tokens checked, and one shorter launch per mechanism checked hop by hop. "
                    "Events: CUDA event time of the same launches / hops (includes the launch); cycles / event "
                    "time gives the SM clock the kernel really ran at.%s\n\n"
                    "| mechanism | path | round trips | cycles per hop | min | max | ns (clock64 at %.0f MHz) | ns "
                    "(events) | MHz (cycles / events) |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
                 THREADS, sz->spread_bytes, sz->repeats,
                 bench_dry(b) ? " (Dry run: the cycle counter and the clock are the emulator's and mean nothing.)"
                              : "",
                 mhz);
    for (int i = 0; i < MECHANISMS; ++i) {
        const pp_mechanism *m = &mechanisms[i];
        const pp_result *r = &res[i];
        if (!r->measured) {
            bench_report(b, "| %s | %s | %u | failed | | | | | |\n", m->label, m->path, r->rounds);
            continue;
        }
        /* cycles per ns is GHz: the SM clock during the launch (the launch's own overhead is a
         * few microseconds of the milliseconds timed) */
        double run_mhz = r->event_ns.median > 0 ? 1e3 * r->cycles.median / r->event_ns.median : 0.0;
        bench_csv_row(csv, "\"%s\",\"%s\",\"%s\",%u,%d,%.2f,%.2f,%.2f,%d,%.2f,%.0f", m->key, m->path, m->label,
                      r->rounds, m->threads ? (int)m->threads : THREADS, r->cycles.median, r->cycles.min,
                      r->cycles.max, r->cycles.n, r->event_ns.median, run_mhz);
        char key[96];
        snprintf(key, sizeof key, "pingpong_cycles_per_hop.%s", m->key);
        bench_summary_number(b, key, r->cycles.median);
        bench_report(b, "| %s | %s | %u | %.1f | %.1f | %.1f | %.1f | %.1f | %.0f |\n", m->label, m->path,
                     r->rounds, r->cycles.median, r->cycles.min, r->cycles.max,
                     mhz > 0 ? 1e3 * r->cycles.median / mhz : 0.0, r->event_ns.median, run_mhz);
    }
    bench_csv_close(csv);

    int sd = index_of("seed_dsmem_1000"), sg = index_of("seed_gmem_1000");
    bench_report(b, "\nSeed 000 on an H100 PCIe (1000 round trips): DSMEM %.1f, global memory %.1f cycles per hop, "
                    "%.2fx.",
                 SEED_DSMEM_CYCLES, SEED_GMEM_CYCLES, SEED_GMEM_CYCLES / SEED_DSMEM_CYCLES);
    if (res[sd].measured && res[sg].measured)
        bench_report(b, " The same kernels here: %.1f and %.1f cycles, %.2fx.", res[sd].cycles.median,
                     res[sg].cycles.median, res[sg].cycles.median / res[sd].cycles.median);
    int bd = best_of(res, "DSMEM"), bg = best_of(res, "global");
    if (bd >= 0) {
        bench_summary_number(b, "pingpong_dsmem_cycles_per_hop_best", res[bd].cycles.median);
        bench_report(b, " Best DSMEM hop: %s, %.1f cycles (min %.1f).", mechanisms[bd].label,
                     res[bd].cycles.median, res[bd].cycles.min);
    }
    if (bg >= 0) {
        bench_summary_number(b, "pingpong_gmem_cycles_per_hop_best", res[bg].cycles.median);
        bench_report(b, " Best global-memory hop: %s, %.1f cycles.", mechanisms[bg].label, res[bg].cycles.median);
    }
    if (bd >= 0) {
        int below = 0;
        for (int i = 0; i < MECHANISMS; ++i)
            below += res[i].measured && res[i].cycles.median < 360.0;
        bench_report(b, " Below 360 cycles per hop (the floor of the reference probe on an H200): %s.",
                     below ? "yes, see the table" : "no mechanism");
        bench_summary_number(b, "pingpong_mechanisms_below_360_cycles", below);
    }
    if (bd >= 0 && bg >= 0) {
        double ratio = res[bg].cycles.median / res[bd].cycles.median;
        bench_summary_number(b, "pingpong_best_gmem_over_dsmem", ratio);
        bench_report(b, " Best against best: DSMEM %.2fx faster than global memory (target on an H200: at least "
                        "2.7x; the seed's 1.93x).",
                     ratio);
    }
    bench_report(b, "\n\n");
}

int bench_family_ch05_pingpong(bench *b)
{
    pp_sizes sz = bench_dry(b) ? dry_sizes : bench_quick(b) ? quick_sizes : full_sizes;
    if (!bench_dry(b)) {
        /* more than half an SM's shared memory: the two CTAs cannot share an SM */
        size_t half = bench_smem_per_sm(b) / 2 + 1024, optin = bench_smem_per_block_optin(b);
        sz.spread_bytes = half <= optin ? half : optin;
    }
    pp_result res[MECHANISMS];
    memset(res, 0, sizeof res);
    pp_buffers d = {0};
    int good = ok(b, "buffers", "dsm_malloc", dsm_malloc((void **)&d.first, sizeof(uint32_t))) &&
               ok(b, "buffers", "dsm_malloc", dsm_malloc((void **)&d.slots, 2 * sizeof(uint32_t))) &&
               ok(b, "buffers", "dsm_malloc",
                  dsm_malloc((void **)&d.trace, 2 * (size_t)sz.check_rounds * sizeof(uint32_t))) &&
               ok(b, "buffers", "dsm_malloc", dsm_malloc((void **)&d.last, 2 * sizeof(uint32_t))) &&
               ok(b, "buffers", "dsm_malloc", dsm_malloc((void **)&d.cycles, 2 * sizeof(unsigned long long))) &&
               ok(b, "buffers", "dsm_memset", dsm_memset(d.slots, 0, 2 * sizeof(uint32_t)));
    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(THREADS, 1, 1), DSM_DIM3(2, 1, 1), sz.spread_bytes};
    for (int i = 0; good && i < MECHANISMS; ++i) {
        uint32_t rounds = mechanisms[i].rounds && !bench_dry(b) ? mechanisms[i].rounds : sz.rounds;
        bench_progress(b, "%s (%u round trips)", mechanisms[i].key, rounds);
        measure(b, &sz, &mechanisms[i], &d, &cfg, &res[i]);
    }
    write_results(b, &sz, res);
    dsm_free(d.first);
    dsm_free(d.slots);
    dsm_free(d.trace);
    dsm_free(d.last);
    dsm_free(d.cycles);
    int failed = !good;
    for (int i = 0; i < MECHANISMS; ++i)
        failed |= !res[i].measured;
    return failed;
}
