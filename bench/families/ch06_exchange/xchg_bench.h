/* xchg_bench.h: what the parts of make bench's ch06_exchange family share: the plan, a configuration's result, the bests, and the helpers every part uses. */
#ifndef XCHG_BENCH_H
#define XCHG_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "dsm_emu_control.h"
#include "xchg_patterns.h"

#define SEED_TILE_BYTES 16384
#define SEED_TILE_FLOATS (SEED_TILE_BYTES / 4)
#define SEED_ITERS 5000
#define RING_WEIGHTS_MAX 9   /* ring_push allows up to 8 stages: stages + 1 source offsets */

/* Seed 000's H100 PCIe claims (114 SMs, 57 clusters of 2, 5000 exchanges). */
#define SEED_DSMEM_MS 30.871
#define SEED_GMEM_MS 46.678
#define SEED_DSMEM_TBPS 0.61
#define SEED_GMEM_TBPS 0.40

/* How big and how often: set once from bench_dry() / bench_quick(). */
typedef struct plan {
    int dry, quick, warmup, repeats;
    double target_bytes;   /* crossing bytes per timed launch of a sweep point */
} plan;

/* One configuration: not run (a shape that does not fit), failed, or measured. */
typedef struct result {
    const char *kernel;     /* what ran: its DSM_KERNEL_ENTRY name */
    dsm_error_t err;        /* occupancy or launch error of a shape that was not run */
    int ran;                /* checked, then timed: the numbers below mean something */
    int failed;             /* a check failed (bench_fail_kernel was called) */
    int max_clusters;       /* cudaOccupancyMaxActiveClusters */
    int clusters, iters;    /* launched */
    bench_stats ms;
    double crossing_tbps, seed_tbps;
    bench_stats twin_over_this; /* timed beside its twin (xchg_run_pair): the twin's time / this one's, per round */
} result;

/* The kernels whose best configuration the run keeps, and the pairs they form. */
enum { K_SEED_DSMEM, K_SEED_GMEM, K_VEC_DSMEM, K_VEC_GMEM, K_RING_DSMEM, K_RING_GMEM, K_COUNT };
extern const char *const xchg_kernel_names[K_COUNT];

typedef struct best {
    double tbps;
    char what[160];
} best;

/* common.c: data, units, the table fields of a result, one configuration checked then timed, the dry run's counters. */
uint32_t xchg_rng_u32(void);
void *xchg_dev_alloc(bench *b, size_t bytes);
double xchg_tbps(double bytes, double ms);
double xchg_per_sm_clk(const bench *b, double tb_s);
int xchg_shown(const bench *b, const result *r);
const char *xchg_num(const bench *b, const result *r, const char *fmt, double v);
const char *xchg_status_of(const bench *b, const result *r);
int xchg_device_broken(const result *r);
void xchg_check_then_time(bench *b, const plan *p, const dsm_launch_config *cfg, dsm_kernel_t k, void **args,
                          int (*check)(bench *, void *), void *ctx, const char *what, result *r);
int xchg_fits(dsm_kernel_t k, const dsm_launch_config *cfg, result *r);
int xchg_counts_of(uint32_t block, dsm_emu_counts *c);
/* One configuration on one path (gmem 0: DSMEM, 1: its global-memory twin), with its own arguments. */
typedef result (*xchg_runner)(bench *b, const plan *p, const void *args, int gmem);
/* Runs a configuration on both paths and times the two together, interleaved
 * round by round (out[0] DSMEM, out[1] global memory; twin_over_this paired);
 * a side that stops before its timing leaves the other timed alone. */
void xchg_run_pair(bench *b, const plan *p, xchg_runner run, const void *args, result out[2]);
int xchg_barrier_waits_ok(bench *b, const char *kernel, const char *what, uint32_t blk, const dsm_emu_counts *c,
                          uint32_t want, uint32_t want_max);

/* seed.c, vec.c, ring.c: one configuration of each kernel pair, checked and timed. */
result xchg_seed_run(bench *b, const plan *p, int gmem, int threads, int clusters, int iters);
result xchg_vec_run(bench *b, const plan *p, int gmem, enum pattern pat, int n, int tile_bytes, int threads,
                    int clusters, int iters);
result xchg_ring_run(bench *b, const plan *p, int gmem, int n, int stages, int chunk_bytes, int threads);

/* points.c: a sweep point run, its row written, the best kept. */
#define XCHG_HEADER \
    "path,pattern,cluster,tile_bytes,threads,max_active_clusters,clusters,launch,iters,ms_median,ms_min,ms_max," \
    "crossing_tbps,seed_formula_tbps,crossing_bytes_per_clk_per_sm,kernel"
#define RING_HEADER \
    "cluster,stages,chunk_bytes,threads,max_active_clusters,clusters,launch,nchunks,ms_median,ms_min,ms_max," \
    "crossing_tbps,crossing_bytes_per_clk_per_sm,kernel"
void xchg_note_best(best *bests, int which, const bench *b, const result *r, const char *what);
void xchg_progress(bench *b, const char *what, const result *r);
/* Both paths of one configuration, timed together (xchg_run_pair); out[0] DSMEM, out[1] global memory. */
void xchg_seed_pair(bench *b, const plan *p, int threads, int clusters, int iters, result out[2]);
void xchg_vec_pair(bench *b, const plan *p, enum pattern pat, int n, int tile, int threads, int clusters, int iters,
                   result out[2]);
/* ... and as a sweep point: both rows written, both bests kept; 0 when the family must stop. */
int xchg_point(bench *b, const plan *p, bench_csv *csv, best *bests, enum pattern pat, int n, int tile, int threads,
               result out[2]);
int xchg_ring_point(bench *b, const plan *p, bench_csv *csv, best *bests, int n, int stages, int chunk, int threads,
                    result out[2]);

#endif
