/* test_multicast.c: a multicast bulk copy lands at the same offset in every CTA of its mask and completes on each one's own mbarrier, on every schedule and cluster size; each multicast bug users reported is found, its fixed twin passes. */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(mcast_ring);

enum { MC_OK = 0, MC_MASK_OUTSIDE = 1, MC_DST_EXITED = 2, MC_NOT_STARTED = 3, MC_EARLY_FIRE = 4,
       MC_ONLY_CTA0_ARMS = 5, MC_OVERCOUNT = 6, MC_EMPTY_COUNT_1 = 7, MC_REUSE_EARLY = 8, MC_EXIT_PENDING = 9,
       MC_MISALIGNED = 10, MC_SIZE = 11 };

/* Runs mcast_ring on `clusters` clusters of n; checks every word of every CTA when bad is MC_OK,
 * else expects a failed launch. Returns the report's kind. */
static dsm_report_kind run_ring(int n, int clusters, int chunk_words, int chunks, int bad)
{
    size_t per = (size_t)chunks * (size_t)chunk_words, blocks = (size_t)n * (size_t)clusters;
    uint32_t *h = malloc((size_t)clusters * per * 4), *got = malloc(blocks * (size_t)chunk_words * 4);
    for (size_t i = 0; i < (size_t)clusters * per; i++)
        h[i] = (uint32_t)(i * 2246822519u + 3266489917u);
    uint32_t *in = dev_zeroed((size_t)clusters * per * 4), *out = dev_zeroed(blocks * (size_t)chunk_words * 4);
    assert_int_equal(dsm_memcpy_to_device(in, h, (size_t)clusters * per * 4), dsmSuccess);
    dsm_kernel_t k = DSM_KERNEL(mcast_ring);
    if (n > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg((unsigned)blocks, 64, (unsigned)n, 0);
    void *args[] = {&in, &out, &chunk_words, &chunks, &bad};
    dsm_emu_set_verbose(bad == MC_OK);
    dsm_error_t e = dsm_launch_sync(&cfg, k, args);
    dsm_emu_set_verbose(1);
    dsm_report_kind kind = dsm_emu_last_report()->kind;
    if (bad == MC_OK) {
        if (e != dsmSuccess || kind != DSM_REPORT_NONE)
            print_error("clusters of %d, %d words, %d chunks: %s\n", n, chunk_words, chunks,
                        dsm_emu_last_report()->text);
        assert_int_equal(e, dsmSuccess);
        assert_int_equal(kind, DSM_REPORT_NONE);
        assert_int_equal(dsm_memcpy_to_host(got, out, blocks * (size_t)chunk_words * 4), dsmSuccess);
        for (size_t b = 0; b < blocks; b++)
            for (size_t w = 0; w < (size_t)chunk_words; w++) {
                uint32_t want = 0;
                for (int c = 0; c < chunks; c++)
                    want += (uint32_t)(c + 1) * h[(b / (size_t)n) * per + (size_t)c * (size_t)chunk_words + w];
                if (got[b * (size_t)chunk_words + w] != want) {
                    print_error("clusters of %d: CTA %zu word %zu: got 0x%08x, want 0x%08x\n", n, b, w,
                                got[b * (size_t)chunk_words + w], want);
                    fail();
                }
            }
    } else {
        assert_int_not_equal(e, dsmSuccess);
    }
    if (n > 8)
        dsm_func_set_non_portable_cluster_size_allowed(k, 0);
    dsm_free(in);
    dsm_free(out);
    free(h);
    free(got);
    return kind;
}

static void test_multicast_every_cta_of_the_cluster_receives_every_chunk(void **state)
{
    (void)state;
    int sizes[] = {1, 2, 3, 4, 8, 16};
    for (int i = 0; i < 6; i++) {
        int n = sizes[i];
        run_ring(n, 2, 4 * n * (n <= 4 ? 3 : 1), 5, MC_OK);
    }
    run_ring(2, 1, 256, 1, MC_OK);   /* one chunk: shorter than the ring */
    run_ring(4, 1, 16, 8, MC_OK);    /* several laps */
}

/* The counters see one read of global memory per multicast, and its bytes land in every CTA of the mask. */
static void test_multicast_counters_see_one_fetch_per_cluster_and_a_landing_per_cta(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int n = 4, clusters = 2, cw = 64, chunks = 5;
    run_ring(n, clusters, cw, chunks, MC_OK);
    dsm_emu_counts total, one;
    assert_true(dsm_emu_last_counts_total(&total));
    assert_int_equal(total.bulk_g2s_issued_bytes, (uint64_t)clusters * chunks * cw * 4);
    assert_int_equal(total.bulk_g2s_landed_bytes, (uint64_t)n * clusters * chunks * cw * 4);
    assert_int_equal(total.async_out_bytes, 0);
    for (uint32_t b = 0; b < (uint32_t)(n * clusters); b++) {
        assert_true(dsm_emu_last_counts(b, &one));
        assert_int_equal(one.bulk_g2s_issued_bytes, (uint64_t)chunks * cw * 4 / n);   /* its piece of each chunk */
        assert_int_equal(one.bulk_g2s_landed_bytes, (uint64_t)chunks * cw * 4);
    }
}

/* ---- the bugs (Step 2 of issue 20): each reported, in the learner's terms ---- */

static void test_multicast_mask_bit_outside_the_cluster_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(2, 1, 32, 3, MC_MASK_OUTSIDE), DSM_REPORT_ILLEGAL_ADDRESS);
    report_mentions("mask 0x0007 names rank 2, but the cluster has only 2 CTAs");
    report_mentions("Xid");
}

static void test_multicast_into_a_cta_that_exited_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(4, 1, 32, 3, MC_DST_EXITED);
    assert_true(k == DSM_REPORT_LIFETIME || k == DSM_REPORT_LIFETIME_HAZARD);
    report_mentions("rank 3");
}

static void test_multicast_before_the_receivers_started_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(2, 1, 32, 3, MC_NOT_STARTED), DSM_REPORT_LIFETIME);
    report_mentions("before rank");
    report_mentions("known to have started");
}

static void test_multicast_fired_before_every_receiver_released_the_slot_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(2, 1, 32, 6, MC_EARLY_FIRE);
    assert_true(k == DSM_REPORT_RACE_WRITE_WRITE || k == DSM_REPORT_RACE_READ_WRITE);
}

static void test_multicast_with_only_cta_0_arming_hangs_the_others_and_names_it(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(4, 1, 32, 3, MC_ONLY_CTA0_ARMS), DSM_REPORT_MBARRIER_TX_MISMATCH);
    report_mentions("never completes");
    report_mentions("arms ITS OWN barrier");
    report_mentions("without a matching dsm_mbarrier_arrive_expect_tx");
}

static void test_multicast_with_over_counted_bytes_hangs_and_names_it(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(4, 1, 32, 3, MC_OVERCOUNT), DSM_REPORT_MBARRIER_TX_MISMATCH);
    report_mentions("announced with expect_tx and never arrived");
    report_mentions("not n chunks");
}

static void test_multicast_empty_barrier_not_counting_every_cta_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(4, 1, 32, 6, MC_EMPTY_COUNT_1);
    assert_true(k == DSM_REPORT_RACE_WRITE_WRITE || k == DSM_REPORT_RACE_READ_WRITE);
}

static void test_multicast_slot_reused_before_every_cta_is_done_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(4, 1, 32, 6, MC_REUSE_EARLY);
    assert_true(k == DSM_REPORT_RACE_WRITE_WRITE || k == DSM_REPORT_RACE_READ_WRITE);
}

static void test_multicast_cta_exiting_with_a_multicast_pending_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_ring(2, 1, 32, 3, MC_EXIT_PENDING);
    assert_true(k == DSM_REPORT_LIFETIME || k == DSM_REPORT_LIFETIME_HAZARD);
}

static void test_multicast_misaligned_or_odd_sized_pieces_are_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_ring(2, 1, 32, 3, MC_MISALIGNED), DSM_REPORT_BULK_ALIGNMENT);
    report_mentions("source address not 16-byte aligned");
    assert_int_equal(run_ring(2, 1, 32, 3, MC_SIZE), DSM_REPORT_BULK_SIZE);
    report_mentions("56 bytes is not a positive multiple of 16");
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_multicast_every_cta_of_the_cluster_receives_every_chunk),
    cmocka_unit_test(test_multicast_counters_see_one_fetch_per_cluster_and_a_landing_per_cta),
    cmocka_unit_test(test_multicast_mask_bit_outside_the_cluster_is_reported),
    cmocka_unit_test(test_multicast_into_a_cta_that_exited_is_reported),
    cmocka_unit_test(test_multicast_before_the_receivers_started_is_reported),
    cmocka_unit_test(test_multicast_fired_before_every_receiver_released_the_slot_is_reported),
    cmocka_unit_test(test_multicast_with_only_cta_0_arming_hangs_the_others_and_names_it),
    cmocka_unit_test(test_multicast_with_over_counted_bytes_hangs_and_names_it),
    cmocka_unit_test(test_multicast_empty_barrier_not_counting_every_cta_is_reported),
    cmocka_unit_test(test_multicast_slot_reused_before_every_cta_is_done_is_reported),
    cmocka_unit_test(test_multicast_cta_exiting_with_a_multicast_pending_is_reported),
    cmocka_unit_test(test_multicast_misaligned_or_odd_sized_pieces_are_reported),
};
RUNTIME_TEST_MAIN(tests)
