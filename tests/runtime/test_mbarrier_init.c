/* test_mbarrier_init.c: a peer's arrive needs the owner's mbarrier.init released to it: a cluster barrier with a .release arrive does it without fence.mbarrier_init, a .relaxed arrive needs the fence first; the fence releases the init only, not data. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(init_then_peer_arrive);

enum { INIT_RELEASE_ARRIVE = 0, INIT_RELAXED_NO_FENCE = 1, INIT_FENCE_RELAXED = 2, INIT_FENCE_RELAXED_DATA = 3 };

static void run_init(int how, dsm_report_kind kind, dsm_error_t err)
{
    uint32_t *out = dev_zeroed(4 * 4), h[4];
    dsm_launch_config cfg = cluster_cfg(4, 32, 2, 0);
    void *args[] = {&out, &how};
    if (kind == DSM_REPORT_NONE) {
        launch_clean(&cfg, DSM_KERNEL(init_then_peer_arrive), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int b = 0; b < 4; b++)
            assert_int_equal(h[b], 1u);
    } else
        launch_reported(&cfg, DSM_KERNEL(init_then_peer_arrive), args, kind, err);
    dsm_free(out);
}

static void test_mbarrier_init_released_by_a_release_cluster_arrive_needs_no_fence(void **state)
{
    (void)state;
    run_init(INIT_RELEASE_ARRIVE, DSM_REPORT_NONE, dsmSuccess);
}

static void test_mbarrier_init_followed_by_a_relaxed_arrive_without_the_fence_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_init(INIT_RELAXED_NO_FENCE, DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse);
    report_mentions("mbarrier_init.cu:30"); /* the peer's remote arrive */
    report_mentions("mbarrier_init.cu:17"); /* the init */
    report_mentions("fence.mbarrier_init");
}

static void test_mbarrier_init_fenced_then_relaxed_arrive_passes(void **state)
{
    (void)state;
    run_init(INIT_FENCE_RELAXED, DSM_REPORT_NONE, dsmSuccess);
}

static void test_mbarrier_init_fence_does_not_publish_data_written_before_it(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_init(INIT_FENCE_RELAXED_DATA, DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected);
    report_mentions("mbarrier_init.cu:29"); /* the peer's read of `word` */
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mbarrier_init_released_by_a_release_cluster_arrive_needs_no_fence),
    cmocka_unit_test(test_mbarrier_init_followed_by_a_relaxed_arrive_without_the_fence_is_reported),
    cmocka_unit_test(test_mbarrier_init_fenced_then_relaxed_arrive_passes),
    cmocka_unit_test(test_mbarrier_init_fence_does_not_publish_data_written_before_it),
};
RUNTIME_TEST_MAIN(tests)
