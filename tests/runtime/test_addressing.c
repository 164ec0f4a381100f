/* test_addressing.c: identity registers in 3-D clusters; bad ranks, out-of-bounds and NULL accesses, and runaway threads are reported. */
#include <stdlib.h>
#include "runtime_test.h"

DSM_DECLARE_KERNEL(identity);
DSM_DECLARE_KERNEL(map_rank);
DSM_DECLARE_KERNEL(peer_index);
DSM_DECLARE_KERNEL(write_through);
DSM_DECLARE_KERNEL(spin_forever);

/* A 4x4x2 grid in 2x2x2 clusters: the 1-D rank is x + y*dx + z*dx*dy of %cluster_ctaid. */
static void test_addressing_ctarank_is_the_linear_position_in_a_3d_cluster(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed((4 * 32) * 4), h[4 * 32];
    dsm_launch_config cfg = {DSM_DIM3(4, 4, 2), DSM_DIM3(32, 1, 1), DSM_DIM3(2, 2, 2), 0};
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(identity), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (uint32_t b = 0; b < 32; b++) {
        uint32_t bx = b % 4, by = (b / 4) % 4, bz = b / 16;
        uint32_t rank = (bx % 2) + 2 * (by % 2) + 4 * (bz % 2);
        uint32_t cluster = bx / 2 + 2 * (by / 2) + 4 * (bz / 2);
        assert_int_equal(h[4 * b + 0], rank);
        assert_int_equal(h[4 * b + 1], rank);
        assert_int_equal(h[4 * b + 2], cluster);
        assert_int_equal(h[4 * b + 3], 8);
    }
    dsm_free(out);
}

static void test_addressing_mapa_to_a_rank_outside_the_cluster_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(4 * 4);
    uint32_t rank = 4;
    dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
    void *args[] = {&out, &rank};
    launch_reported(&cfg, DSM_KERNEL(map_rank), args, DSM_REPORT_RANK_OUT_OF_RANGE, dsmErrorIllegalAddress);
    report_mentions("ranks 0..3");
    dsm_free(out);
}

static void test_addressing_mapa_to_every_rank_in_range_reads_its_value(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(4 * 4), h[4];
    for (uint32_t rank = 0; rank < 4; rank++) {
        dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
        void *args[] = {&out, &rank};
        launch_clean(&cfg, DSM_KERNEL(map_rank), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int b = 0; b < 4; b++)
            assert_int_equal(h[b], rank);
    }
    dsm_free(out);
}

static void run_peer_index(int index, int api, dsm_report_kind kind)
{
    uint32_t *out = dev_zeroed(2 * 4);
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 1024);
    void *args[] = {&out, &index, &api};
    if (kind == DSM_REPORT_NONE)
        launch_clean(&cfg, DSM_KERNEL(peer_index), args);
    else
        launch_reported(&cfg, DSM_KERNEL(peer_index), args, kind, dsmErrorIllegalAddress);
    dsm_free(out);
}

static void test_addressing_device_api_access_past_the_peer_allocation_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_peer_index(256, 1, DSM_REPORT_OUT_OF_BOUNDS);
    report_mentions("outside rank 1's shared memory");
}

static void test_addressing_plain_pointer_past_the_peer_allocation_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_peer_index(256 + 64, 0, DSM_REPORT_OUT_OF_BOUNDS);
}

static void test_addressing_last_word_of_the_peer_allocation_is_readable_both_ways(void **state)
{
    (void)state;
    run_peer_index(255, 1, DSM_REPORT_NONE);
    run_peer_index(255, 0, DSM_REPORT_NONE);
}

static void test_addressing_writing_through_null_is_an_illegal_address_with_its_line(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = NULL;
    dsm_launch_config cfg = cluster_cfg(1, 32, 1, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(write_through), args, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress);
    report_mentions("addressing.cu:52");
}

static void test_addressing_a_thread_polling_a_volatile_flag_nobody_sets_is_a_livelock(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    /* a volatile load is a poll: nothing else runs that could set the flag (the time limit is the
     * backstop, test_watchdog.c) */
    uint32_t *flag = dev_zeroed(1 * 4);
    dsm_launch_config cfg = cluster_cfg(1, 32, 1, 0);
    void *args[] = {&flag};
    launch_reported(&cfg, DSM_KERNEL(spin_forever), args, DSM_REPORT_DEADLOCK, dsmErrorDeadlock);
    report_mentions("livelock");
    report_mentions("addressing.cu:59");
    dsm_free(flag);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_addressing_ctarank_is_the_linear_position_in_a_3d_cluster),
    cmocka_unit_test(test_addressing_mapa_to_a_rank_outside_the_cluster_is_reported),
    cmocka_unit_test(test_addressing_mapa_to_every_rank_in_range_reads_its_value),
    cmocka_unit_test(test_addressing_device_api_access_past_the_peer_allocation_is_reported),
    cmocka_unit_test(test_addressing_plain_pointer_past_the_peer_allocation_is_reported),
    cmocka_unit_test(test_addressing_last_word_of_the_peer_allocation_is_readable_both_ways),
    cmocka_unit_test(test_addressing_writing_through_null_is_an_illegal_address_with_its_line),
    cmocka_unit_test(test_addressing_a_thread_polling_a_volatile_flag_nobody_sets_is_a_livelock),
};
RUNTIME_TEST_MAIN(tests)
