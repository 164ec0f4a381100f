/* test_xent_stat.c: ch09.xent_stat: merging, folding and pushing softmax statistics gives the exact max and the sum of exponentials to fp32 accuracy for any values, including empty parts (all -inf) and logits a thousand apart, and an empty part changes nothing bit for bit. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "xent_stat.h"

DSM_DECLARE_KERNEL(xent_merge_kernel);
DSM_DECLARE_KERNEL(xent_fold_kernel);
DSM_DECLARE_KERNEL(xent_push_kernel);

/* A statistic in double: the max, and the sum relative to it. */
typedef struct dstat {
    double m, s;
} dstat;

static dstat dmerge(dstat a, double m, double s)
{
    if (m == -INFINITY)
        return a;
    if (a.m == -INFINITY)
        return (dstat){m, s};
    double mm = fmax(a.m, m);
    return (dstat){mm, a.s * exp(a.m - mm) + s * exp(m - mm)};
}

static int same_bits(xent_stat a, xent_stat b) { return memcmp(&a, &b, sizeof a) == 0; }

static void check_near(const char *what, int i, xent_stat got, dstat want)
{
    if (want.m == -INFINITY) {
        if (got.m != -INFINITY || got.s != 0.0f)
            fail_msg("%s %d: got {%g, %g}, want the empty statistic {-inf, 0} (no NaN: -inf - -inf is NaN)", what, i,
                     (double)got.m, (double)got.s);
        return;
    }
    if ((double)got.m != want.m)
        fail_msg("%s %d: max %.9g, want %.9g exactly (the max is one of the inputs)", what, i, (double)got.m, want.m);
    if (!(fabs((double)got.s - want.s) <= 4e-6 * want.s))
        fail_msg("%s %d: sum %.9g, want %.9g (relative to the max; seed %u)", what, i, (double)got.s, want.s,
                 test_seed());
}

/* A random partial: empty one time in six, else m in [-span, span], s in [1, 1000]. */
static xent_stat random_stat(float span)
{
    xent_stat r;
    if (test_random_below(6) == 0) {
        r.m = -INFINITY;
        r.s = 0.0f;
    } else {
        r.m = test_random_float(-span, span);
        r.s = test_random_float(1.0f, 1000.0f);
    }
    return r;
}

static void *dev_copy(const void *h, size_t n)
{
    void *d;
    assert_int_equal(dsm_malloc(&d, n), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(d, h, n), dsmSuccess);
    return d;
}

static void launch(dsm_kernel_t k, void **args)
{
    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(0, 0, 0), 0};
    assert_int_equal(dsm_launch_sync(&cfg, k, args), dsmSuccess);
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
}

/* Merges n pairs on the device; the results in out. */
static void merge_pairs(const xent_stat *a, const xent_stat *b, xent_stat *out, int n)
{
    void *da = dev_copy(a, (size_t)n * 8), *db = dev_copy(b, (size_t)n * 8), *dout;
    assert_int_equal(dsm_malloc(&dout, (size_t)n * 8), dsmSuccess);
    void *args[] = {&da, &db, &dout, &n};
    launch(DSM_KERNEL(xent_merge_kernel), args);
    assert_int_equal(dsm_memcpy_to_host(out, dout, (size_t)n * 8), dsmSuccess);
    dsm_free(da);
    dsm_free(db);
    dsm_free(dout);
}

static void test_merge_is_exact_in_the_max_and_accurate_in_the_sum(void **state)
{
    (void)state;
    enum { N = 300 };
    xent_stat a[N], b[N], out[N];
    for (int i = 0; i < N; ++i) {
        float span = i < 100 ? 10.0f : i < 200 ? 1000.0f : 1e30f;    /* far apart: exp(m) overflows above 88 */
        a[i] = random_stat(span);
        b[i] = random_stat(span);
    }
    merge_pairs(a, b, out, N);
    for (int i = 0; i < N; ++i) {
        dstat w = dmerge((dstat){a[i].m, a[i].s}, b[i].m, b[i].s);
        check_near("merge", i, out[i], w);
    }
}

static void test_merge_with_an_empty_side_changes_nothing(void **state)
{
    (void)state;
    enum { N = 64 };
    xent_stat a[N], b[N], out[N];
    xent_stat e = {-INFINITY, 0.0f};
    for (int i = 0; i < N; ++i) {
        xent_stat r = {test_random_float(-100.0f, 100.0f), test_random_float(1.0f, 5000.0f)};
        a[i] = i % 3 == 0 ? e : r;
        b[i] = i % 3 == 0 ? r : i % 3 == 1 ? e : e;
        if (i % 3 == 2)
            a[i] = e;   /* both empty */
    }
    merge_pairs(a, b, out, N);
    for (int i = 0; i < N; ++i) {
        xent_stat want = a[i].m == -INFINITY ? b[i] : a[i];
        if (!same_bits(out[i], want))
            fail_msg("merge %d of {%g, %g} and {%g, %g}: got {%.9g, %.9g}, want {%.9g, %.9g} bit for bit (an empty "
                     "side contributes nothing, and two give the empty statistic)", i, (double)a[i].m, (double)a[i].s,
                     (double)b[i].m, (double)b[i].s, (double)out[i].m, (double)out[i].s, (double)want.m,
                     (double)want.s);
    }
}

static void test_fold_of_many_partials_in_index_order(void **state)
{
    (void)state;
    enum { L = 40, P = 16 };
    xent_stat p[L * P], out[L];
    for (int l = 0; l < L; ++l)
        for (int i = 0; i < P; ++i) {
            p[l * P + i] = random_stat(l < 20 ? 20.0f : 2000.0f);
            if (l == 3 || (l == 4 && i != 7))   /* all empty; all empty but one */
                p[l * P + i] = (xent_stat){-INFINITY, 0.0f};
        }
    void *dp = dev_copy(p, sizeof p), *dout;
    int per = P, lists = L;
    assert_int_equal(dsm_malloc(&dout, sizeof out), dsmSuccess);
    void *args[] = {&dp, &per, &dout, &lists};
    launch(DSM_KERNEL(xent_fold_kernel), args);
    assert_int_equal(dsm_memcpy_to_host(out, dout, sizeof out), dsmSuccess);
    for (int l = 0; l < L; ++l) {
        dstat w = {-INFINITY, 0};
        for (int i = 0; i < P; ++i)
            w = dmerge(w, p[l * P + i].m, p[l * P + i].s);
        check_near("fold of list", l, out[l], w);
    }
    if (!same_bits(out[4], p[4 * P + 7]))
        fail_msg("a fold of one partial and empties: got {%.9g, %.9g}, want that partial {%.9g, %.9g} bit for bit",
                 (double)out[4].m, (double)out[4].s, (double)p[4 * P + 7].m, (double)p[4 * P + 7].s);
    int zero = 0;
    void *args0[] = {&dp, &zero, &dout, &lists};
    launch(DSM_KERNEL(xent_fold_kernel), args0);
    assert_int_equal(dsm_memcpy_to_host(out, dout, sizeof out), dsmSuccess);
    if (out[0].m != -INFINITY || out[0].s != 0.0f)
        fail_msg("a fold of nothing: got {%g, %g}, want {-inf, 0}", (double)out[0].m, (double)out[0].s);
    dsm_free(dp);
    dsm_free(dout);
}

static void test_push_adds_values_including_minus_infinity(void **state)
{
    (void)state;
    enum { N = 48, NV = 8 };
    xent_stat a[N], out[N];
    float v[N * NV];
    for (int i = 0; i < N; ++i) {
        a[i] = random_stat(i < 24 ? 10.0f : 1000.0f);
        for (int j = 0; j < NV; ++j)
            v[i * NV + j] = (i % 4 == 1) ? -INFINITY : (j == 3 && i % 4 == 2) ? -INFINITY
                                                                                : test_random_float(-900.0f, 900.0f);
    }
    void *da = dev_copy(a, sizeof a), *dv = dev_copy(v, sizeof v), *dout;
    int nv = NV, n = N;
    assert_int_equal(dsm_malloc(&dout, sizeof out), dsmSuccess);
    void *args[] = {&da, &dv, &nv, &dout, &n};
    launch(DSM_KERNEL(xent_push_kernel), args);
    assert_int_equal(dsm_memcpy_to_host(out, dout, sizeof out), dsmSuccess);
    for (int i = 0; i < N; ++i) {
        dstat w = {a[i].m, a[i].s};
        for (int j = 0; j < NV; ++j)
            w = dmerge(w, v[i * NV + j], 1.0);
        check_near("push", i, out[i], w);
        if (i % 4 == 1 && !same_bits(out[i], a[i]))
            fail_msg("push %d of values that are all -inf: got {%.9g, %.9g}, want the statistic unchanged {%.9g, "
                     "%.9g}", i, (double)out[i].m, (double)out[i].s, (double)a[i].m, (double)a[i].s);
    }
    dsm_free(da);
    dsm_free(dv);
    dsm_free(dout);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_merge_is_exact_in_the_max_and_accurate_in_the_sum),
    cmocka_unit_test(test_merge_with_an_empty_side_changes_nothing),
    cmocka_unit_test(test_fold_of_many_partials_in_index_order),
    cmocka_unit_test(test_push_adds_values_including_minus_infinity),
};

DSM_TEST_MAIN(tests)
