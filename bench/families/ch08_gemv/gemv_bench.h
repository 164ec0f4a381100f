/* gemv_bench.h: what the parts of make bench's ch08_gemv family share: shapes, variants, configurations, the run's context. */
#ifndef GEMV_BENCH_H
#define GEMV_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "bench.h"

#define GEMV_ROTATE_L2 5        /* the copies of W together: at least 5 x L2 (>= BENCH_ROTATE_L2) */
#define GEMV_GRAPH_BYTES 6e8    /* weight bytes one timed graph streams, at least */
#define GEMV_MAX_CALLS 200      /* calls in one graph, at most */
#define GEMV_MIN_CALLS 8
#define GEMV_TOL 1e-4           /* relative to the sum of |terms| */
#define GEMV_WS_FLOATS ((size_t)64 << 20)   /* workspace of the two-kernel and gmem variants */
/* the non-cluster kernels of one token, whose best is "the best non-cluster variant" */
#define K_NONCLUSTER "gemv_rowpar_t1 gemv_splitk_atomic_t1 gemv_partial_t1"

enum variant { V_ROWPAR, V_ATOMIC, V_TWOKERNEL, V_CLUSTER_GMEM, V_CLUSTER, V_CUBLAS, V_FLOOR, V_COUNT };
extern const char *const gemv_vname[V_COUNT];

/* Which question a shape answers: a layer of a real model, or a shape where
 * few rows leave the GPU idle unless K is split. */
enum shape_group { SHAPE_MODEL, SHAPE_SPLIT };

typedef struct shape {
    const char *name;   /* summary key and CSV column */
    const char *what;   /* the layer */
    int M, K;
    int group;          /* enum shape_group */
} shape;

typedef struct config {
    int split, rows, threads, unroll;   /* read_floor: split = CTAs, rows unused; cublas: split = algorithm, rows = layout */
    int cattr;  /* cluster variants, split 1: launched with the cluster attribute (1 x 1 x 1) instead of plain */
    int pdl;    /* launched with programmatic dependent launch */
} config;

/* The best configuration of one variant for one (shape, nb), and how it
 * compared with the others when they were timed interleaved. */
typedef struct best {
    int have;
    config c;
    bench_stats sweep;          /* µs per call in the sweep (selection only) */
    int max_active;
    int no_graph;               /* cuBLAS: could not be captured; its graph times are host launches */
    bench_variant_result graph, pdl, stream;    /* the interleaved comparison */
} best;

typedef struct problem {
    const shape *sh;
    int nb;
    size_t bytes;       /* of one copy of W */
    int ncopies, ncalls;
    const double *ref, *mag;    /* [8][M]: token b's row m at b * M + m */
} problem;

typedef struct ctx {
    bench *b;
    int dry, quick, sms;
    size_t l2;
    uint16_t *host_pool, *host_x;
    void *pool, *dx, *dy, *dws, *dout;
    size_t pool_bytes, ws_floats;
    double hbm_gbps;    /* measured in this run */
    bench_csv *sweep;
    int failed, broken;
    dsm_stream_t s;
    bench_blas *blas;
    int have_cublas;
    char no_cublas[160];
} ctx;

/* gemv_data.c: the run's weight pool and tokens (random bf16), the CPU reference. */
int gemv_setup(ctx *c, const shape *shapes, int nshapes);
void gemv_reference(const uint16_t *W, const uint16_t *x, int M, int K, double *ref, double *mag);
uint32_t gemv_pool_word_sum(const ctx *c, size_t bytes);

/* gemv_calls.c: one call of a variant, its check, and the bench_variant that times it. */
const char *gemv_variant_kernel(int v, int nb);
void gemv_prepare_attrs(const problem *p, int v, const config *g);
int gemv_max_active(const problem *p, int v, const config *g);
dsm_error_t gemv_enqueue_call(ctx *c, const problem *p, int v, const config *g, int copy);
/* One point (variant v, configuration g, PDL or not, graph or host launches) as a bench_variant. */
typedef struct gemv_point {
    ctx *c;
    const problem *p;
    int v;
    config g;
    char name[200];
} gemv_point;
bench_variant gemv_point_variant(gemv_point *pt, ctx *c, const problem *p, int v, const config *g, int graph);

/* gemv_sweep.c: every configuration of a variant checked and timed; the best kept. */
void gemv_sweep_variant(ctx *c, const problem *p, int v, best *bst);
void gemv_time_plan(ctx *c, const problem *p, best *bst);
void gemv_variation_point(ctx *c, const problem *p, int v, const best *of, int cattr, best *out, const char *what);
void gemv_measure_hbm(ctx *c);
double gemv_gbps(const problem *p, double us);
void gemv_summary_measured(ctx *c, const char *key, double value, const char *kernels);

/* gemv_compare.c: the best of every variant timed interleaved, plain, with PDL and from the host. */
void gemv_compare_bests(ctx *c, const problem *p, best *bests);
/* The paired ratio a / b of the graph times (pdl: of the PDL graph times). */
bench_stats gemv_pair(const best *a, const best *b, int pdl);
/* The best non-cluster variant (rowpar, atomics, two kernels) by its plain median; -1 when none. */
int gemv_best_noncluster(const best *bests);

/* gemv_report.c: the headline numbers and the report section, from the comparison of every shape. */
#define GEMV_NSHAPES_MAX 21
void gemv_report(ctx *c, const shape *shapes, int nshapes, best table[][4][V_COUNT], best planned[][4],
                 const best *cattr_pt, const int *nbs, int n_nb);

/* gemv_data.c: 1 when env (a comma-separated list) is unset, empty or names name. */
int gemv_selected(const char *env, const char *name);

#endif
