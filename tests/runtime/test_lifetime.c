/* test_lifetime.c: the lifetime trap is reported on every run (plain pointers and device API); fixed kernels pass under eight schedules. */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(seed000_trap);
DSM_DECLARE_KERNEL(seed000_trap_fixed);
DSM_DECLARE_KERNEL(seed000_trap_api);
DSM_DECLARE_KERNEL(seed001_neighbor_read);
DSM_DECLARE_KERNEL(seed001_neighbor_read_fixed);
DSM_DECLARE_KERNEL(early_exit_then_barrier);

/* Seed 000's shape: 66 clusters of 2 CTAs x 128 threads. */
static void test_lifetime_seed000_trap_is_reported_naming_the_line(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    float *out = dev_zeroed(132 * sizeof(float));
    dsm_launch_config cfg = cluster_cfg(132, 128, 2, 0);
    void *args[] = {&out};
    launch_reported_lifetime(&cfg, DSM_KERNEL(seed000_trap), args);
    report_mentions("lifetime trap");
    report_mentions("lifetime.cu:17");
    report_mentions("rank 1 exited");
    report_mentions("719");
    dsm_free(out);
}

static void test_lifetime_seed000_trap_is_reported_whatever_the_first_schedule(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    const char *orders[] = {"asc,desc", "desc,asc", "random:7,asc,desc", "interleave,desc"};
    float *out = dev_zeroed(4 * sizeof(float));
    dsm_launch_config cfg = cluster_cfg(4, 64, 2, 0);
    void *args[] = {&out};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(dsm_emu_set_schedules(orders[i]), dsmSuccess);
        launch_reported_lifetime(&cfg, DSM_KERNEL(seed000_trap), args);
    }
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
    dsm_free(out);
}

static void test_lifetime_seed000_fix_passes_eight_schedules(void **state)
{
    (void)state;
    float *out = dev_zeroed(132 * sizeof(float));
    dsm_launch_config cfg = cluster_cfg(132, 128, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(seed000_trap_fixed), args);
    float h[132];
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (int b = 0; b < 132; b += 2)
        assert_true(h[b] == 3.0f); /* rank 0: 1 + rank 1's 2 */
    dsm_free(out);
}

/* Seed 001's card reads the neighbour and leaves with no barrier after the read:
 * whichever CTA runs ahead exits while the other still reads its tile. */
static void test_lifetime_seed001_example_as_printed_is_reported_in_both_orders(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out = dev_zeroed(2 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    assert_int_equal(dsm_emu_set_schedules("asc"), dsmSuccess);
    launch_reported_lifetime(&cfg, DSM_KERNEL(seed001_neighbor_read), args);
    report_mentions("rank 0 exited");
    assert_int_equal(dsm_emu_set_schedules("desc"), dsmSuccess);
    launch_reported_lifetime(&cfg, DSM_KERNEL(seed001_neighbor_read), args);
    report_mentions("rank 1 exited");
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
    dsm_free(out);
}

/* Through ld.shared::cluster the hazard is found even when the reader finishes first. */
static void test_lifetime_api_read_then_owner_exit_is_a_hazard_in_the_safe_order(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    float *out = dev_zeroed(2 * sizeof(float));
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    assert_int_equal(dsm_emu_set_schedules("asc"), dsmSuccess);
    launch_reported(&cfg, DSM_KERNEL(seed000_trap_api), args, DSM_REPORT_LIFETIME_HAZARD, dsmErrorLaunchFailure);
    report_mentions("not ordered before the exit");
    assert_int_equal(dsm_emu_set_schedules("desc"), dsmSuccess);
    launch_reported(&cfg, DSM_KERNEL(seed000_trap_api), args, DSM_REPORT_LIFETIME, dsmErrorLaunchFailure);
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
    dsm_free(out);
}

static void test_lifetime_seed001_with_final_barrier_reads_the_neighbour(void **state)
{
    (void)state;
    int *out = dev_zeroed(2 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(seed001_neighbor_read_fixed), args);
    int h[2];
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 1);
    assert_int_equal(h[1], 0);
    dsm_free(out);
}

static void test_lifetime_cluster_barrier_waits_only_for_non_exited_threads(void **state)
{
    (void)state;
    int *out = dev_zeroed(2 * sizeof(int));
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(early_exit_then_barrier), args);
    int h[2];
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 1);
    assert_int_equal(h[1], 0);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_lifetime_seed000_trap_is_reported_naming_the_line),
    cmocka_unit_test(test_lifetime_seed000_trap_is_reported_whatever_the_first_schedule),
    cmocka_unit_test(test_lifetime_seed000_fix_passes_eight_schedules),
    cmocka_unit_test(test_lifetime_seed001_example_as_printed_is_reported_in_both_orders),
    cmocka_unit_test(test_lifetime_api_read_then_owner_exit_is_a_hazard_in_the_safe_order),
    cmocka_unit_test(test_lifetime_seed001_with_final_barrier_reads_the_neighbour),
    cmocka_unit_test(test_lifetime_cluster_barrier_waits_only_for_non_exited_threads),
};
RUNTIME_TEST_MAIN(tests)
