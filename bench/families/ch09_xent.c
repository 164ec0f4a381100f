/* ch09_xent.c: make bench's chapter 9: fused cross-entropy (forward and backward) over large vocabularies: the cluster kernel against one CTA per row, two kernels, its global-memory twin, the copy floor and PyTorch, checked, then timed as graphs in rotating order with paired ratios. */
// bench-kernels: ch09/xent_cluster.cu ch09/xent_rowpass.cu ch09/xent_twokernel.cu ch09/xent_gmem.cu ch09/xent_copy.cu
// bench-own-kernels: bench/kernels/ch09_fill.cu
/*
 * Per shape (V x M, bf16 or fp32): logits filled on the device (ch09_fill.h),
 * labels random with one row in 16 ignored (-100), a rotating pool of copies
 * of at least 4 x L2 (logits and gradient). Each design is swept (the cluster
 * kernel over cluster size x threads, one CTA per row over threads, two
 * kernels over the split), its best configuration kept; then the copy floor,
 * the best of every design, the plan's choice and the global twins (the
 * cluster kernel's split and threads, the partials through global memory:
 * launched as clusters, and cooperatively where the grid fits) are timed
 * together, round by round in rotating order (bench_time_variants), each
 * against the cluster kernel as paired per-round ratios. Every variant is
 * checked first into poisoned outputs: on the GPU every loss and six whole
 * rows of gradient against a double-precision reference, on the emulator
 * (dry run) every element, plus the mechanism (each logit read from global
 * memory once by the cluster kernel, no atomics). PyTorch (F.cross_entropy
 * forward and backward, eager and torch.compile) runs from
 * bench/torch/xent_torch.py after the kernels, on the same shapes.
 * BENCH_CH09_NCU=1 (make bench NCU=1: bench/driver/ncu.sh) runs three
 * large shapes, every design's checked launch alone, logged in order for
 * the DRAM counters of ch09_xent/ncu_counters.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dsm_emu_control.h"
#include "ch09/xent_plan.h"
#include "ch09/xent_kernels.h"
#include "kernels/ch09_fill.h"

DSM_DECLARE_KERNEL(ch09_fill);

/* The summary keys the driver must know: the headlines two runs must agree on. */
const bench_key_info bench_keys_ch09_xent[] = {
    {"xent.headline.", 1, NULL},
    {NULL, 0, NULL},
};

enum { K_COPY, K_CLUSTER, K_ROWPASS, K_TWOK, K_GMEM_CL, K_GMEM_COOP };
static const char *const kind_name[] = {"copy", "cluster", "rowpass", "twokernel", "gmem_cluster", "gmem_coop"};

#define XV_MAX 32       /* variants of one timing */
#define SAMPLE_ROWS 6   /* rows checked element by element on the GPU */

typedef struct xshape {
    int V, M, dtype;
} xshape;

typedef struct xctx {
    bench *b;
    dsm_stream_t s;
    int V, M, dtype, copies, dry, sm;
    size_t bytes;           /* one copy of the logits (and of the gradient) */
    char *x, *g;            /* copies x bytes each */
    int *labels, *hl;       /* device, host */
    float *loss, scale;
    void *ws;               /* M x 16 statistics (two kernels, twins) */
    uint32_t *flags[XV_MAX];/* a twin's arrival flags, one set per variant */
    char tag[48];
} xctx;

typedef struct xvar {
    xctx *c;
    int kind, C, T, slot;
    char name[96], cfg[24];
    const char *kernel;
} xvar;

static const char *kname(int kind, int dtype)
{
    static const char *const n[][2] = {{"xent_copy", "xent_copy"},
                                       {"xent_cluster_bf16", "xent_cluster_f32"},
                                       {"xent_rowpass_bf16", "xent_rowpass_f32"},
                                       {"xent_split_stat_bf16", "xent_split_stat_f32"},
                                       {"xent_gmem_bf16", "xent_gmem_f32"},
                                       {"xent_gmem_bf16", "xent_gmem_f32"}};
    return n[kind][dtype];
}

/* Enqueues call i (copy i % copies) of v on stream. */
static dsm_error_t xv_call(void *ctx, int i, dsm_stream_t stream, int pdl)
{
    xvar *v = ctx;
    xctx *c = v->c;
    size_t off = (size_t)(i % c->copies) * c->bytes;
    const void *x = c->x + off;
    void *g = c->g + off;
    int M = c->M, V = c->V, C = v->C, dt = c->dtype;
    float sc = c->scale;
    dsm_launch_options opt = {stream, pdl, 0};
    dsm_launch_config cfg = {DSM_DIM3(1, 1, 1), DSM_DIM3((unsigned)v->T, 1, 1), DSM_DIM3(0, 0, 0), 0};
    switch (v->kind) {
    case K_COPY: {
        size_t n = c->bytes / 16;
        cfg.grid = DSM_DIM3((unsigned)(c->dry ? 2 : c->sm * 8), 1, 1);
        void *a[] = {&x, &g, &n};
        return dsm_launch_ex(&cfg, &opt, DSM_KERNEL(xent_copy), a);
    }
    case K_CLUSTER: {
        cfg.grid = DSM_DIM3((unsigned)(C * M), 1, 1);
        cfg.cluster = DSM_DIM3((unsigned)C, 1, 1);
        cfg.dynamic_smem_bytes = xent_cluster_smem(V, dt, C, v->T);
        void *a[] = {&x, &c->labels, &g, &c->loss, &M, &V, &sc};
        return dsm_launch_ex(&cfg, &opt, xent_cluster_kernel(dt), a);
    }
    case K_ROWPASS: {
        cfg.grid = DSM_DIM3((unsigned)M, 1, 1);
        cfg.dynamic_smem_bytes = xent_fold_smem(v->T);
        void *a[] = {&x, &c->labels, &g, &c->loss, &M, &V, &sc};
        return dsm_launch_ex(&cfg, &opt, dt == XENT_BF16 ? DSM_KERNEL(xent_rowpass_bf16) : DSM_KERNEL(xent_rowpass_f32),
                             a);
    }
    case K_TWOK: {
        cfg.grid = DSM_DIM3((unsigned)(C * M), 1, 1);
        cfg.dynamic_smem_bytes = xent_fold_smem(v->T);
        void *a1[] = {&x, &c->ws, &C, &V};
        dsm_error_t e = dsm_launch_ex(
            &cfg, &opt, dt == XENT_BF16 ? DSM_KERNEL(xent_split_stat_bf16) : DSM_KERNEL(xent_split_stat_f32), a1);
        if (e != dsmSuccess)
            return e;
        void *a2[] = {&x, &c->labels, &c->ws, &g, &c->loss, &C, &V, &sc};
        return dsm_launch_ex(&cfg, &opt,
                             dt == XENT_BF16 ? DSM_KERNEL(xent_split_grad_bf16) : DSM_KERNEL(xent_split_grad_f32), a2);
    }
    default: {  /* the twins */
        cfg.grid = DSM_DIM3((unsigned)(C * M), 1, 1);
        cfg.dynamic_smem_bytes = xent_cluster_smem(V, dt, C, v->T);
        if (v->kind == K_GMEM_CL)
            cfg.cluster = DSM_DIM3((unsigned)C, 1, 1);
        else
            opt.cooperative = 1;
        uint32_t *fl = c->flags[v->slot];
        void *a[] = {&x, &c->labels, &g, &c->loss, &c->ws, &fl, &M, &V, &C, &sc};
        return dsm_launch_ex(&cfg, &opt, dt == XENT_BF16 ? DSM_KERNEL(xent_gmem_bf16) : DSM_KERNEL(xent_gmem_f32), a);
    }
    }
}

/* Row r's logits of copy 0, as the device holds them (bf16-rounded). */
static void host_row(const xctx *c, int r, float *out)
{
    for (int i = 0; i < c->V; ++i) {
        float f = ch09_logit(0, (uint32_t)r, (uint32_t)i, (uint32_t)c->V);
        if (c->dtype == XENT_BF16)
            f = xent_bits_f32(xent_bf16_bits(f) << 16);
        out[i] = f;
    }
}

/* Checks the loss and gradient of row r against a double-precision reference. */
static int check_row(const xctx *c, int r, const float *loss, const void *grow, float *x, char *why, size_t len)
{
    host_row(c, r, x);
    double mx = -INFINITY, s = 0;
    for (int i = 0; i < c->V; ++i)
        mx = x[i] > mx ? x[i] : mx;
    for (int i = 0; i < c->V; ++i)
        s += exp((double)x[i] - mx);
    int l = c->hl[r];
    double want = l == XENT_IGNORE ? 0.0 : mx + log(s) - x[l];
    if (!(fabs(loss[r] - want) <= 1e-4 * fmax(1.0, fabs(want)))) {
        snprintf(why, len, "row %d: loss %.9g, want %.9g", r, (double)loss[r], want);
        return 0;
    }
    double rel = c->dtype == XENT_BF16 ? 1.0 / 64 : 1e-4;
    for (int i = 0; i < c->V; ++i) {
        double w = l == XENT_IGNORE ? 0.0 : (exp((double)x[i] - mx) / s - (i == l)) * c->scale;
        double got = c->dtype == XENT_BF16 ? (double)xent_bits_f32((uint32_t)((const uint16_t *)grow)[i] << 16)
                                           : (double)((const float *)grow)[i];
        if (!(fabs(got - w) <= rel * fabs(w) + 1e-6 * c->scale)) {
            snprintf(why, len, "row %d, element %d: gradient %.9g, want %.9g", r, i, got, w);
            return 0;
        }
    }
    return 1;
}

/* The dry run's mechanism check of the cluster kernel: every CTA read its
 * slice of the logits exactly once, wrote its slice of the gradient once,
 * used no atomics. */
static int check_mechanism(const xvar *v, char *why, size_t len)
{
    xctx *c = v->c;
    int vc = xent_row_chunks(c->V, c->dtype), lo, hi;
    for (int blk = 0; blk < v->C * c->M; ++blk) {
        dsm_emu_gmem_use x, g;
        dsm_emu_counts n;
        if (!dsm_emu_last_gmem_use((uint32_t)blk, c->x, &x) || !dsm_emu_last_gmem_use((uint32_t)blk, c->g, &g) ||
            !dsm_emu_last_counts((uint32_t)blk, &n)) {
            snprintf(why, len, "no counts for CTA %d", blk);
            return 0;
        }
        xent_slice(vc, v->C, blk % v->C, &lo, &hi);
        uint64_t want = (uint64_t)(hi - lo) * 16u;
        if (x.ld_bytes != want || g.st_bytes != want || n.gmem_atom_ops != 0) {
            snprintf(why, len, "CTA %d read %llu bytes of logits and wrote %llu of gradient (its slice: %llu each), "
                     "%llu atomics", blk, (unsigned long long)x.ld_bytes, (unsigned long long)g.st_bytes,
                     (unsigned long long)want, (unsigned long long)n.gmem_atom_ops);
            return 0;
        }
    }
    return 1;
}

/* bench_variant's check: outputs poisoned, one call on copy 0, compared. */
static int xv_check(void *ctx, char *why, size_t len)
{
    xvar *v = ctx;
    xctx *c = v->c;
    if (dsm_memset(c->g, 0xFF, c->bytes) != dsmSuccess || dsm_memset(c->loss, 0xFF, (size_t)c->M * 4) != dsmSuccess) {
        snprintf(why, len, "memset failed");
        return 0;
    }
    dsm_error_t e = xv_call(v, 0, c->s, 0);
    if (e == dsmSuccess)
        e = dsm_stream_synchronize(c->s);
    if (e != dsmSuccess) {
        snprintf(why, len, "%s: %s", v->name, dsm_error_name(e));
        return 0;
    }
    if (v->kind == K_COPY) {
        size_t n = c->bytes < ((size_t)16 << 20) ? c->bytes : ((size_t)16 << 20);
        char *a = malloc(n), *bb = malloc(n);
        dsm_memcpy_to_host(a, c->x, n);
        dsm_memcpy_to_host(bb, c->g, n);
        int ok = memcmp(a, bb, n) == 0;
        free(a);
        free(bb);
        if (!ok)
            snprintf(why, len, "%s: the copy differs from its source", v->name);
        return ok;
    }
    float *loss = malloc((size_t)c->M * 4), *x = malloc((size_t)c->V * 4);
    size_t rowb = c->bytes / (size_t)c->M;
    void *grow = malloc(rowb);
    dsm_memcpy_to_host(loss, c->loss, (size_t)c->M * 4);
    int ok = 1;
    for (int r = 0; r < c->M && ok; ++r)    /* every loss: 0 exactly for an ignored row, finite otherwise */
        if (c->hl[r] == XENT_IGNORE ? loss[r] != 0.0f : !isfinite(loss[r])) {
            snprintf(why, len, "%s: row %d: loss %g", v->name, r, (double)loss[r]);
            ok = 0;
        }
    int rows[SAMPLE_ROWS] = {0, 1, c->M / 3, c->M / 2, c->M - 2, c->M - 1};
    for (int r = 0; r < (c->dry ? c->M : SAMPLE_ROWS) && ok; ++r) {
        int row = c->dry ? r : rows[r];
        if (row < 0 || row >= c->M)
            continue;
        dsm_memcpy_to_host(grow, c->g + (size_t)row * rowb, rowb);
        char w[160];
        if (!check_row(c, row, loss, grow, x, w, sizeof w)) {
            snprintf(why, len, "%s: %s", v->name, w);
            ok = 0;
        }
    }
    if (ok && c->dry && v->kind == K_CLUSTER && !check_mechanism(v, why, len))
        ok = 0;
    free(loss);
    free(x);
    free(grow);
    return ok;
}

/* Checks and times the variants v[0..n) together; returns how many were timed. */
static int time_set(xctx *c, xvar *v, int n, int rounds, bench_variant_result *res)
{
    bench_variant bv[XV_MAX];
    for (int i = 0; i < n; ++i)
        bv[i] = (bench_variant){v[i].name, v[i].kernel, &v[i], xv_check, xv_call, 0, 1,
                                c->copies < 4 ? 4 : c->copies, NULL};
    return bench_time_variants(c->b, c->s, bv, n, 1, rounds, res);
}

static xvar mkvar(xctx *c, int kind, int C, int T, int *slot)
{
    xvar v;
    memset(&v, 0, sizeof v);
    v.c = c, v.kind = kind, v.C = C, v.T = T;
    v.kernel = kname(kind, c->dtype);
    if (kind == K_COPY)
        snprintf(v.cfg, sizeof v.cfg, "-");
    else if (kind == K_ROWPASS)
        snprintf(v.cfg, sizeof v.cfg, "t%d", T);
    else
        snprintf(v.cfg, sizeof v.cfg, "c%d_t%d", C, T);
    snprintf(v.name, sizeof v.name, "%s %s, %s", kind_name[kind], v.cfg, c->tag);
    if (kind == K_GMEM_CL || kind == K_GMEM_COOP) {
        v.slot = (*slot)++;
        dsm_memset(c->flags[v.slot], 0, (size_t)c->M * XENT_MAX_CTAS * 4);
    }
    return v;
}

/* The shared-memory ceiling of the cluster kernel and its global twins at the most any launch of
 * theirs asks (an attribute holds for every later launch), and clusters above 8. */
static void prepare_ceilings(int dtype)
{
    dsm_kernel_t tw = dtype == XENT_BF16 ? DSM_KERNEL(xent_gmem_bf16) : DSM_KERNEL(xent_gmem_f32);
    xent_cluster_prepare(dtype, XENT_MAX_CTAS, XENT_SMEM_MAX);
    dsm_func_set_max_dynamic_smem(tw, XENT_SMEM_MAX);
    dsm_func_set_non_portable_cluster_size_allowed(tw, 1);
}

/* The best (lowest median) timed variant of v[0..n), or -1. */
static int best_of(const xvar *v, const bench_variant_result *r, int n)
{
    int best = -1;
    for (int i = 0; i < n; ++i)
        if (r[i].status == BENCH_VARIANT_TIMED && (best < 0 || r[i].stats.median < r[best].stats.median))
            best = i;
    (void)v;
    return best;
}

typedef struct xout {       /* one shape's results, for the summary and the report */
    xshape sh;
    char tag[48], cfg[6][24], plan[24];
    double us[6], plan_us, vs[6], pct_copy, torch_us[2];
    int have[6];
} xout;

static void sweep_csv(bench_csv *csv, const xctx *c, const xvar *v, const bench_variant_result *r, int n)
{
    for (int i = 0; i < n; ++i)
        bench_csv_row(csv, "%s,%d,%d,%s,%s,%s,%s,%.3f,%.3f,%.3f", c->dtype == XENT_BF16 ? "bf16" : "f32", c->V, c->M,
                      kind_name[v[i].kind], v[i].cfg, v[i].kernel, bench_variant_status_name(r[i].status),
                      r[i].stats.median, r[i].stats.min, r[i].stats.max);
}

/* A shape's buffers, filled: the logits (copies of them, or copy 0 alone for one_copy), the gradient,
 * labels, losses and the statistics workspace. 0 when the device is out of memory (a failure, counted). */
static int shape_setup(bench *b, dsm_stream_t s, xshape sh, int one_copy, xctx *cp)
{
    xctx c;
    memset(&c, 0, sizeof c);
    c.b = b, c.s = s, c.V = sh.V, c.M = sh.M, c.dtype = sh.dtype, c.dry = bench_dry(b), c.sm = bench_sm_count(b);
    int es = sh.dtype == XENT_BF16 ? 2 : 4;
    c.bytes = (size_t)sh.M * (size_t)sh.V * (size_t)es;
    size_t l2 = 0;
    if (!c.dry && dsm_device_l2_bytes(&l2) != dsmSuccess)
        l2 = 60u << 20;
    size_t pool = (size_t)BENCH_ROTATE_L2 * l2;
    c.copies = c.dry ? 2 : (int)((pool + c.bytes - 1) / c.bytes);
    if (c.copies < 1)
        c.copies = 1;
    if (c.copies > 1024)
        c.copies = 1024;
    if (one_copy)
        c.copies = 1;
    snprintf(c.tag, sizeof c.tag, "%s_v%d_m%d", sh.dtype == XENT_BF16 ? "bf16" : "f32", sh.V, sh.M);
    bench_progress(b, "%s: %d copies of %.1f MB", c.tag, c.copies, (double)c.bytes / 1e6);
    if (dsm_malloc((void **)&c.x, c.bytes * (size_t)c.copies) != dsmSuccess ||
        dsm_malloc((void **)&c.g, c.bytes * (size_t)c.copies) != dsmSuccess ||
        dsm_malloc((void **)&c.labels, (size_t)sh.M * 4) != dsmSuccess ||
        dsm_malloc((void **)&c.loss, (size_t)sh.M * 4) != dsmSuccess ||
        dsm_malloc(&c.ws, (size_t)sh.M * XENT_MAX_CTAS * XENT_STAT_BYTES) != dsmSuccess) {
        bench_fail(b, "ch09_xent %s: out of device memory", c.tag);
        return 0;
    }
    for (int k = 0; k < c.copies; ++k) {
        void *dst = c.x + (size_t)k * c.bytes;
        int rows = sh.M, V = sh.V, bf = sh.dtype == XENT_BF16;
        uint32_t copy = (uint32_t)k;
        dsm_launch_config fc = {DSM_DIM3((unsigned)(c.dry ? 4 : c.sm * 4), 1, 1), DSM_DIM3(c.dry ? 32 : 256, 1, 1),
                                DSM_DIM3(0, 0, 0), 0};
        void *a[] = {&dst, &rows, &V, &bf, &copy};
        dsm_launch_ex(&fc, NULL, DSM_KERNEL(ch09_fill), a);
    }
    uint64_t st = 0x9E3779B97F4A7C15ull ^ (uint64_t)sh.V * 131u ^ (uint64_t)sh.M;
    c.hl = malloc((size_t)sh.M * sizeof(int));
    int count = 0;
    for (int r = 0; r < sh.M; ++r) {
        int l = (int)(bench_xorshift64(&st) % (uint64_t)sh.V);
        if (r % 5 == 2 && l >= sh.V / 3 && l < sh.V / 3 + sh.V / 16)
            l = 0;  /* never a label at -inf */
        c.hl[r] = (r > 0 && bench_xorshift64(&st) % 16 == 0) ? XENT_IGNORE : l;
        count += c.hl[r] != XENT_IGNORE;
    }
    c.scale = 1.0f / (float)count;
    dsm_memcpy_to_device(c.labels, c.hl, (size_t)sh.M * 4);
    dsm_device_synchronize();
    *cp = c;
    return 1;
}

static void shape_free(xctx *c, int nslots)
{
    for (int i = 0; i < nslots; ++i)
        dsm_free(c->flags[i]);
    dsm_free(c->x);
    dsm_free(c->g);
    dsm_free(c->labels);
    dsm_free(c->loss);
    dsm_free(c->ws);
    free(c->hl);
}

/* 1 when the cooperative twin's grid (C x M CTAs of T threads) is resident at once (never in the dry run). */
static int coop_fits(const xctx *c, int C, int T)
{
    int blocks = 0;
    dsm_launch_config q = {DSM_DIM3((unsigned)(C * c->M), 1, 1), DSM_DIM3((unsigned)T, 1, 1), DSM_DIM3(1, 1, 1),
                           xent_cluster_smem(c->V, c->dtype, C, T)};
    dsm_kernel_t k = c->dtype == XENT_BF16 ? DSM_KERNEL(xent_gmem_bf16) : DSM_KERNEL(xent_gmem_f32);
    return !c->dry && dsm_occupancy_max_active_clusters(&blocks, k, &q) == dsmSuccess && (long long)C * c->M <= blocks;
}

/* One shape: sweep, then the comparison. */
static void run_shape(bench *b, dsm_stream_t s, xshape sh, int rounds, bench_csv *sweep, bench_csv *main_csv,
                      xout *o)
{
    memset(o, 0, sizeof *o);
    o->sh = sh;
    xctx c;
    if (!shape_setup(b, s, sh, 0, &c))
        return;
    snprintf(o->tag, sizeof o->tag, "%s", c.tag);
    xvar v[XV_MAX];
    bench_variant_result r[XV_MAX];
    int n = 0, slot = 0, sw_rounds = c.dry ? 1 : 2;
    /* the cluster kernel's sweep: every cluster size up to 8, and 16; for each the plan's threads
     * (xent_plan_threads) and 64 more */
    prepare_ceilings(sh.dtype);
    for (int C = 1; C <= XENT_MAX_CTAS; C = C < 8 ? C + 1 : 2 * C)
        for (int j = 0; j < 2; ++j) {
            int T0 = xent_plan_threads(sh.V, sh.dtype, C), T = c.dry ? 64 : T0 + 64 * j;
            if ((c.dry && (C > 4 || C == 3 || j > 0)) || T0 == 0 || !xent_cluster_fits(sh.V, sh.dtype, C, T))
                continue;
            dsm_launch_config q = {DSM_DIM3((unsigned)(C * sh.M), 1, 1), DSM_DIM3((unsigned)T, 1, 1),
                                   DSM_DIM3((unsigned)C, 1, 1), xent_cluster_smem(sh.V, sh.dtype, C, T)};
            int act = 0;
            if (dsm_occupancy_max_active_clusters(&act, xent_cluster_kernel(sh.dtype), &q) != dsmSuccess || act < 1)
                continue;
            v[n++] = mkvar(&c, K_CLUSTER, C, T, &slot);
        }
    memset(r, 0, sizeof r);
    time_set(&c, v, n, sw_rounds, r);
    sweep_csv(sweep, &c, v, r, n);
    int bc = best_of(v, r, n);
    xvar best_cluster = bc >= 0 ? v[bc] : mkvar(&c, K_CLUSTER, 1, 128, &slot);
    /* one CTA per row: threads */
    n = 0;
    static const int Tr[] = {256, 512, 1024};
    for (int j = 0; j < (c.dry ? 1 : 3); ++j)
        v[n++] = mkvar(&c, K_ROWPASS, 1, c.dry ? 64 : Tr[j], &slot);
    memset(r, 0, sizeof r);
    time_set(&c, v, n, sw_rounds, r);
    sweep_csv(sweep, &c, v, r, n);
    int br = best_of(v, r, n);
    xvar best_row = br >= 0 ? v[br] : v[0];
    /* two kernels: the split */
    n = 0;
    static const int Cw[] = {2, 4, 8};
    for (int j = 0; j < (c.dry ? 2 : 3); ++j)
        v[n++] = mkvar(&c, K_TWOK, Cw[j], c.dry ? 64 : 256, &slot);
    memset(r, 0, sizeof r);
    time_set(&c, v, n, sw_rounds, r);
    sweep_csv(sweep, &c, v, r, n);
    int bt = best_of(v, r, n);
    xvar best_two = bt >= 0 ? v[bt] : v[0];

    /* the comparison */
    xent_plan plan;
    int have_plan = xent_plan_make(sh.M, sh.V, sh.dtype, c.sm, &plan) == dsmSuccess;
    prepare_ceilings(sh.dtype);     /* the plan left the ceiling at its own shared memory */
    int nslots = 0;
    for (int i = 0; i < 3; ++i) {
        if (dsm_malloc((void **)&c.flags[i], (size_t)sh.M * XENT_MAX_CTAS * 4) != dsmSuccess) {
            bench_fail(b, "ch09_xent %s: out of device memory", c.tag);
            return;
        }
        nslots++;
    }
    slot = 0;
    n = 0;
    int idx[6] = {-1, -1, -1, -1, -1, -1}, iplan = -1;
    idx[K_COPY] = n, v[n++] = mkvar(&c, K_COPY, 1, 512, &slot);
    if (bc >= 0)
        idx[K_CLUSTER] = n, v[n++] = best_cluster;
    if (have_plan && bc >= 0 && (plan.cluster != best_cluster.C || plan.threads != best_cluster.T)) {
        iplan = n, v[n++] = mkvar(&c, K_CLUSTER, plan.cluster, plan.threads, &slot);
        snprintf(v[iplan].name, sizeof v[iplan].name, "cluster (the plan) c%d_t%d, %s", plan.cluster, plan.threads,
                 c.tag);
    }
    if (br >= 0)
        idx[K_ROWPASS] = n, v[n++] = best_row;
    if (bt >= 0)
        idx[K_TWOK] = n, v[n++] = best_two;
    if (bc >= 0 && best_cluster.C > 1) {
        idx[K_GMEM_CL] = n, v[n++] = mkvar(&c, K_GMEM_CL, best_cluster.C, best_cluster.T, &slot);
        if (coop_fits(&c, best_cluster.C, best_cluster.T))
            idx[K_GMEM_COOP] = n, v[n++] = mkvar(&c, K_GMEM_COOP, best_cluster.C, best_cluster.T, &slot);
    }
    memset(r, 0, sizeof r);
    time_set(&c, v, n, c.dry ? 1 : rounds, r);
    int ic = idx[K_CLUSTER];
    for (int i = 0; i < n; ++i) {
        bench_stats pr = {0, 0, 0, 0};
        if (ic >= 0)
            pr = bench_pair_ratio(&r[i], &r[ic]);
        double cp = idx[K_COPY] >= 0 && r[idx[K_COPY]].status == BENCH_VARIANT_TIMED && r[i].stats.median > 0
                        ? r[i].stats.median / r[idx[K_COPY]].stats.median
                        : 0;
        double tb = r[i].stats.median > 0 ? 2.0 * (double)c.bytes / (r[i].stats.median * 1e6) : 0;
        bench_csv_row(main_csv, "%s,%d,%d,%s,%s,%s,%s,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f",
                      c.dtype == XENT_BF16 ? "bf16" : "f32", c.V, c.M, i == iplan ? "cluster_plan" : kind_name[v[i].kind],
                      v[i].cfg, v[i].kernel, bench_variant_status_name(r[i].status), r[i].stats.median,
                      r[i].stats.min, r[i].stats.max, cp, tb, pr.median, pr.min, pr.max);
    }
    for (int k = 0; k < 6; ++k) {
        int i = idx[k];
        if (i < 0 || r[i].status != BENCH_VARIANT_TIMED)
            continue;
        o->have[k] = 1;
        o->us[k] = r[i].stats.median;
        snprintf(o->cfg[k], sizeof o->cfg[k], "%s", v[i].cfg);
        if (ic >= 0)
            o->vs[k] = bench_pair_ratio(&r[i], &r[ic]).median;
    }
    if (ic >= 0 && idx[K_COPY] >= 0 && o->have[K_COPY] && o->have[K_CLUSTER])
        o->pct_copy = 100.0 * bench_pair_ratio(&r[idx[K_COPY]], &r[ic]).median;
    if (iplan >= 0 && r[iplan].status == BENCH_VARIANT_TIMED) {
        o->plan_us = r[iplan].stats.median;
        snprintf(o->plan, sizeof o->plan, "%s", v[iplan].cfg);
    } else if (have_plan && o->have[K_CLUSTER]) {
        o->plan_us = o->us[K_CLUSTER];
        snprintf(o->plan, sizeof o->plan, "%s", o->cfg[K_CLUSTER]);
    }
    shape_free(&c, nslots);
}

/* The dry run's shapes (tiny, every element checked on the emulator), into sh; returns their number. */
static int dry_shapes(xshape *sh)
{
    sh[0] = (xshape){1000, 5, XENT_BF16};
    sh[1] = (xshape){264, 3, XENT_F32};
    return 2;
}

/* One shape under Nsight Compute (BENCH_CH09_NCU=1): one copy of the logits, and of every design only
 * its checked launch, in this order: the copy, the cluster kernel at the plan's configuration, one CTA
 * per row at 1024 threads (its best at most large shapes), two kernels split in 2 at 256 threads, the
 * twin at the plan's configuration, and the cooperative twin where its grid fits. Each launch is a row
 * of `log` (ch09-ncu-launches.csv) in the order made, with its check's result and the bytes of logits,
 * so that ncu_counters.c can name every profiled launch. */
static void ncu_shape(bench *b, dsm_stream_t s, xshape sh, bench_csv *log)
{
    xctx c;
    if (!shape_setup(b, s, sh, 1, &c))
        return;
    int nslots = 0;
    for (; nslots < 2; ++nslots)
        if (dsm_malloc((void **)&c.flags[nslots], (size_t)sh.M * XENT_MAX_CTAS * 4) != dsmSuccess) {
            bench_fail(b, "ch09_xent %s: out of device memory", c.tag);
            shape_free(&c, nslots);
            return;
        }
    xent_plan plan;
    int have_plan = xent_plan_make(sh.M, sh.V, sh.dtype, c.sm, &plan) == dsmSuccess;
    if (!have_plan)
        bench_fail_kernel(b, kname(K_CLUSTER, sh.dtype), "ch09_xent %s: no plan for the cluster kernel [kernel %s]",
                          c.tag, kname(K_CLUSTER, sh.dtype));
    prepare_ceilings(sh.dtype);
    xvar v[6];
    int n = 0, slot = 0;
    v[n++] = mkvar(&c, K_COPY, 1, 512, &slot);
    if (have_plan)
        v[n++] = mkvar(&c, K_CLUSTER, plan.cluster, plan.threads, &slot);
    v[n++] = mkvar(&c, K_ROWPASS, 1, c.dry ? 64 : 1024, &slot);
    v[n++] = mkvar(&c, K_TWOK, 2, c.dry ? 64 : 256, &slot);
    if (have_plan && plan.cluster > 1) {
        v[n++] = mkvar(&c, K_GMEM_CL, plan.cluster, plan.threads, &slot);
        if (coop_fits(&c, plan.cluster, plan.threads))
            v[n++] = mkvar(&c, K_GMEM_COOP, plan.cluster, plan.threads, &slot);
    }
    const char *dt = sh.dtype == XENT_BF16 ? "bf16" : "f32";
    for (int i = 0; i < n; ++i) {
        if (!bench_kernel_ok(b, v[i].kernel))
            continue;   /* failed on an earlier shape: not launched again */
        char why[600] = "";
        int ok = xv_check(&v[i], why, sizeof why);
        if (!ok)
            bench_fail_kernel(b, v[i].kernel, "%s: wrong result: %s [kernel %s]", v[i].name,
                              why[0] ? why : "its check failed", v[i].kernel);
        const char *k[2] = {v[i].kernel, NULL};
        if (v[i].kind == K_TWOK)
            k[1] = sh.dtype == XENT_BF16 ? "xent_split_grad_bf16" : "xent_split_grad_f32";
        for (int j = 0; j < 2 && k[j]; ++j)
            bench_csv_row(log, "%s,%d,%d,%s,%s,%s,%s,%zu", dt, sh.V, sh.M, kind_name[v[i].kind], v[i].cfg, k[j],
                          ok ? "ok" : "wrong", c.bytes);
        bench_progress(b, "%s: %s", v[i].name, ok ? "checked" : "wrong");
    }
    shape_free(&c, nslots);
}

/* BENCH_CH09_NCU=1 (set by bench/driver/ncu.sh for make bench NCU=1): the shapes whose DRAM traffic
 * ncu_counters.c reports (the dry run's own shapes on the emulator), checked launches only: no sweep,
 * no timing, no PyTorch. */
static int ncu_run(bench *b)
{
    xshape sh[3];
    int n = 0;
    if (bench_dry(b)) {
        n = dry_shapes(sh);
    } else {
        sh[n++] = (xshape){128256, 4096, XENT_BF16};
        sh[n++] = (xshape){128256, 4096, XENT_F32};
        sh[n++] = (xshape){262144, 4096, XENT_BF16};
    }
    dsm_stream_t s;
    if (dsm_stream_create(&s) != dsmSuccess) {
        bench_fail(b, "ch09_xent: no stream");
        return 1;
    }
    bench_csv *log = bench_csv_open(b, "ch09-ncu-launches", "dtype,V,M,variant,config,kernel,status,logit_bytes");
    for (int i = 0; i < n; ++i)
        ncu_shape(b, s, sh[i], log);
    bench_csv_close(log);
    bench_report(b, "## Chapter 9 under Nsight Compute\n\n`BENCH_CH09_NCU=1`: every design's checked launch on %d "
                    "shapes, in the order of `ch09-ncu-launches.csv`; nothing timed.\n\n", n);
    dsm_stream_destroy(s);
    return 0;
}

/* PyTorch on every shape: fills o[i].torch_us from bench/torch/xent_torch.py's CSV. */
static void run_torch(bench *b, xout *o, int n, bench_csv *csv, char *why, size_t len)
{
    const char *script = getenv("XENT_TORCH_SCRIPT");
    char cmd[4096], line[512];
    int k = snprintf(cmd, sizeof cmd, "python3 %s --rounds 5 --shapes ", script ? script : "bench/torch/xent_torch.py");
    for (int i = 0; i < n && k < (int)sizeof cmd - 64; ++i)
        k += snprintf(cmd + k, sizeof cmd - (size_t)k, "%s%dx%d:%s", i ? "," : "", o[i].sh.V, o[i].sh.M,
                      o[i].sh.dtype == XENT_BF16 ? "bf16" : "f32");
    snprintf(cmd + k, sizeof cmd - (size_t)k, " 2>/dev/null");
    snprintf(why, len, "skipped: no PyTorch with CUDA");
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    while (fgets(line, sizeof line, p)) {
        int V, M;
        char dt[8], impl[32], status[64];
        double med, mn, mx, comp;
        if (line[0] == '#') {
            if (strstr(line, "torch "))
                why[0] = '\0';
            continue;
        }
        if (sscanf(line, "%d,%d,%7[^,],%31[^,],%63[^,],%lf,%lf,%lf,%lf", &V, &M, dt, impl, status, &med, &mn, &mx,
                   &comp) != 9)
            continue;
        int dtype = strcmp(dt, "bf16") == 0 ? XENT_BF16 : XENT_F32, w = strcmp(impl, "torch_compile") == 0;
        bench_csv_row(csv, "%s,%d,%d,%s,%s,%.3f,%.3f,%.3f,%.1f", dt, V, M, impl, status, med, mn, mx, comp);
        if (strcmp(status, "ok") != 0) {
            bench_fail(b, "ch09_xent: PyTorch %s %dx%d %s: %s", impl, V, M, dt, status);
            continue;
        }
        for (int i = 0; i < n; ++i)
            if (o[i].sh.V == V && o[i].sh.M == M && o[i].sh.dtype == dtype)
                o[i].torch_us[w] = med;
    }
    pclose(p);
}

static int large_vocab(const xshape *s) { return s->V >= 128256 && s->M >= 4096; }

/* The summary keys and the report. */
static void summarize(bench *b, xout *o, int n, const char *torch_why)
{
    double lpct = INFINITY, lg_nc = 0, lg_e = 0, lg_c = 0, ctrl = INFINITY;
    int nl = 0, ne = 0, nc = 0, nctrl = 0;
    for (int i = 0; i < n; ++i) {
        xout *x = &o[i];
        const char *ck = x->sh.dtype == XENT_BF16 ? "xent_cluster_bf16" : "xent_cluster_f32";
        char key[160], kk[256];
        static const char *const nm[] = {"copy", "cluster", "rowpass", "twokernel", "gmem_cluster", "gmem_coop"};
        for (int k = 0; k < 6; ++k) {
            snprintf(key, sizeof key, "xent.us.%s.%s", x->tag, nm[k]);
            if (x->have[k])
                bench_summary_measured(b, key, x->us[k], kname(k, x->sh.dtype));
        }
        /* the best non-cluster design: one CTA per row, two kernels, the cooperative twin */
        double bnc = INFINITY;
        const char *bname = "none";
        int nk[] = {K_ROWPASS, K_TWOK, K_GMEM_COOP};
        for (int j = 0; j < 3; ++j)
            if (x->have[nk[j]] && x->us[nk[j]] < bnc)
                bnc = x->us[nk[j]], bname = nm[nk[j]];
        if (x->have[K_CLUSTER]) {
            snprintf(key, sizeof key, "xent.pct_of_copy_floor.%s", x->tag);
            snprintf(kk, sizeof kk, "%s xent_copy", ck);
            bench_summary_measured(b, key, x->pct_copy, kk);
            snprintf(key, sizeof key, "xent.cluster_config.%s", x->tag);
            bench_summary_text(b, key, x->cfg[K_CLUSTER]);
            if (x->plan[0]) {
                snprintf(key, sizeof key, "xent.plan_config.%s", x->tag);
                bench_summary_text(b, key, x->plan);
                snprintf(key, sizeof key, "xent.us.%s.cluster_plan", x->tag);
                bench_summary_measured(b, key, x->plan_us, ck);
            }
            if (isfinite(bnc)) {
                snprintf(key, sizeof key, "xent.cluster_vs_best_noncluster.%s", x->tag);
                bench_summary_measured(b, key, bnc / x->us[K_CLUSTER], ck);
            }
            if (x->have[K_GMEM_CL]) {
                snprintf(key, sizeof key, "xent.twin_over_cluster.%s", x->tag);
                bench_summary_measured(b, key, x->vs[K_GMEM_CL], ck);
            }
            if (x->have[K_GMEM_COOP]) {
                snprintf(key, sizeof key, "xent.coop_twin_over_cluster.%s", x->tag);
                bench_summary_measured(b, key, x->vs[K_GMEM_COOP], ck);
            }
            for (int w = 0; w < 2; ++w)
                if (x->torch_us[w] > 0) {
                    snprintf(key, sizeof key, "xent.us.%s.torch_%s", x->tag, w ? "compile" : "eager");
                    bench_summary_number(b, key, x->torch_us[w]);
                }
            if (large_vocab(&x->sh)) {
                lpct = fmin(lpct, x->pct_copy), nl++;
                if (isfinite(bnc))
                    lg_nc += log(bnc / x->us[K_CLUSTER]);
                if (x->torch_us[0] > 0)
                    lg_e += log(x->torch_us[0] / x->us[K_CLUSTER]), ne++;
                if (x->torch_us[1] > 0)
                    lg_c += log(x->torch_us[1] / x->us[K_CLUSTER]), nc++;
            }
            if (x->sh.V == 32000 && isfinite(bnc))
                ctrl = fmin(ctrl, bnc / x->us[K_CLUSTER]), nctrl++;
        }
        if (x->sh.M <= 64) {   /* the small-M winner, PyTorch included */
            double w = INFINITY;
            const char *wn = "none";
            for (int k = 1; k < 6; ++k)
                if (x->have[k] && x->us[k] < w)
                    w = x->us[k], wn = nm[k];
            if (x->torch_us[0] > 0 && x->torch_us[0] < w)
                w = x->torch_us[0], wn = "torch_eager";
            if (x->torch_us[1] > 0 && x->torch_us[1] < w)
                w = x->torch_us[1], wn = "torch_compile";
            snprintf(key, sizeof key, "xent.small_m_winner.%s", x->tag);
            bench_summary_text(b, key, wn);
        }
        (void)bname;
    }
    const char *ks = "xent_cluster_bf16 xent_cluster_f32 xent_copy";
    if (nl) {
        bench_summary_measured(b, "xent.headline.cluster_pct_of_copy_floor_min_large_vocab", lpct, ks);
        bench_summary_measured(b, "xent.headline.cluster_vs_best_noncluster_geomean_large_vocab", exp(lg_nc / nl),
                               "xent_cluster_bf16 xent_cluster_f32 xent_rowpass_bf16 xent_rowpass_f32");
    } else {
        bench_summary_failed(b, "xent.headline.cluster_pct_of_copy_floor_min_large_vocab", "no large-vocabulary shape");
        bench_summary_failed(b, "xent.headline.cluster_vs_best_noncluster_geomean_large_vocab",
                             "no large-vocabulary shape");
    }
    if (ne)
        bench_summary_measured(b, "xent.headline.cluster_vs_torch_eager_geomean_large_vocab", exp(lg_e / ne), ks);
    else
        bench_summary_failed(b, "xent.headline.cluster_vs_torch_eager_geomean_large_vocab",
                             torch_why[0] ? torch_why : "no PyTorch number");
    if (nc)
        bench_summary_measured(b, "xent.headline.cluster_vs_torch_compile_geomean_large_vocab", exp(lg_c / nc), ks);
    else
        bench_summary_failed(b, "xent.headline.cluster_vs_torch_compile_geomean_large_vocab",
                             torch_why[0] ? torch_why : "no PyTorch number");
    if (nctrl)
        bench_summary_measured(b, "xent.control_v32000_cluster_vs_best_noncluster_min", ctrl, ks);

    bench_report(b, "## Chapter 9: fused cross-entropy over a large vocabulary\n\n"
                    "Forward and backward, fused; times in µs per call (median over rounds of a graph of consecutive "
                    "calls over a pool of at least 4 x L2). `%% copy` = copy time / cluster time (paired per round); "
                    "`vs` columns = that design's time / the cluster kernel's (paired; above 1: the cluster kernel is "
                    "faster). PyTorch: %s.\n\n"
                    "| shape | copy | cluster (config) | %% copy | one CTA per row | two kernels | twin (clusters) | "
                    "twin (cooperative) | torch eager | torch.compile |\n|---|---|---|---|---|---|---|---|---|---|\n",
                 torch_why[0] ? torch_why : "F.cross_entropy forward + backward, bench/torch/xent_torch.py");
    for (int i = 0; i < n; ++i) {
        xout *x = &o[i];
        char cells[6][64];
        for (int k = 0; k < 6; ++k) {
            if (!x->have[k])
                snprintf(cells[k], sizeof cells[k], "-");
            else if (k == K_CLUSTER)
                snprintf(cells[k], sizeof cells[k], "%.1f (%s)", x->us[k], x->cfg[k]);
            else if (k == K_COPY)
                snprintf(cells[k], sizeof cells[k], "%.1f", x->us[k]);
            else
                snprintf(cells[k], sizeof cells[k], "%.1f (%.2fx)", x->us[k], x->vs[k]);
        }
        char te[32] = "-", tc[32] = "-";
        if (x->torch_us[0] > 0)
            snprintf(te, sizeof te, "%.1f", x->torch_us[0]);
        if (x->torch_us[1] > 0)
            snprintf(tc, sizeof tc, "%.1f", x->torch_us[1]);
        bench_report(b, "| %s | %s | %s | %.1f | %s | %s | %s | %s | %s | %s |\n", x->tag, cells[0], cells[1],
                     x->pct_copy, cells[2], cells[3], cells[4], cells[5], te, tc);
    }
    bench_report(b, "\n");
}

int bench_family_ch09_xent(bench *b)
{
    if (getenv("BENCH_CH09_NCU"))
        return ncu_run(b);
    /* fp32: every M but 16384 (4 x 17 GB of logits: the bench's time) */
    static const int Vs[] = {32000, 128256, 151936, 262144}, Ms[] = {1, 8, 64, 512, 4096, 16384},
                     Mf[] = {1, 8, 64, 512, 4096};
    xshape sh[64];
    int n = 0;
    if (bench_dry(b)) {
        n = dry_shapes(sh);
    } else {
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 6; ++j)
                if (!bench_quick(b) || Ms[j] == 4096 || Ms[j] == 8)
                    sh[n++] = (xshape){Vs[i], Ms[j], XENT_BF16};
        for (int i = 0; i < 4 && !bench_quick(b); ++i)
            for (int j = 0; j < 5; ++j)
                sh[n++] = (xshape){Vs[i], Mf[j], XENT_F32};
    }
    dsm_stream_t s;
    if (dsm_stream_create(&s) != dsmSuccess) {
        bench_fail(b, "ch09_xent: no stream");
        return 1;
    }
    bench_csv *sweep = bench_csv_open(b, "ch09_xent_sweep", "dtype,V,M,variant,config,kernel,status,us_median,us_min,us_max");
    bench_csv *main_csv = bench_csv_open(b, "ch09_xent", "dtype,V,M,variant,config,kernel,status,us_median,us_min,"
                                                        "us_max,x_copy,tbps_rw,vs_cluster_median,vs_cluster_min,"
                                                        "vs_cluster_max");
    xout *o = calloc((size_t)n, sizeof *o);
    int rounds = bench_quick(b) ? 3 : 7;
    for (int i = 0; i < n; ++i)
        run_shape(b, s, sh[i], rounds, sweep, main_csv, &o[i]);
    char why[128] = "skipped: the dry run measures nothing";
    if (!bench_dry(b)) {
        bench_csv *tc = bench_csv_open(b, "ch09_xent_torch", "dtype,V,M,impl,status,us_median,us_min,us_max,compile_s");
        run_torch(b, o, n, tc, why, sizeof why);
        bench_csv_close(tc);
        bench_progress(b, "PyTorch: %s", why[0] ? why : "measured");
    }
    summarize(b, o, n, why);
    bench_csv_close(sweep);
    bench_csv_close(main_csv);
    free(o);
    dsm_stream_destroy(s);
    return 0;
}
