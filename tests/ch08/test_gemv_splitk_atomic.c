/* test_gemv_splitk_atomic.c: ch08.gemv_splitk_atomic: split-K with global atomics is exact from a y full of NaNs for any shape, split and token count, with and without the epilogue; the slice kernel only adds into y, once per output, and reads only its K slice. */
#include "gemv_test.h"
#include "gemv_splitk_atomic.h"

/* Runs both kernels on p; checks y, and on the emulator the slice kernel's mechanism. */
static void run_atomic(gemv_problem *p, int rows, int split, int threads, int unroll)
{
    char what[160];
    snprintf(what, sizeof what, "gemv_splitk_atomic, %d rows per CTA, %d slices, %d threads, unroll %d", rows, split,
             threads, unroll);
    assert_int_equal(dsm_memset(p->dy, 0xFF, (size_t)p->nb * p->M * 4), dsmSuccess);  /* NaNs */
    dsm_error_t err = gemv_splitk_atomic_launch(p->dW, p->dx, (float *)p->dy, (const float *)p->dbias,
                                                (const float *)p->dres, p->M, p->K, p->nb, rows, split, threads,
                                                unroll);
    if (err == dsmSuccess)
        err = dsm_device_synchronize();
    if (err != dsmSuccess)
        fail_msg("%s: M %d, K %d, nb %d: %s (%s)", what, p->M, p->K, p->nb, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    if (!gemv_problem_check(p, what))
        fail_msg("%s: wrong y", what);
    if (!test_on_emulator())
        return;
    /* the last launch is the slice kernel: CTA t * split + s */
    int tiles = (p->M + rows - 1) / rows;
    for (int t = 0; t < tiles; ++t) {
        int m0 = t * rows, nvalid = p->M - m0 < rows ? p->M - m0 : rows;
        size_t a[16], b[16];
        for (int s = 0; s < split; ++s) {
            uint32_t blk = (uint32_t)(t * split + s);
            dsm_emu_gmem_use y;
            assert_true(dsm_emu_last_gmem_use(blk, p->dy, &y));
            if (y.st_bytes != 0)
                fail_msg("%s: the CTA of rows %d.. and slice %d stored %llu bytes into y: the other slices add into "
                         "y at the same time, so a slice may only add (atomicAdd)", what, m0, s,
                         (unsigned long long)y.st_bytes);
            if (y.atom_ops != (unsigned long long)nvalid * p->nb)
                fail_msg("%s: the CTA of rows %d.. and slice %d made %llu atomics into y: one per output of its %d x "
                         "%d, after summing its threads' partials", what, m0, s, (unsigned long long)y.atom_ops,
                         nvalid, p->nb);
            if (!gemv_block_w_slice(p, blk, m0, nvalid, &a[s], &b[s], what))
                fail_msg("%s: the CTA of rows %d.. and slice %d must read one K slice of each of its rows, once", what,
                         m0, s);
        }
        if (!gemv_slices_cover_row(a, b, split, (size_t)p->K * 2, what))
            fail_msg("%s: the slices of rows %d.. must cover every row once", what, m0);
    }
}

static void test_gemv_splitk_atomic_is_exact_from_nans_for_random_shapes(void **state)
{
    (void)state;
    for (int i = 0; i < 6; ++i) {
        int K = gemv_test_random_K(64), kc = K / 8;
        gemv_problem p = gemv_problem_make(1 + (int)test_random_below(30), K, 1 + (int)test_random_below(8), 1, 0, 0);
        run_atomic(&p, 1 + (int)test_random_below(8), 1 + (int)test_random_below((uint32_t)(kc < 16 ? kc : 16)),
                   32 * (1 + (int)test_random_below(4)), 1 << test_random_below(3));
        gemv_problem_free(&p);
    }
}

/* The epilogue goes into y before the slices add: bias, residual, both, neither. */
static void test_gemv_splitk_atomic_fused_epilogue(void **state)
{
    (void)state;
    for (int with = 0; with < 4; ++with) {
        gemv_problem p = gemv_problem_make(11, 8 * 41, 2, 1, with & 1, with & 2);
        run_atomic(&p, 4, 3, 64, 2);
        gemv_problem_free(&p);
    }
}

/* One slice, as many slices as chunks, M not a multiple of rows. */
static void test_gemv_splitk_atomic_awkward_splits(void **state)
{
    (void)state;
    gemv_problem p = gemv_problem_make(9, 8 * 12, 5, 1, 0, 0);
    run_atomic(&p, 4, 1, 32, 4);
    run_atomic(&p, 2, 12, 32, 1);
    run_atomic(&p, 5, 7, 64, 2);
    gemv_problem_free(&p);
}

static void test_gemv_splitk_atomic_real_data_within_tolerance(void **state)
{
    (void)state;
    gemv_problem p = gemv_problem_make(17, gemv_test_random_K(100), 4, 0, 1, 1);
    run_atomic(&p, 3, 5, 64, 2);
    gemv_problem_free(&p);
}

/* The init kernel's contract: any 1-D grid and block size sets every output. Grids of one CTA,
 * of a few, and of more CTAs than outputs, with blocks of 32 to 256: a kernel without a
 * grid-stride loop leaves outputs unset in the small grids. */
static void test_gemv_splitk_atomic_init_sets_every_output_for_any_grid(void **state)
{
    (void)state;
    int M = 300 + (int)test_random_below(200), nb = 1 + (int)test_random_below(8);
    gemv_problem p = gemv_problem_make(M, 64, nb, 1, 1, 1);
    size_t n = (size_t)M * (size_t)nb;
    float *got = malloc(n * sizeof *got);
    const unsigned grids[] = {1, 2 + test_random_below(3), (unsigned)(n / 32 + 7)};
    const unsigned blocks[] = {32, 96, 256};
    for (int g = 0; g < 3; ++g) {
        assert_int_equal(dsm_memset(p.dy, 0xFF, n * 4), dsmSuccess); /* NaNs */
        dsm_launch_config cfg = {DSM_DIM3(grids[g], 1, 1), DSM_DIM3(blocks[g], 1, 1), DSM_DIM3(0, 0, 0), 0};
        void *args[] = {&p.dy, &p.dbias, &p.dres, &p.M, &p.nb};
        dsm_error_t err = dsm_launch_sync(&cfg, gemv_atomic_init_kernel(), args);
        if (err != dsmSuccess)
            fail_msg("gemv_atomic_init, %u CTAs of %u threads: %s", grids[g], blocks[g], dsm_error_name(err));
        assert_int_equal(dsm_memcpy_to_host(got, p.dy, n * 4), dsmSuccess);
        for (size_t i = 0; i < n; ++i) {
            float want = p.bias[i % (size_t)M] + p.residual[i];
            if (got[i] != want)
                fail_msg("gemv_atomic_init, %u CTAs of %u threads, M %d, nb %d: y[%zu] is %g, bias[m] + residual[b * "
                         "M + m] = %g expected: the contract allows any grid, so every thread walks the outputs "
                         "with a stride of the whole grid", grids[g], blocks[g], M, nb, i, got[i], want);
        }
    }
    free(got);
    gemv_problem_free(&p);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gemv_splitk_atomic_is_exact_from_nans_for_random_shapes),
    cmocka_unit_test(test_gemv_splitk_atomic_fused_epilogue),
    cmocka_unit_test(test_gemv_splitk_atomic_awkward_splits),
    cmocka_unit_test(test_gemv_splitk_atomic_real_data_within_tolerance),
    cmocka_unit_test(test_gemv_splitk_atomic_init_sets_every_output_for_any_grid),
};

DSM_TEST_MAIN(tests)
