/* test_bulk_global.c: bulk copies global -> shared land in the issuing CTA and complete on its mbarrier, bulk stores shared -> global complete through bulk async-groups, on every schedule; each rule they break is reported in the learner's terms. */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(bulk_load);
DSM_DECLARE_KERNEL(bulk_store);

enum { LOAD_OK = 0, LOAD_MISALIGNED = 1, LOAD_SIZE = 2, LOAD_SOURCE_REWRITE = 3, LOAD_NO_WAIT = 4,
       LOAD_PEER_DST = 5, LOAD_SHARED_SRC = 6, LOAD_PAST_END = 7 };
enum { STORE_OK = 0, STORE_NO_PROXY_FENCE = 1, STORE_REWRITE_BEFORE_WAIT = 2, STORE_EXIT_WITHOUT_WAIT = 3,
       STORE_NO_COMMIT = 4, STORE_READ_AFTER_READ_WAIT = 5, STORE_MISALIGNED = 6, STORE_GROUPS = 7 };

static dsm_report_kind run_store(int blocks, int threads, int words, int bad);

/* Launches bulk_load on `blocks` CTAs (clusters of `cluster`) of `threads`; checks every word when bad is
 * LOAD_OK, else expects a failed launch; returns the report's kind. */
static dsm_report_kind run_load(int blocks, int cluster, int threads, int words, int bad)
{
    size_t n = (size_t)blocks * (size_t)words;
    uint32_t *h = malloc(n * 4), *got = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        h[i] = (uint32_t)(i * 2654435761u) ^ 0x5a5a0000u;
    uint32_t *in = dev_zeroed(n * 4), *out = dev_zeroed(n * 4);
    assert_int_equal(dsm_memcpy_to_device(in, h, n * 4), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg((unsigned)blocks, (unsigned)threads, (unsigned)cluster, 0);
    void *args[] = {&in, &out, &words, &bad};
    dsm_emu_set_verbose(bad == LOAD_OK);
    dsm_error_t e = dsm_launch_sync(&cfg, DSM_KERNEL(bulk_load), args);
    dsm_emu_set_verbose(1);
    dsm_report_kind kind = dsm_emu_last_report()->kind;
    if (bad == LOAD_OK) {
        if (e != dsmSuccess || kind != DSM_REPORT_NONE)
            print_error("%s\n", dsm_emu_last_report()->text);
        assert_int_equal(e, dsmSuccess);
        assert_int_equal(kind, DSM_REPORT_NONE);
        assert_int_equal(dsm_memcpy_to_host(got, out, n * 4), dsmSuccess);
        for (size_t i = 0; i < n; i++)
            if (got[i] != h[i] + 1u) {
                print_error("block %zu word %zu: got 0x%08x, want 0x%08x\n", i / (size_t)words, i % (size_t)words,
                            got[i], h[i] + 1u);
                fail();
            }
    } else {
        assert_int_not_equal(e, dsmSuccess);
    }
    dsm_free(in);
    dsm_free(out);
    free(h);
    free(got);
    return kind;
}

static void test_bulk_global_load_lands_every_byte_in_the_issuing_cta(void **state)
{
    (void)state;
    run_load(4, 1, 64, 256, LOAD_OK);
    run_load(6, 2, 32, 4, LOAD_OK);     /* one 16-byte unit, in clusters */
    run_load(8, 4, 96, 100, LOAD_OK);   /* 400 bytes: a multiple of 16, not of 128 */
}

static void test_bulk_global_counters_see_the_bulk_bytes_and_no_plain_loads(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_load(4, 1, 64, 256, LOAD_OK);
    dsm_emu_counts k;
    for (uint32_t b = 0; b < 4; b++) {
        assert_true(dsm_emu_last_counts(b, &k));
        assert_int_equal(k.bulk_g2s_issued_bytes, 1024);
        assert_int_equal(k.bulk_g2s_landed_bytes, 1024);
        assert_int_equal(k.gmem_ld_bytes, 0);
    }
    run_store(3, 64, 256, STORE_OK);
    for (uint32_t b = 0; b < 3; b++) {
        assert_true(dsm_emu_last_counts(b, &k));
        assert_int_equal(k.bulk_s2g_bytes, 1024);
        assert_int_equal(k.gmem_st_bytes, 4);   /* check[b] only: the tile went by bulk store */
    }
}

static void test_bulk_global_load_from_a_misaligned_source_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_load(2, 1, 32, 64, LOAD_MISALIGNED), DSM_REPORT_BULK_ALIGNMENT);
    report_mentions("16-byte aligned");
    report_mentions("bulk_global.cu:27");
}

static void test_bulk_global_load_of_a_size_not_a_multiple_of_16_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_load(2, 1, 32, 64, LOAD_SIZE), DSM_REPORT_BULK_SIZE);
    report_mentions("248 bytes is not a positive multiple of 16");
}

static void test_bulk_global_rewriting_the_global_source_in_flight_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_load(2, 1, 32, 64, LOAD_SOURCE_REWRITE), DSM_REPORT_RACE_READ_WRITE);
    report_mentions("global source of a bulk copy is rewritten");
    report_mentions("bulk_global.cu:39");
}

static void test_bulk_global_reading_the_tile_before_the_phase_completed_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_report_kind k = run_load(2, 1, 32, 64, LOAD_NO_WAIT);
    assert_true(k == DSM_REPORT_UNINITIALIZED_READ || k == DSM_REPORT_RACE_READ_WRITE);
}

static void test_bulk_global_load_into_memory_that_is_not_the_issuers_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    /* rank 1 passes rank 0's tile: the unicast form fills the issuing CTA only */
    assert_int_equal(run_load(2, 2, 32, 64, LOAD_PEER_DST), DSM_REPORT_ILLEGAL_ADDRESS);
    report_mentions("not in this CTA's shared memory");
    assert_int_equal(run_load(2, 1, 32, 64, LOAD_SHARED_SRC), DSM_REPORT_ILLEGAL_ADDRESS);
    report_mentions("not global memory");
    assert_int_equal(run_load(2, 1, 32, 64, LOAD_PAST_END), DSM_REPORT_OUT_OF_BOUNDS);
    report_mentions("outside a device buffer");
}

/* Launches bulk_store; checks out and check[] when bad is STORE_OK or STORE_GROUPS. */
static dsm_report_kind run_store(int blocks, int threads, int words, int bad)
{
    size_t n = (size_t)blocks * (size_t)words;
    uint32_t *h = malloc(n * 4), *got = malloc(n * 4), chk[64];
    for (size_t i = 0; i < n; i++)
        h[i] = (uint32_t)(i * 40503u + 17u);
    uint32_t *in = dev_zeroed(n * 4), *out = dev_zeroed(n * 4), *check = dev_zeroed(sizeof chk);
    assert_int_equal(dsm_memcpy_to_device(in, h, n * 4), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg((unsigned)blocks, (unsigned)threads, 1, 0);
    void *args[] = {&in, &out, &check, &words, &bad};
    bool good = bad == STORE_OK || bad == STORE_GROUPS;
    dsm_emu_set_verbose(good);
    dsm_error_t e = dsm_launch_sync(&cfg, DSM_KERNEL(bulk_store), args);
    dsm_emu_set_verbose(1);
    dsm_report_kind kind = dsm_emu_last_report()->kind;
    if (good) {
        if (e != dsmSuccess || kind != DSM_REPORT_NONE)
            print_error("%s\n", dsm_emu_last_report()->text);
        assert_int_equal(e, dsmSuccess);
        assert_int_equal(kind, DSM_REPORT_NONE);
        assert_int_equal(dsm_memcpy_to_host(got, out, n * 4), dsmSuccess);
        assert_int_equal(dsm_memcpy_to_host(chk, check, sizeof chk), dsmSuccess);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(got[i], 3u * h[i] + (uint32_t)(i / (size_t)words));
        for (int b = 0; b < blocks; b++)
            assert_int_equal(chk[b], got[(size_t)b * (size_t)words]);
    } else {
        assert_int_not_equal(e, dsmSuccess);
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(check);
    free(h);
    free(got);
    return kind;
}

static void test_bulk_global_store_completes_at_wait_group(void **state)
{
    (void)state;
    run_store(3, 64, 256, STORE_OK);
    run_store(2, 32, 4, STORE_OK);
}

static void test_bulk_global_store_groups_are_waited_for_oldest_first(void **state)
{
    (void)state;
    run_store(2, 64, 128, STORE_GROUPS);
}

static void test_bulk_global_store_of_unfenced_generic_writes_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_store(2, 64, 128, STORE_NO_PROXY_FENCE), DSM_REPORT_RACE_READ_WRITE);
    report_mentions("fence.proxy.async");
}

static void test_bulk_global_store_source_rewritten_before_wait_group_read_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_store(2, 64, 128, STORE_REWRITE_BEFORE_WAIT), DSM_REPORT_RACE_READ_WRITE);
    report_mentions("before cp.async.bulk.wait_group.read");
}

static void test_bulk_global_store_cta_exiting_before_wait_group_read_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_store(2, 64, 128, STORE_EXIT_WITHOUT_WAIT), DSM_REPORT_LIFETIME_HAZARD);
    report_mentions("never waited for with cp.async.bulk.wait_group.read");
    assert_int_equal(run_store(2, 64, 128, STORE_NO_COMMIT), DSM_REPORT_LIFETIME_HAZARD);
    report_mentions("never committed");
}

static void test_bulk_global_store_destination_read_after_only_wait_group_read_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_store(2, 64, 128, STORE_READ_AFTER_READ_WAIT), DSM_REPORT_RACE_READ_WRITE);
    report_mentions("a bulk store is still writing");
    report_mentions("not the .read form");
}

static void test_bulk_global_store_to_a_misaligned_destination_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    assert_int_equal(run_store(2, 64, 128, STORE_MISALIGNED), DSM_REPORT_BULK_ALIGNMENT);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bulk_global_load_lands_every_byte_in_the_issuing_cta),
    cmocka_unit_test(test_bulk_global_counters_see_the_bulk_bytes_and_no_plain_loads),
    cmocka_unit_test(test_bulk_global_load_from_a_misaligned_source_is_reported),
    cmocka_unit_test(test_bulk_global_load_of_a_size_not_a_multiple_of_16_is_reported),
    cmocka_unit_test(test_bulk_global_rewriting_the_global_source_in_flight_is_reported),
    cmocka_unit_test(test_bulk_global_reading_the_tile_before_the_phase_completed_is_reported),
    cmocka_unit_test(test_bulk_global_load_into_memory_that_is_not_the_issuers_is_reported),
    cmocka_unit_test(test_bulk_global_store_completes_at_wait_group),
    cmocka_unit_test(test_bulk_global_store_groups_are_waited_for_oldest_first),
    cmocka_unit_test(test_bulk_global_store_of_unfenced_generic_writes_is_reported),
    cmocka_unit_test(test_bulk_global_store_source_rewritten_before_wait_group_read_is_reported),
    cmocka_unit_test(test_bulk_global_store_cta_exiting_before_wait_group_read_is_reported),
    cmocka_unit_test(test_bulk_global_store_destination_read_after_only_wait_group_read_is_reported),
    cmocka_unit_test(test_bulk_global_store_to_a_misaligned_destination_is_reported),
};
RUNTIME_TEST_MAIN(tests)
