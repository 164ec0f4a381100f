/* test_plain.c: plain loads and stores are checked like device-API accesses: the racy histogram, unpublished and uninitialised reads, bounds, lifetime, a peer not yet started; each bug has a fixed twin that passes every schedule. */
#include <stdlib.h>
#include <unistd.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(plain_histogram);
DSM_DECLARE_KERNEL(plain_publish);
DSM_DECLARE_KERNEL(inbox_publish);
DSM_DECLARE_KERNEL(uninitialised_transform);
DSM_DECLARE_KERNEL(global_copy);
DSM_DECLARE_KERNEL(read_after_exit);
DSM_DECLARE_KERNEL(store_before_start);
DSM_DECLARE_KERNEL(copy_unwritten);
DSM_DECLARE_KERNEL(mixed_arrive);

#define BINS_PER_CTA 16
#define CLUSTER 4

static void run_histogram(int atomic)
{
    int n = 2000;
    uint32_t *h_in = malloc(n * sizeof *h_in), expect[CLUSTER * BINS_PER_CTA] = {0}, got[CLUSTER * BINS_PER_CTA];
    for (int i = 0; i < n; i++) {
        h_in[i] = (uint32_t)(i * 2654435761u) >> 7;
        expect[h_in[i] % (CLUSTER * BINS_PER_CTA)]++;
    }
    uint32_t *in = dev_zeroed(n * 4), *out = dev_zeroed(sizeof got);
    assert_int_equal(dsm_memcpy_to_device(in, h_in, n * 4), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg(2 * CLUSTER, 64, CLUSTER, 0);
    void *args[] = {&in, &n, &out, &atomic};
    if (atomic) {
        launch_clean(&cfg, DSM_KERNEL(plain_histogram), args);
        assert_int_equal(dsm_memcpy_to_host(got, out, sizeof got), dsmSuccess);
        assert_memory_equal(got, expect, sizeof got);
    } else {
        launch_reported(&cfg, DSM_KERNEL(plain_histogram), args, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
        report_mentions("read-modify-write");
        report_mentions("plain.cu:25"); /* p[bin % BINS_PER_CTA]++ */
        report_mentions("use an atomic");
    }
    dsm_free(in);
    dsm_free(out);
    free(h_in);
}

static void test_plain_histogram_with_p_bin_plus_plus_through_a_mapped_pointer_is_a_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_histogram(0);
}

static void test_plain_histogram_with_remote_atomics_passes(void **state)
{
    (void)state;
    run_histogram(1);
}

static void run_simple(dsm_kernel_t k, unsigned grid, unsigned block, unsigned cluster, int flag, dsm_report_kind kind,
                       dsm_error_t err)
{
    uint32_t *out = dev_zeroed(grid * block * 4);
    dsm_launch_config cfg = cluster_cfg(grid, block, cluster, 0);
    void *args[] = {&out, &flag};
    if (kind == DSM_REPORT_NONE)
        launch_clean(&cfg, k, args);
    else if (kind == DSM_REPORT_LIFETIME)
        launch_reported_lifetime(&cfg, k, args);
    else
        launch_reported(&cfg, k, args, kind, err);
    dsm_free(out);
}

static void test_plain_read_of_a_tile_closed_by_arrive_relaxed_is_unpublished(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_simple(DSM_KERNEL(plain_publish), 4, 64, 2, 1, DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected);
    report_mentions("plain.cu:51"); /* the plain read through the mapped pointer */
    report_mentions("plain.cu:42"); /* the write it did not see published */
}

static void test_plain_read_of_a_tile_closed_by_arrive_release_passes(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(plain_publish), 4, 64, 2, 0, DSM_REPORT_NONE, dsmSuccess);
}

static void test_plain_fence_then_arrive_relaxed_publishes_the_tile(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(plain_publish), 4, 64, 2, 2, DSM_REPORT_NONE, dsmSuccess);
}

static void test_plain_writers_that_release_publish_even_if_the_owner_arrives_relaxed(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(inbox_publish), 4, 32, 4, 0, DSM_REPORT_NONE, dsmSuccess);
}

static void test_plain_writers_that_arrive_relaxed_publish_nothing_even_if_the_owner_releases(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_simple(DSM_KERNEL(inbox_publish), 4, 32, 4, 1, DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected);
    report_mentions("relaxed");
}

static void test_plain_a_writer_that_arrives_relaxed_is_unpublished_though_its_cta_mates_release(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_simple(DSM_KERNEL(mixed_arrive), 2, 32, 2, 1, DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected);
    report_mentions("rank 1 thread 0");
}

static void test_plain_a_writer_that_arrives_release_publishes_its_write(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(mixed_arrive), 2, 32, 2, 0, DSM_REPORT_NONE, dsmSuccess);
}

static void test_plain_uninitialised_read_is_reported_at_the_load_even_when_transformed(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_simple(DSM_KERNEL(uninitialised_transform), 1, 64, 1, 0, DSM_REPORT_UNINITIALIZED_READ,
               dsmErrorUninitializedRead);
    report_mentions("plain.cu:90");
}

static void test_plain_initialised_read_passes(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(uninitialised_transform), 1, 64, 1, 1, DSM_REPORT_NONE, dsmSuccess);
}

static void run_copy(int guard, dsm_report_kind kind)
{
    int n = 100;
    uint32_t *in = dev_zeroed(n * 4), *out = dev_zeroed(n * 4);
    dsm_launch_config cfg = cluster_cfg(1, 128, 1, 0);
    void *args[] = {&in, &out, &n, &guard};
    if (kind == DSM_REPORT_NONE)
        launch_clean(&cfg, DSM_KERNEL(global_copy), args);
    else {
        launch_reported(&cfg, DSM_KERNEL(global_copy), args, kind, dsmErrorIllegalAddress);
        report_mentions("plain.cu:101");
        report_mentions("byte 400 of device buffer");
    }
    dsm_free(in);
    dsm_free(out);
}

static void test_plain_read_past_the_end_of_a_device_buffer_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_copy(0, DSM_REPORT_OUT_OF_BOUNDS);
}

static void test_plain_guarded_copy_passes(void **state)
{
    (void)state;
    run_copy(1, DSM_REPORT_NONE);
}

static void test_plain_read_after_the_owner_was_told_it_may_exit_is_a_lifetime_trap(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_simple(DSM_KERNEL(read_after_exit), 2, 32, 2, 0, DSM_REPORT_LIFETIME, dsmErrorLaunchFailure);
    report_mentions("timeline");
}

static void test_plain_read_with_a_final_barrier_passes(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(read_after_exit), 2, 32, 2, 1, DSM_REPORT_NONE, dsmSuccess);
}

static void test_plain_store_into_a_peer_before_any_cluster_barrier_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_simple(DSM_KERNEL(store_before_start), 4, 32, 4, 1, DSM_REPORT_LIFETIME, dsmErrorLaunchFailure);
    report_mentions("known to have started");
    report_mentions("plain.cu:136");
}

static void test_plain_store_into_a_peer_after_a_cluster_barrier_passes(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(store_before_start), 4, 32, 4, 0, DSM_REPORT_NONE, dsmSuccess);
}

/* The poison found in the results (a copy the emulator could not follow) names its kernel once and prints
 * nothing with dsm_emu_set_verbose(0). */
static void test_plain_poison_in_the_results_is_reported_once_and_quietly_when_asked(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    FILE *err = tmpfile();
    assert_non_null(err);
    int saved = dup(2);
    fflush(stderr);
    dup2(fileno(err), 2);
    run_simple(DSM_KERNEL(copy_unwritten), 2, 32, 1, 0, DSM_REPORT_UNINITIALIZED_READ, dsmErrorUninitializedRead);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    assert_int_equal(ftell(err), 0);
    fclose(err);
    const char *text = dsm_emu_last_report()->text, *first = strstr(text, "  kernel ");
    assert_non_null(first);
    assert_null(strstr(first + 1, "  kernel "));
}

static void test_plain_copy_of_written_shared_memory_passes(void **state)
{
    (void)state;
    run_simple(DSM_KERNEL(copy_unwritten), 2, 32, 1, 1, DSM_REPORT_NONE, dsmSuccess);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_plain_poison_in_the_results_is_reported_once_and_quietly_when_asked),
    cmocka_unit_test(test_plain_copy_of_written_shared_memory_passes),
    cmocka_unit_test(test_plain_histogram_with_p_bin_plus_plus_through_a_mapped_pointer_is_a_race),
    cmocka_unit_test(test_plain_histogram_with_remote_atomics_passes),
    cmocka_unit_test(test_plain_read_of_a_tile_closed_by_arrive_relaxed_is_unpublished),
    cmocka_unit_test(test_plain_read_of_a_tile_closed_by_arrive_release_passes),
    cmocka_unit_test(test_plain_fence_then_arrive_relaxed_publishes_the_tile),
    cmocka_unit_test(test_plain_writers_that_release_publish_even_if_the_owner_arrives_relaxed),
    cmocka_unit_test(test_plain_writers_that_arrive_relaxed_publish_nothing_even_if_the_owner_releases),
    cmocka_unit_test(test_plain_a_writer_that_arrives_relaxed_is_unpublished_though_its_cta_mates_release),
    cmocka_unit_test(test_plain_a_writer_that_arrives_release_publishes_its_write),
    cmocka_unit_test(test_plain_uninitialised_read_is_reported_at_the_load_even_when_transformed),
    cmocka_unit_test(test_plain_initialised_read_passes),
    cmocka_unit_test(test_plain_read_past_the_end_of_a_device_buffer_is_reported),
    cmocka_unit_test(test_plain_guarded_copy_passes),
    cmocka_unit_test(test_plain_read_after_the_owner_was_told_it_may_exit_is_a_lifetime_trap),
    cmocka_unit_test(test_plain_read_with_a_final_barrier_passes),
    cmocka_unit_test(test_plain_store_into_a_peer_before_any_cluster_barrier_is_reported),
    cmocka_unit_test(test_plain_store_into_a_peer_after_a_cluster_barrier_passes),
};
RUNTIME_TEST_MAIN(tests)
