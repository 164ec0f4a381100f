/* test_copy_sources.c: what a bulk copy reads is ordered before it, as on an H200: a shared source is rewritten only once the sender knows of the receiver's wait (not after a relaxed cluster barrier), generic global stores a copy reads are fenced with fence.proxy.async.global, a peer's global writes come before its release arrive; and a second wait on a completed mbarrier phase is legal until the next phase begins. Buggy kernels are reported, their fixed twins pass under eight schedules. */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(second_wait);
DSM_DECLARE_KERNEL(source_rewrite);
DSM_DECLARE_KERNEL(g2s_generic_source);
DSM_DECLARE_KERNEL(g2s_peer_source);

#define CS_WORDS 32
#define CS_CTAS 4

/* Launches k on CS_CTAS CTAs of 32 threads in clusters of `cluster` with `variant`; out and the global scratch g
 * zeroed. Returns out (malloc'd) or, when `kind` is not NONE, expects that report and returns NULL. */
static uint32_t *run(dsm_kernel_t k, unsigned cluster, int variant, dsm_report_kind kind, dsm_error_t err)
{
    uint32_t *out = dev_zeroed(CS_CTAS * CS_WORDS * 4), *g = dev_zeroed(CS_CTAS * CS_WORDS * 4);
    dsm_launch_config cfg = cluster_cfg(CS_CTAS, CS_WORDS, cluster, 0);
    void *args[] = {&out, &g, &variant};
    uint32_t *h = NULL;
    if (kind != DSM_REPORT_NONE)
        launch_reported(&cfg, k, args, kind, err);
    else {
        launch_clean(&cfg, k, args);
        h = malloc(CS_CTAS * CS_WORDS * 4);
        assert_non_null(h);
        assert_int_equal(dsm_memcpy_to_host(h, out, CS_CTAS * CS_WORDS * 4), dsmSuccess);
    }
    dsm_free(out);
    dsm_free(g);
    return h;
}

/* The fixed twin passes and every thread wrote base + lane. */
static void run_clean(dsm_kernel_t k, unsigned cluster, int variant, uint32_t base)
{
    uint32_t *h = run(k, cluster, variant, DSM_REPORT_NONE, dsmSuccess);
    for (int i = 0; i < CS_CTAS * CS_WORDS; i++)
        assert_int_equal(h[i], base + (uint32_t)(i % CS_WORDS));
    free(h);
}

static void test_copy_sources_a_second_wait_on_a_completed_phase_with_nothing_begun_is_legal(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(second_wait), 1, 0, 14);
}

static void test_copy_sources_a_second_wait_for_the_same_parity_after_the_next_phase_began_is_a_stale_parity(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    (void)run(DSM_KERNEL(second_wait), 1, 1, DSM_REPORT_MBARRIER_STALE_PARITY, dsmErrorBarrierMisuse);
    report_mentions("already waited for");
}

static void test_copy_sources_a_source_rewritten_after_a_relaxed_cluster_barrier_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    (void)run(DSM_KERNEL(source_rewrite), 2, 0, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
    report_mentions("before its sender knows the copy completed");
    report_mentions("copy_sources.cu:68"); /* the rewrite */
}

static void test_copy_sources_a_source_rewritten_after_a_release_cluster_barrier_passes(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(source_rewrite), 2, 1, 100);
}

static void test_copy_sources_generic_global_stores_a_copy_reads_without_the_global_proxy_fence_are_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    (void)run(DSM_KERNEL(g2s_generic_source), 1, 0, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
    report_mentions("no fence.proxy.async.global");
}

static void test_copy_sources_generic_global_stores_fenced_for_the_async_proxy_pass(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(g2s_generic_source), 1, 1, 200);
}

static void test_copy_sources_a_global_source_a_peer_wrote_after_its_arrive_is_unpublished_at_the_issue(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    (void)run(DSM_KERNEL(g2s_peer_source), 2, 1, DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected);
    report_mentions("copy_sources.cu:118"); /* the peer's write after its arrive */
}

static void test_copy_sources_a_global_source_a_peer_wrote_before_its_arrive_passes(void **state)
{
    (void)state;
    run_clean(DSM_KERNEL(g2s_peer_source), 2, 0, 300);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_copy_sources_a_second_wait_on_a_completed_phase_with_nothing_begun_is_legal),
    cmocka_unit_test(test_copy_sources_a_second_wait_for_the_same_parity_after_the_next_phase_began_is_a_stale_parity),
    cmocka_unit_test(test_copy_sources_a_source_rewritten_after_a_relaxed_cluster_barrier_is_reported),
    cmocka_unit_test(test_copy_sources_a_source_rewritten_after_a_release_cluster_barrier_passes),
    cmocka_unit_test(test_copy_sources_generic_global_stores_a_copy_reads_without_the_global_proxy_fence_are_reported),
    cmocka_unit_test(test_copy_sources_generic_global_stores_fenced_for_the_async_proxy_pass),
    cmocka_unit_test(test_copy_sources_a_global_source_a_peer_wrote_after_its_arrive_is_unpublished_at_the_issue),
    cmocka_unit_test(test_copy_sources_a_global_source_a_peer_wrote_before_its_arrive_passes),
};
RUNTIME_TEST_MAIN(tests)
