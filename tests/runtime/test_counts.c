/* test_counts.c: the emulator counts the cluster-barrier and mbarrier phases of a launch's busiest cluster; clock64 differences are the same in every schedule. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(counted_barriers);
DSM_DECLARE_KERNEL(timed_barriers);

static void test_counts_cluster_barrier_and_mbarrier_phases_of_the_busiest_cluster(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t syncs = 5, phases = 3;
    dsm_launch_config cfg = cluster_cfg(6, 32, 2, 0); /* 3 clusters of 2 CTAs */
    void *args[] = {&syncs, &phases};
    launch_clean(&cfg, DSM_KERNEL(counted_barriers), args);
    assert_int_equal(dsm_emu_last_cluster_barrier_phases(), syncs);
    assert_int_equal(dsm_emu_last_mbarrier_phases(), 2u * phases); /* one mbarrier per CTA, 2 CTAs */

    syncs = 0;
    phases = 0;
    launch_clean(&cfg, DSM_KERNEL(counted_barriers), args);
    assert_int_equal(dsm_emu_last_cluster_barrier_phases(), 0);
    assert_int_equal(dsm_emu_last_mbarrier_phases(), 0);
}

/* A per-thread fake clock: a kernel that writes clock differences gives the
 * same result in every schedule (no schedule-dependence report). */
static void test_counts_clock64_differences_do_not_depend_on_the_schedule(void **state)
{
    (void)state;
    uint32_t syncs = 4;
    unsigned long long *cycles = dev_zeroed(4 * sizeof *cycles), h[4];
    dsm_launch_config cfg = cluster_cfg(4, 64, 2, 0);
    void *args[] = {&syncs, &cycles};
    launch_clean(&cfg, DSM_KERNEL(timed_barriers), args);
    assert_int_equal(dsm_memcpy_to_host(h, cycles, sizeof h), dsmSuccess);
    for (int i = 0; i < 4; ++i)
        assert_true(h[i] > 0);
    dsm_free(cycles);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_counts_cluster_barrier_and_mbarrier_phases_of_the_busiest_cluster),
    cmocka_unit_test(test_counts_clock64_differences_do_not_depend_on_the_schedule),
};

RUNTIME_TEST_MAIN(tests)
