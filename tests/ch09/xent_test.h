/* xent_test.h: what the tests of chapter 9 share: random cross-entropy problems (bf16 or fp32 logits, ignored rows, -inf slices), the CPU reference in double precision, the launch and the check of loss and gradient. */
#ifndef TESTS_CH09_XENT_TEST_H
#define TESTS_CH09_XENT_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "xent_chunk.h"

/* A problem: M rows of V logits (dtype), labels, the gradient's scale, the
 * reference (double) and device copies. */
typedef struct xent_problem {
    int M, V, dtype, count;
    float scale;
    float *x;               /* host: M * V logits as fp32 (already rounded to the dtype) */
    int *labels;
    double *loss, *grad;    /* the reference */
    void *dx, *dlabels, *dgrad, *dloss;
} xent_problem;

static inline size_t xent_bytes(const xent_problem *p) { return (size_t)p->M * (size_t)p->V * (p->dtype == XENT_BF16 ? 2u : 4u); }

/* How a row's logits are drawn: 0 uniform in [-8, 8), 1 large (centred at
 * +-1000, so that exp of a logit overflows and only differences are safe),
 * 2 as 0 with one slice-sized run of -inf (whole slices of -inf for small
 * slices). */
static inline void xent_fill_row(float *r, int V, int kind, int run)
{
    float base = kind == 1 ? (test_random_below(2) ? 1000.0f : -1000.0f) : 0.0f;
    for (int i = 0; i < V; ++i)
        r[i] = base + test_random_float(-8.0f, 8.0f);
    if (kind == 2) {
        int a = (int)test_random_below((uint32_t)V);
        for (int i = a; i < a + run && i < V; ++i)
            r[i] = -INFINITY;
    }
}

/* A random problem; every 4th row or so ignored (at least one row counts). */
static inline xent_problem xent_problem_make(int M, int V, int dtype, int kind, int run)
{
    xent_problem p;
    memset(&p, 0, sizeof p);
    p.M = M, p.V = V, p.dtype = dtype;
    p.x = malloc((size_t)M * V * 4);
    p.labels = malloc((size_t)M * sizeof(int));
    for (int m = 0; m < M; ++m) {
        xent_fill_row(p.x + (size_t)m * V, V, kind, run);
        p.labels[m] = (test_random_below(4) == 0 && m != 0) ? XENT_IGNORE : (int)test_random_below((uint32_t)V);
        if (p.labels[m] != XENT_IGNORE && p.x[(size_t)m * V + p.labels[m]] == -INFINITY)
            p.x[(size_t)m * V + p.labels[m]] = 0.5f;
        p.count += p.labels[m] != XENT_IGNORE;
    }
    if (dtype == XENT_BF16)
        for (size_t i = 0; i < (size_t)M * V; ++i)
            p.x[i] = xent_bits_f32(xent_bf16_bits(p.x[i]) << 16);
    p.scale = 1.0f / (float)p.count;
    p.loss = malloc((size_t)M * sizeof(double));
    p.grad = malloc((size_t)M * V * sizeof(double));
    for (int m = 0; m < M; ++m) {
        const float *r = p.x + (size_t)m * V;
        double mx = -INFINITY, s = 0;
        for (int i = 0; i < V; ++i)
            mx = r[i] > mx ? r[i] : mx;
        for (int i = 0; i < V; ++i)
            s += exp((double)r[i] - mx);
        int l = p.labels[m];
        p.loss[m] = l == XENT_IGNORE ? 0.0 : mx + log(s) - (double)r[l];
        for (int i = 0; i < V; ++i)
            p.grad[(size_t)m * V + i] =
                l == XENT_IGNORE ? 0.0 : (exp((double)r[i] - mx) / s - (i == l ? 1.0 : 0.0)) * (double)p.scale;
    }
    size_t bytes = xent_bytes(&p);
    void *host = malloc(bytes);
    for (size_t i = 0; i < (size_t)M * V; ++i) {
        if (dtype == XENT_BF16)
            ((uint16_t *)host)[i] = (uint16_t)xent_bf16_bits(p.x[i]);
        else
            ((float *)host)[i] = p.x[i];
    }
    assert_int_equal(dsm_malloc(&p.dx, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc(&p.dgrad, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc(&p.dlabels, (size_t)M * sizeof(int)), dsmSuccess);
    assert_int_equal(dsm_malloc(&p.dloss, (size_t)M * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(p.dx, host, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(p.dlabels, p.labels, (size_t)M * sizeof(int)), dsmSuccess);
    assert_int_equal(dsm_memset(p.dgrad, 0xFF, bytes), dsmSuccess);   /* NaN: a gradient never written shows */
    assert_int_equal(dsm_memset(p.dloss, 0xFF, (size_t)M * 4), dsmSuccess);
    free(host);
    return p;
}

static inline void xent_problem_free(xent_problem *p)
{
    dsm_free(p->dx);
    if (p->dgrad != p->dx)
        dsm_free(p->dgrad);
    dsm_free(p->dlabels);
    dsm_free(p->dloss);
    free(p->x);
    free(p->labels);
    free(p->loss);
    free(p->grad);
}

/* Checks loss and gradient against the reference; `what` names the launch.
 * Loss: within 1e-4 relative (1e-4 absolute); gradient: within 1/64 (bf16,
 * whose 8-bit mantissa rounds at 1/256) or 1e-4 (fp32) of the reference,
 * plus scale * 1e-6. */
static inline void xent_check(const xent_problem *p, const char *what)
{
    size_t n = (size_t)p->M * p->V, bytes = xent_bytes(p);
    void *g = malloc(bytes);
    float *loss = malloc((size_t)p->M * 4);
    assert_int_equal(dsm_memcpy_to_host(g, p->dgrad, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_host(loss, p->dloss, (size_t)p->M * 4), dsmSuccess);
    for (int m = 0; m < p->M; ++m) {
        double want = p->loss[m], got = loss[m];
        if (!(fabs(got - want) <= 1e-4 * fmax(1.0, fabs(want))))
            fail_msg("%s: loss of row %d (label %d): got %.9g, want %.9g (log-sum-exp of the row minus the logit at "
                     "the label; 0 for an ignored row; seed %u)", what, m, p->labels[m], got, want, test_seed());
    }
    double rel = p->dtype == XENT_BF16 ? 1.0 / 64 : 1e-4;
    for (size_t i = 0; i < n; ++i) {
        double got = p->dtype == XENT_BF16 ? (double)xent_bits_f32((uint32_t)((uint16_t *)g)[i] << 16)
                                           : (double)((float *)g)[i];
        double want = p->grad[i];
        if (!(fabs(got - want) <= rel * fabs(want) + 1e-6 * p->scale)) {
            int m = (int)(i / (size_t)p->V), e = (int)(i % (size_t)p->V);
            fail_msg("%s: gradient of row %d (label %d), element %d: got %.9g, want %.9g ((softmax - one-hot) * "
                     "scale %.9g; 0 for an ignored row%s; seed %u)", what, m, p->labels[m], e, got, want,
                     (double)p->scale, isnan(got) ? "; NaN: never written?" : "", test_seed());
        }
    }
    free(g);
    free(loss);
}

/* Fails unless the launch returned success and the emulator saw nothing wrong. */
static inline void xent_launched(dsm_error_t err, const char *what)
{
    if (err != dsmSuccess)
        fail_msg("%s: %s (%s)", what, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator() && dsm_emu_last_report()->kind != DSM_REPORT_NONE)
        fail_msg("%s: the emulator reported %s (above)", what, dsm_report_kind_name(dsm_emu_last_report()->kind));
}

#endif
