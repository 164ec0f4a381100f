/* test_dot_bf16.c: ch08.dot_bf16: the row-parallel GEMV built on your inner loop is exact for every shape, token count and loads-in-flight setting, and loads W 16 bytes at a time, each byte once. */
#include "gemv_test.h"

DSM_DECLARE_KERNEL(gemv_rowpar_t1);
DSM_DECLARE_KERNEL(gemv_rowpar_t2);
DSM_DECLARE_KERNEL(gemv_rowpar_t4);
DSM_DECLARE_KERNEL(gemv_rowpar_t8);

/* ---- loads in flight, per thread (test_dot_bf16_probe.h) ---- */

/* While probe_w is set, the probe follows every thread of CTA 0 (up to PROBE_THREADS): a run is the
 * loads a thread issued since it last widened a number; depth is, over its runs, the most chunks
 * of one row of W (at probe_w, rows of probe_row_bytes) in one run: the chunks of a row it had
 * in flight before it used the first. */
enum { PROBE_THREADS = 128, PROBE_ROWS = 8 };
typedef struct probe_thread {
    int loads, uses, depth, after_use;
    size_t row[PROBE_ROWS];
    int count[PROBE_ROWS], nrows;
} probe_thread;
static const unsigned char *probe_w;
static size_t probe_w_bytes, probe_row_bytes;
static probe_thread probe_threads[PROBE_THREADS];

#ifndef DSM_BACKEND_CUDA
struct dsm_emu_thread_view {
    dsm_dim3 thread_idx, block_idx, block_dim, grid_dim;
};
extern const struct dsm_emu_thread_view *dsm_emu_self;

void probe_dot_note(int what, const void *p);
void probe_dot_note(int what, const void *p)
{
    unsigned t = dsm_emu_self->thread_idx.x;
    if (!probe_w || dsm_emu_self->block_idx.x != 0 || t >= PROBE_THREADS)
        return;
    probe_thread *s = &probe_threads[t];
    if (what) {
        s->uses++;
        s->after_use = 1;
        return;
    }
    s->loads++;
    if (s->after_use) {
        s->nrows = 0;
        s->after_use = 0;
    }
    const unsigned char *a = (const unsigned char *)p;
    if (a < probe_w || a >= probe_w + probe_w_bytes)
        return;
    size_t row = (size_t)(a - probe_w) / probe_row_bytes;
    int k = 0;
    while (k < s->nrows && s->row[k] != row)
        ++k;
    if (k == s->nrows) {
        if (k == PROBE_ROWS)
            return;
        s->row[k] = row;
        s->count[k] = 0;
        s->nrows++;
    }
    if (++s->count[k] > s->depth)
        s->depth = s->count[k];
}
#endif

static dsm_kernel_t rowpar_kernel(int nb)
{
    return nb <= 1 ? DSM_KERNEL(gemv_rowpar_t1) : nb <= 2 ? DSM_KERNEL(gemv_rowpar_t2)
         : nb <= 4 ? DSM_KERNEL(gemv_rowpar_t4) : DSM_KERNEL(gemv_rowpar_t8);
}

/* Runs the row-parallel GEMV on p with `rows` rows per CTA; checks y. */
static void run_rowpar(gemv_problem *p, int rows, int threads, int unroll)
{
    char what[128];
    snprintf(what, sizeof what, "gemv_rowpar, %d rows per CTA, %d threads, unroll %d", rows, threads, unroll);
    dsm_kernel_t k = rowpar_kernel(p->nb);
    size_t smem = gemv_block_smem(rows, threads, p->nb);
    if (smem > 48 * 1024)
        assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)smem), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3((unsigned)((p->M + rows - 1) / rows), 1, 1), DSM_DIM3((unsigned)threads, 1, 1),
                             DSM_DIM3(0, 0, 0), smem};
    void *args[] = {&p->dW, &p->dx, &p->dy, &p->M, &p->K, &p->nb, &rows, &unroll};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("%s: M %d, K %d, nb %d: %s (%s)", what, p->M, p->K, p->nb, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    if (!gemv_problem_check(p, what))
        fail_msg("%s: wrong y", what);
}

static int random_threads(void) { return 32 * (1 + (int)test_random_below(4)); }

static void test_dot_bf16_rowpar_is_exact_for_random_shapes_and_one_token(void **state)
{
    (void)state;
    for (int i = 0; i < 6; ++i) {
        gemv_problem p = gemv_problem_make(1 + (int)test_random_below(40), gemv_test_random_K(60), 1, 1, 0, 0);
        run_rowpar(&p, 1 + (int)test_random_below(6), random_threads(), 1 << test_random_below(3));
        gemv_problem_free(&p);
    }
}

/* 1 to 8 tokens: every compiled token count, and counts below it (3, 5, 6, 7). */
static void test_dot_bf16_rowpar_is_exact_for_every_token_count(void **state)
{
    (void)state;
    for (int nb = 1; nb <= 8; ++nb) {
        gemv_problem p = gemv_problem_make(1 + (int)test_random_below(24), gemv_test_random_K(40), nb, 1, 0, 0);
        run_rowpar(&p, 1 + (int)test_random_below(5), random_threads(), 1 << test_random_below(3));
        gemv_problem_free(&p);
    }
}

/* Every loads-in-flight setting, with rows that end inside a round of loads
 * (K not a multiple of unroll * 32 chunks) and rows past the end of W. */
static void test_dot_bf16_rowpar_every_unroll_and_awkward_k(void **state)
{
    (void)state;
    int unrolls[] = {1, 2, 4};
    for (int u = 0; u < 3; ++u) {
        gemv_problem p = gemv_problem_make(7, 8 * (32 * unrolls[u] + 1 + (int)test_random_below(31)), 2, 1, 0, 0);
        run_rowpar(&p, 3, 64, unrolls[u]);
        gemv_problem_free(&p);
    }
}

/* More warps than rows, fewer warps than rows, one row per CTA. */
static void test_dot_bf16_rowpar_warps_and_rows_in_any_proportion(void **state)
{
    (void)state;
    gemv_problem p = gemv_problem_make(9, 8 * 70, 4, 1, 0, 0);
    run_rowpar(&p, 1, 128, 2);     /* 4 warps share one row */
    run_rowpar(&p, 9, 32, 2);      /* one warp, 5 row groups one after the other */
    run_rowpar(&p, 4, 96, 4);      /* 3 warps, 2 row groups of 2 rows: one warp idle */
    gemv_problem_free(&p);
}

static void test_dot_bf16_rowpar_real_data_within_tolerance(void **state)
{
    (void)state;
    for (int nb = 1; nb <= 8; nb *= 2) {
        gemv_problem p = gemv_problem_make(1 + (int)test_random_below(20), gemv_test_random_K(100), nb, 0, 0, 0);
        run_rowpar(&p, 2, 64, 2);
        gemv_problem_free(&p);
    }
}

/* The lesson: every load of W and x is one 16-byte load, and every byte of W
 * is read once, by the CTA that owns its row. */
static void test_dot_bf16_loads_w_16_bytes_at_a_time_each_byte_once(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int rows = 3, M = 10, nb = 1 + (int)test_random_below(8);
    gemv_problem p = gemv_problem_make(M, gemv_test_random_K(50), nb, 1, 0, 0);
    run_rowpar(&p, rows, 64, 2);
    for (int blk = 0; blk * rows < M; ++blk) {
        dsm_emu_counts c;
        assert_true(dsm_emu_last_counts((uint32_t)blk, &c));
        if (c.gmem_ld_ops == 0 || c.gmem_ld_bytes != 16 * c.gmem_ld_ops)
            fail_msg("CTA %d loaded %llu bytes of global memory in %llu loads: every load of W and x must be one "
                     "16-byte load (gemv_ld16 of a uint4)", blk, (unsigned long long)c.gmem_ld_bytes,
                     (unsigned long long)c.gmem_ld_ops);
        int nrows = M - blk * rows < rows ? M - blk * rows : rows;
        size_t a, b;
        char what[64];
        snprintf(what, sizeof what, "gemv_rowpar, CTA %d", blk);
        if (!gemv_block_w_slice(&p, (uint32_t)blk, blk * rows, nrows, &a, &b, what) || a != 0 ||
            b != (size_t)p.K * 2)
            fail_msg("CTA %d must read each byte of its %d rows of W once, and nothing else", blk, nrows);
    }
    gemv_problem_free(&p);
}

/* The lesson of Little's law: `unroll` is how many chunks of each row a thread may load before it
 * uses the first. With one token nothing else competes for registers, so a thread keeps exactly
 * `unroll` in flight; with any number of tokens never more. The K here gives every lane at least
 * four full rounds. */
static void test_dot_bf16_keeps_unroll_chunks_of_a_row_in_flight_and_never_more(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    int unrolls[] = {1, 2, 4}, tokens[] = {1, 2 + (int)test_random_below(7)};
    for (int t = 0; t < 2; ++t)
        for (int u = 0; u < 3; ++u) {
            int nb = tokens[t], threads = 32 * (1 + (int)test_random_below(2));
            gemv_problem p = gemv_problem_make(2, 8 * 32 * 2 * (17 + (int)test_random_below(8)), nb, 1, 0, 0);
            memset(probe_threads, 0, sizeof probe_threads);
            probe_w = (const unsigned char *)p.dW;
            probe_row_bytes = (size_t)p.K * 2u;
            probe_w_bytes = (size_t)p.M * probe_row_bytes;
            run_rowpar(&p, 2, threads, unrolls[u]);
            probe_w = NULL;
            int most = 0, worst = -1;
            for (int th = 0; th < threads; ++th) {
                const probe_thread *s = &probe_threads[th];
                if (s->loads && !s->uses)
                    fail_msg("gemv_rowpar, %d token(s), unroll %d: thread %d loaded %d chunks and never called "
                             "bf16_lo or bf16_hi: widen with them (bf16.h), the test sees a chunk used when "
                             "its numbers are widened", nb, unrolls[u], th, s->loads);
                if (s->depth > most) {
                    most = s->depth;
                    worst = th;
                }
            }
            if (most > unrolls[u])
                fail_msg("gemv_rowpar, %d token(s), unroll %d: thread %d loaded %d chunks of one row of W before "
                         "it used the first; unroll is the most a thread may keep in flight", nb, unrolls[u], worst,
                         most);
            if (nb == 1 && most < unrolls[u])
                fail_msg("gemv_rowpar, 1 token, unroll %d, K %d: no thread loaded more than %d chunk(s) of a row "
                         "of W before it used the first: with one token, load `unroll` chunks of every row, then "
                         "do their arithmetic (Little's law: one 16-byte load in flight per row is latency-bound)",
                         unrolls[u], p.K, most);
            gemv_problem_free(&p);
        }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_dot_bf16_rowpar_is_exact_for_random_shapes_and_one_token),
    cmocka_unit_test(test_dot_bf16_rowpar_is_exact_for_every_token_count),
    cmocka_unit_test(test_dot_bf16_rowpar_every_unroll_and_awkward_k),
    cmocka_unit_test(test_dot_bf16_rowpar_warps_and_rows_in_any_proportion),
    cmocka_unit_test(test_dot_bf16_rowpar_real_data_within_tolerance),
    cmocka_unit_test(test_dot_bf16_loads_w_16_bytes_at_a_time_each_byte_once),
    cmocka_unit_test(test_dot_bf16_keeps_unroll_chunks_of_a_row_in_flight_and_never_more),
};

DSM_TEST_MAIN(tests)
