/* ch08_launch_anatomy.c: make bench's chapter 8 question "what does a call cost before any work": empty kernels in graphs (plain, with the cluster attribute, in clusters, with PDL) and the reduce-scatter of ch08.reduce_scatter alone, all timed interleaved, the reduction's cost as a per-round difference. */
// bench-kernels: ch08/stream_read.cu ch08/rs_probe.cu
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

DSM_DECLARE_KERNEL(launch_mark);
DSM_DECLARE_KERNEL(rs_probe);

/* Summary keys the driver must know (bench.h): none is a headline, no source figure stands beside one. */
const bench_key_info bench_keys_ch08_launch_anatomy[] = {{NULL, 0, NULL}};

#define ANAT_CALLS 200  /* calls in one timed graph */
#define ANAT_ROUNDS 5

typedef struct anat_ctx {
    bench *b;
    dsm_stream_t s;
    uint32_t *dout;     /* a mark per CTA */
    float *dws;         /* the probe's sums */
    uint32_t base;      /* the marks of this run: call i marks base + i */
} anat_ctx;

typedef struct anat_point {
    const char *what, *key;
    unsigned ctas, threads, cluster;    /* cluster 0: a plain launch */
    int pdl;
    int rs;     /* 0: launch_mark; 1: rs_probe with its reduce-scatter, 2: rs_probe without */
    anat_ctx *c;
    char name[96];
} anat_point;

#define RS_PROBE_N 64   /* floats per partial vector in the reduce-scatter probe */

/* reduce_scatter_lo (ch08/reduce_scatter.h, a device header): rank q's share of n in a cluster of S starts here. */
static int rs_lo(int n, int q, int S) { return (int)((long long)q * n / S); }

/* Enqueues one call of a's kernel with this mark on the run's stream. */
static dsm_error_t anat_call(const anat_point *a, uint32_t mark, int pdl)
{
    dsm_launch_config cfg = {DSM_DIM3(a->ctas, 1, 1), DSM_DIM3(a->threads, 1, 1),
                             DSM_DIM3(a->cluster, a->cluster > 0, a->cluster > 0), a->rs ? 4 * RS_PROBE_N : 0};
    dsm_launch_options opt = {a->c->s, pdl, 0};
    if (a->rs) {
        float *out = a->c->dws;
        int n = RS_PROBE_N, m = (int)mark, exchange = a->rs == 1;
        void *args[] = {&out, &n, &m, &exchange};
        return dsm_launch_ex(&cfg, &opt, DSM_KERNEL(rs_probe), args);
    }
    uint32_t *out = a->c->dout;
    void *args[] = {&out, &mark, &pdl};
    return dsm_launch_ex(&cfg, &opt, DSM_KERNEL(launch_mark), args);
}

/* Checks what a call with `mark` left: every CTA's mark, or every share of
 * every cluster's sums; 1 when right, else 0 with the reason in why. */
static int anat_check_marks(const anat_point *a, uint32_t mark, char *why, size_t why_len)
{
    anat_ctx *c = a->c;
    if (!a->rs) {
        uint32_t *got = malloc((size_t)a->ctas * 4);
        dsm_memcpy_to_host(got, c->dout, (size_t)a->ctas * 4);
        for (unsigned b = 0; b < a->ctas; ++b)
            if (got[b] != mark + b) {
                snprintf(why, why_len, "CTA %u marked 0x%08x, the call's mark is 0x%08x", b, got[b], mark + b);
                free(got);
                return 0;
            }
        free(got);
        return 1;
    }
    int n = RS_PROBE_N, S = (int)a->cluster, nc = (int)a->ctas / S;
    float *got = malloc((size_t)nc * n * 4);
    dsm_memcpy_to_host(got, c->dws, (size_t)nc * n * 4);
    for (int k = 0; k < nc * n; ++k) {
        int i = k % n, q = 0;
        while (q + 1 < S && rs_lo(n, q + 1, S) <= i)
            ++q;
        double want = a->rs == 1 ? (double)S * mark + (double)n * S * (S - 1) / 2 + (double)S * i
                                 : (double)mark + (double)q * n + i;
        if ((double)got[k] != want) {
            snprintf(why, why_len, "cluster %d, element %d is %.1f, want %.1f (%s)", k / n, i, (double)got[k], want,
                     a->rs == 1 ? "cluster_reduce_scatter of ch08.reduce_scatter (reduce_scatter.h), as "
                                  "reduce_scatter_kernel runs it" : "given code");
            free(got);
            return 0;
        }
    }
    free(got);
    return 1;
}

/* bench_variant's check: the output poisoned, one call with the run's first mark, checked. */
static int anat_check(void *pt, char *why, size_t why_len)
{
    anat_point *a = pt;
    if (a->rs)
        dsm_memset(a->c->dws, 0xFF, (size_t)a->ctas * RS_PROBE_N * 4);
    else
        dsm_memset(a->c->dout, 0xFF, (size_t)a->ctas * 4);
    dsm_error_t err = dsm_device_synchronize();
    if (err == dsmSuccess)
        err = anat_call(a, a->c->base, a->pdl);
    if (err == dsmSuccess)
        err = dsm_stream_synchronize(a->c->s);
    if (err != dsmSuccess) {
        snprintf(why, why_len, "the call failed: %s", dsm_error_name(err));
        return 0;
    }
    return anat_check_marks(a, a->c->base, why, why_len);
}

static dsm_error_t anat_timed_call(void *pt, int i, dsm_stream_t stream, int pdl)
{
    anat_point *a = pt;
    (void)stream;
    return anat_call(a, a->c->base + (uint32_t)i, pdl);
}

int bench_family_ch08_launch_anatomy(bench *b)
{
    int dry = bench_dry(b), sms = bench_sm_count(b) > 0 ? bench_sm_count(b) : 132;
    anat_ctx c = {b, NULL, NULL, NULL, 0};
    uint64_t rng = 0x452821E638D01377ull;
    c.base = (uint32_t)(bench_xorshift64(&rng) & 0xFFFFu);  /* small: the probe's sums stay exact in fp32 */
    unsigned s4 = (unsigned)(sms / 4 * 4), s8 = (unsigned)(sms / 8 * 8);  /* grids every cluster size divides */
    if (dsm_stream_create(&c.s) != dsmSuccess || dsm_malloc((void **)&c.dout, (size_t)sms * 16 * 4 + 1024) != dsmSuccess ||
        dsm_malloc((void **)&c.dws, (size_t)s8 * RS_PROBE_N * 4 + 1024) != dsmSuccess) {
        bench_fail(b, "launch anatomy: the stream and two small buffers");
        return 1;
    }
    anat_point pts[] = {
        {"1 CTA of 32 threads", "one_cta", 1, 32, 0, 0, 0, &c, ""},
        {"one CTA of 256 per SM", "sm1", s4, 256, 0, 0, 0, &c, ""},
        {"one CTA of 256 per SM, cluster attribute 1x1x1", "sm1_cattr", s4, 256, 1, 0, 0, &c, ""},
        {"one CTA of 256 per SM, clusters of 2", "sm1_c2", s4, 256, 2, 0, 0, &c, ""},
        {"one CTA of 256 per SM, clusters of 4", "sm1_c4", s4, 256, 4, 0, 0, &c, ""},
        {"one CTA of 256 per SM, PDL", "sm1_pdl", s4, 256, 0, 1, 0, &c, ""},
        {"4 CTAs of 256 per SM", "sm4", 4 * s4, 256, 0, 0, 0, &c, ""},
        {"4 CTAs of 256 per SM, cluster attribute 1x1x1", "sm4_cattr", 4 * s4, 256, 1, 0, 0, &c, ""},
        {"4 CTAs of 256 per SM, clusters of 2", "sm4_c2", 4 * s4, 256, 2, 0, 0, &c, ""},
        {"4 CTAs of 256 per SM, clusters of 4", "sm4_c4", 4 * s4, 256, 4, 0, 0, &c, ""},
        {"4 CTAs of 256 per SM, PDL", "sm4_pdl", 4 * s4, 256, 0, 1, 0, &c, ""},
        {"16 CTAs of 128 per SM", "sm16", 16 * s4, 128, 0, 0, 0, &c, ""},
        {"16 CTAs of 128 per SM, cluster attribute 1x1x1", "sm16_cattr", 16 * s4, 128, 1, 0, 0, &c, ""},
        {"16 CTAs of 128 per SM, clusters of 4", "sm16_c4", 16 * s4, 128, 4, 0, 0, &c, ""},
        {"clusters of 2, 256 threads: 64 floats, no exchange", "rs2_none", s8, 256, 2, 0, 2, &c, ""},
        {"clusters of 2, 256 threads: 64 floats reduce-scattered", "rs2", s8, 256, 2, 0, 1, &c, ""},
        {"clusters of 4, 256 threads: 64 floats, no exchange", "rs4_none", s8, 256, 4, 0, 2, &c, ""},
        {"clusters of 4, 256 threads: 64 floats reduce-scattered", "rs4", s8, 256, 4, 0, 1, &c, ""},
        {"clusters of 8, 256 threads: 64 floats, no exchange", "rs8_none", s8, 256, 8, 0, 2, &c, ""},
        {"clusters of 8, 256 threads: 64 floats reduce-scattered", "rs8", s8, 256, 8, 0, 1, &c, ""},
    };
    enum { NPTS = sizeof pts / sizeof pts[0], FIRST_RS = 14 };
    bench_variant vars[NPTS];
    bench_variant_result res[NPTS];
    for (int i = 0; i < NPTS; ++i) {
        if (dry)    /* the emulator: small grids, the kernel checked */
            pts[i].ctas = pts[i].ctas > 16 ? 16 : pts[i].ctas, pts[i].threads = 32;
        snprintf(pts[i].name, sizeof pts[i].name, "launch anatomy, %s", pts[i].what);
        vars[i] = (bench_variant){pts[i].name, pts[i].rs ? "rs_probe" : "launch_mark", &pts[i], anat_check,
                                  anat_timed_call, pts[i].pdl, 1, dry ? 1 : ANAT_CALLS, NULL};
    }
    bench_time_variants(b, c.s, vars, NPTS, 1, ANAT_ROUNDS, res);
    bench_report(b, "\n### What a call costs before any work: empty kernels (µs per call, graph of %d calls, %d "
                 "interleaved rounds)\n\n| launch | CTAs | µs per call |\n|---|---|---|\n", dry ? 1 : ANAT_CALLS,
                 dry ? 1 : ANAT_ROUNDS);
    int failed = 0;
    for (int i = 0; i < NPTS; ++i) {
        char key[64];
        snprintf(key, sizeof key, "gemv.launch_us.%s", pts[i].key);
        if (res[i].status == BENCH_VARIANT_TIMED) {
            bench_summary_measured(b, key, res[i].stats.median, vars[i].kernel);
            bench_report(b, "| %s | %u | %.2f |\n", pts[i].what, pts[i].ctas, res[i].stats.median);
            continue;
        }
        failed |= res[i].status == BENCH_VARIANT_WRONG || res[i].status == BENCH_VARIANT_TIMING_FAILED;
        bench_summary_failed(b, key, res[i].status == BENCH_VARIANT_NOT_CAPTURED ? "could not be captured in a graph"
                                                                                   : "its kernel failed a check");
        bench_report(b, "| %s | %u | not measured (%s) |\n", pts[i].what, pts[i].ctas,
                     res[i].status == BENCH_VARIANT_NOT_CAPTURED ? (pts[i].pdl ? "PDL could not be captured in a graph"
                                                                               : "the launch failed")
                                                                 : "its kernel failed a check");
    }
    bench_report(b, "\nThe first kernel only writes one word per CTA: the time is the launch, the CTAs' start and "
                 "exit, and the gap between consecutive kernels of a graph. Every GEMV call pays it once (the "
                 "two-kernel and atomic variants twice). The last rows time ch08.reduce_scatter alone: CTAs that make "
                 "up 64 partial sums in shared memory, with and without reduce-scattering them through DSMEM; the "
                 "difference, round by round (median [min, max]), is what the cluster version's reduction costs per "
                 "call:");
    for (int i = FIRST_RS; i + 1 < NPTS; i += 2) {
        const bench_variant_result *none = &res[i], *with = &res[i + 1];
        if (none->status != BENCH_VARIANT_TIMED || with->status != BENCH_VARIANT_TIMED)
            continue;
        double diff[BENCH_ROUNDS_MAX];
        for (int r = 0; r < with->rounds; ++r)
            diff[r] = with->us[r] - none->us[r];
        bench_stats d = bench_stats_of(diff, with->rounds);
        char key[64];
        snprintf(key, sizeof key, "gemv.reduce_scatter_us.c%u", pts[i].cluster);
        bench_summary_measured(b, key, d.median, "rs_probe");
        bench_report(b, " clusters of %u, %.2f µs [%.2f, %.2f];", pts[i].cluster, d.median, d.min, d.max);
    }
    bench_report(b, "\n\n");
    dsm_free(c.dout);
    dsm_free(c.dws);
    dsm_stream_destroy(c.s);
    return failed;
}
