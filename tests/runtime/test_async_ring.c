/* test_async_ring.c: an mbarrier orders a producer warp before consumer warps of its CTA; a bulk-copy ring passes every schedule and each of its typical bugs is reported in the learner's terms. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(warp_handoff);
DSM_DECLARE_KERNEL(bulk_ring);

enum { RING_OK = 0, RING_NO_EMPTY_WAIT = 1, RING_NO_EXPECT_TX = 2, RING_WRONG_PARITY = 3, RING_SOURCE_REWRITE = 4,
       RING_NO_PROXY_FENCE = 5 };
#define CHUNK_WORDS 32
#define CHUNKS 6
#define CLUSTER 4

static void run_handoff(int consumers_wait)
{
    uint32_t *out = dev_zeroed(96 * 4), h[96];
    dsm_launch_config cfg = cluster_cfg(1, 128, 1, 0);
    void *args[] = {&out, &consumers_wait};
    if (consumers_wait) {
        launch_clean(&cfg, DSM_KERNEL(warp_handoff), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int i = 0; i < 96; i++)
            assert_int_equal(h[i], 64 * 63 / 2);
    } else {
        launch_reported(&cfg, DSM_KERNEL(warp_handoff), args, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
        report_mentions("async_ring.cu:24");
    }
    dsm_free(out);
}

static void test_async_ring_producer_warp_hands_data_to_consumer_warps_through_an_mbarrier(void **state)
{
    (void)state;
    run_handoff(1);
}

static void test_async_ring_consumer_warps_that_do_not_wait_race_with_the_producer(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_handoff(0);
}

/* Launches the ring with one bug; returns the report's kind (NONE when clean, checked then). */
static dsm_report_kind run_ring(int bad)
{
    uint32_t *out = dev_zeroed(CLUSTER * 4), h[CLUSTER];
    int chunks = CHUNKS;
    dsm_launch_config cfg = cluster_cfg(CLUSTER, 64, CLUSTER, 0);
    void *args[] = {&out, &chunks, &bad};
    dsm_emu_set_verbose(bad == RING_OK);
    dsm_error_t e = dsm_launch_sync(&cfg, DSM_KERNEL(bulk_ring), args);
    dsm_emu_set_verbose(1);
    dsm_report_kind kind = dsm_emu_last_report()->kind;
    if (bad == RING_OK) {
        assert_int_equal(e, dsmSuccess);
        assert_int_equal(kind, DSM_REPORT_NONE);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (uint32_t r = 0; r < CLUSTER; r++) {
            uint32_t left = (r + CLUSTER - 1) % CLUSTER, expect = 0;
            for (uint32_t w = 0; w < CHUNKS * CHUNK_WORDS; w++)
                expect += left * 1000u + w;
            assert_int_equal(h[r], expect);
        }
    } else
        assert_int_not_equal(e, dsmSuccess);
    dsm_free(out);
    return kind;
}

static void test_async_ring_with_full_and_empty_mbarriers_passes(void **state)
{
    (void)state;
    run_ring(RING_OK);
}

static void test_async_ring_reusing_a_slot_before_the_consumer_released_it_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(RING_NO_EMPTY_WAIT);
    assert_true(k == DSM_REPORT_RACE_WRITE_WRITE || k == DSM_REPORT_RACE_READ_WRITE);
    report_mentions("\"empty\" mbarrier");
}

static void test_async_ring_missing_expect_tx_hangs_the_wait_and_names_it(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(RING_NO_EXPECT_TX), DSM_REPORT_MBARRIER_TX_MISMATCH);
    report_mentions("never completes");
    report_mentions("async_ring.cu:80"); /* the consumers' wait */
    report_mentions("128 bytes arrived");
}

static void test_async_ring_wrong_parity_reads_before_the_copy_landed(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(RING_WRONG_PARITY);
    assert_true(k == DSM_REPORT_UNINITIALIZED_READ || k == DSM_REPORT_RACE_READ_WRITE);
    report_mentions("parity 1");
    report_mentions("async_ring.cu:81"); /* the consumers' read of the slot */
}

static void test_async_ring_rewriting_the_source_before_the_copy_completed_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(RING_SOURCE_REWRITE), DSM_REPORT_RACE_READ_WRITE);
    report_mentions("rewritten before the copy completed");
    report_mentions("async_ring.cu:70");
}

static void test_async_ring_copy_of_unfenced_generic_writes_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(RING_NO_PROXY_FENCE), DSM_REPORT_RACE_READ_WRITE);
    report_mentions("fence.proxy.async");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_async_ring_producer_warp_hands_data_to_consumer_warps_through_an_mbarrier),
    cmocka_unit_test(test_async_ring_consumer_warps_that_do_not_wait_race_with_the_producer),
    cmocka_unit_test(test_async_ring_with_full_and_empty_mbarriers_passes),
    cmocka_unit_test(test_async_ring_reusing_a_slot_before_the_consumer_released_it_is_reported),
    cmocka_unit_test(test_async_ring_missing_expect_tx_hangs_the_wait_and_names_it),
    cmocka_unit_test(test_async_ring_wrong_parity_reads_before_the_copy_landed),
    cmocka_unit_test(test_async_ring_rewriting_the_source_before_the_copy_completed_is_reported),
    cmocka_unit_test(test_async_ring_copy_of_unfenced_generic_writes_is_reported),
};
RUNTIME_TEST_MAIN(tests)
