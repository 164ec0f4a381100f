/* ch05_pingpong.c: the ping-pong token of chapter 5: SM cycles per hop between two CTAs of a cluster for every signalling mechanism and its global-memory twin, in three harnesses, with each like-for-like pair's ratio. */
// bench-kernels: ch05/pingpong_seed.cu ch05/pingpong_mbarrier.cu ch05/pingpong_flags.cu
// bench-own-kernels: bench/kernels/ch05_pingpong_probe.cu
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dsm_emu_control.h"

DSM_DECLARE_KERNEL(pp_seed_dsmem);
DSM_DECLARE_KERNEL(pp_seed_global);
DSM_DECLARE_KERNEL(pp_mbar_arrive);
DSM_DECLARE_KERNEL(pp_mbar_st_async);
DSM_DECLARE_KERNEL(pp_flag_relaxed);
DSM_DECLARE_KERNEL(pp_flag_release);
DSM_DECLARE_KERNEL(pp_flag_global);
DSM_DECLARE_KERNEL(pp_flag_global_relaxed);
DSM_DECLARE_KERNEL(ppp_seed_dsmem);
DSM_DECLARE_KERNEL(ppp_seed_gmem);
DSM_DECLARE_KERNEL(ppp_mbar_arrive);
DSM_DECLARE_KERNEL(ppp_st_async);
DSM_DECLARE_KERNEL(ppp_flag_relaxed);
DSM_DECLARE_KERNEL(ppp_flag_release);
DSM_DECLARE_KERNEL(ppp_flag_gmem_relaxed);
DSM_DECLARE_KERNEL(ppp_flag_gmem_release);

/* Summary keys the driver must know (bench.h): the bests and every like-for-like pair are headlines;
 * the source document's figures (an H100 PCIe) beside them. */
const bench_key_info bench_keys_ch05_pingpong[] = {
    {"pingpong_dsmem_cycles_per_hop_best", 1, "736.1 cycles (store + cluster.sync per hop)"},
    {"pingpong_gmem_cycles_per_hop_best", 1, "1419.2 cycles (st.global + __threadfence)"},
    {"pingpong_pair_gmem_over_dsmem.", 1, NULL},
    {"pingpong_cycles_per_hop.seed_dsmem_1000", 0, "736.1 cycles"},
    {"pingpong_cycles_per_hop.seed_gmem_1000", 0, "1419.2 cycles"},
    {"pingpong_best_gmem_over_dsmem", 0, "1.93 (its two kernels)"},
    {NULL, 0, NULL},
};

enum {
    THREADS = 128,      /* per CTA in the course harness, as in the deep dive's benchmark; thread 0 plays */
    MAX_REPEATS = 16,
    SEED_ROUNDS = 1000, /* the deep dive's count: 1000 round trips, 2000 hops */
    CYCLES_FLOOR = 360  /* the reference probe's lowest hop on an H200 (bench/results/anchors/h200-anchors.md) */
};

/* The deep dive's figures (seed 000, NVIDIA H100 PCIe, 1000 round trips). */
static const double SEED_DSMEM_CYCLES = 736.1, SEED_GMEM_CYCLES = 1419.2;

/* How long each configuration runs. */
typedef struct pp_sizes {
    uint32_t rounds;       /* round trips per timed launch, course harness */
    uint32_t rounds_other; /* ... in the other two harnesses */
    uint32_t check_rounds; /* round trips of the checked launch that records every hop */
    int repeats;           /* timed launches after one warm-up, course harness */
    int repeats_other;     /* ... in the other two */
    size_t spread_bytes;   /* dynamic shared memory per CTA: more than half an SM's, so that the two
                            * CTAs of the cluster sit on different SMs and every hop crosses */
} pp_sizes;

static const pp_sizes full_sizes = {20000, 10000, 1000, 9, 5, 0};
static const pp_sizes quick_sizes = {5000, 5000, 1000, 5, 3, 0};
static const pp_sizes dry_sizes = {5, 5, 4, 2, 2, 4096};

/* How a mechanism's token travels, for the dry run's check that every hop happened. */
typedef enum pp_channel {
    VIA_DSMEM_STORE, /* a store into the peer's shared memory (plain, st.shared::cluster or a flag) */
    VIA_ST_ASYNC,    /* st.async into the peer's shared memory */
    VIA_GLOBAL       /* a store into global memory */
} pp_channel;

/* One signalling mechanism: its kernel in the course (the exercise) and in the probe harness. */
typedef struct pp_mechanism {
    const char *key;   /* pingpong_cycles_per_hop.<key>[_1warp|_probe] */
    const char *label; /* the report's words */
    const char *path;  /* "DSMEM" or "global" */
    dsm_kernel_t (*course)(void);
    dsm_kernel_t (*probe)(void);
    int with_slots;           /* takes the global-memory slots */
    pp_channel channel;
    int barrier_per_hop;      /* meets at a cluster barrier on every hop */
    int mbarrier_per_receipt; /* completes one phase of the receiver's mbarrier per receipt */
    const char *kernel_name;  /* the exercise's kernel, and its exercise (failure messages say whose work failed) */
    const char *exercise;
} pp_mechanism;

static dsm_kernel_t k_seed_dsmem(void) { return DSM_KERNEL(pp_seed_dsmem); }
static dsm_kernel_t k_seed_global(void) { return DSM_KERNEL(pp_seed_global); }
static dsm_kernel_t k_mbar_arrive(void) { return DSM_KERNEL(pp_mbar_arrive); }
static dsm_kernel_t k_mbar_st_async(void) { return DSM_KERNEL(pp_mbar_st_async); }
static dsm_kernel_t k_flag_relaxed(void) { return DSM_KERNEL(pp_flag_relaxed); }
static dsm_kernel_t k_flag_release(void) { return DSM_KERNEL(pp_flag_release); }
static dsm_kernel_t k_flag_global(void) { return DSM_KERNEL(pp_flag_global); }
static dsm_kernel_t k_flag_global_relaxed(void) { return DSM_KERNEL(pp_flag_global_relaxed); }
static dsm_kernel_t p_seed_dsmem(void) { return DSM_KERNEL(ppp_seed_dsmem); }
static dsm_kernel_t p_seed_gmem(void) { return DSM_KERNEL(ppp_seed_gmem); }
static dsm_kernel_t p_mbar_arrive(void) { return DSM_KERNEL(ppp_mbar_arrive); }
static dsm_kernel_t p_st_async(void) { return DSM_KERNEL(ppp_st_async); }
static dsm_kernel_t p_flag_relaxed(void) { return DSM_KERNEL(ppp_flag_relaxed); }
static dsm_kernel_t p_flag_release(void) { return DSM_KERNEL(ppp_flag_release); }
static dsm_kernel_t p_flag_gmem_relaxed(void) { return DSM_KERNEL(ppp_flag_gmem_relaxed); }
static dsm_kernel_t p_flag_gmem_release(void) { return DSM_KERNEL(ppp_flag_gmem_release); }

/* In the order of the chapter; each global-memory twin right after its DSMEM partner. */
static const pp_mechanism mechanisms[] = {
    {"seed_dsmem", "remote store + cluster barrier per hop (seed 000)", "DSMEM", k_seed_dsmem, p_seed_dsmem, 0,
     VIA_DSMEM_STORE, 1, 0, "pp_seed_dsmem", "ch05.pingpong_seed"},
    {"seed_gmem", "global store + __threadfence + cluster barrier per hop (seed 000)", "global", k_seed_global,
     p_seed_gmem, 1, VIA_GLOBAL, 1, 0, "pp_seed_global", "ch05.pingpong_seed"},
    {"flag_relaxed", "flag, relaxed: remote st.relaxed.cluster, poll of own shared memory", "DSMEM",
     k_flag_relaxed, p_flag_relaxed, 0, VIA_DSMEM_STORE, 0, 0, "pp_flag_relaxed", "ch05.pingpong_flags"},
    {"flag_gmem_relaxed", "flag, relaxed: st.relaxed.gpu into the peer's slot, ld.relaxed.gpu poll", "global",
     k_flag_global_relaxed, p_flag_gmem_relaxed, 1, VIA_GLOBAL, 0, 0, "pp_flag_global_relaxed", "ch05.pingpong_flags"},
    {"flag_release", "flag, release/acquire: remote st.release.cluster, ld.acquire.cluster poll", "DSMEM",
     k_flag_release, p_flag_release, 0, VIA_DSMEM_STORE, 0, 0, "pp_flag_release", "ch05.pingpong_flags"},
    {"flag_gmem_release", "flag, release/acquire: st.release.gpu into the peer's slot, ld.acquire.gpu poll",
     "global", k_flag_global, p_flag_gmem_release, 1, VIA_GLOBAL, 0, 0, "pp_flag_global", "ch05.pingpong_flags"},
    {"st_async", "st.async + mbarrier complete_tx, parity wait (DSMEM only)", "DSMEM", k_mbar_st_async, p_st_async,
     0, VIA_ST_ASYNC, 0, 1, "pp_mbar_st_async", "ch05.pingpong_mbarrier"},
    {"mbar_arrive", "remote store + remote mbarrier arrive, parity wait (DSMEM only)", "DSMEM", k_mbar_arrive,
     p_mbar_arrive, 0, VIA_DSMEM_STORE, 0, 1, "pp_mbar_arrive", "ch05.pingpong_mbarrier"},
};
enum { MECHANISMS = sizeof mechanisms / sizeof mechanisms[0] };

/* A like-for-like pair: the same signal, once through DSMEM and once through global memory. */
typedef struct pp_pair {
    const char *key, *what, *dsmem, *gmem;
} pp_pair;
static const pp_pair pairs[] = {
    {"barrier", "cluster barrier per hop (the seed's design)", "seed_dsmem", "seed_gmem"},
    {"relaxed", "relaxed flag", "flag_relaxed", "flag_gmem_relaxed"},
    {"release", "release/acquire flag", "flag_release", "flag_gmem_release"},
};
enum { PAIRS = sizeof pairs / sizeof pairs[0] };

/* A harness: how the mechanisms are driven. The course harness is the exercises' kernels at the
 * deep dive's 128 threads; the same kernels with one warp; and the benchmark's own probe kernels
 * (bench/kernels/ch05_pingpong_probe.cu) with one warp. */
enum { H_COURSE, H_1WARP, H_PROBE, HARNESSES };
static const struct {
    const char *key, *suffix, *label;
    uint32_t threads;
    int probe;
} harnesses[HARNESSES] = {
    {"course", "", "exercise kernels, 128 threads", THREADS, 0},
    {"course_1warp", "_1warp", "exercise kernels, 32 threads", 32, 0},
    {"probe", "_probe", "probe kernels, 32 threads", 32, 1},
};

/* What one configuration measured. */
typedef struct pp_result {
    int measured;
    uint32_t rounds;
    bench_stats cycles;   /* per hop, CTA 0's clock64 over its loop / hops */
    bench_stats event_ns; /* per hop, CUDA events around the launch (includes the launch) */
} pp_result;

/* Device buffers of one run, for a single cluster of 2 CTAs. */
typedef struct pp_buffers {
    uint32_t *first, *slots, *trace, *last;
    unsigned long long *cycles;
} pp_buffers;

/* One configuration: a mechanism in a harness, with its launch and its name. */
typedef struct pp_config {
    const pp_mechanism *m;
    int harness;
    uint32_t rounds;
    int repeats;
    char key[64];  /* its summary key and CSV name, e.g. flag_relaxed_probe */
    char who[160]; /* the kernel and whose it is, for failure messages */
    char kernel[64]; /* its DSM_KERNEL_ENTRY name: what a failed check fails */
} pp_config;

/* 1 when err is success; otherwise a failed check named after the call, which fails `kernel` (NULL: none). */
static int ok(bench *b, const char *kernel, const char *key, const char *what, dsm_error_t err)
{
    if (err == dsmSuccess)
        return 1;
    if (kernel != NULL)
        bench_fail_kernel(b, kernel, "%s: %s failed: %s", key, what, dsm_error_name(err));
    else
        bench_fail(b, "%s: %s failed: %s", key, what, dsm_error_name(err));
    return 0;
}

/* The token CTA `rank` receives in its receipt i when the first token is `first`. */
static uint32_t expected_token(uint32_t first, uint32_t rank, uint32_t i)
{
    return first + 2u * i + (1u - rank);
}

/* The index of mechanism `key` in mechanisms[]. */
static int index_of_mechanism(const char *key)
{
    for (int i = 0; i < MECHANISMS; ++i)
        if (strcmp(mechanisms[i].key, key) == 0)
            return i;
    return 0; /* not reached: every pair names mechanisms of the table */
}

static dsm_kernel_t kernel_of(const pp_config *c)
{
    return harnesses[c->harness].probe ? c->m->probe() : c->m->course();
}

/* Hops that CTA 0's cycles cover: the probe starts its clock after the first round trip. */
static double timed_hops(const pp_config *c, uint32_t rounds)
{
    return harnesses[c->harness].probe ? 2.0 * (rounds - 1) : 2.0 * rounds;
}

/* Stores of CTA `block` into a peer's shared memory and into the global slots in the emulator's last
 * launch, counted every way the mechanism counters see them (plain and volatile stores by bytes,
 * the flag functions by operation; an access counted twice only weakens a lower bound). */
static void delivered(uint32_t block, const uint32_t *slots, uint64_t *into_peer, uint64_t *async_bytes,
                      uint64_t *into_global, dsm_emu_counts *c)
{
    dsm_emu_gmem_use use;
    dsm_emu_last_counts(block, c);
    dsm_emu_last_gmem_use(block, slots, &use);
    *into_peer = c->dsmem_st_ops;
    *into_global = use.st_bytes / 4u; /* trace, last and cycles are other buffers */
    for (int sem = 0; sem < DSM_FLAG_SEM_COUNT; ++sem)
        for (int scope = 0; scope < DSM_FLAG_SCOPE_COUNT; ++scope) {
            *into_peer += c->flags[DSM_FLAG_STORE][sem][scope][DSM_FLAG_PEER_SMEM];
            *into_global += c->flags[DSM_FLAG_STORE][sem][scope][DSM_FLAG_GLOBAL];
        }
    *async_bytes = c->async_out_bytes;
}

/* Dry run only: the emulator's mechanism counters of the checked launch say that every hop really
 * happened (each CTA sent `rounds` tokens through the mechanism's channel, met at the barrier of
 * every hop, completed a phase per receipt). A kernel that computes its tokens instead of receiving
 * them passes the token check and fails here. (The dry run builds every kernel with the emulator's
 * instrumentation of plain accesses, as the tests do, so plain stores count too.) */
static int hops_happened(bench *b, const pp_config *c, const pp_buffers *d, uint32_t rounds)
{
    dsm_emu_counts cnt;
    if (!bench_dry(b) || !dsm_emu_last_counts(0, &cnt))
        return 1;
    for (uint32_t block = 0; block < 2; ++block) {
        uint64_t peer, async_bytes, global;
        delivered(block, d->slots, &peer, &async_bytes, &global, &cnt);
        const char *what = NULL;
        uint64_t seen = 0, want = rounds;
        if (c->m->channel == VIA_DSMEM_STORE && peer < rounds)
            what = "stores into the peer's shared memory", seen = peer;
        else if (c->m->channel == VIA_ST_ASYNC && async_bytes < 4ull * rounds)
            what = "st.async bytes into the peer", seen = async_bytes, want = 4ull * rounds;
        else if (c->m->channel == VIA_GLOBAL && global < rounds)
            what = "stores into the global slots", seen = global;
        else if (c->m->barrier_per_hop && cnt.cluster_waits_min < 2u * rounds)
            what = "cluster-barrier waits of its least busy thread", seen = cnt.cluster_waits_min, want = 2u * rounds;
        else if (c->m->barrier_per_hop && c->m->channel == VIA_GLOBAL && cnt.fences < rounds)
            what = "fences (__threadfence)", seen = cnt.fences;
        else if (c->m->mbarrier_per_receipt && cnt.mbarrier_phases < rounds)
            what = "phases of its mbarrier", seen = cnt.mbarrier_phases;
        if (what) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u made %llu %s in %u round trips, at least %llu if every hop happened "
                          "(emulator's mechanism counters)",
                       c->who, block, (unsigned long long)seen, what, rounds, (unsigned long long)want);
            return 0;
        }
    }
    return 1;
}

/* One launch of c with `rounds` round trips starting at token `first`, recording every hop when
 * with_trace. Checks last[] (and the trace) against the tokens the contract says; returns 1 when
 * right, with CTA 0's cycles and the launch's event time in *cycles and *ms. */
static int launch_checked(bench *b, const pp_config *c, const pp_buffers *d, const dsm_launch_config *cfg,
                          uint32_t rounds, uint32_t first, int with_trace, unsigned long long *cycles, double *ms)
{
    uint32_t *trace = with_trace ? d->trace : NULL;
    const uint32_t *first_arg = d->first;
    void *args_plain[] = {&first_arg, &rounds, &trace, (void *)&d->last, (void *)&d->cycles};
    void *args_slots[] = {&first_arg, &rounds, (void *)&d->slots, &trace, (void *)&d->last, (void *)&d->cycles};
    uint32_t last[2], poison[2] = {~first, ~first};
    unsigned long long cyc[2] = {0, 0};
    if (!ok(b, c->kernel, c->who, "dsm_memcpy_to_device", dsm_memcpy_to_device(d->first, &first, sizeof first)) ||
        !ok(b, c->kernel, c->who, "dsm_memcpy_to_device", dsm_memcpy_to_device(d->last, poison, sizeof poison)))
        return 0;
    dsm_error_t err =
        bench_time_launches(b, cfg, kernel_of(c), c->m->with_slots ? args_slots : args_plain, 0, 1, ms);
    if (!ok(b, c->kernel, c->who, "launch", err) ||
        !ok(b, c->kernel, c->who, "dsm_memcpy_to_host", dsm_memcpy_to_host(last, d->last, sizeof last)) ||
        !ok(b, c->kernel, c->who, "dsm_memcpy_to_host", dsm_memcpy_to_host(cyc, d->cycles, sizeof cyc)))
        return 0;
    for (uint32_t r = 0; r < 2; ++r) {
        uint32_t want = expected_token(first, r, rounds - 1);
        if (last[r] != want) {
            bench_fail_kernel(b, c->kernel, "%s: rank %u's last token is %u, the contract says %u (%u round trips)", c->who, r,
                       last[r], want, rounds);
            return 0;
        }
    }
    if (with_trace) {
        uint32_t *got = malloc(2 * (size_t)rounds * sizeof *got);
        if (got == NULL) {
            bench_fail_kernel(b, c->kernel, "%s: out of host memory for the trace", c->who);
            return 0;
        }
        size_t bytes = 2 * (size_t)rounds * sizeof *got;
        int good = ok(b, c->kernel, c->who, "dsm_memcpy_to_host", dsm_memcpy_to_host(got, d->trace, bytes));
        for (uint32_t r = 0; good && r < 2; ++r)
            for (uint32_t i = 0; good && i < rounds; ++i)
                if (got[(size_t)r * rounds + i] != expected_token(first, r, i)) {
                    bench_fail_kernel(b, c->kernel, "%s: rank %u's receipt %u is %u, the token of that hop is %u", c->who, r, i,
                               got[(size_t)r * rounds + i], expected_token(first, r, i));
                    good = 0;
                }
        free(got);
        if (!good || !hops_happened(b, c, d, rounds))
            return 0;
    }
    *cycles = cyc[0];
    return 1;
}

/* Checks c once with every hop recorded, then times it: one warm-up and c->repeats launches, each
 * checked (a new first token each time: a stale one fails), each giving cycles per hop. */
static void measure(bench *b, const pp_sizes *sz, const pp_config *c, const pp_buffers *d,
                    const dsm_launch_config *base, pp_result *res)
{
    dsm_launch_config cfg = *base;
    cfg.block = DSM_DIM3(harnesses[c->harness].threads, 1, 1);
    uint32_t check_rounds = sz->check_rounds < c->rounds ? sz->check_rounds : c->rounds;
    double cycles[MAX_REPEATS], event_ns[MAX_REPEATS], ms = 0;
    unsigned long long cyc = 0;
    res->rounds = c->rounds;
    res->measured = 0;
    if (!ok(b, c->kernel, c->who, "dsm_func_set_max_dynamic_smem",
            dsm_func_set_max_dynamic_smem(kernel_of(c), (int)cfg.dynamic_smem_bytes)))
        return;
    if (!launch_checked(b, c, d, &cfg, check_rounds, 0x9e3779b9u, 1, &cyc, &ms) ||
        !launch_checked(b, c, d, &cfg, c->rounds, 0x12345678u, 0, &cyc, &ms))
        return;
    for (int r = 0; r < c->repeats; ++r) {
        uint32_t first = 0x1000u * (uint32_t)(r + 1) + 0xabcu;
        if (!launch_checked(b, c, d, &cfg, c->rounds, first, 0, &cyc, &ms))
            return;
        cycles[r] = (double)cyc / timed_hops(c, c->rounds);
        event_ns[r] = ms * 1e6 / (2.0 * c->rounds);
    }
    res->cycles = bench_stats_of(cycles, c->repeats);
    res->event_ns = bench_stats_of(event_ns, c->repeats);
    res->measured = 1;
}

/* The run's configurations: every mechanism in every harness, then the seed's two kernels at its
 * own 1000 round trips (course harness). Returns how many. */
static int configurations(const pp_sizes *sz, int dry, pp_config *out)
{
    int n = 0;
    for (int h = 0; h < HARNESSES; ++h)
        for (int i = 0; i < MECHANISMS; ++i) {
            pp_config *c = &out[n++];
            c->m = &mechanisms[i];
            c->harness = h;
            c->rounds = h == H_COURSE ? sz->rounds : sz->rounds_other;
            c->repeats = h == H_COURSE ? sz->repeats : sz->repeats_other;
            snprintf(c->key, sizeof c->key, "%s%s", mechanisms[i].key, harnesses[h].suffix);
            if (harnesses[h].probe) {
                snprintf(c->who, sizeof c->who, "%s (the benchmark's probe kernel ppp_%s)", c->key, mechanisms[i].key);
                snprintf(c->kernel, sizeof c->kernel, "ppp_%s", mechanisms[i].key);
            } else {
                snprintf(c->who, sizeof c->who, "%s (%s, exercise %s)", c->key, mechanisms[i].kernel_name,
                         mechanisms[i].exercise);
                snprintf(c->kernel, sizeof c->kernel, "%s", mechanisms[i].kernel_name);
            }
        }
    for (int i = 0; i < 2; ++i) {
        pp_config *c = &out[n++];
        c->m = &mechanisms[i]; /* seed_dsmem, seed_gmem */
        c->harness = H_COURSE;
        c->rounds = dry ? sz->rounds : SEED_ROUNDS;
        c->repeats = sz->repeats;
        snprintf(c->key, sizeof c->key, "%s_1000", mechanisms[i].key);
        snprintf(c->who, sizeof c->who, "%s (%s, exercise %s)", c->key, mechanisms[i].kernel_name,
                 mechanisms[i].exercise);
        snprintf(c->kernel, sizeof c->kernel, "%s", mechanisms[i].kernel_name);
    }
    return n;
}

/* The configuration of mechanism `key` in harness h (not the 1000-round variants); -1 if none. */
static int config_index(const pp_config *cfgs, int n, const char *key, int h)
{
    for (int i = 0; i < n; ++i)
        if (cfgs[i].harness == h && strcmp(cfgs[i].m->key, key) == 0 && strstr(cfgs[i].key, "_1000") == NULL)
            return i;
    return -1;
}

/* "median (min-max)" or "failed". */
static const char *cell(char *buf, size_t size, const pp_result *r)
{
    if (!r->measured)
        snprintf(buf, size, "failed");
    else
        snprintf(buf, size, "%.1f (%.1f-%.1f)", r->cycles.median, r->cycles.min, r->cycles.max);
    return buf;
}

/* The lowest median among the measured mechanisms of one path in harness h; -1 if none. */
static int best_of(const pp_config *cfgs, const pp_result *res, int n, const char *path, int h)
{
    int best = -1;
    for (int i = 0; i < n; ++i) {
        if (!res[i].measured || cfgs[i].harness != h || strstr(cfgs[i].key, "_1000") ||
            strcmp(cfgs[i].m->path, path) != 0)
            continue;
        if (best < 0 || res[i].cycles.median < res[best].cycles.median)
            best = i;
    }
    return best;
}

static void write_csv(bench *b, const pp_config *cfgs, const pp_result *res, int n)
{
    /* columns 5-15 as before the harnesses existed (the plot reads them), harness and mechanism after */
    bench_csv *csv = bench_csv_open(b, "ch05_pingpong",
                                    "mechanism,path,label,round_trips,threads,cycles_per_hop,min_cycles_per_hop,"
                                    "max_cycles_per_hop,repeats,event_ns_per_hop,clock_mhz_from_events,harness,"
                                    "base_mechanism");
    for (int i = 0; i < n; ++i) {
        const pp_result *r = &res[i];
        if (!r->measured)
            continue; /* a failed row has no numbers at all */
        /* cycles per ns is GHz: the SM clock during the launch (the launch's own overhead is a few
         * microseconds of the milliseconds timed; the probe's cycles leave out its first round trip) */
        double run_mhz = r->event_ns.median > 0 ? 1e3 * r->cycles.median / r->event_ns.median : 0.0;
        bench_csv_row(csv, "\"%s\",\"%s\",\"%s\",%u,%u,%.2f,%.2f,%.2f,%d,%.2f,%.0f,\"%s\",\"%s\"", cfgs[i].key,
                      cfgs[i].m->path, cfgs[i].m->label, r->rounds, harnesses[cfgs[i].harness].threads,
                      r->cycles.median, r->cycles.min, r->cycles.max, r->cycles.n, r->event_ns.median, run_mhz,
                      harnesses[cfgs[i].harness].key, cfgs[i].m->key);
        char key[96];
        snprintf(key, sizeof key, "pingpong_cycles_per_hop.%s", cfgs[i].key);
        bench_summary_number(b, key, r->cycles.median);
    }
    bench_csv_close(csv);
}

/* Table 1: every mechanism in every harness (median and min-max), "failed" where a check failed. */
static void report_mechanisms(bench *b, const pp_sizes *sz, const pp_config *cfgs, const pp_result *res, int n)
{
    double mhz = bench_sm_clock_mhz(b);
    bench_report(b,
                 "## Ping-pong: one hop between two CTAs (chapter 5, `ch05_pingpong`)\n\n"
                 "One cluster of 2 CTAs, each on an SM of its own (%zu bytes of dynamic shared memory each); "
                 "thread 0 of each CTA passes a token back and forth, every receiver sends on what it received "
                 "plus one. Cycles per hop: CTA 0's `clock64` over its loop / hops, median (min-max) of %d "
                 "launches after a warm-up (%d in the other two harnesses), %u round trips per launch (%u); "
                 "every launch's last tokens checked, and one shorter launch per row checked hop by hop%s. "
                 "Three harnesses: **course** = the exercises' kernels at the deep dive's 128 threads; "
                 "**1 warp** = the same kernels with 32 threads; **probe** = the benchmark's own kernels "
                 "(`bench/kernels/ch05_pingpong_probe.cu`: one round trip per iteration in straight-line code, "
                 "a poll for the exact token expected, the clock started after the first round trip), 32 "
                 "threads. A row that failed a check says \"failed\" and has no number anywhere.%s\n\n"
                 "| mechanism | path | course | 1 warp | probe | course, ns at %.0f MHz | course, ns (events) |\n"
                 "|---|---|---:|---:|---:|---:|---:|\n",
                 sz->spread_bytes, sz->repeats, sz->repeats_other, sz->rounds, sz->rounds_other,
                 bench_dry(b) ? " (in this dry run also the emulator's counts of the stores, barriers and "
                                "mbarrier phases every hop needs)"
                              : "",
                 bench_dry(b) ? " (Dry run: the cycle counter and the clock are the emulator's and mean nothing.)"
                              : "",
                 mhz);
    for (int i = 0; i < MECHANISMS; ++i) {
        char c0[64], c1[64], c2[64];
        int ix[HARNESSES];
        for (int h = 0; h < HARNESSES; ++h)
            ix[h] = config_index(cfgs, n, mechanisms[i].key, h);
        const pp_result *rc = &res[ix[H_COURSE]];
        char ns[32] = "", ev[32] = "";
        if (rc->measured) {
            snprintf(ns, sizeof ns, "%.1f", mhz > 0 ? 1e3 * rc->cycles.median / mhz : 0.0);
            snprintf(ev, sizeof ev, "%.1f", rc->event_ns.median);
        }
        bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", mechanisms[i].label, mechanisms[i].path,
                     cell(c0, sizeof c0, rc), cell(c1, sizeof c1, &res[ix[H_1WARP]]),
                     cell(c2, sizeof c2, &res[ix[H_PROBE]]), ns, ev);
    }
    for (int i = 0; i < n; ++i)
        if (strstr(cfgs[i].key, "_1000")) {
            char c0[64];
            bench_report(b, "| %s, %u round trips%s | %s | %s | | | | |\n", cfgs[i].m->label, res[i].rounds,
                         res[i].rounds == SEED_ROUNDS ? " (as published)" : "", cfgs[i].m->path,
                         cell(c0, sizeof c0, &res[i]));
        }
}

/* Table 2: each like-for-like pair's ratio (global / DSMEM) in every harness, and its spread. */
static void report_pairs(bench *b, const pp_config *cfgs, const pp_result *res, int n)
{
    bench_report(b, "\n**Like for like** (global-memory cycles / DSMEM cycles per hop; above 1: DSMEM is faster). "
                    "Where a harness failed one side, the pair has no ratio in it.\n\n"
                    "| pair | DSMEM | global memory | course | 1 warp | probe | spread over harnesses |\n"
                    "|---|---|---|---:|---:|---:|---|\n");
    for (int p = 0; p < PAIRS; ++p) {
        double lo = INFINITY, hi = -INFINITY, ratio[HARNESSES];
        int got = 0;
        char cells[HARNESSES][32];
        for (int h = 0; h < HARNESSES; ++h) {
            int d = config_index(cfgs, n, pairs[p].dsmem, h), g = config_index(cfgs, n, pairs[p].gmem, h);
            ratio[h] = NAN;
            if (d >= 0 && g >= 0 && res[d].measured && res[g].measured) {
                ratio[h] = res[g].cycles.median / res[d].cycles.median;
                snprintf(cells[h], sizeof cells[h], "%.2fx", ratio[h]);
                lo = ratio[h] < lo ? ratio[h] : lo;
                hi = ratio[h] > hi ? ratio[h] : hi;
                got++;
                char key[96];
                snprintf(key, sizeof key, "pingpong_pair_gmem_over_dsmem.%s.%s", pairs[p].key, harnesses[h].key);
                bench_summary_number(b, key, ratio[h]);
            } else {
                snprintf(cells[h], sizeof cells[h], "failed");
            }
        }
        char spread[64] = "no ratio";
        if (got) {
            char key[96];
            if (got == HARNESSES)
                snprintf(spread, sizeof spread, "%.2fx-%.2fx", lo, hi);
            else
                snprintf(spread, sizeof spread, "%.2fx-%.2fx (%d of %d harnesses)", lo, hi, got, HARNESSES);
            snprintf(key, sizeof key, "pingpong_pair_gmem_over_dsmem.%s.min", pairs[p].key);
            bench_summary_number(b, key, lo);
            snprintf(key, sizeof key, "pingpong_pair_gmem_over_dsmem.%s.max", pairs[p].key);
            bench_summary_number(b, key, hi);
        }
        int d = index_of_mechanism(pairs[p].dsmem), g = index_of_mechanism(pairs[p].gmem);
        bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", pairs[p].what, mechanisms[d].label,
                     mechanisms[g].label, cells[H_COURSE], cells[H_1WARP], cells[H_PROBE], spread);
    }
}

/* The DSMEM mechanisms of harness h from fastest to slowest, e.g. "st_async < flag_relaxed < ...". */
static void ranking(char *out, size_t size, const pp_config *cfgs, const pp_result *res, int n, int h)
{
    int order[MECHANISMS], k = 0;
    for (int i = 0; i < n; ++i)
        if (cfgs[i].harness == h && res[i].measured && !strstr(cfgs[i].key, "_1000") &&
            strcmp(cfgs[i].m->path, "DSMEM") == 0) {
            int j = k++;
            while (j > 0 && res[order[j - 1]].cycles.median > res[i].cycles.median) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
    size_t used = 0;
    out[0] = '\0';
    for (int j = 0; j < k && used < size; ++j)
        used += (size_t)snprintf(out + used, size - used, "%s%s (%.0f)", j ? " < " : "", cfgs[order[j]].m->key,
                                 res[order[j]].cycles.median);
    if (k == 0)
        snprintf(out, size, "none measured");
}

/* Rankings per harness, best against best with both mechanisms named, the seed, the probe's floor. */
static void report_conclusions(bench *b, const pp_config *cfgs, const pp_result *res, int n)
{
    bench_report(b, "\n**DSMEM mechanisms, fastest first** (median cycles per hop). If the order differs between "
                    "harnesses, the ranking depends on the harness, not only on the mechanism.\n\n");
    for (int h = 0; h < HARNESSES; ++h) {
        char line[1024];
        ranking(line, sizeof line, cfgs, res, n, h);
        bench_report(b, "- %s (%s): %s\n", harnesses[h].key, harnesses[h].label, line);
    }
    bench_report(b, "\n**Best against best**, each path with its fastest mechanism (a DSMEM-only mechanism may be "
                    "the DSMEM side: read the pairs above for like for like):\n\n");
    for (int h = 0; h < HARNESSES; ++h) {
        int bd = best_of(cfgs, res, n, "DSMEM", h), bg = best_of(cfgs, res, n, "global", h);
        if (bd < 0 || bg < 0) {
            bench_report(b, "- %s: no ratio (%s failed)\n", harnesses[h].key,
                         bd < 0 ? "every DSMEM mechanism" : "every global-memory mechanism");
            continue;
        }
        double ratio = res[bg].cycles.median / res[bd].cycles.median;
        bench_report(b, "- %s: DSMEM `%s` %.1f cycles against global `%s` %.1f cycles: %.2fx\n", harnesses[h].key,
                     cfgs[bd].m->key, res[bd].cycles.median, cfgs[bg].m->key, res[bg].cycles.median, ratio);
        char key[96];
        snprintf(key, sizeof key, "pingpong_best_gmem_over_dsmem_by_harness.%s", harnesses[h].key);
        bench_summary_number(b, key, ratio);
        if (h != H_COURSE)
            continue;
        /* the course harness's bests keep their headline keys; the mechanisms are named in keys too */
        bench_summary_number(b, "pingpong_dsmem_cycles_per_hop_best", res[bd].cycles.median);
        bench_summary_number(b, "pingpong_gmem_cycles_per_hop_best", res[bg].cycles.median);
        bench_summary_number(b, "pingpong_best_gmem_over_dsmem", ratio);
        snprintf(key, sizeof key, "pingpong_best_mechanism.dsmem.%s", cfgs[bd].m->key);
        bench_summary_number(b, key, res[bd].cycles.median);
        snprintf(key, sizeof key, "pingpong_best_mechanism.gmem.%s", cfgs[bg].m->key);
        bench_summary_number(b, key, res[bg].cycles.median);
    }

    int sd = -1, sg = -1;
    for (int i = 0; i < n; ++i)
        if (strstr(cfgs[i].key, "_1000"))
            *(strcmp(cfgs[i].m->path, "DSMEM") == 0 ? &sd : &sg) = i;
    bench_report(b, "\nSeed 000 on an H100 PCIe (1000 round trips): DSMEM %.1f, global memory %.1f cycles per hop, "
                    "%.2fx.",
                 SEED_DSMEM_CYCLES, SEED_GMEM_CYCLES, SEED_GMEM_CYCLES / SEED_DSMEM_CYCLES);
    if (sd >= 0 && sg >= 0 && res[sd].measured && res[sg].measured)
        bench_report(b, " The same kernels here: %.1f and %.1f cycles, %.2fx.", res[sd].cycles.median,
                     res[sg].cycles.median, res[sg].cycles.median / res[sd].cycles.median);
    else
        bench_report(b, " The same kernels here: failed (above).");
    if (!bench_dry(b)) { /* cycles mean nothing in the dry run: no floor to compare with */
        int below = 0;
        for (int i = 0; i < n; ++i)
            below += res[i].measured && res[i].cycles.median < CYCLES_FLOOR;
        bench_report(b, " Rows below %d cycles per hop (the lowest hop of the reference probe on an H200): %d.",
                     CYCLES_FLOOR, below);
        bench_summary_number(b, "pingpong_mechanisms_below_360_cycles", below);
    }
    bench_report(b, "\n\n");
}

/* The family (bench.h): every mechanism of chapter 5 in every harness, checked, timed, reported with
 * its like-for-like pairs. Returns non-zero when any row failed a check. */
int bench_family_ch05_pingpong(bench *b)
{
    pp_sizes sz = bench_dry(b) ? dry_sizes : bench_quick(b) ? quick_sizes : full_sizes;
    if (!bench_dry(b)) {
        /* more than half an SM's shared memory: the two CTAs cannot share an SM */
        size_t half = bench_smem_per_sm(b) / 2 + 1024, optin = bench_smem_per_block_optin(b);
        sz.spread_bytes = half <= optin ? half : optin;
    }
    pp_config cfgs[HARNESSES * MECHANISMS + 2];
    int n = configurations(&sz, bench_dry(b), cfgs);
    pp_result res[HARNESSES * MECHANISMS + 2];
    memset(res, 0, sizeof res);
    pp_buffers d = {0};
    int good = ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.first, sizeof(uint32_t))) &&
               ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.slots, 2 * sizeof(uint32_t))) &&
               ok(b, NULL, "buffers", "dsm_malloc",
                  dsm_malloc((void **)&d.trace, 2 * (size_t)sz.check_rounds * sizeof(uint32_t))) &&
               ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.last, 2 * sizeof(uint32_t))) &&
               ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.cycles, 2 * sizeof(unsigned long long))) &&
               ok(b, NULL, "buffers", "dsm_memset", dsm_memset(d.slots, 0, 2 * sizeof(uint32_t)));
    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(THREADS, 1, 1), DSM_DIM3(2, 1, 1), sz.spread_bytes};
    for (int i = 0; good && i < n; ++i) {
        res[i].rounds = cfgs[i].rounds;
        bench_progress(b, "%s (%u round trips)", cfgs[i].key, cfgs[i].rounds);
        measure(b, &sz, &cfgs[i], &d, &cfg, &res[i]);
    }
    write_csv(b, cfgs, res, n);
    report_mechanisms(b, &sz, cfgs, res, n);
    report_pairs(b, cfgs, res, n);
    report_conclusions(b, cfgs, res, n);
    dsm_free(d.first);
    dsm_free(d.slots);
    dsm_free(d.trace);
    dsm_free(d.last);
    dsm_free(d.cycles);
    int failed = !good;
    for (int i = 0; i < n; ++i)
        failed |= !res[i].measured;
    return failed;
}
