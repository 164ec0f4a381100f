/* test_gemv_cluster.c: ch08.gemv_cluster: the split-K GEMV is exact for any cluster size, shape and token count, reduces its partials through DSMEM and nothing else, reads one K slice per CTA; its plan keeps every SM busy, splits no further than that takes, and runs on every GPU the course models. */
#include "gemv_test.h"
#include "gemv_cluster.h"
#include "support/models.h"

/* A launch shape chosen by the test (the plan's fields; smem from your gemv_cluster_smem). */
static gemv_plan test_shape(const gemv_problem *p, int split, int rows, int threads, int unroll)
{
    gemv_plan s = {split, rows, threads, unroll, gemv_cluster_smem(rows, threads, p->nb), (p->M + rows - 1) / rows};
    if (s.smem == 0)
        fail_msg("gemv_cluster_smem(%d rows, %d threads, %d tokens) is 0: the contract asks your kernel to run rows "
                 "1..16 with threads 32..gemv_max_threads(nb) = %d", rows, threads, p->nb, gemv_max_threads(p->nb));
    return s;
}

static void describe(char *what, size_t n, const gemv_plan *s)
{
    snprintf(what, n, "gemv_cluster, clusters of %d, %d rows per cluster, %d threads, unroll %d", s->split, s->rows,
             s->threads, s->unroll);
}

/* The mechanism, cluster by cluster (emulator only): W slices, DSMEM bytes,
 * no atomics, one write per output, at most two cluster barriers. */
static void check_mechanism(const gemv_problem *p, const gemv_plan *s, const char *what)
{
    int S = s->split;
    for (int c = 0; c < s->clusters; ++c) {
        int m0 = c * s->rows, nvalid = p->M - m0 < s->rows ? p->M - m0 : s->rows;
        size_t a[16], b[16];
        unsigned long long dsmem = 0, ystores = 0;
        unsigned long long per_cta = (unsigned long long)(S - 1) * (unsigned long long)((nvalid + S - 1) / S) * p->nb * 4;
        for (int r = 0; r < S; ++r) {
            uint32_t blk = (uint32_t)(c * S + r);
            dsm_emu_counts k;
            dsm_emu_gmem_use y;
            assert_true(dsm_emu_last_counts(blk, &k));
            assert_true(dsm_emu_last_gmem_use(blk, p->dy, &y));
            if (!gemv_block_w_slice(p, blk, m0, nvalid, &a[r], &b[r], what))
                fail_msg("%s: cluster %d, rank %d must read one K slice of each of its cluster's rows of W, once", what,
                         c, r);
            if (k.gmem_atom_ops || k.dsmem_atom_ops || k.smem_atom_ops)
                fail_msg("%s: cluster %d, rank %d used atomics (%llu global, %llu DSMEM, %llu shared): the contract "
                         "asks for the same bits in every run", what, c, r, (unsigned long long)k.gmem_atom_ops,
                         (unsigned long long)k.dsmem_atom_ops, (unsigned long long)k.smem_atom_ops);
            unsigned long long mine = k.dsmem_ld_bytes + k.dsmem_st_bytes + k.async_out_bytes;
            if (mine > per_cta)
                fail_msg("%s: cluster %d, rank %d moved %llu bytes through DSMEM; a CTA owns at most ceil(%d rows / "
                         "%d) rows of outputs and needs their partials from %d peers: at most %llu bytes", what, c, r,
                         mine, nvalid, S, S - 1, per_cta);
            if (y.st_bytes > (unsigned long long)((nvalid + S - 1) / S) * p->nb * 4)
                fail_msg("%s: cluster %d, rank %d wrote %llu bytes of y: more than its share of the outputs", what, c,
                         r, (unsigned long long)y.st_bytes);
            if (k.cluster_waits_max > 2)
                fail_msg("%s: a thread of cluster %d, rank %d waited at %u cluster barriers: at most two", what, c, r,
                         k.cluster_waits_max);
            dsmem += mine;
            ystores += y.st_bytes;
        }
        if (!gemv_slices_cover_row(a, b, S, (size_t)p->K * 2, what))
            fail_msg("%s: cluster %d: the K slices of its CTAs must cover every row once", what, c);
        unsigned long long want = (unsigned long long)(S - 1) * (unsigned long long)nvalid * p->nb * 4;
        if (dsmem != want)
            fail_msg("%s: cluster %d moved %llu bytes through DSMEM; a reduce-scatter of %d rows x %d tokens over %d "
                     "CTAs moves (split - 1) * rows * tokens * 4 = %llu", what, c, dsmem, nvalid, p->nb, S, want);
        if (ystores != (unsigned long long)nvalid * p->nb * 4)
            fail_msg("%s: cluster %d wrote %llu bytes of y: each of its %d x %d outputs once", what, c, ystores,
                     nvalid, p->nb);
    }
}

/* Launches s on p through gemv_cluster_launch; checks y, and the mechanism on the emulator. */
static void run_cluster(gemv_problem *p, const gemv_plan *s)
{
    char what[160];
    describe(what, sizeof what, s);
    assert_int_equal(dsm_memset(p->dy, 0xFF, (size_t)p->nb * p->M * 4), dsmSuccess);
    dsm_error_t err = gemv_cluster_launch(s, p->dW, p->dx, (float *)p->dy, (const float *)p->dbias,
                                          (const float *)p->dres, p->M, p->K, p->nb);
    if (err == dsmSuccess)
        err = dsm_device_synchronize();
    if (err != dsmSuccess)
        fail_msg("%s: M %d, K %d, nb %d: %s (%s)", what, p->M, p->K, p->nb, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    if (!gemv_problem_check(p, what))
        fail_msg("%s: wrong y", what);
    if (test_on_emulator())
        check_mechanism(p, s, what);
}

/* A random shape the kernel must run: split <= K / 8. */
static void run_random(int exact, int with_epilogue)
{
    int nb = 1 + (int)test_random_below(8), K = gemv_test_random_K(64), kc = K / 8;
    int max_split = kc < 16 ? kc : 16;
    gemv_problem p = gemv_problem_make(1 + (int)test_random_below(30), K, nb, exact, with_epilogue,
                                       with_epilogue && test_random_below(2));
    gemv_plan s = test_shape(&p, 1 + (int)test_random_below((uint32_t)max_split), 1 + (int)test_random_below(16),
                             32 * (1 + (int)test_random_below(4)), 1 << test_random_below(3));
    run_cluster(&p, &s);
    gemv_problem_free(&p);
}

static void test_gemv_cluster_is_exact_for_random_shapes(void **state)
{
    (void)state;
    for (int i = 0; i < 6; ++i)
        run_random(1, 0);
}

static void test_gemv_cluster_clusters_of_1_to_16(void **state)
{
    (void)state;
    int sizes[] = {1, 2, 3, 4, 7, 8, 9, 16};
    for (int i = 0; i < 8; ++i) {
        gemv_problem p = gemv_problem_make(1 + (int)test_random_below(12), 8 * (16 + (int)test_random_below(40)),
                                           1 + (int)test_random_below(8), 1, 0, 0);
        gemv_plan s = test_shape(&p, sizes[i], 1 + (int)test_random_below(6), 64, 2);
        run_cluster(&p, &s);
        gemv_problem_free(&p);
    }
}

/* y = W x + bias + residual, each term alone, and neither. */
static void test_gemv_cluster_fused_epilogue(void **state)
{
    (void)state;
    for (int with = 0; with < 4; ++with) {
        gemv_problem p = gemv_problem_make(13, 8 * 37, 3, 1, with & 1, with & 2);
        gemv_plan s = test_shape(&p, 4, 5, 64, 2);
        run_cluster(&p, &s);
        gemv_problem_free(&p);
    }
}

/* Rows of a cluster fewer than its CTAs, one chunk per slice, the last
 * cluster cut short by M, big blocks, every unroll. */
static void test_gemv_cluster_awkward_shapes(void **state)
{
    (void)state;
    gemv_problem p = gemv_problem_make(7, 8 * 16, 2, 1, 1, 0);
    gemv_plan s1 = test_shape(&p, 16, 1, 32, 1);    /* 16 slices of one chunk, 1 row per cluster */
    run_cluster(&p, &s1);
    gemv_plan s2 = test_shape(&p, 5, 3, 96, 4);     /* 3 rows over 5 CTAs; last cluster has 1 row */
    run_cluster(&p, &s2);
    gemv_problem_free(&p);
    gemv_problem q = gemv_problem_make(5, 8 * 300, 8, 1, 0, 1);
    gemv_plan s3 = test_shape(&q, 2, 16, gemv_max_threads(8), 2);  /* the biggest block for 8 tokens, more rows than M */
    run_cluster(&q, &s3);
    gemv_problem_free(&q);
    /* an odd number of partial floats per CTA (5 rows, 1 token): whatever the
     * kernel keeps after them in shared memory must still be aligned (on the
     * GPU an mbarrier there was a misaligned address) */
    gemv_problem r = gemv_problem_make(21, 40, 1, 1, 0, 0);
    gemv_plan s4 = test_shape(&r, 2, 5, 64, 1);
    run_cluster(&r, &s4);
    gemv_problem_free(&r);
}

/* Every block size the contract promises, for every compiled token count, in
 * clusters of one (a plain launch) and of two. On the GPU this is where a
 * kernel whose threads need more registers than an SM has fails to launch
 * (cudaErrorLaunchOutOfResources), which the emulator cannot see: it does not
 * model registers. */
static void test_gemv_cluster_runs_every_block_size_it_promises(void **state)
{
    (void)state;
    static const int nbs[] = {1, 2, 3, 4, 8};
    for (int i = 0; i < 5; ++i) {
        int nb = nbs[i];
        gemv_problem p = gemv_problem_make(16 + (int)test_random_below(8), 8 * (40 + (int)test_random_below(40)), nb, 1,
                                           1, 0);
        for (int threads = 32; threads <= gemv_max_threads(nb); threads *= 2) {
            /* on the emulator, the biggest block once per kernel: a thread is a fiber there */
            if (test_on_emulator() && threads > 128 && threads < gemv_max_threads(nb))
                continue;
            for (int split = 1; split <= 2; ++split) {
                gemv_plan s = test_shape(&p, split, 16, threads, 2);
                run_cluster(&p, &s);
            }
        }
        gemv_problem_free(&p);
    }
}

static void test_gemv_cluster_real_data_within_tolerance(void **state)
{
    (void)state;
    for (int i = 0; i < 3; ++i)
        run_random(0, 1);
}

/* ---- the plan ---- */

/* Checks the four rules of gemv_cluster.h for one shape on the current GPU (or model). */
static void check_plan(int M, int K, int nb, int sm_count, const char *gpu)
{
    gemv_plan s;
    memset(&s, 0, sizeof s);
    dsm_error_t err = gemv_cluster_plan(M, K, nb, sm_count, &s);
    if (err != dsmSuccess)
        fail_msg("%s: gemv_cluster_plan(M %d, K %d, nb %d, %d SMs) returned %s: a plan exists (1 row per cluster, "
                 "small blocks)", gpu, M, K, nb, sm_count, dsm_error_name(err));
    int kc = K / 8, max_split = kc < 16 ? kc : 16;
    char what[200];
    snprintf(what, sizeof what, "%s, M %d, K %d, nb %d, %d SMs: plan split %d, rows %d, threads %d, unroll %d, smem %zu, "
             "clusters %d", gpu, M, K, nb, sm_count, s.split, s.rows, s.threads, s.unroll, s.smem, s.clusters);
    if (s.split < 1 || s.split > max_split || s.rows < 1 || s.threads < 32 || s.threads > 1024 || s.threads % 32 ||
        (s.unroll != 1 && s.unroll != 2 && s.unroll != 4) || s.smem == 0 ||
        s.smem != gemv_cluster_smem(s.rows, s.threads, nb) || s.clusters != (M + s.rows - 1) / s.rows)
        fail_msg("%s: not a valid plan (rule 1)", what);
    assert_int_equal(gemv_cluster_prepare(&s, nb), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3((unsigned)s.split, 1, 1), DSM_DIM3((unsigned)s.threads, 1, 1),
                             DSM_DIM3((unsigned)s.split, 1, 1), s.smem};
    int resident = 0;
    err = dsm_occupancy_max_active_clusters(&resident, gemv_cluster_kernel(nb), &cfg);
    if (err != dsmSuccess || resident < 1)
        fail_msg("%s: the occupancy API holds %d clusters of it (%s): it cannot run (rule 2)", what, resident,
                 dsm_error_name(err));
    long long wave = resident < s.clusters ? resident : s.clusters;
    if (wave * s.split < sm_count)
        fail_msg("%s: %d clusters of %d CTAs are resident at once, %lld CTAs for %d SMs: the first wave leaves SMs "
                 "idle (rule 3)", what, resident, s.split, wave * s.split, sm_count);
    if (s.split > 1 && (long long)s.clusters * (s.split - 1) >= sm_count)
        fail_msg("%s: %d clusters of %d CTAs would give every SM a CTA already (rule 4: split no further than that "
                 "takes)", what, s.clusters, s.split - 1);
}

/* gemv_cluster_smem says 0 for what the kernel cannot run: a block above gemv_max_threads(nb)
 * needs more registers than GEMV_BOUNDS gives (the GPU refuses the launch, the emulator, which
 * has no registers, would run it), and so does any block size that is not whole warps. Every
 * boundary of the contract, for every token count. */
static void test_gemv_cluster_smem_refuses_what_the_kernel_cannot_run(void **state)
{
    (void)state;
    for (int nb = 1; nb <= 8; ++nb) {
        int max = gemv_max_threads(nb), rows = 1 + (int)test_random_below(16);
        int bad[] = {max + 32, 2 * max, 1024 + 32, 16, 0, 32 + 1 + (int)test_random_below(31)};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
            if (gemv_cluster_smem(rows, bad[i], nb) != 0)
                fail_msg("gemv_cluster_smem(rows %d, threads %d, nb %d) = %zu: %s, 0 expected", rows, bad[i], nb,
                         gemv_cluster_smem(rows, bad[i], nb),
                         bad[i] > max ? "more threads than gemv_max_threads(nb), the most the kernel's registers "
                                        "allow on the GPU"
                                      : "not a whole number of warps");
        if (gemv_cluster_smem(rows, max, nb) == 0 || gemv_cluster_smem(16, 32, nb) == 0 ||
            gemv_cluster_smem(1, max, nb) == 0)
            fail_msg("gemv_cluster_smem(nb %d) refuses rows 1..16 with 32..%d threads, which the kernel must run",
                     nb, max);
        if (gemv_cluster_smem(0, 32, nb) != 0 || gemv_cluster_smem(rows, 64, 0) != 0 ||
            gemv_cluster_smem(rows, 64, 9) != 0)
            fail_msg("gemv_cluster_smem accepts 0 rows or a token count outside 1..8");
    }
}

/* The chapter's shapes (Llama-3.1-8B, DeepSeek-V3-like small M) and random
 * ones, 1 and 8 tokens and random counts, on every GPU the course models. */
static void test_gemv_cluster_plan_follows_the_rules_on_every_modelled_gpu(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();     /* the GPU's own answers: test_gemv_cluster_plan_on_this_gpu */
    static const int shapes[][2] = {{6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}, {128256, 4096},
                                    {1536, 7168}, {576, 7168}, {256, 7168}, {7168, 2048}, {64, 7168}, {16, 4096}};
    char *was = getenv("DSM_EMU_DEVICE") ? strdup(getenv("DSM_EMU_DEVICE")) : NULL;
    for (int mi = 0; mi < test_model_count(); ++mi) {
        const dsm_device_model *m = test_model_at(mi);
        if (m->smem_per_block_optin != 227 * 1024)
            continue;   /* gemv_cluster_smem's contract is Hopper's 227 KB per block */
        setenv("DSM_EMU_DEVICE", m->name, 1);
        int fit = 1;    /* the largest cluster a GPC holds: no plan splits further */
        for (int g = 0; g < m->gpc_count; ++g)
            fit = m->sms_per_gpc[g] > fit ? m->sms_per_gpc[g] : fit;
        fit = fit < 16 ? fit : 16;
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
            if (shapes[i][0] * fit >= m->sm_count)
                for (int nb = 1; nb <= 8; nb *= 8)
                    check_plan(shapes[i][0], shapes[i][1], nb, m->sm_count, m->name);
        for (int i = 0; i < 20; ++i) {
            int K = 8 * (16 + (int)test_random_below(2048));
            int min_m = (m->sm_count + fit - 1) / fit, M = min_m + (int)test_random_below(i < 10 ? 400 : 100000);
            check_plan(M, K, 1 + (int)test_random_below(8), m->sm_count, m->name);
        }
    }
    if (was) {
        setenv("DSM_EMU_DEVICE", was, 1);
        free(was);
    } else {
        unsetenv("DSM_EMU_DEVICE");
    }
}

static void test_gemv_cluster_plan_on_this_gpu(void **state)
{
    (void)state;
    if (test_on_emulator())
        skip();
    static const int shapes[][2] = {{256, 7168}, {576, 7168}, {1536, 7168}, {4096, 4096}, {128256, 4096}, {64, 7168}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int nb = 1; nb <= 8; nb *= 2)
            check_plan(shapes[i][0], shapes[i][1], nb, 132, "this GPU");
}

/* The plan end to end: small problems on a pretend GPU of a few SMs, launched
 * as planned. */
static void test_gemv_cluster_planned_launch_is_exact(void **state)
{
    (void)state;
    for (int i = 0; i < 4; ++i) {
        int nb = 1 + (int)test_random_below(8), sms = 2 + (int)test_random_below(24);
        int K = 8 * (16 + (int)test_random_below(48)), M = (sms + 15) / 16 + (int)test_random_below(20);
        gemv_problem p = gemv_problem_make(M, K, nb, 1, 1, 1);
        gemv_plan s;
        dsm_error_t err = gemv_cluster_plan(M, K, nb, sms, &s);
        if (err != dsmSuccess)
            fail_msg("gemv_cluster_plan(M %d, K %d, nb %d, %d SMs): %s", M, K, nb, sms, dsm_error_name(err));
        run_cluster(&p, &s);
        gemv_problem_free(&p);
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gemv_cluster_is_exact_for_random_shapes),
    cmocka_unit_test(test_gemv_cluster_clusters_of_1_to_16),
    cmocka_unit_test(test_gemv_cluster_fused_epilogue),
    cmocka_unit_test(test_gemv_cluster_awkward_shapes),
    cmocka_unit_test(test_gemv_cluster_runs_every_block_size_it_promises),
    cmocka_unit_test(test_gemv_cluster_real_data_within_tolerance),
    cmocka_unit_test(test_gemv_cluster_smem_refuses_what_the_kernel_cannot_run),
    cmocka_unit_test(test_gemv_cluster_plan_follows_the_rules_on_every_modelled_gpu),
    cmocka_unit_test(test_gemv_cluster_plan_on_this_gpu),
    cmocka_unit_test(test_gemv_cluster_planned_launch_is_exact),
};

DSM_TEST_MAIN(tests)
