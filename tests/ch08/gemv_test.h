/* gemv_test.h: what the tests of chapter 8 share: random decode-GEMV problems (exact or real-valued bf16), the CPU reference, device copies, and the emulator's view of which bytes of W each CTA read. */
#ifndef TESTS_CH08_GEMV_TEST_H
#define TESTS_CH08_GEMV_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "bf16.h"
#include "gemv_shape.h"

/*
 * A problem: y = W x (+ bias) (+ residual) for nb tokens. "Exact" problems
 * use small integers (weights and tokens in [-8, 8], bias and residual in
 * [-64, 64]): every partial sum is an integer below 2^24, which fp32 holds
 * exactly whatever the order of the additions, so a right kernel gives the
 * reference to the last bit. "Real" problems use uniform values in [-1, 1)
 * rounded to bf16 and are compared with a tolerance.
 */
typedef struct gemv_problem {
    int M, K, nb, exact;
    uint16_t *W, *x;            /* host: M * K and nb * K bf16 */
    float *bias, *residual;     /* host, or NULL: M and nb * M */
    double *ref, *mag;          /* the reference in double, and sum |terms| per output (for the tolerance) */
    void *dW, *dx, *dy, *dbias, *dres; /* device copies; dy is nb * M floats */
} gemv_problem;

static inline uint16_t gemv_test_value(int exact)
{
    return exact ? bf16_from_f32((float)((int)test_random_below(17) - 8)) : bf16_from_f32(test_random_float(-1.0f, 1.0f));
}

/* A problem with random data; with_bias / with_residual add those terms. */
static inline gemv_problem gemv_problem_make(int M, int K, int nb, int exact, int with_bias, int with_residual)
{
    gemv_problem p;
    memset(&p, 0, sizeof p);
    p.M = M, p.K = K, p.nb = nb, p.exact = exact;
    p.W = malloc((size_t)M * K * 2);
    p.x = malloc((size_t)nb * K * 2);
    for (size_t i = 0; i < (size_t)M * K; ++i)
        p.W[i] = gemv_test_value(exact);
    for (size_t i = 0; i < (size_t)nb * K; ++i)
        p.x[i] = gemv_test_value(exact);
    if (with_bias) {
        p.bias = malloc((size_t)M * 4);
        for (int m = 0; m < M; ++m)
            p.bias[m] = exact ? (float)((int)test_random_below(129) - 64) : test_random_float(-1.0f, 1.0f);
    }
    if (with_residual) {
        p.residual = malloc((size_t)nb * M * 4);
        for (size_t i = 0; i < (size_t)nb * M; ++i)
            p.residual[i] = exact ? (float)((int)test_random_below(129) - 64) : test_random_float(-1.0f, 1.0f);
    }
    p.ref = malloc((size_t)nb * M * sizeof(double));
    p.mag = malloc((size_t)nb * M * sizeof(double));
    for (int b = 0; b < nb; ++b)
        for (int m = 0; m < M; ++m) {
            double s = 0, a = 0;
            for (int k = 0; k < K; ++k) {
                double t = (double)bf16_to_f32(p.W[(size_t)m * K + k]) * (double)bf16_to_f32(p.x[(size_t)b * K + k]);
                s += t;
                a += fabs(t);
            }
            if (p.bias)
                s += p.bias[m], a += fabs(p.bias[m]);
            if (p.residual)
                s += p.residual[(size_t)b * M + m], a += fabs(p.residual[(size_t)b * M + m]);
            p.ref[(size_t)b * M + m] = s;
            p.mag[(size_t)b * M + m] = a;
        }
    assert_int_equal(dsm_malloc(&p.dW, (size_t)M * K * 2), dsmSuccess);
    assert_int_equal(dsm_malloc(&p.dx, (size_t)nb * K * 2), dsmSuccess);
    assert_int_equal(dsm_malloc(&p.dy, (size_t)nb * M * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(p.dW, p.W, (size_t)M * K * 2), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(p.dx, p.x, (size_t)nb * K * 2), dsmSuccess);
    if (p.bias) {
        assert_int_equal(dsm_malloc(&p.dbias, (size_t)M * 4), dsmSuccess);
        assert_int_equal(dsm_memcpy_to_device(p.dbias, p.bias, (size_t)M * 4), dsmSuccess);
    }
    if (p.residual) {
        assert_int_equal(dsm_malloc(&p.dres, (size_t)nb * M * 4), dsmSuccess);
        assert_int_equal(dsm_memcpy_to_device(p.dres, p.residual, (size_t)nb * M * 4), dsmSuccess);
    }
    /* y starts as NaNs: an output nobody wrote shows */
    assert_int_equal(dsm_memset(p.dy, 0xFF, (size_t)nb * M * 4), dsmSuccess);
    return p;
}

static inline void gemv_problem_free(gemv_problem *p)
{
    dsm_free(p->dW), dsm_free(p->dx), dsm_free(p->dy);
    if (p->dbias)
        dsm_free(p->dbias);
    if (p->dres)
        dsm_free(p->dres);
    free(p->W), free(p->x), free(p->bias), free(p->residual), free(p->ref), free(p->mag);
    memset(p, 0, sizeof *p);
}

/* The tolerance of a real problem: fp32 sums of up to K terms in any order,
 * against a double reference. A right kernel is far inside it; one 16-byte
 * chunk of a row left out or counted twice is far outside (K <= a few
 * thousand in these tests). */
#define GEMV_TEST_REL_TOL 1e-5

/* Copies y back and compares it with the reference: exactly for an exact
 * problem, within GEMV_TEST_REL_TOL * sum |terms| otherwise. `what` names the
 * configuration in the failure message. Returns 1 when right. */
static inline int gemv_problem_check(const gemv_problem *p, const char *what)
{
    size_t n = (size_t)p->nb * p->M;
    float *y = malloc(n * 4);
    assert_int_equal(dsm_memcpy_to_host(y, p->dy, n * 4), dsmSuccess);
    int ok = 1;
    for (size_t i = 0; i < n && ok; ++i) {
        double want = p->ref[i], tol = p->exact ? 0.0 : GEMV_TEST_REL_TOL * p->mag[i] + 1e-6;
        if (!(fabs((double)y[i] - want) <= tol)) {   /* NaN fails too */
            print_error("%s: M %d, K %d, nb %d: y[token %zu][row %zu] = %.9g, want %.9g (tolerance %.3g; %s data; "
                        "seed %u)\n", what, p->M, p->K, p->nb, i / (size_t)p->M, i % (size_t)p->M, (double)y[i], want,
                        tol, p->exact ? "exact integer" : "real", test_seed());
            ok = 0;
        }
    }
    free(y);
    return ok;
}

/* K, a multiple of 8 in [8, 8 * max_chunks], often not a multiple of any tile. */
static inline int gemv_test_random_K(int max_chunks) { return 8 * (1 + (int)test_random_below((uint32_t)max_chunks)); }

/*
 * The emulator's view of W in the last launch, for the CTAs that computed
 * rows [m0, m0 + nrows) and K slices: `block` read W only inside those rows,
 * one contiguous slice [*a, *b) (in bytes within a row) of each, every byte
 * once. Returns 0 with a message when not. A block that read nothing gets an
 * empty slice.
 */
static inline int gemv_block_w_slice(const gemv_problem *p, uint32_t block, int m0, int nrows, size_t *a, size_t *b,
                              const char *what)
{
    dsm_emu_gmem_use use;
    if (!dsm_emu_last_gmem_use(block, p->dW, &use)) {
        print_error("%s: the emulator has no record of block %u's use of W\n", what, block);
        return 0;
    }
    size_t row = (size_t)p->K * 2;
    if (use.ld_bytes == 0) {
        *a = *b = 0;
        return 1;
    }
    size_t lo = (size_t)m0 * row, hi = (size_t)(m0 + nrows) * row;
    if (use.ld_lo < lo || use.ld_hi > hi) {
        print_error("%s: block %u read W bytes [%zu, %zu), outside its rows %d..%d (bytes [%zu, %zu))\n", what, block,
                    use.ld_lo, use.ld_hi, m0, m0 + nrows - 1, lo, hi);
        return 0;
    }
    *a = use.ld_lo - (size_t)m0 * row;
    *b = use.ld_hi - (size_t)(m0 + nrows - 1) * row;
    if (*a >= row || *b > row || *b <= *a || use.ld_bytes != (size_t)nrows * (*b - *a)) {
        print_error("%s: block %u read %llu bytes of W in [%zu, %zu): not one slice of each of its %d rows read "
                    "once\n", what, block, (unsigned long long)use.ld_bytes, use.ld_lo, use.ld_hi, nrows);
        return 0;
    }
    return 1;
}

/* The slices [a[i], b[i]) of n CTAs cover a row of `row` bytes with no overlap. */
static inline int gemv_slices_cover_row(size_t *a, size_t *b, int n, size_t row, const char *what)
{
    size_t at = 0, total = 0;
    for (int i = 0; i < n; ++i)
        total += b[i] - a[i];
    /* follow the chain of slices from byte 0: n <= 16 */
    for (int done = 0; done < n; ++done) {
        int next = -1;
        for (int i = 0; i < n; ++i)
            if (b[i] > a[i] && a[i] == at)
                next = i;
        if (next < 0)
            break;
        at = b[next];
    }
    if (at != row || total != row) {
        print_error("%s: the K slices of one cluster's CTAs do not cover the row once: they chain to byte %zu of "
                    "%zu and add up to %zu bytes\n", what, at, row, total);
        return 0;
    }
    return 1;
}

#endif
