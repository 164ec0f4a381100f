/* pp_bench.h: what the parts of make bench's ch05_pingpong family share: the mechanisms, harnesses and pairs, a configuration and its result, and the functions of each part. */
#ifndef PP_BENCH_H
#define PP_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

enum {
    THREADS = 128,      /* per CTA in the course harness, as in the deep dive's benchmark; thread 0 plays */
        SEED_ROUNDS = 1000, /* the deep dive's count: 1000 round trips, 2000 hops */
    CYCLES_FLOOR = 360  /* the reference probe's lowest hop on an H200 (bench/results/anchors/h200-anchors.md) */
};

/* The deep dive's figures (seed 000, NVIDIA H100 PCIe, 1000 round trips). */
#define SEED_DSMEM_CYCLES 736.1
#define SEED_GMEM_CYCLES 1419.2

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

/* In the order of the chapter; each global-memory twin right after its DSMEM partner (mechanisms.c). */
enum { MECHANISMS = 8 };
extern const pp_mechanism pp_mechanisms[MECHANISMS];

/* A like-for-like pair: the same signal, once through DSMEM and once through global memory. */
typedef struct pp_pair {
    const char *key, *what, *dsmem, *gmem;
} pp_pair;
enum { PAIRS = 3 };
extern const pp_pair pp_pairs[PAIRS];

/* A harness: how the mechanisms are driven. The course harness is the exercises' kernels at the
 * deep dive's 128 threads; the same kernels with one warp; and the benchmark's own probe kernels
 * (bench/kernels/ch05_pingpong_probe.cu) with one warp. */
enum { H_COURSE, H_1WARP, H_PROBE, HARNESSES };
typedef struct pp_harness {
    const char *key, *suffix, *label;
    uint32_t threads;
    int probe;
} pp_harness;
extern const pp_harness pp_harnesses[HARNESSES];

/* What one configuration measured. */
typedef struct pp_result {
    int measured;
    uint32_t rounds;
    bench_stats cycles;   /* per hop, CTA 0's clock64 over its loop / hops */
    bench_stats event_ns; /* per hop, CUDA events around the launch (includes the launch) */
    bench_variant_result rounds_seen; /* its rounds, as bench_time_variants sampled them (for paired ratios) */
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

/* ---- mechanisms.c: what runs ---- */

/* The index of mechanism `key` in pp_mechanisms[]. */
int pp_index_of_mechanism(const char *key);

/* The run's configurations: every mechanism in every harness, then the seed's two kernels at its
 * own 1000 round trips (course harness). Returns how many. */
int pp_configurations(const pp_sizes *sz, int dry, pp_config *out);

/* The configuration of mechanism `key` in harness h (not the 1000-round variants); -1 if none. */
int pp_config_index(const pp_config *cfgs, int n, const char *key, int h);

/* c's kernel, and the hops that CTA 0's cycles cover (the probe starts its clock after the first round trip). */
dsm_kernel_t pp_kernel_of(const pp_config *c);
double pp_timed_hops(const pp_config *c, uint32_t rounds);

/* ---- measure.c: checked, then sampled ---- */

/* 1 when err is success; otherwise a failed check named after the call, which fails `kernel` (NULL: none). */
int pp_ok(bench *b, const char *kernel, const char *key, const char *what, dsm_error_t err);

/* Checks, then samples, the n configurations cfgs (which share their round count and repeats)
 * interleaved in rotating rounds (bench_time_variants): first one launch of each with every hop
 * recorded, then a warm-up and c->repeats launches, each checked (a new first token each time: a
 * stale one fails), each giving cycles per hop. res[i] for cfgs[i]. */
void pp_measure_group(bench *b, const pp_sizes *sz, const pp_config *cfgs, int n, const pp_buffers *d,
                      const dsm_launch_config *base, pp_result *res);

/* ---- report.c: the CSV, the summary keys and the report's tables ---- */

void pp_write_csv(bench *b, const pp_config *cfgs, const pp_result *res, int n);
void pp_report_mechanisms(bench *b, const pp_sizes *sz, const pp_config *cfgs, const pp_result *res, int n);
void pp_report_pairs(bench *b, const pp_config *cfgs, const pp_result *res, int n);
void pp_report_conclusions(bench *b, const pp_config *cfgs, const pp_result *res, int n);

#endif
