/* gemv_calls.c: ch08_gemv's calls: the kernels each variant launches for a configuration, one call on the run's stream, its check against the reference, and the bench_variant that times it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch08/gemv_shape.h"
#include "ch08/gemv_cluster.h"
#include "ch08/gemv_splitk_atomic.h"
#include "gemv_bench.h"

DSM_DECLARE_KERNEL(gemv_rowpar_t1);
DSM_DECLARE_KERNEL(gemv_rowpar_t2);
DSM_DECLARE_KERNEL(gemv_rowpar_t4);
DSM_DECLARE_KERNEL(gemv_rowpar_t8);
DSM_DECLARE_KERNEL(gemv_partial_t1);
DSM_DECLARE_KERNEL(gemv_partial_t2);
DSM_DECLARE_KERNEL(gemv_partial_t4);
DSM_DECLARE_KERNEL(gemv_partial_t8);
DSM_DECLARE_KERNEL(gemv_reduce_partials);
DSM_DECLARE_KERNEL(gemv_cluster_gmem_t1);
DSM_DECLARE_KERNEL(gemv_cluster_gmem_t2);
DSM_DECLARE_KERNEL(gemv_cluster_gmem_t4);
DSM_DECLARE_KERNEL(gemv_cluster_gmem_t8);
DSM_DECLARE_KERNEL(stream_read);

const char *const gemv_vname[V_COUNT] = {"rowpar",        "splitk_atomic", "splitk_twokernel", "cluster_gmem",
                                         "cluster_dsmem", "cublas",        "read_floor"};

/* Launches k on the run's stream; pdl: with programmatic dependent launch
 * (the kernel may start before the previous one on the stream has finished,
 * and waits for it with griddepcontrol.wait where it must). */
static dsm_error_t launch(ctx *c, const dsm_launch_config *cfg, dsm_kernel_t k, void **args, int pdl)
{
    dsm_launch_options opt = {c->s, pdl, 0};
    return dsm_launch_ex(cfg, &opt, k, args);
}

static dsm_kernel_t pick(int nb, dsm_kernel_t k1, dsm_kernel_t k2, dsm_kernel_t k4, dsm_kernel_t k8)
{
    return nb <= 1 ? k1 : nb <= 2 ? k2 : nb <= 4 ? k4 : k8;
}

static dsm_kernel_t rowpar_kernel(int nb)
{
    return pick(nb, DSM_KERNEL(gemv_rowpar_t1), DSM_KERNEL(gemv_rowpar_t2), DSM_KERNEL(gemv_rowpar_t4),
                DSM_KERNEL(gemv_rowpar_t8));
}

static dsm_kernel_t partial_kernel(int nb)
{
    return pick(nb, DSM_KERNEL(gemv_partial_t1), DSM_KERNEL(gemv_partial_t2), DSM_KERNEL(gemv_partial_t4),
                DSM_KERNEL(gemv_partial_t8));
}

static dsm_kernel_t gmem_kernel(int nb)
{
    return pick(nb, DSM_KERNEL(gemv_cluster_gmem_t1), DSM_KERNEL(gemv_cluster_gmem_t2),
                DSM_KERNEL(gemv_cluster_gmem_t4), DSM_KERNEL(gemv_cluster_gmem_t8));
}

/* The kernel a variant launches for nb tokens, by its DSM_KERNEL_ENTRY name (the
 * main kernel where a call launches two: the init and reduce kernels are small
 * and given); NULL for cuBLAS. A failed check names it (bench_fail_kernel), so
 * that `make bench SRC=exercises` ends with the kernels left to finish. */
const char *gemv_variant_kernel(int v, int nb)
{
    static const char *const names[V_COUNT][4] = {
        {"gemv_rowpar_t1", "gemv_rowpar_t2", "gemv_rowpar_t4", "gemv_rowpar_t8"},
        {"gemv_splitk_atomic_t1", "gemv_splitk_atomic_t2", "gemv_splitk_atomic_t4", "gemv_splitk_atomic_t8"},
        {"gemv_partial_t1", "gemv_partial_t2", "gemv_partial_t4", "gemv_partial_t8"},
        {"gemv_cluster_gmem_t1", "gemv_cluster_gmem_t2", "gemv_cluster_gmem_t4", "gemv_cluster_gmem_t8"},
        {"gemv_cluster_t1", "gemv_cluster_t2", "gemv_cluster_t4", "gemv_cluster_t8"},
        {NULL, NULL, NULL, NULL},
        {"stream_read", "stream_read", "stream_read", "stream_read"},
    };
    return names[v][nb <= 1 ? 0 : nb <= 2 ? 1 : nb <= 4 ? 2 : 3];
}

/* The main kernel's launch shape of a configuration; the attributes it needs set. */
static dsm_launch_config main_launch(const problem *p, int v, const config *g, dsm_kernel_t *k)
{
    int tiles = g->rows > 0 ? (p->sh->M + g->rows - 1) / g->rows : 0;   /* read_floor: no rows */
    size_t smem = g->rows > 0 ? gemv_block_smem(g->rows, g->threads, p->nb) : 0;
    dsm_launch_config cfg = {DSM_DIM3(1, 1, 1), DSM_DIM3((unsigned)g->threads, 1, 1), DSM_DIM3(0, 0, 0), smem};
    switch (v) {
    case V_ROWPAR:
        *k = rowpar_kernel(p->nb);
        cfg.grid = DSM_DIM3((unsigned)tiles, 1, 1);
        break;
    case V_ATOMIC:
    case V_TWOKERNEL:
        *k = v == V_ATOMIC ? gemv_splitk_atomic_kernel(p->nb) : partial_kernel(p->nb);
        cfg.grid = DSM_DIM3((unsigned)(tiles * g->split), 1, 1);
        break;
    case V_CLUSTER:
    case V_CLUSTER_GMEM:
        /* a cluster of one runs the kernel without cluster instructions, as gemv_cluster_launch does it */
        *k = v != V_CLUSTER ? gmem_kernel(p->nb)
             : g->split == 1 && !g->cattr ? gemv_cluster_one_kernel(p->nb) : gemv_cluster_kernel(p->nb);
        if (v == V_CLUSTER)
            cfg.dynamic_smem_bytes = gemv_cluster_smem(g->rows, g->threads, p->nb);
        cfg.grid = DSM_DIM3((unsigned)(tiles * g->split), 1, 1);
        /* a cluster of one is a plain launch, as gemv_cluster_launch does it,
         * unless the point measures what the attribute costs (cattr) */
        if (g->split > 1 || g->cattr)
            cfg.cluster = DSM_DIM3((unsigned)g->split, 1, 1);
        break;
    default:    /* V_FLOOR */
        *k = DSM_KERNEL(stream_read);
        cfg.grid = DSM_DIM3((unsigned)g->split, 1, 1);
        cfg.dynamic_smem_bytes = 0;
        break;
    }
    return cfg;
}

/* Sets the attributes a configuration's main kernel needs (never while a
 * graph is being captured: attributes are not stream work). */
void gemv_prepare_attrs(const problem *p, int v, const config *g)
{
    if (v == V_CUBLAS)
        return;
    dsm_kernel_t k;
    dsm_launch_config cfg = main_launch(p, v, g, &k);
    if (cfg.dynamic_smem_bytes > 48 * 1024)
        dsm_func_set_max_dynamic_smem(k, (int)cfg.dynamic_smem_bytes);
    if (cfg.cluster.x > 8)
        dsm_func_set_non_portable_cluster_size_allowed(k, 1);
}

/* Enqueues one call of variant v with copy `copy` of W: its kernels (or cuBLAS). */
dsm_error_t gemv_enqueue_call(ctx *c, const problem *p, int v, const config *g, int copy)
{
    const void *W = (const char *)c->pool + (size_t)copy * p->bytes;
    const void *x = c->dx;
    float *y = c->dy, *ws = c->dws;
    const float *none = NULL;
    int M = p->sh->M, K = p->sh->K, nb = p->nb, rows = g->rows, split = g->split, unroll = g->unroll;
    if (v == V_CUBLAS) {
        if (g->rows == 1 && nb == 1)    /* y^T = x^T W^T: the same sums with the operands the other way round,
                                         * which cuBLAS may give to another kernel (one token only: with more,
                                         * y would come out transposed) */
            return bench_blas_gemm_bf16_tn(c->blas, 1, M, K, x, K, W, K, y, 1);
        return bench_blas_gemm_bf16_tn(c->blas, M, nb, K, W, K, x, K, y, M);  /* y = W x: W is K x M column-major */
    }
    dsm_kernel_t k;
    dsm_launch_config cfg = main_launch(p, v, g, &k);
    dsm_launch_config small = {DSM_DIM3((unsigned)(((size_t)M * nb + 255) / 256), 1, 1), DSM_DIM3(256, 1, 1),
                               DSM_DIM3(0, 0, 0), 0};
    dsm_error_t err;
    switch (v) {
    case V_ROWPAR: {
        void *args[] = {(void *)&W, (void *)&x, &y, &M, &K, &nb, &rows, &unroll};
        return launch(c, &cfg, k, args, g->pdl);
    }
    case V_ATOMIC: {
        void *init[] = {&y, (void *)&none, (void *)&none, &M, &nb};
        if ((err = launch(c, &small, gemv_atomic_init_kernel(), init, g->pdl)) != dsmSuccess)
            return err;
        void *args[] = {(void *)&W, (void *)&x, &y, &M, &K, &nb, &rows, &split, &unroll};
        return launch(c, &cfg, k, args, g->pdl);
    }
    case V_TWOKERNEL: {
        void *args[] = {(void *)&W, (void *)&x, &ws, &M, &K, &nb, &rows, &split, &unroll};
        if ((err = launch(c, &cfg, k, args, g->pdl)) != dsmSuccess)
            return err;
        const float *cws = ws;
        void *red[] = {(void *)&cws, &y, (void *)&none, (void *)&none, &M, &nb, &split};
        return launch(c, &small, DSM_KERNEL(gemv_reduce_partials), red, g->pdl);
    }
    case V_CLUSTER_GMEM: {
        void *args[] = {(void *)&W, (void *)&x, &y, (void *)&none, (void *)&none, &ws, &M, &K, &nb, &rows, &unroll};
        return launch(c, &cfg, k, args, g->pdl);
    }
    case V_CLUSTER: {
        void *args[] = {(void *)&W, (void *)&x, &y, (void *)&none, (void *)&none, &M, &K, &nb, &rows, &unroll};
        return launch(c, &cfg, k, args, g->pdl);
    }
    default: {  /* V_FLOOR */
        long long n16 = (long long)(p->bytes / 16);
        uint32_t *out = c->dout;
        int pdl = g->pdl;
        void *args[] = {(void *)&W, &n16, &out, &unroll, &pdl};
        return launch(c, &cfg, k, args, pdl);
    }
    }
}


/* ---- checking ---- */

/* One call of g (with its PDL setting) with copy 0 into a poisoned output,
 * compared with the reference: 1 when right; 0 with the reason in why. An
 * execution error (sticky on a GPU) also marks the run broken. */
static int check_call(ctx *c, const problem *p, int v, const config *g, char *why, size_t why_len)
{
    size_t ny = (size_t)p->nb * p->sh->M;
    if (v == V_FLOOR) {
        dsm_memset(c->dout, 0xFF, (size_t)g->split * 4);
    } else {
        dsm_memset(c->dy, 0xFF, ny * 4);
        /* the workspace too, every float this configuration uses: a partial
         * nobody wrote must not pass for a previous configuration's */
        size_t ws = 0, tiles = g->rows > 0 ? ((size_t)p->sh->M + (size_t)g->rows - 1) / (size_t)g->rows : 0;
        if (v == V_TWOKERNEL)
            ws = (size_t)g->split * ny;
        else if (v == V_CLUSTER_GMEM)
            ws = tiles * (size_t)g->split * (size_t)g->rows * 8;
        if (ws > c->ws_floats) {
            snprintf(why, why_len, "needs %zu floats of workspace, the run has %zu", ws, c->ws_floats);
            return 0;
        }
        if (ws)
            dsm_memset(c->dws, 0xFF, ws * 4);
    }
    dsm_error_t err = dsm_device_synchronize();     /* the poison is in place before the call */
    if (err == dsmSuccess)
        err = gemv_enqueue_call(c, p, v, g, 0);
    if (err == dsmSuccess)
        err = dsm_stream_synchronize(c->s);
    if (err != dsmSuccess) {
        snprintf(why, why_len, "the call failed: %s (%s)", dsm_error_name(err), dsm_error_string(err));
        if (err != dsmErrorInvalidValue && err != dsmErrorInvalidClusterSize && err != dsmErrorNotSupported)
            c->broken = 1;  /* an execution error is sticky on a GPU */
        return 0;
    }
    if (v == V_FLOOR) {
        uint32_t *sums = malloc((size_t)g->split * 4), got = 0;
        dsm_memcpy_to_host(sums, c->dout, (size_t)g->split * 4);
        for (int i = 0; i < g->split; ++i)
            got += sums[i];
        free(sums);
        uint32_t want = gemv_pool_word_sum(c, p->bytes);
        if (got != want) {
            snprintf(why, why_len, "the block sums add up to 0x%08x, the buffer's words to 0x%08x", got, want);
            return 0;
        }
        return 1;
    }
    float *y = malloc(ny * 4);
    dsm_memcpy_to_host(y, c->dy, ny * 4);
    int ok = 1;
    for (size_t i = 0; i < ny && ok; ++i) {
        double want = p->ref[i], tol = GEMV_TOL * p->mag[i] + 1e-6;
        if (!(fabs((double)y[i] - want) <= tol)) {
            snprintf(why, why_len, "y[token %zu][row %zu] = %.8g, the reference %.8g (tolerance %.2g)",
                     i / (size_t)p->sh->M, i % (size_t)p->sh->M, (double)y[i], want, tol);
            ok = 0;
        }
    }
    free(y);
    return ok;
}

/* How many clusters (CTAs for a plain launch) of g's main kernel can be resident; -1 when unknown. */
int gemv_max_active(const problem *p, int v, const config *g)
{
    if (v == V_CUBLAS)
        return 0;
    dsm_kernel_t k;
    dsm_launch_config cfg = main_launch(p, v, g, &k);
    if (cfg.cluster.x == 0)     /* a plain launch: ask about clusters of one, i.e. CTAs */
        cfg.cluster = DSM_DIM3(1, 1, 1);
    cfg.grid = cfg.cluster;
    int n = 0;
    if (dsm_occupancy_max_active_clusters(&n, k, &cfg) != dsmSuccess)
        n = -1;
    return n;
}

/* ---- the point as a bench_variant ---- */

static int point_check(void *pt, char *why, size_t why_len)
{
    gemv_point *q = pt;
    return !q->c->broken && check_call(q->c, q->p, q->v, &q->g, why, why_len);
}

static dsm_error_t point_call(void *pt, int i, dsm_stream_t stream, int pdl)
{
    gemv_point *q = pt;
    (void)stream;   /* the run's stream, c->s, is the one bench_time_variants is given */
    config g = q->g;
    g.pdl = pdl;
    return gemv_enqueue_call(q->c, q->p, q->v, &g, i % q->p->ncopies);
}

/* Fills pt and returns the variant that checks and times variant v's
 * configuration g (g->pdl: launched with PDL) for problem p: p->ncalls
 * consecutive calls over the pool's copies, as one graph or from the host. */
bench_variant gemv_point_variant(gemv_point *pt, ctx *c, const problem *p, int v, const config *g, int graph)
{
    pt->c = c;
    pt->p = p;
    pt->v = v;
    pt->g = *g;
    snprintf(pt->name, sizeof pt->name, "%s %dx%d nb %d %s split %d rows %d threads %d unroll %d%s%s%s", p->sh->name,
             p->sh->M, p->sh->K, p->nb, gemv_vname[v], g->split, g->rows, g->threads, g->unroll,
             g->cattr ? " cluster-attr" : "", g->pdl ? " pdl" : "", graph ? "" : " host launches");
    bench_variant var = {pt->name, gemv_variant_kernel(v, p->nb), pt, point_check, point_call, g->pdl, graph,
                         p->ncalls, NULL};
    return var;
}
