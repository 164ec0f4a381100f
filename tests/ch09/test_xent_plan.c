/* test_xent_plan.c: ch09.xent_plan: on every GPU the course models, the plan for the chapter's vocabularies and random shapes is a valid launch the occupancy API accepts, and its cluster size and threads are the ones the rule gives: the portable cluster with the most bytes in flight per SM, for few rows the smallest cluster that gives every SM a CTA. */
#include <stdlib.h>
#include <string.h>

#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "model/device_model.h"
#include "xent_plan.h"

/* The rule of xent_plan.h, written again from its words. */
static xent_plan rule(int M, int V, int dtype, int sms)
{
    xent_plan none = {0, 0, 0, 0, 0}, cand[17];
    long long fl[17];
    int launches[17];
    for (int C = 1; C <= 16; ++C) {
        int lo, hi, n = 0;
        launches[C] = 0;
        xent_slice(xent_row_chunks(V, dtype), C, 0, &lo, &hi);
        int T = 128;
        while (T < 512 && T * 16 < hi - lo)
            T += 32;
        size_t smem = ((size_t)(T + 32) * 8 + 127) / 128 * 128 + (size_t)(hi - lo) * 16;
        dsm_kernel_t k = xent_cluster_kernel(dtype);
        if (smem > 226 * 1024 || dsm_func_set_max_dynamic_smem(k, (int)smem) != dsmSuccess)
            continue;
        if (C > 8)
            assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
        dsm_launch_config cfg = {DSM_DIM3((unsigned)(C * M), 1, 1), DSM_DIM3((unsigned)T, 1, 1),
                                 DSM_DIM3((unsigned)C, 1, 1), smem};
        if (dsm_occupancy_max_active_clusters(&n, k, &cfg) != dsmSuccess || n < 1)
            continue;
        xent_plan p = {C, T, M, n, smem};
        cand[C] = p;
        launches[C] = 1;
        fl[C] = (long long)(n * C / sms - 1) * (hi - lo) * 16;
    }
    int pick = 0;
    for (int C = 1; C <= 8; ++C)
        if (launches[C] && fl[C] > 0 && (!pick || fl[C] > fl[pick]))
            pick = C;
    if (!pick)
        for (int C = 9; C <= 16; ++C)
            if (launches[C] && fl[C] > 0 && (!pick || fl[C] > fl[pick]))
                pick = C;
    for (int C = 1; C <= 16 && !pick; ++C)
        if (launches[C])
            pick = C;
    if (!pick)
        return none;
    if ((long long)M * pick < sms) {
        int fill = 0, widest = 0;
        for (int C = 1; C <= 16; ++C)
            if (launches[C]) {
                widest = C;
                if (!fill && (long long)M * C >= sms)
                    fill = C;
            }
        pick = fill ? fill : widest;
    }
    return cand[pick];
}

static void check_plan(int M, int V, int dtype, int sms, const char *gpu)
{
    xent_plan p;
    memset(&p, 0, sizeof p);
    dsm_error_t err = xent_plan_make(M, V, dtype, sms, &p);
    xent_plan w = rule(M, V, dtype, sms);
    char what[200];
    snprintf(what, sizeof what, "%s, %d SMs, M %d, V %d, %s: plan clusters of %d x %d threads, %d clusters, %zu bytes",
             gpu, sms, M, V, dtype == XENT_BF16 ? "bf16" : "fp32", p.cluster, p.threads, p.clusters, p.smem);
    if (err != dsmSuccess)
        fail_msg("%s: xent_plan_make returned %s; the rule gives clusters of %d x %d threads", what,
                 dsm_error_name(err), w.cluster, w.threads);
    if (!xent_cluster_fits(V, dtype, p.cluster, p.threads) || p.clusters != M ||
        p.smem != xent_cluster_smem(V, dtype, p.cluster, p.threads))
        fail_msg("%s: not a launch of the contract (the slice must fit, one row per cluster, "
                 "xent_cluster_smem of the shape)", what);
    if (p.cluster != w.cluster || p.threads != w.threads)
        fail_msg("%s: the rule gives clusters of %d x %d threads (%d resident at once): the portable cluster with the "
                 "most bytes in flight per SM while one CTA computes, else the same among all; for few rows the smallest "
                 "that gives every SM a CTA, else the widest",
                 what, w.cluster, w.threads, w.resident);
    if (p.resident != w.resident)
        fail_msg("%s: resident %d, the occupancy API says %d clusters at once", what, p.resident, w.resident);
}

static void test_plan_follows_the_rule_on_every_modelled_gpu(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    static const int Vs[] = {32000, 128256, 151936, 262144, 50304};
    static const int Ms[] = {1, 8, 64, 512, 4096, 16384};
    char *was = getenv("DSM_EMU_DEVICE") ? strdup(getenv("DSM_EMU_DEVICE")) : NULL;
    for (int mi = 0; mi < dsm_model_count(); ++mi) {
        const dsm_device_model *m = dsm_model_at(mi);
        setenv("DSM_EMU_DEVICE", m->name, 1);
        for (int i = 0; i < 5; ++i)
            for (int j = 0; j < 6; ++j)
                for (int dt = 0; dt < 2; ++dt)
                    check_plan(Ms[j], Vs[i], dt, m->sm_count, m->name);
        for (int i = 0; i < 10; ++i)
            check_plan(1 + (int)test_random_below(5000), 8 * (1000 + (int)test_random_below(29000)),
                       (int)test_random_below(2), m->sm_count, m->name);
        /* as if the GPU had three times the SMs: fewer than two resident CTAs per "SM" for some cluster sizes */
        for (int i = 0; i < 5; ++i)
            check_plan(Ms[4], Vs[i], XENT_BF16, 3 * m->sm_count, m->name);
    }
    if (was) {
        setenv("DSM_EMU_DEVICE", was, 1);
        free(was);
    } else {
        unsetenv("DSM_EMU_DEVICE");
    }
}

static void test_plan_on_this_gpu(void **state)
{
    (void)state;
    if (test_on_emulator())
        skip();
    static const int Vs[] = {32000, 128256, 262144};
    for (int i = 0; i < 3; ++i)
        for (int M = 8; M <= 4096; M *= 8)
            check_plan(M, Vs[i], XENT_BF16, 132, "this GPU");
}

static void test_plan_refuses_what_cannot_be(void **state)
{
    (void)state;
    xent_plan p;
    assert_int_not_equal(xent_plan_make(0, 32000, XENT_BF16, 132, &p), dsmSuccess);
    assert_int_not_equal(xent_plan_make(4, 8 * 16 * 15000, XENT_BF16, 132, &p), dsmSuccess);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_plan_follows_the_rule_on_every_modelled_gpu),
    cmocka_unit_test(test_plan_on_this_gpu),
    cmocka_unit_test(test_plan_refuses_what_cannot_be),
};

DSM_TEST_MAIN(tests)
