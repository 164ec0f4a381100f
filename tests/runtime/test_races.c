/* test_races.c: races through the device API and plain pointers are reported as their kind; the fixed twins pass under eight schedules. */
#include <stdlib.h>
#include "runtime_test.h"

DSM_DECLARE_KERNEL(histogram_atomic);
DSM_DECLARE_KERNEL(histogram_plain_rmw);
DSM_DECLARE_KERNEL(unpublished_read);
DSM_DECLARE_KERNEL(published_read);
DSM_DECLARE_KERNEL(mailbox_same_word);
DSM_DECLARE_KERNEL(mailbox_own_words);
DSM_DECLARE_KERNEL(read_write_same_phase);
DSM_DECLARE_KERNEL(read_after_barrier);
DSM_DECLARE_KERNEL(swap_without_barrier);
DSM_DECLARE_KERNEL(swap_with_barrier);
DSM_DECLARE_KERNEL(read_before_write);
DSM_DECLARE_KERNEL(read_after_write);
DSM_DECLARE_KERNEL(publish_relaxed);
DSM_DECLARE_KERNEL(publish_release);
DSM_DECLARE_KERNEL(publish_plain_relaxed);
DSM_DECLARE_KERNEL(publish_plain_release);

#define BINS_PER_BLOCK 32

static void histogram_inputs(uint32_t *h, int n, unsigned seed)
{
    srand(seed);
    for (int i = 0; i < n; i++)
        h[i] = (uint32_t)rand();
}

static void test_races_histogram_with_remote_atomics_counts_every_input(void **state)
{
    (void)state;
    enum { N = 3000, CLUSTER = 4, BINS = BINS_PER_BLOCK * CLUSTER };
    unsigned seed = 12345;
    uint32_t *h_in = malloc(N * sizeof *h_in), ref[BINS] = {0}, got[BINS];
    histogram_inputs(h_in, N, seed);
    for (int i = 0; i < N; i++)
        ref[h_in[i] % BINS]++;
    uint32_t *in = dev_zeroed(N * sizeof *in), *out = dev_zeroed(sizeof got);
    assert_int_equal(dsm_memcpy_to_device(in, h_in, N * sizeof *in), dsmSuccess);
    int n = N;
    dsm_launch_config cfg = cluster_cfg(CLUSTER, 128, CLUSTER, 0);
    void *args[] = {&in, &n, &out};
    launch_clean(&cfg, DSM_KERNEL(histogram_atomic), args);
    assert_int_equal(dsm_memcpy_to_host(got, out, sizeof got), dsmSuccess);
    for (int b = 0; b < BINS; b++)
        if (got[b] != ref[b])
            fail_msg("bin %d: expected %u, got %u (seed %u)", b, ref[b], got[b], seed);
    dsm_free(in);
    dsm_free(out);
    free(h_in);
}

static void test_races_histogram_with_plain_read_modify_write_is_a_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    enum { N = 3000, CLUSTER = 4 };
    uint32_t *h_in = malloc(N * sizeof *h_in);
    histogram_inputs(h_in, N, 99);
    uint32_t *in = dev_zeroed(N * sizeof *in), *out = dev_zeroed(BINS_PER_BLOCK * CLUSTER * 4);
    assert_int_equal(dsm_memcpy_to_device(in, h_in, N * sizeof *in), dsmSuccess);
    int n = N;
    dsm_launch_config cfg = cluster_cfg(CLUSTER, 128, CLUSTER, 0);
    void *args[] = {&in, &n, &out};
    launch_reported(&cfg, DSM_KERNEL(histogram_plain_rmw), args, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
    report_mentions("read-modify-write");
    report_mentions("races.cu:21");
    dsm_free(in);
    dsm_free(out);
    free(h_in);
}

static void test_races_remote_read_before_any_cluster_barrier_is_reported_as_peer_not_started(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(2 * 64 * 4);
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    /* before the first cluster barrier nothing proves the peer runs (CUDA Programming Guide) */
    launch_reported(&cfg, DSM_KERNEL(unpublished_read), args, DSM_REPORT_LIFETIME, dsmErrorLaunchFailure);
    report_mentions("known to have started");
    report_mentions("races.cu:43");
    dsm_free(out);
}

static void test_races_remote_read_after_a_cluster_barrier_sees_the_peer_tile(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(2 * 64 * 4), h[128];
    dsm_launch_config cfg = cluster_cfg(2, 64, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(published_read), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t i = 0; i < 64; i++)
            assert_int_equal(h[b * 64 + i], (b ^ 1) * 100 + i);
    dsm_free(out);
}

static void test_races_two_ctas_writing_one_remote_word_in_a_phase_is_a_write_write_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(16 * 4);
    dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(mailbox_same_word), args, DSM_REPORT_RACE_WRITE_WRITE, dsmErrorRaceDetected);
    dsm_free(out);
}

static void test_races_each_cta_writing_its_own_remote_word_passes(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(16 * 4), h[16];
    dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(mailbox_own_words), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (uint32_t r = 1; r < 4; r++)
        assert_int_equal(h[r], r);
    dsm_free(out);
}

static void test_races_remote_write_and_read_in_one_phase_is_a_read_write_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(4);
    dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(read_write_same_phase), args, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
    dsm_free(out);
}

static void test_races_remote_read_after_the_writers_barrier_passes(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(4), h;
    dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(read_after_barrier), args);
    assert_int_equal(dsm_memcpy_to_host(&h, out, 4), dsmSuccess);
    assert_int_equal(h, 42);
    dsm_free(out);
}

static void test_races_plain_pointer_swap_without_barrier_is_a_race_naming_both_lines(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(2 * 4);
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(swap_without_barrier), args, DSM_REPORT_RACE_READ_WRITE,
                    dsmErrorRaceDetected);
    report_mentions("races.cu:108");  /* the plain store through the mapped pointer */
    report_mentions("races.cu:112");  /* the owner's plain read it races with */
    report_mentions("timeline");
    dsm_free(out);
}

static void test_races_plain_pointer_swap_with_a_barrier_passes(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(2 * 4), h[2];
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(swap_with_barrier), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 2);
    assert_int_equal(h[1], 1);
    dsm_free(out);
}

static void test_races_reading_unwritten_shared_memory_is_reported(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(32 * 4);
    dsm_launch_config cfg = cluster_cfg(1, 32, 1, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(read_before_write), args, DSM_REPORT_UNINITIALIZED_READ,
                    dsmErrorUninitializedRead);
    dsm_free(out);
}

static void test_races_reading_written_shared_memory_passes(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(32 * 4), h[32];
    dsm_launch_config cfg = cluster_cfg(1, 32, 1, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(read_after_write), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(h[i], 3 * i);
    dsm_free(out);
}

static void test_races_relaxed_arrive_publishes_nothing(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(2 * 4);
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(publish_relaxed), args, DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected);
    report_mentions("relaxed");
    dsm_free(out);
}

static void test_races_release_arrive_publishes_the_write(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(2 * 4), h[2];
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(publish_release), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 11);
    assert_int_equal(h[1], 10);
    dsm_free(out);
}

static void test_races_plain_store_closed_by_a_relaxed_arrive_is_unpublished(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(2 * 4);
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_reported(&cfg, DSM_KERNEL(publish_plain_relaxed), args, DSM_REPORT_UNPUBLISHED_READ,
                    dsmErrorRaceDetected);
    report_mentions("arrive.relaxed");
    dsm_free(out);
}

static void test_races_plain_store_closed_by_a_release_arrive_is_published(void **state)
{
    (void)state;
    uint32_t *out = dev_zeroed(2 * 4), h[2];
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(publish_plain_release), args);
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    assert_int_equal(h[0], 21);
    assert_int_equal(h[1], 20);
    dsm_free(out);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_races_histogram_with_remote_atomics_counts_every_input),
    cmocka_unit_test(test_races_histogram_with_plain_read_modify_write_is_a_race),
    cmocka_unit_test(test_races_remote_read_before_any_cluster_barrier_is_reported_as_peer_not_started),
    cmocka_unit_test(test_races_remote_read_after_a_cluster_barrier_sees_the_peer_tile),
    cmocka_unit_test(test_races_two_ctas_writing_one_remote_word_in_a_phase_is_a_write_write_race),
    cmocka_unit_test(test_races_each_cta_writing_its_own_remote_word_passes),
    cmocka_unit_test(test_races_remote_write_and_read_in_one_phase_is_a_read_write_race),
    cmocka_unit_test(test_races_remote_read_after_the_writers_barrier_passes),
    cmocka_unit_test(test_races_plain_pointer_swap_without_barrier_is_a_race_naming_both_lines),
    cmocka_unit_test(test_races_plain_pointer_swap_with_a_barrier_passes),
    cmocka_unit_test(test_races_reading_unwritten_shared_memory_is_reported),
    cmocka_unit_test(test_races_reading_written_shared_memory_passes),
    cmocka_unit_test(test_races_relaxed_arrive_publishes_nothing),
    cmocka_unit_test(test_races_release_arrive_publishes_the_write),
    cmocka_unit_test(test_races_plain_store_closed_by_a_relaxed_arrive_is_unpublished),
    cmocka_unit_test(test_races_plain_store_closed_by_a_release_arrive_is_published),
};
RUNTIME_TEST_MAIN(tests)
