/* ch08_gemv.c: make bench's chapter 8 family: the decode GEMV y = W x (bf16 weights streamed from HBM) on the shapes of Llama-3.1-8B, DeepSeek-V3-like small-M layers and few-row shapes where a split of K can pay: every variant of chapter 8 and cuBLAS, each checked, swept over its design space, then the best of each timed interleaved (plain, with PDL, from the host) and compared in pairs. */
// bench-kernels: ch08/dot_bf16.cu ch08/gemv_splitk_atomic.cu ch08/gemv_cluster.cu ch08/gemv_twokernel.cu ch08/gemv_cluster_gmem.cu ch08/stream_read.cu
/*
 * What it measures. For every shape (M x K) and token count nb (1, 2, 4, 8):
 *   rowpar            gemv_rowpar_t<NB>: whole rows per CTA, no split of K (the baseline)
 *   splitk_atomic     gemv_atomic_init + gemv_splitk_atomic: K slices add into y with fp32 atomics
 *   splitk_twokernel  gemv_partial + gemv_reduce_partials: slices write a workspace, a second kernel adds
 *   cluster_gmem      the cluster kernel with its partials through a global workspace (L2): the twin
 *   cluster_dsmem     gemv_cluster (ch08.gemv_cluster): K slices are the CTAs of a cluster, partials
 *                     reduce-scattered through DSMEM
 *   cublas            cublasGemmEx, bf16 in, fp32 compute and out (GPU build only)
 *   read_floor        stream_read over the same bytes: what reading W alone costs
 * Each variant runs a sweep (split / cluster size, rows per CTA or cluster, threads per
 * CTA, loads in flight; gemv_sweep.c); every configuration is checked against a CPU
 * reference (poisoned y, tolerance 1e-4 of the sum of |terms|) before it is timed, and
 * is a row of ch08_gemv_sweep.csv. The sweep only chooses: the best configuration of
 * every variant is then timed again, all of them interleaved round by round in rotating
 * order (gemv_compare.c, bench_time_variants), each as a graph, as a graph launched with
 * programmatic dependent launch (not cuBLAS: its API takes no launch attributes) and
 * from the host; every ratio is the median of the per-round ratios, with its min and
 * max. Those are the rows of ch08_gemv.csv.
 *
 * Timing. Weights rotate through copies of W that together are at least
 * GEMV_ROTATE_L2 times the L2 size the device reports, so every call streams its
 * weights from HBM, as a decoder does across layers. One timing is a CUDA graph of
 * ncalls consecutive calls (the way decoders launch their kernels), between two
 * events; its time divided by ncalls is one sample.
 *
 * Bandwidth. stream_read over the whole weight pool, swept over threads, CTAs per
 * SM and loads in flight: the best is "the measured HBM read bandwidth" of the run,
 * and % HBM of a variant is (weight bytes / time) / that.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch08_gemv/gemv_bench.h"

/* Summary keys the driver must know (bench.h): the headline ratios and the HBM bandwidth beside them. */
const bench_key_info bench_keys_ch08_gemv[] = {
    {"gemv.headline.", 1, NULL},
    {"gemv.hbm_read_tbps", 1, NULL},
    {NULL, 0, NULL},
};

/* The model layers, then the few-row shapes (bf16, one token fills nothing
 * with whole rows: a split of K is the only way to use every SM); the dry run
 * uses small ones with the same names. */
static const shape full_shapes[] = {
    {"llama_qkv", "Llama-3.1-8B q,k,v", 6144, 4096, SHAPE_MODEL},
    {"llama_o", "Llama-3.1-8B o", 4096, 4096, SHAPE_MODEL},
    {"llama_gate_up", "Llama-3.1-8B gate+up", 28672, 4096, SHAPE_MODEL},
    {"llama_down", "Llama-3.1-8B down", 4096, 14336, SHAPE_MODEL},
    {"llama_lm_head", "Llama-3.1-8B lm_head", 128256, 4096, SHAPE_MODEL},
    {"dsv3_q_a", "DeepSeek-V3-like 1536 x 7168", 1536, 7168, SHAPE_MODEL},
    {"dsv3_kv_a", "DeepSeek-V3-like 576 x 7168", 576, 7168, SHAPE_MODEL},
    {"dsv3_router", "DeepSeek-V3-like router", 256, 7168, SHAPE_MODEL},
    {"dsv3_expert_down", "DeepSeek-V3-like expert down", 7168, 2048, SHAPE_MODEL},
    {"m16_k16384", "few rows", 16, 16384, SHAPE_SPLIT},
    {"m16_k65536", "few rows", 16, 65536, SHAPE_SPLIT},
    {"m16_k131072", "few rows", 16, 131072, SHAPE_SPLIT},
    {"m32_k16384", "few rows", 32, 16384, SHAPE_SPLIT},
    {"m32_k65536", "few rows", 32, 65536, SHAPE_SPLIT},
    {"m32_k131072", "few rows", 32, 131072, SHAPE_SPLIT},
    {"m64_k16384", "few rows", 64, 16384, SHAPE_SPLIT},
    {"m64_k65536", "few rows", 64, 65536, SHAPE_SPLIT},
    {"m64_k131072", "few rows", 64, 131072, SHAPE_SPLIT},
    {"m128_k16384", "few rows", 128, 16384, SHAPE_SPLIT},
    {"m128_k65536", "few rows", 128, 65536, SHAPE_SPLIT},
    {"m128_k131072", "few rows", 128, 131072, SHAPE_SPLIT},
};
static const shape dry_shapes[] = {
    {"llama_qkv", "dry run", 24, 8 * 40, SHAPE_MODEL},
    {"dsv3_router", "dry run", 5, 8 * 37, SHAPE_MODEL},
    {"dsv3_expert_down", "dry run", 37, 8 * 19, SHAPE_MODEL},
    {"m16_k16384", "dry run", 3, 8 * 64, SHAPE_SPLIT},
};

static int timed(const bench_variant_result *r) { return r->status == BENCH_VARIANT_TIMED; }

/* The median µs of a timing, 0 when it gave none. */
static double us_of(const bench_variant_result *r) { return timed(r) ? r->stats.median : 0.0; }

/* One row of ch08_gemv.csv: the variant's interleaved timings and its pairs;
 * a variant whose check failed reads "failed" in every measurement. */
static void final_row(ctx *c, bench_csv *fin, const problem *p, int v, const best *bests)
{
    const shape *sh = p->sh;
    const best *bs = &bests[v], *cl = &bests[V_CLUSTER], *cub = &bests[V_CUBLAS];
    char head[200];
    snprintf(head, sizeof head, "%s,%d,%d,%.2f,%d,%s", sh->name, sh->M, sh->K, p->bytes / 1e6, p->nb, gemv_vname[v]);
    if (bs->graph.status == BENCH_VARIANT_WRONG || bs->graph.status == BENCH_VARIANT_TIMING_FAILED) {
        bench_csv_row(fin, "%s%s", head, ",failed,failed,failed,failed,failed,failed,failed,failed,failed,failed,"
                      "failed,failed,failed,failed,failed,failed,failed,failed,failed,failed,failed,failed,failed,"
                      "failed,failed,failed,failed,failed");
        return;
    }
    if (!timed(&bs->graph))
        return;     /* no configuration of it ran here (not selected, or none fits): nothing was measured */
    double us = bs->graph.stats.median, g = gemv_gbps(p, us);
    bench_stats to_cub = bench_pair_ratio(&cub->graph, &bs->graph);
    bench_stats host_cub = bench_pair_ratio(&cub->stream, &bs->stream);
    bench_stats pdl_plain = bench_pair_ratio(&bs->pdl, &bs->graph);
    bench_stats over_cl = gemv_pair(bs, cl, 0), over_cl_pdl = gemv_pair(bs, cl, 1);
    bench_csv_row(fin, "%s,%.3f,%.3f,%.3f,%.3f,%.1f,%.2f,%.3f,%.3f,%d,%d,%d,%d,%d,%.0f,"
                  "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%d,%s",
                  head, us, bs->graph.stats.min, bs->graph.stats.max, us_of(&bs->stream), g,
                  c->hbm_gbps > 0 ? 100.0 * g / c->hbm_gbps : 0.0, to_cub.median, host_cub.median, bs->c.split,
                  bs->c.rows, bs->c.threads, bs->c.unroll, bs->max_active, c->hbm_gbps, us_of(&bs->pdl),
                  timed(&bs->pdl) ? bs->pdl.stats.min : 0.0, timed(&bs->pdl) ? bs->pdl.stats.max : 0.0,
                  pdl_plain.median, pdl_plain.min, pdl_plain.max, over_cl.median, over_cl.min, over_cl.max,
                  over_cl_pdl.median, over_cl_pdl.min, over_cl_pdl.max, bs->graph.rounds,
                  v == V_CUBLAS ? "no_pdl_api" : bench_variant_status_name(bs->pdl.status));
}

/* A paired ratio as three summary numbers key.{median,min,max}. */
static void summary_pair(ctx *c, const char *key, bench_stats r, const char *kernels)
{
    static const char *const part[] = {"median", "min", "max"};
    double val[] = {r.median, r.min, r.max};
    for (int i = 0; i < 3; ++i) {
        char k[160];
        snprintf(k, sizeof k, "%s.%s", key, part[i]);
        gemv_summary_measured(c, k, r.n > 0 ? val[i] : 0.0, kernels);
    }
}

/* The numbers of one shape, one token: times (plain and PDL) and the pairs the chapter states. */
static void shape_summary(ctx *c, const shape *sh, const best *bs, const best *planned)
{
    char key[160];
    static const struct { int v; const char *name, *kernel; } one[] = {
        {V_CLUSTER, "cluster_dsmem", "gemv_cluster_t1"}, {V_ROWPAR, "rowpar", "gemv_rowpar_t1"},
        {V_CLUSTER_GMEM, "cluster_gmem", "gemv_cluster_gmem_t1"}, {V_FLOOR, "read_floor", "stream_read"}};
    for (size_t i = 0; i < sizeof one / sizeof one[0]; ++i) {
        snprintf(key, sizeof key, "gemv.us_nb1.%s.%s", sh->name, one[i].name);
        gemv_summary_measured(c, key, us_of(&bs[one[i].v].graph), one[i].kernel);
        snprintf(key, sizeof key, "gemv.us_nb1.%s.%s_pdl", sh->name, one[i].name);
        gemv_summary_measured(c, key, us_of(&bs[one[i].v].pdl), one[i].kernel);
    }
    int nc = gemv_best_noncluster(bs);
    snprintf(key, sizeof key, "gemv.us_nb1.%s.best_noncluster", sh->name);
    gemv_summary_measured(c, key, nc >= 0 ? us_of(&bs[nc].graph) : 0.0, K_NONCLUSTER);
    if (c->have_cublas) {
        snprintf(key, sizeof key, "gemv.us_nb1.%s.cublas", sh->name);
        gemv_summary_measured(c, key, us_of(&bs[V_CUBLAS].graph), "");
        snprintf(key, sizeof key, "gemv.pairs_nb1.%s.cublas_over_cluster", sh->name);
        summary_pair(c, key, gemv_pair(&bs[V_CUBLAS], &bs[V_CLUSTER], 0), "gemv_cluster_t1");
    }
    if (planned->have) {
        snprintf(key, sizeof key, "gemv.us_nb1.%s.cluster_plan", sh->name);
        gemv_summary_measured(c, key, planned->sweep.median, "gemv_cluster_t1");
    }
    if (nc >= 0) {
        snprintf(key, sizeof key, "gemv.pairs_nb1.%s.best_noncluster_over_cluster", sh->name);
        summary_pair(c, key, gemv_pair(&bs[nc], &bs[V_CLUSTER], 0), "gemv_cluster_t1 " K_NONCLUSTER);
    }
    snprintf(key, sizeof key, "gemv.pairs_nb1.%s.twin_over_cluster", sh->name);
    summary_pair(c, key, gemv_pair(&bs[V_CLUSTER_GMEM], &bs[V_CLUSTER], 0), "gemv_cluster_t1 gemv_cluster_gmem_t1");
    snprintf(key, sizeof key, "gemv.pairs_nb1.%s.rowpar_pdl_over_cluster_pdl", sh->name);
    summary_pair(c, key, gemv_pair(&bs[V_ROWPAR], &bs[V_CLUSTER], 1), "gemv_cluster_t1 gemv_rowpar_t1");
    snprintf(key, sizeof key, "gemv.pairs_nb1.%s.floor_pdl_over_floor", sh->name);
    summary_pair(c, key, bench_pair_ratio(&bs[V_FLOOR].pdl, &bs[V_FLOOR].graph), "stream_read");
}

int bench_family_ch08_gemv(bench *b)
{
    ctx c;
    memset(&c, 0, sizeof c);
    c.b = b;
    c.dry = bench_dry(b);
    c.quick = bench_quick(b);
    c.sms = bench_sm_count(b) > 0 ? bench_sm_count(b) : 132;
    c.l2 = (size_t)60 << 20;
    const shape *shapes = c.dry ? dry_shapes : full_shapes;
    int nshapes = c.dry ? (int)(sizeof dry_shapes / sizeof dry_shapes[0]) : (int)(sizeof full_shapes / sizeof full_shapes[0]);
    size_t l2 = 0;
    if (!c.dry && dsm_device_l2_bytes(&l2) == dsmSuccess && l2 > 0)
        c.l2 = l2;
    /* The run's stream: graphs are captured on it while nothing else runs; the
     * memsets and copies of dsm_host.h (the default stream) are ordered with
     * it by explicit synchronisation (the checks, gemv_setup). */
    if (dsm_stream_create(&c.s) != dsmSuccess) {
        bench_fail(b, "creating the run's stream");
        return 1;
    }
    c.blas = bench_blas_open(c.s, c.no_cublas, sizeof c.no_cublas);
    c.have_cublas = c.blas != NULL;
    bench_report(b, "\n## Chapter 8: the decode GEMV, against cuBLAS (ch08_gemv)\n\n");
    if (c.dry)
        bench_report(b, "Dry run on the emulator: small shapes with the real ones' names, every variant checked, the "
                     "times below mean nothing. cuBLAS: skipped (%s).\n\n", c.no_cublas);
    else if (!c.have_cublas)
        bench_report(b, "cuBLAS: skipped (%s).\n\n", c.no_cublas);
    if (!gemv_setup(&c, shapes, nshapes))
        return 1;
    c.sweep = bench_csv_open(b, "ch08_gemv_sweep",
                             "shape,M,K,weight_mb,nb,variant,split,rows,threads,unroll,ctas,max_active_clusters,result,"
                             "calls,us_median,us_min,us_max,gbps,pct_hbm,cluster_attr,pdl,source");
    gemv_measure_hbm(&c);

    bench_csv *fin = bench_csv_open(b, "ch08_gemv",
                                    "shape,M,K,weight_mb,nb,variant,us,us_min,us_max,us_stream,gbps,pct_hbm,"
                                    "ratio_to_cublas,cublas_over_variant_stream,split,rows,threads,unroll,"
                                    "max_active_clusters,hbm_gbps,us_pdl,us_pdl_min,us_pdl_max,pdl_over_plain,"
                                    "pdl_over_plain_min,pdl_over_plain_max,over_cluster,over_cluster_min,"
                                    "over_cluster_max,over_cluster_pdl,over_cluster_pdl_min,over_cluster_pdl_max,"
                                    "rounds,pdl_status");
    int nbs[] = {1, 2, 4, 8}, n_nb = c.quick ? 1 : 4;
    if (c.dry)
        n_nb = 2, nbs[1] = 3;
    static best table[GEMV_NSHAPES_MAX][4][V_COUNT], planned[GEMV_NSHAPES_MAX][4], cattr_pt[GEMV_NSHAPES_MAX];
    memset(table, 0, sizeof table);
    memset(planned, 0, sizeof planned);
    memset(cattr_pt, 0, sizeof cattr_pt);
    for (int si = 0; si < nshapes && !c.broken; ++si) {
        const shape *sh = &shapes[si];
        if (!gemv_selected("GEMV_SHAPES", sh->name))
            continue;
        size_t bytes = (size_t)sh->M * sh->K * 2;
        double *ref = malloc((size_t)8 * sh->M * sizeof(double)), *mag = malloc((size_t)8 * sh->M * sizeof(double));
        gemv_reference(c.host_pool, c.host_x, sh->M, sh->K, ref, mag);
        dsm_memcpy_to_device(c.dx, c.host_x, (size_t)8 * sh->K * 2);
        dsm_device_synchronize();
        int ncopies = (int)(c.pool_bytes / bytes);
        size_t rot = (size_t)GEMV_ROTATE_L2 * c.l2;
        int want_copies = (int)((rot + bytes - 1) / bytes);
        if (want_copies < ncopies)
            ncopies = want_copies;
        if (ncopies < 1)
            ncopies = 1;
        int ncalls = (int)ceil(GEMV_GRAPH_BYTES / (double)bytes);
        ncalls = ncalls < ncopies ? ncopies : ncalls;
        ncalls = ncalls > GEMV_MAX_CALLS ? GEMV_MAX_CALLS : ncalls < GEMV_MIN_CALLS ? GEMV_MIN_CALLS : ncalls;
        if (c.dry)
            ncalls = 1;
        for (int ni = 0; ni < n_nb && !c.broken; ++ni) {
            char nbname[8];
            snprintf(nbname, sizeof nbname, "%d", nbs[ni]);
            if (!gemv_selected("GEMV_NB", nbname) && ni > 0)
                continue;   /* token count 1 always runs: the read floor's configuration comes from it */
            problem p = {sh, nbs[ni], bytes, ncopies, ncalls, ref, mag};
            best *bests = table[si][ni];
            for (int v = 0; v < V_COUNT && !c.broken; ++v) {
                if (v == V_FLOOR && ni > 0) {   /* the read floor's best configuration does not depend on the tokens */
                    bests[v] = table[si][0][v];
                    continue;
                }
                if (gemv_selected("GEMV_VARIANTS", gemv_vname[v]) || v == V_FLOOR)
                    gemv_sweep_variant(&c, &p, v, &bests[v]);
            }
            if (gemv_selected("GEMV_VARIANTS", gemv_vname[V_CLUSTER]) && !c.broken) {
                gemv_time_plan(&c, &p, &planned[si][ni]);
                /* what the cluster attribute costs the same split-1 configuration */
                if (ni == 0 && bests[V_CLUSTER].have && bests[V_CLUSTER].c.split == 1)
                    gemv_variation_point(&c, &p, V_CLUSTER, &bests[V_CLUSTER], 1, &cattr_pt[si], "cluster_attr");
            }
            gemv_compare_bests(&c, &p, bests);
            for (int v = 0; v < V_COUNT; ++v)
                final_row(&c, fin, &p, v, bests);
            int nc = gemv_best_noncluster(bests);
            bench_progress(b, "%-16s nb %d: cluster %.2f us (PDL %.2f), best non-cluster %.2f us, cuBLAS %.2f us, read "
                           "floor %.2f us (PDL %.2f)", sh->name, p.nb, us_of(&bests[V_CLUSTER].graph),
                           us_of(&bests[V_CLUSTER].pdl), nc >= 0 ? us_of(&bests[nc].graph) : 0.0,
                           us_of(&bests[V_CUBLAS].graph), us_of(&bests[V_FLOOR].graph), us_of(&bests[V_FLOOR].pdl));
        }
        free(ref);
        free(mag);
    }
    bench_csv_close(c.sweep);
    bench_csv_close(fin);
    if (c.broken)
        return 1;
    for (int si = 0; si < nshapes; ++si)
        if (gemv_selected("GEMV_SHAPES", shapes[si].name))
            shape_summary(&c, &shapes[si], table[si][0], &planned[si][0]);
    gemv_report(&c, shapes, nshapes, table, planned, cattr_pt, nbs, n_nb);
    bench_blas_close(c.blas);
    dsm_stream_destroy(c.s);
    return c.failed || c.broken;
}
