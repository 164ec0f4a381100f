/* test_async_order.c: copies in flight complete in other than issue order, one at a time, under every schedule but asc (and st.async and bulk-copy issue let other threads run): an all-to-all whose rounds share one mbarrier, and a reader that assumes the first of two copies landed first, are reported under each default schedule set; their fixed twins pass eight schedules. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(a2a_rounds);
DSM_DECLARE_KERNEL(two_copies);

#define AO_ROUNDS 6
/* The schedule sets the grader runs: the default one, and the one a test of rounds uses (interleave + random). */
static const char *const sets[] = {"asc,desc,random:1,interleave", "interleave,random:11,random:12,random:13"};

/* What a2a_rounds leaves in out[b] for clusters of n (the CPU's rounds). */
static void a2a_expect(uint32_t n, uint32_t ctas, uint32_t *v)
{
    uint32_t nv[16];
    for (uint32_t b = 0; b < ctas; b++)
        v[b] = b + 1u;
    for (uint32_t k = 0; k < AO_ROUNDS; k++) {
        for (uint32_t b = 0; b < ctas; b++) {
            uint32_t r = b % n, base = b - r, acc = v[b] + k;
            for (uint32_t p = 0; p < n; p++)
                if (p != r)
                    acc += (p + 1u) * v[base + p];
            nv[b] = acc;
        }
        for (uint32_t b = 0; b < ctas; b++)
            v[b] = nv[b];
    }
}

static void test_async_order_an_all_to_all_reusing_one_mbarrier_for_every_round_is_reported_under_every_set(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++)
        for (uint32_t n = 3; n <= 4; n++) {
            assert_int_equal(dsm_emu_set_schedules(sets[s]), dsmSuccess);
            uint32_t *out = dev_zeroed(2 * n * 4);
            dsm_launch_config cfg = cluster_cfg(2 * n, 32, n, 0);
            int one = 1;
            void *args[] = {&out, &one};
            dsm_emu_set_verbose(0);
            dsm_error_t e = dsm_launch_sync(&cfg, DSM_KERNEL(a2a_rounds), args);
            dsm_emu_set_verbose(1);
            if (e == dsmSuccess)
                fail_msg("clusters of %u under \"%s\": the shared barrier was not caught", n, sets[s]);
            assert_int_not_equal(dsm_emu_last_report()->kind, DSM_REPORT_NONE);
            dsm_free(out);
        }
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
}

static void test_async_order_an_all_to_all_with_a_barrier_per_round_parity_passes(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 8; n++) {
        uint32_t *out = dev_zeroed(2 * n * 4), h[16], want[16];
        dsm_launch_config cfg = cluster_cfg(2 * n, 32, n, 0);
        int one = 0;
        void *args[] = {&out, &one};
        launch_clean(&cfg, DSM_KERNEL(a2a_rounds), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, 2 * n * 4), dsmSuccess);
        a2a_expect(n, 2 * n, want);
        for (uint32_t b = 0; b < 2 * n; b++)
            assert_int_equal(h[b], want[b]);
        dsm_free(out);
    }
}

static void test_async_order_two_copies_read_after_a_phase_armed_for_one_are_reported_under_every_set(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        assert_int_equal(dsm_emu_set_schedules(sets[s]), dsmSuccess);
        uint32_t *out = dev_zeroed(4);
        dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
        int armed_all = 0;
        void *args[] = {&out, &armed_all};
        dsm_emu_set_verbose(0);
        dsm_error_t e = dsm_launch_sync(&cfg, DSM_KERNEL(two_copies), args);
        dsm_emu_set_verbose(1);
        if (e == dsmSuccess)
            fail_msg("under \"%s\": reading both copies after a phase armed for one was not caught", sets[s]);
        dsm_free(out);
    }
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
}

static void test_async_order_two_copies_read_after_a_phase_armed_for_both_pass(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(4), h;
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    int armed_all = 1;
    void *args[] = {&out, &armed_all};
    launch_clean(&cfg, DSM_KERNEL(two_copies), args);
    assert_int_equal(dsm_memcpy_to_host(&h, out, 4), dsmSuccess);
    assert_int_equal(h, 360);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_async_order_an_all_to_all_reusing_one_mbarrier_for_every_round_is_reported_under_every_set),
    cmocka_unit_test(test_async_order_an_all_to_all_with_a_barrier_per_round_parity_passes),
    cmocka_unit_test(test_async_order_two_copies_read_after_a_phase_armed_for_one_are_reported_under_every_set),
    cmocka_unit_test(test_async_order_two_copies_read_after_a_phase_armed_for_both_pass),
};
RUNTIME_TEST_MAIN(tests)
