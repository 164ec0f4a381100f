/* test_parity.c: a wait on an mbarrier that a phase its thread already waited for satisfies (or that skips the phase it should take and hangs) is reported as a stale parity with the wait's line and both phases; correct waits pass eight schedules. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(one_slot_stream);
DSM_DECLARE_KERNEL(token_rounds);

#define CHUNK_WORDS 32
#define ROUNDS 6
enum { PARITY_OK = 0, PARITY_ALWAYS_ZERO = 1, PARITY_TRY_WAIT_LOOP = 2 };

static void run_stream(int how)
{
    uint32_t *out = dev_zeroed(4 * CHUNK_WORDS * 4);
    dsm_launch_config cfg = cluster_cfg(4, CHUNK_WORDS, 2, 0);
    void *args[] = {&out, &how};
    if (how == PARITY_ALWAYS_ZERO) {
        launch_reported(&cfg, DSM_KERNEL(one_slot_stream), args, DSM_REPORT_MBARRIER_STALE_PARITY,
                        dsmErrorBarrierMisuse);
        report_mentions("parity.cu:49"); /* the wait */
        report_mentions("parity 0");
        report_mentions("probably meant phase 1 (parity 1)");
    } else {
        launch_clean(&cfg, DSM_KERNEL(one_slot_stream), args);
        uint32_t h[4 * CHUNK_WORDS];
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (int b = 1; b < 4; b += 2)
            for (uint32_t i = 0; i < CHUNK_WORDS; i++) {
                uint32_t expect = 0;
                for (uint32_t k = 0; k < ROUNDS; k++)
                    expect += (k + 1) * (k * 1000u + i);
                assert_int_equal(h[b * CHUNK_WORDS + i], expect);
            }
    }
    dsm_free(out);
}

/* Each schedule alone: the wait either returns at once (phase 0 again) or
 * hangs waiting for phase 2; both are the same stale parity. */
static void test_parity_same_parity_every_round_is_a_stale_parity_in_every_schedule(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    const char *each[] = {"asc", "desc", "random:1", "random:2", "random:3", "interleave"};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(dsm_emu_set_schedules(each[i]), dsmSuccess);
        run_stream(PARITY_ALWAYS_ZERO);
    }
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
}

static void test_parity_round_parity_passes(void **state)
{
    (void)state;
    run_stream(PARITY_OK);
}

static void test_parity_try_wait_polling_by_several_threads_passes(void **state)
{
    (void)state;
    run_stream(PARITY_TRY_WAIT_LOOP);
}

static void run_tokens(int how, const char *schedule)
{
    uint32_t *out = dev_zeroed(4 * 4), h[4];
    dsm_launch_config cfg = cluster_cfg(4, 32, 2, 0);
    void *args[] = {&out, &how};
    assert_int_equal(dsm_emu_set_schedules(schedule), dsmSuccess);
    if (how == PARITY_ALWAYS_ZERO) {
        launch_reported(&cfg, DSM_KERNEL(token_rounds), args, DSM_REPORT_MBARRIER_STALE_PARITY,
                        dsmErrorBarrierMisuse);
        report_mentions("parity.cu:82"); /* the wait */
        report_mentions("probably meant phase 1 (parity 1)");
    } else {
        launch_clean(&cfg, DSM_KERNEL(token_rounds), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        assert_int_equal(h[1], ROUNDS * (ROUNDS + 1) / 2);
        assert_int_equal(h[3], ROUNDS * (ROUNDS + 1) / 2);
    }
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
    dsm_free(out);
}

/* The sender runs ahead (asc): the wait for phase 2 hangs; the receiver runs
 * ahead (desc): the wait returns with phase 0 again. Both name the wait. */
static void test_parity_same_parity_every_round_hangs_or_returns_early_and_both_are_a_stale_parity(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_tokens(PARITY_ALWAYS_ZERO, "asc");
    report_mentions("never completes");
    run_tokens(PARITY_ALWAYS_ZERO, "desc");
    report_mentions("already waited for");
}

static void test_parity_token_rounds_with_the_round_parity_pass(void **state)
{
    (void)state;
    run_tokens(PARITY_OK, EIGHT_SCHEDULES);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parity_same_parity_every_round_is_a_stale_parity_in_every_schedule),
    cmocka_unit_test(test_parity_round_parity_passes),
    cmocka_unit_test(test_parity_try_wait_polling_by_several_threads_passes),
    cmocka_unit_test(test_parity_same_parity_every_round_hangs_or_returns_early_and_both_are_a_stale_parity),
    cmocka_unit_test(test_parity_token_rounds_with_the_round_parity_pass),
};
RUNTIME_TEST_MAIN(tests)
