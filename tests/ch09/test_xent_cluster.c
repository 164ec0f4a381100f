/* test_xent_cluster.c: ch09.xent_cluster: the fused kernel gives PyTorch's loss and gradient (double-precision reference) for both dtypes, clusters of 1 to 16, ignored rows, -inf slices, huge logits, V not a multiple of the slice, in place, fewer clusters than rows; and on the emulator reads each logit from global memory once, writes each gradient element once, with its partials through DSMEM only. */
#include "xent_test.h"
#include "xent_cluster.h"

/* Runs one configuration and checks the results and, on the emulator, the mechanism. */
static void run_cluster(int M, int V, int dtype, int C, int T, int clusters, int kind, int in_place)
{
    int vc = xent_row_chunks(V, dtype), lo, hi;
    xent_problem p = xent_problem_make(M, V, dtype, kind, vc / C * xent_per_chunk(dtype));
    if (in_place) {
        dsm_free(p.dgrad);
        p.dgrad = p.dx;
    }
    char what[160];
    snprintf(what, sizeof what, "%s, M %d, V %d, clusters of %d x %d threads, %d clusters%s%s",
             dtype == XENT_BF16 ? "bf16" : "fp32", M, V, C, T, clusters,
             kind == 1 ? ", logits near +-1000" : kind == 2 ? ", a run of -inf" : "", in_place ? ", in place" : "");
    dsm_kernel_t k = dtype == XENT_BF16 ? DSM_KERNEL(xent_cluster_bf16) : DSM_KERNEL(xent_cluster_f32);
    size_t smem = xent_cluster_smem(V, dtype, C, T);
    assert_true(xent_cluster_fits(V, dtype, C, T));
    assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)smem), dsmSuccess);
    if (C > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3((unsigned)(clusters * C), 1, 1), DSM_DIM3((unsigned)T, 1, 1),
                             DSM_DIM3((unsigned)C, 1, 1), smem};
    void *args[] = {&p.dx, &p.dlabels, &p.dgrad, &p.dloss, &p.M, &p.V, &p.scale};
    xent_launched(dsm_launch_sync(&cfg, k, args), what);
    xent_check(&p, what);

    if (test_on_emulator()) {
        for (int b = 0; b < clusters * C; ++b) {
            int q = b % C, c = b / C, rows = c < M ? (M - 1 - c) / clusters + 1 : 0;
            xent_slice(vc, C, q, &lo, &hi);
            unsigned long long slice = (unsigned long long)(hi - lo) * 16ull, want = slice * (unsigned long long)rows;
            dsm_emu_gmem_use x, g;
            dsm_emu_counts n;
            assert_true(dsm_emu_last_gmem_use((uint32_t)b, p.dx, &x));
            assert_true(dsm_emu_last_counts((uint32_t)b, &n));
            if (!in_place) {
                assert_true(dsm_emu_last_gmem_use((uint32_t)b, p.dgrad, &g));
                if (x.ld_bytes != want)
                    fail_msg("%s: rank %d of cluster %d read %llu bytes of logits; its slice of its %d rows is %llu: "
                             "each logit is read from global memory once (its slice stays on chip)", what, q, c,
                             (unsigned long long)x.ld_bytes, rows, want);
                if (g.st_bytes != want || g.ld_bytes != 0)
                    fail_msg("%s: rank %d of cluster %d wrote %llu bytes of gradient and read %llu; its slices are "
                             "%llu bytes: each element is written once, never read back", what, q, c,
                             (unsigned long long)g.st_bytes, (unsigned long long)g.ld_bytes, want);
                if (x.st_bytes != 0)
                    fail_msg("%s: rank %d of cluster %d wrote into the logits", what, q, c);
            }
            if (n.gmem_atom_ops != 0 || n.dsmem_atom_ops != 0)
                fail_msg("%s: rank %d of cluster %d used %llu atomics: the partials merge in a fixed order, without "
                         "atomics", what, q, c, (unsigned long long)(n.gmem_atom_ops + n.dsmem_atom_ops));
            unsigned long long dsm = n.dsmem_ld_bytes + n.dsmem_st_bytes + n.async_out_bytes;
            unsigned long long budget = 8ull * (unsigned long long)(C - 1) * (unsigned long long)rows;
            if (dsm > budget)
                fail_msg("%s: rank %d of cluster %d moved %llu bytes through DSMEM for %d rows; the budget is one "
                         "statistic (8 bytes) to or from each of its %d peers per row, %llu", what, q, c, dsm, rows,
                         C - 1, budget);
            if (C > 1 && rows > 0 && dsm < budget / 2)
                fail_msg("%s: rank %d of cluster %d moved only %llu bytes through DSMEM for %d rows: where did its "
                         "peers' partial statistics come from?", what, q, c, dsm, rows);
        }
    }
    xent_problem_free(&p);
}

static void test_cluster_matches_the_reference_bf16_and_fp32(void **state)
{
    (void)state;
    run_cluster(3, 1000, XENT_BF16, 3, 64, 3, 0, 0);     /* 125 chunks: slices of 42, 42, 41 */
    run_cluster(2, 264, XENT_F32, 8, 32, 2, 0, 0);       /* 66 chunks: slices of 9, the last of 3 */
    run_cluster(2, 512, XENT_BF16, 4, 96, 2, 0, 0);
    run_cluster(1, 640, XENT_F32, 1, 128, 1, 0, 0);      /* a cluster of one */
}

static void test_cluster_persistent_fewer_clusters_than_rows(void **state)
{
    (void)state;
    run_cluster(7, 400, XENT_BF16, 2, 64, 3, 0, 0);
    run_cluster(5, 96, XENT_F32, 4, 32, 1, 0, 0);
    run_cluster(2, 96, XENT_F32, 2, 32, 3, 0, 0);       /* more clusters than rows: one has none */
}

static void test_cluster_ignored_rows_huge_logits_and_inf_slices(void **state)
{
    (void)state;
    run_cluster(4, 800, XENT_BF16, 4, 64, 4, 1, 0);
    run_cluster(4, 800, XENT_F32, 4, 64, 2, 2, 0);       /* a slice of -inf in each row */
}

static void test_cluster_more_ctas_than_chunks_and_sixteen(void **state)
{
    (void)state;
    run_cluster(2, 24, XENT_BF16, 4, 32, 2, 0, 0);       /* 3 chunks: slices of 1, 1, 1 and an empty one */
    run_cluster(2, 2048, XENT_BF16, 16, 32, 1, 0, 0);
}

static void test_cluster_in_place(void **state)
{
    (void)state;
    run_cluster(3, 512, XENT_BF16, 2, 64, 2, 0, 1);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cluster_matches_the_reference_bf16_and_fp32),
    cmocka_unit_test(test_cluster_persistent_fewer_clusters_than_rows),
    cmocka_unit_test(test_cluster_ignored_rows_huge_logits_and_inf_slices),
    cmocka_unit_test(test_cluster_more_ctas_than_chunks_and_sixteen),
    cmocka_unit_test(test_cluster_in_place),
};

DSM_TEST_MAIN(tests)
