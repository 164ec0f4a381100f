/* mcast_bench.h: what the parts of make bench's ch07_multicast family share: the plan, a configuration's job and result, the data pools. */
#ifndef MCAST_BENCH_H
#define MCAST_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

#define CONSUMERS 256                     /* consumer threads per CTA, both ways */
#define RING_BYTES (128 * 1024)           /* slots x chunk: one CTA per SM, as in the probe */
#define L2_REGION_BYTES (8u << 20)        /* part 1 from L2: one 8 MB region for every cluster */
#define HBM_POOL_BYTES (512u << 20)       /* from HBM: the regions of all clusters together */
#define OWN_L2_STEPS 2                    /* part 2: an L2-resident own region (steps of it) per CTA */
#define OPND_L2_STEPS 8                   /* ... and an L2-resident operand region per cluster */
#define TARGET_WIN 1.2                    /* the winning experiment's target on an H200 */
#define TARGET_L2_TBPS 8.5                /* per-CTA delivered from L2, target on an H200 */
#define TARGET_MC_TBPS 6.0                /* multicast delivered from L2 at every cluster size (the probe: 6.0-6.6) */

enum mode { PER_CTA = 0, MULTICAST = 1 };
enum source { FROM_L2 = 0, FROM_HBM = 1 };
extern const char *const mode_name[2];   /* "per-CTA", "multicast" */
extern const char *const source_name[2]; /* "L2", "HBM" */

typedef struct plan {
    int dry, quick, ncu, warmup, repeats;
    double target_bytes;      /* bytes delivered into shared memory per timed launch */
    size_t pool_bytes;        /* the HBM pool (the L2 region is its first L2_REGION_BYTES) */
    int chunk, stages;        /* part 1's ring */
} plan;

typedef struct result {
    const char *kernel;       /* the DSM_KERNEL_ENTRY name this configuration ran */
    dsm_error_t err;
    int failed, max_clusters, clusters, iters;
    bench_stats ms;
    double delivered_tbps, fetched_tbps;
} result;

/* The data every configuration reads: two pools of random words, on the device and on the host. */
typedef struct pools {
    uint32_t *dev[2], *host[2];
    size_t bytes;
} pools;

/* One configuration of one mode, ready to check and time: its launch, its
 * arguments (held here: a timed call reads them after the setup returned),
 * its poisoned output and the output it must leave. */
typedef struct job {
    bench *b;
    result r;
    enum mode m;
    enum source src;
    int n;
    dsm_launch_config cfg;
    dsm_kernel_t k;
    const void *in[2];
    uint32_t *out, *want;
    size_t out_words;
    int a[8];
    void *args[10];
    double delivered;         /* bytes landed in shared memory per launch */
    double fetched;           /* bytes the copies ask of L2 per launch; 0: delivered (per CTA) or delivered / n */
    char what[200];
} job;

typedef struct op_shape {
    int n, step, share_pct;   /* cluster size, bytes per step, the operand's share of them */
    enum source own_src, opnd_src;
} op_shape;

/* jobs.c */
extern bench_csv *mcast_ncu_log;   /* BENCH_CH07_NCU=1: every launch, in the order made (ncu.c names each from it) */
double mcast_tbps(double bytes, double ms);
double mcast_per_sm_clk(const bench *b, double tb_s);
int mcast_device_broken(const result *r);
/* 1 when r holds numbers that may be shown: measured, and no check of its kernel failed in this family. */
int mcast_shown(const bench *b, const result *r);
/* The CSV's launch column: the launch's result, or "failed" once its kernel failed a check. */
const char *mcast_launch_name(const bench *b, const result *r);
/* Prepare one mode of one configuration: 0 when ready to check and time (else the row failed). */
int mcast_stream_job(bench *b, const plan *p, const pools *pl, enum mode m, enum source src, int n, job *j);
int mcast_operand_job(bench *b, const plan *p, const pools *pl, enum mode m, const op_shape *s, job *j);
void mcast_job_free(job *j);
double mcast_time_pair(bench *b, const plan *p, dsm_stream_t stream, job jobs[2], bench_stats *speed_out);
int mcast_make_pools(bench *b, const plan *p, pools *pl);
void mcast_free_pools(pools *pl);

#endif
