/* test_activity.c: the activity counters say which threads and warps moved bytes through global memory or DSMEM, and how many 16-byte loads a thread had in flight before a store, barrier or wait (first schedule, per CTA). */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(copy_units);
DSM_DECLARE_KERNEL(peer_pairs);

#define ACT_UNITS 8

/* Runs copy_units on 2 CTAs of 64 threads; checks the copy and returns block 1's counts. */
static dsm_emu_counts run_copy(int units, int batched, int warps)
{
    size_t words = 2 * 64 * ACT_UNITS * 4;
    uint32_t *h = malloc(words * 4), *g = malloc(words * 4);
    for (size_t i = 0; i < words; i++)
        h[i] = (uint32_t)(i * 2654435761u);
    uint32_t *in = dev_zeroed(words * 4), *out = dev_zeroed(words * 4);
    assert_int_equal(dsm_memcpy_to_device(in, h, words * 4), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg(2, 64, 1, 0);
    void *args[] = {&in, &out, &units, &batched, &warps};
    launch_clean(&cfg, DSM_KERNEL(copy_units), args);
    assert_int_equal(dsm_memcpy_to_host(g, out, words * 4), dsmSuccess);
    for (size_t b = 0; b < 2; b++)
        for (size_t u = 0; u < (size_t)units; u++)
            for (size_t t = 0; t < 64; t++)
                for (size_t w = 0; w < 4; w++) {
                    size_t i = ((b * ACT_UNITS + u) * 64 + t) * 4 + w;
                    assert_int_equal(g[i], (int)t / 32 < warps ? h[i] : 0u);
                }
    dsm_emu_counts k = {0};
    assert_true(dsm_emu_last_counts(1, &k));
    dsm_free(in);
    dsm_free(out);
    free(h);
    free(g);
    return k;
}

static void test_activity_loads_issued_before_their_stores_are_in_flight_together(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_emu_counts k = run_copy(4, 1, 2);
    assert_int_equal(k.threads_active, 64);
    assert_int_equal(k.warps_active, 2);
    assert_int_equal(k.ld_burst_min, 4);
    assert_int_equal(k.ld_burst_max, 4);
}

static void test_activity_a_load_stored_before_the_next_load_is_one_in_flight(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_emu_counts k = run_copy(4, 0, 2);
    assert_int_equal(k.ld_burst_min, 1);
    assert_int_equal(k.ld_burst_max, 1);
    assert_int_equal(k.gmem_ld_ops, 4 * 64);
}

static void test_activity_only_the_threads_and_warps_that_moved_bytes_count(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_emu_counts k = run_copy(3, 1, 1);
    assert_int_equal(k.threads_active, 32);
    assert_int_equal(k.warps_active, 1);
    assert_int_equal(k.ld_burst_max, 3);
    k = run_copy(3, 1, 0);
    assert_int_equal(k.threads_active, 0);
    assert_int_equal(k.warps_active, 0);
    assert_int_equal(k.ld_burst_min, 0);
    assert_int_equal(k.ld_burst_max, 0);
}

static void test_activity_dsmem_loads_count_and_own_shared_memory_does_not(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(2 * 64 * 4), h[128];
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(peer_pairs), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(h[t], 3u * t);
        assert_int_equal(h[64 + t], 0u);
    }
    dsm_emu_counts r0, r1, all;
    assert_true(dsm_emu_last_counts(0, &r0));
    assert_true(dsm_emu_last_counts(1, &r1));
    assert_int_equal(r0.threads_active, 64); /* two DSMEM loads each, and its out[] store */
    assert_int_equal(r0.warps_active, 2);
    assert_int_equal(r0.ld_burst_min, 2);
    assert_int_equal(r0.ld_burst_max, 2);
    assert_int_equal(r1.threads_active, 64); /* its out[] store only */
    assert_int_equal(r1.ld_burst_max, 0);
    assert_true(dsm_emu_last_counts_total(&all));
    assert_int_equal(all.threads_active, 128);
    assert_int_equal(all.ld_burst_min, 2);
    assert_int_equal(all.ld_burst_max, 2);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_activity_loads_issued_before_their_stores_are_in_flight_together),
    cmocka_unit_test(test_activity_a_load_stored_before_the_next_load_is_one_in_flight),
    cmocka_unit_test(test_activity_only_the_threads_and_warps_that_moved_bytes_count),
    cmocka_unit_test(test_activity_dsmem_loads_count_and_own_shared_memory_does_not),
};
RUNTIME_TEST_MAIN(tests)
