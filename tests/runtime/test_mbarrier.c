/* test_mbarrier.c: pushes into a peer (bulk copy, st.async) and mbarrier ping-pong deliver the data; their misuses are reported. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(bulk_push);
DSM_DECLARE_KERNEL(st_async_push);
DSM_DECLARE_KERNEL(mbarrier_ping_pong);

#define TILE_WORDS 256

/* Every CTA's out[] holds its left neighbour's tile. */
static void check_ring(const uint32_t *out, uint32_t n)
{
    uint32_t h[8 * TILE_WORDS];
    assert_int_equal(dsm_memcpy_to_host(h, out, n * TILE_WORDS * 4), dsmSuccess);
    for (uint32_t r = 0; r < n; r++) {
        uint32_t left = (r + n - 1) % n;
        for (uint32_t i = 0; i < TILE_WORDS; i++)
            if (h[r * TILE_WORDS + i] != left * 1000 + i)
                fail_msg("rank %u word %u: expected %u, got %u", r, i, left * 1000 + i, h[r * TILE_WORDS + i]);
    }
}

static void run_bulk(int bad, uint32_t n, dsm_report_kind kind, dsm_error_t err)
{
    uint32_t *out = dev_zeroed((n * TILE_WORDS) * 4);
    dsm_launch_config cfg = cluster_cfg(n, 64, n, 0);
    void *args[] = {&out, &bad};
    if (kind == DSM_REPORT_NONE) {
        launch_clean(&cfg, DSM_KERNEL(bulk_push), args);
        check_ring(out, n);
    } else
        launch_reported(&cfg, DSM_KERNEL(bulk_push), args, kind, err);
    dsm_free(out);
}

static void test_mbarrier_bulk_copy_ring_delivers_every_tile(void **state)
{
    (void)state;
    run_bulk(0, 2, DSM_REPORT_NONE, dsmSuccess);
    run_bulk(0, 4, DSM_REPORT_NONE, dsmSuccess);
    run_bulk(0, 8, DSM_REPORT_NONE, dsmSuccess);
}

static void test_mbarrier_bulk_copy_to_a_misaligned_address_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_bulk(1, 2, DSM_REPORT_BULK_ALIGNMENT, dsmErrorIllegalAddress);
}

static void test_mbarrier_bulk_copy_of_20_bytes_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_bulk(2, 2, DSM_REPORT_BULK_SIZE, dsmErrorIllegalAddress);
}

static void test_mbarrier_bulk_copy_into_its_own_cta_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_bulk(3, 2, DSM_REPORT_BULK_SELF, dsmErrorBarrierMisuse);
}

static void test_mbarrier_peer_mbarrier_used_before_its_init_is_published_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_bulk(4, 2, DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse);
}

static void test_mbarrier_expecting_fewer_bytes_than_pushed_is_a_transaction_mismatch(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_bulk(5, 2, DSM_REPORT_MBARRIER_TX_MISMATCH, dsmErrorBarrierMisuse);
    report_mentions("expect_tx");
}

static void test_mbarrier_st_async_ring_delivers_every_tile(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 8; n *= 2) {
        uint32_t *out = dev_zeroed((n * TILE_WORDS) * 4);
        dsm_launch_config cfg = cluster_cfg(n, 64, n, 0);
        void *args[] = {&out};
        launch_clean(&cfg, DSM_KERNEL(st_async_push), args);
        check_ring(out, n);
        dsm_free(out);
    }
}

static void test_mbarrier_ping_pong_bounces_the_token_every_round(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(2 * 4), h[2];
    int rounds = 100;
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out, &rounds};
    launch_clean(&cfg, DSM_KERNEL(mbarrier_ping_pong), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 2 * rounds);
    assert_int_equal(h[1], 2 * rounds - 1);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mbarrier_bulk_copy_ring_delivers_every_tile),
    cmocka_unit_test(test_mbarrier_bulk_copy_to_a_misaligned_address_is_reported),
    cmocka_unit_test(test_mbarrier_bulk_copy_of_20_bytes_is_reported),
    cmocka_unit_test(test_mbarrier_bulk_copy_into_its_own_cta_is_reported),
    cmocka_unit_test(test_mbarrier_peer_mbarrier_used_before_its_init_is_published_is_reported),
    cmocka_unit_test(test_mbarrier_expecting_fewer_bytes_than_pushed_is_a_transaction_mismatch),
    cmocka_unit_test(test_mbarrier_st_async_ring_delivers_every_tile),
    cmocka_unit_test(test_mbarrier_ping_pong_bounces_the_token_every_round),
};
RUNTIME_TEST_MAIN(tests)
