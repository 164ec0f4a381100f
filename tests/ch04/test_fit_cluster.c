/* test_fit_cluster.c: ch04.fit_cluster: the plan matches the device model on every GPU the course models, and the launch it makes holds and reads back the whole working set. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fit_cluster.h"
#include "dsm_emu_control.h"
#include "support/models.h"
#include "support/test_support.h"

#define KB ((size_t)1024)

DSM_DECLARE_KERNEL(fit_cluster_fill);

/* The plan a correct fit_cluster_plan makes on model m (the emulator's occupancy is the model's). */
static cluster_plan expected_plan(const dsm_device_model *m, int threads, size_t bytes)
{
    cluster_plan best = {0, 0, 0};
    for (int c = 1; c <= 16; c++) {
        size_t share = fit_cluster_share(bytes, c);
        int clusters = 0;
        if (share > m->smem_per_block_optin)
            continue;
        assert_int_equal(dsm_model_occupancy_max_active_clusters(m, c, threads, share, 0, &clusters), dsmSuccess);
        if (clusters > best.resident_clusters) {
            best.cluster_size = c;
            best.smem_per_cta = share;
            best.resident_clusters = clusters;
        }
    }
    return best;
}

static void expect_plan(const char *device, int threads, size_t bytes, cluster_plan want, cluster_plan got,
                        dsm_error_t err)
{
    if (want.cluster_size == 0) {   /* no size fits: the contract's error */
        if (err != dsmErrorLaunchOutOfResources)
            fail_msg("no cluster size holds a working set of %zu B on %s with %d threads (no GPC holds enough "
                     "CTAs of a share the GPU allows): cudaErrorLaunchOutOfResources expected, got %s, cluster %d",
                     bytes, device, threads, dsm_error_name(err), got.cluster_size);
        return;
    }
    if (err != dsmSuccess || got.cluster_size != want.cluster_size || got.smem_per_cta != want.smem_per_cta ||
        got.resident_clusters != want.resident_clusters)
        fail_msg("expected cluster %d (%d resident, %zu B per CTA), got %s, cluster %d (%d resident, %zu B "
                 "per CTA), on %s for %d threads and a working set of %zu B",
                 want.cluster_size, want.resident_clusters, want.smem_per_cta, dsm_error_name(err),
                 got.cluster_size, got.resident_clusters, got.smem_per_cta, device, threads, bytes);
}

/* Launches through fit_cluster_launch (at most max_clusters clusters) and checks every word of every
 * cluster's working set; the emulator must report nothing. Returns the plan. */
static cluster_plan launch_and_check(int threads, size_t bytes, int max_clusters)
{
    uint32_t words = (uint32_t)(bytes / 4);
    size_t out_bytes = sizeof(uint32_t) * words * (size_t)max_clusters;
    uint32_t *out, *host = malloc(out_bytes);
    assert_int_equal(dsm_malloc((void **)&out, out_bytes), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xff, out_bytes), dsmSuccess);
    cluster_plan plan = {0, 0, 0};
    void *args[] = {&out, &words};
    dsm_error_t err = fit_cluster_launch(DSM_KERNEL(fit_cluster_fill), args, threads, bytes, max_clusters, &plan);
    if (err != dsmSuccess)
        fail_msg("fit_cluster_launch(%d threads, %zu B) returned %s (%s)", threads, bytes, dsm_error_name(err),
                 dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    int clusters = plan.resident_clusters < max_clusters ? plan.resident_clusters : max_clusters;
    assert_int_equal(dsm_memcpy_to_host(host, out, out_bytes), dsmSuccess);
    for (int c = 0; c < clusters; c++)
        for (uint32_t i = 0; i < words; i++)
            if (host[(size_t)c * words + i] != (uint32_t)i * 2654435761u + (uint32_t)c)
                fail_msg("cluster %d, word %u of %u (cluster size %d, %zu B per CTA): expected %u, got %u", c, i,
                         words, plan.cluster_size, plan.smem_per_cta, (uint32_t)i * 2654435761u + (uint32_t)c,
                         host[(size_t)c * words + i]);
    dsm_free(out);
    free(host);
    return plan;
}

static void test_fit_cluster_plan_matches_the_device_model_on_every_modelled_gpu(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();     /* a GPU is one device: the next test checks it against its own occupancy API */
    static const int threads[] = {64, 128, 256, 512, 1024};
    const char *was = getenv("DSM_EMU_DEVICE");
    char *saved = was ? strdup(was) : NULL;   /* the learner's own choice, restored for the other tests */
    for (int mi = 0; mi < test_model_count(); mi++) {
        const dsm_device_model *m = test_model_at(mi);
        setenv("DSM_EMU_DEVICE", m->name, 1);
        /* every boundary of the rules, deterministically: shares of exactly the default 48 KB and 16 B
         * more, exactly the opt-in limit and 16 B more, and the largest working set 16 CTAs hold */
        const size_t edges[] = {48 * KB, 48 * KB + 16, m->smem_per_block_optin, m->smem_per_block_optin + 16,
                                2 * m->smem_per_block_optin, 16 * m->smem_per_block_optin};
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
            int t = threads[e % 5];
            cluster_plan got = {0, 0, 0};
            dsm_error_t err = fit_cluster_plan(DSM_KERNEL(fit_cluster_fill), t, edges[e], &got);
            expect_plan(m->name, t, edges[e], expected_plan(m, t, edges[e]), got, err);
        }
        for (int i = 0; i < 12; i++) {
            int t = threads[test_random_below(5)];
            size_t bytes = 4 * KB + 16 * (size_t)test_random_below(3 * 1024 * 1024 / 16);
            cluster_plan got = {0, 0, 0};
            dsm_error_t err = fit_cluster_plan(DSM_KERNEL(fit_cluster_fill), t, bytes, &got);
            expect_plan(m->name, t, bytes, expected_plan(m, t, bytes), got, err);
        }
    }
    if (saved) {
        setenv("DSM_EMU_DEVICE", saved, 1);
        free(saved);
    } else {
        unsetenv("DSM_EMU_DEVICE");
    }
}

static void test_fit_cluster_plan_agrees_with_the_occupancy_api_and_prefers_more_resident_clusters(void **state)
{
    (void)state;
    dsm_kernel_t k = DSM_KERNEL(fit_cluster_fill);
    for (int i = 0; i < 4; i++) {
        int t = 128 << test_random_below(4);
        size_t bytes = 16 * KB + 16 * (size_t)test_random_below(2 * 1024 * 1024 / 16);
        cluster_plan plan = {0, 0, 0};
        dsm_error_t err = fit_cluster_plan(k, t, bytes, &plan);
        if (err != dsmSuccess)
            fail_msg("fit_cluster_plan(%d threads, %zu B) returned %s", t, bytes, dsm_error_name(err));
        assert_int_equal(plan.smem_per_cta, fit_cluster_share(bytes, plan.cluster_size));
        /* The planned shape is allowed now, and the occupancy API agrees with the plan. */
        dsm_launch_config cfg = {DSM_DIM3(plan.cluster_size, 1, 1), DSM_DIM3(t, 1, 1),
                                 DSM_DIM3(plan.cluster_size, 1, 1), plan.smem_per_cta};
        int clusters = -1;
        assert_int_equal(dsm_occupancy_max_active_clusters(&clusters, k, &cfg), dsmSuccess);
        assert_int_equal(clusters, plan.resident_clusters);
        /* No other size holds more clusters, and no smaller size as many. */
        for (int c = 1; c <= 16; c++) {
            size_t share = fit_cluster_share(bytes, c);
            if (share > 227 * KB || c == plan.cluster_size)
                continue;
            assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)(share > 48 * KB ? share : 48 * KB)), dsmSuccess);
            dsm_launch_config other = {DSM_DIM3(c, 1, 1), DSM_DIM3(t, 1, 1), DSM_DIM3(c, 1, 1), share};
            assert_int_equal(dsm_occupancy_max_active_clusters(&clusters, k, &other), dsmSuccess);
            if (clusters > plan.resident_clusters || (clusters == plan.resident_clusters && c < plan.cluster_size))
                fail_msg("%d threads, %zu B: the plan chose %d CTAs per cluster (%d resident), but %d CTAs give %d",
                         t, bytes, plan.cluster_size, plan.resident_clusters, c, clusters);
        }
    }
}

static void test_fit_cluster_launch_opts_in_above_48_kb_per_cta(void **state)
{
    (void)state;
    /* 1024 threads: two CTAs per SM at most, so one big CTA per cluster wins: 100..200 KB in one CTA. */
    size_t bytes = 100 * KB + 16 * (size_t)test_random_below(100 * 1024 / 16);
    cluster_plan plan = launch_and_check(1024, bytes, 2);
    assert_true(plan.smem_per_cta > 48 * KB);
}

static void test_fit_cluster_launch_spreads_a_working_set_too_big_for_one_cta(void **state)
{
    (void)state;
    size_t bytes = 228 * KB + 16 * (size_t)test_random_below(150 * 1024 / 16);
    cluster_plan plan = launch_and_check(128, bytes, 2);
    assert_true(plan.cluster_size >= 2);
}

static void test_fit_cluster_launch_uses_non_portable_clusters_when_they_fit_best(void **state)
{
    (void)state;
    /* 3 MB cannot be held by fewer than 14 CTAs of 227 KB. */
    cluster_plan plan = launch_and_check(128, 3 * KB * KB, 1);
    assert_true(plan.cluster_size > 8);
}

static void test_fit_cluster_plan_says_when_nothing_fits(void **state)
{
    (void)state;
    cluster_plan plan = {0, 0, 0};
    /* More than 16 CTAs of 227 KB can hold. */
    dsm_error_t err = fit_cluster_plan(DSM_KERNEL(fit_cluster_fill), 128, 16 * 227 * KB + 16, &plan);
    assert_string_equal(dsm_error_name(err), dsm_error_name(dsmErrorLaunchOutOfResources));
    err = fit_cluster_plan(DSM_KERNEL(fit_cluster_fill), 128, 0, &plan);
    assert_string_equal(dsm_error_name(err), dsm_error_name(dsmErrorInvalidValue));
    err = fit_cluster_plan(DSM_KERNEL(fit_cluster_fill), 1025, 1024, &plan);
    assert_string_equal(dsm_error_name(err), dsm_error_name(dsmErrorInvalidValue));
}

/* A launcher that does not wait returns before the kernel's own error: run
 * the kernel on more words than the plan gave it room for (its CTAs write
 * past their shared memory) and expect that error back from
 * fit_cluster_launch, with nothing left for a later synchronize. Emulator
 * only: on a GPU such an error would end the process's context. */
static void test_fit_cluster_launch_waits_for_the_kernel_and_returns_its_error(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    size_t bytes = 16 * KB + 16 * (size_t)test_random_below(1024);
    uint32_t words = (uint32_t)(8 * bytes / 4);     /* eight times the working set planned for */
    uint32_t *out;
    assert_int_equal(dsm_malloc((void **)&out, sizeof(uint32_t) * words), dsmSuccess);
    cluster_plan plan = {0, 0, 0};
    void *args[] = {&out, &words};
    dsm_emu_set_verbose(0);    /* the report is expected: do not print it */
    dsm_error_t err = fit_cluster_launch(DSM_KERNEL(fit_cluster_fill), args, 128, bytes, 1, &plan);
    dsm_error_t later = dsm_device_synchronize();
    dsm_emu_set_verbose(1);
    if (err == dsmSuccess)
        fail_msg("fit_cluster_launch returned cudaSuccess for a kernel that failed (%s came only from a later "
                 "synchronize): it must wait for the kernel and return its error", dsm_error_name(later));
    assert_int_equal(later, dsmSuccess);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fit_cluster_plan_matches_the_device_model_on_every_modelled_gpu),
    cmocka_unit_test(test_fit_cluster_plan_agrees_with_the_occupancy_api_and_prefers_more_resident_clusters),
    cmocka_unit_test(test_fit_cluster_launch_opts_in_above_48_kb_per_cta),
    cmocka_unit_test(test_fit_cluster_launch_spreads_a_working_set_too_big_for_one_cta),
    cmocka_unit_test(test_fit_cluster_launch_uses_non_portable_clusters_when_they_fit_best),
    cmocka_unit_test(test_fit_cluster_plan_says_when_nothing_fits),
    cmocka_unit_test(test_fit_cluster_launch_waits_for_the_kernel_and_returns_its_error),
};

DSM_TEST_MAIN(tests)
