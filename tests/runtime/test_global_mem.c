/* test_global_mem.c: global memory (dsm_malloc buffers) is checked like shared memory: races within a cluster and between clusters are reported with both lines, both CTAs and threads, the buffer and the offset; a flush past the end of a buffer by a few bytes is out of bounds; the fixed twins pass eight schedules. */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(scratch_exchange);
DSM_DECLARE_KERNEL(cluster_totals);
DSM_DECLARE_KERNEL(gpu_flag_handoff);
DSM_DECLARE_KERNEL(flush_bins);

#define TILE 32
#define ROUNDS 4

static void run_exchange(int fixed)
{
    uint32_t *scratch = dev_zeroed(4 * TILE * 4), *out = dev_zeroed(4 * TILE * 4), h[4 * TILE];
    dsm_launch_config cfg = cluster_cfg(4, TILE, 2, 0);
    void *args[] = {&scratch, &out, &fixed};
    if (fixed) {
        launch_clean(&cfg, DSM_KERNEL(scratch_exchange), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (uint32_t b = 0; b < 4; b++)
            for (uint32_t i = 0; i < TILE; i++) {
                uint32_t expect = 0;
                for (uint32_t r = 0; r < ROUNDS; r++)
                    expect += (b ^ 1u) * 1000u + r * 100u + i;
                assert_int_equal(h[b * TILE + i], expect);
            }
    } else {
        launch_reported(&cfg, DSM_KERNEL(scratch_exchange), args, DSM_REPORT_RACE_READ_WRITE,
                        dsmErrorRaceDetected);
        report_mentions("data race on global memory");
        report_mentions("global_mem.cu:18"); /* the next round's write of the slot */
        report_mentions("global_mem.cu:20"); /* the peer's read */
        report_mentions("device buffer 0");
        report_mentions("byte offset");
    }
    dsm_free(scratch);
    dsm_free(out);
}

static void test_global_mem_rewriting_a_scratch_slot_the_peer_still_reads_is_a_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_exchange(0);
}

static void test_global_mem_scratch_exchange_with_a_barrier_after_the_reads_passes(void **state)
{
    (void)state;
    run_exchange(1);
}

enum { TOTAL_PLAIN_SHARED_WORD = 0, TOTAL_OWN_WORD = 1, TOTAL_ATOMIC = 2 };

static void run_totals(int how)
{
    uint32_t *out = dev_zeroed(4 * 4), h[4];
    dsm_launch_config cfg = cluster_cfg(8, 32, 2, 0); /* 4 clusters of 2 CTAs: totals 3 */
    void *args[] = {&out, &how};
    if (how == TOTAL_PLAIN_SHARED_WORD) {
        launch_reported(&cfg, DSM_KERNEL(cluster_totals), args, DSM_REPORT_RACE_WRITE_WRITE, dsmErrorRaceDetected);
        report_mentions("global_mem.cu:48");
        report_mentions("an earlier cluster of this launch");
        report_mentions("gpu-scope");
    } else {
        launch_clean(&cfg, DSM_KERNEL(cluster_totals), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        if (how == TOTAL_OWN_WORD)
            for (int c = 0; c < 4; c++)
                assert_int_equal(h[c], 3u);
        else
            assert_int_equal(h[0], 12u);
    }
    dsm_free(out);
}

static void test_global_mem_clusters_storing_into_one_word_is_a_race_between_clusters(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_totals(TOTAL_PLAIN_SHARED_WORD);
}

static void test_global_mem_clusters_storing_their_own_words_pass(void **state)
{
    (void)state;
    run_totals(TOTAL_OWN_WORD);
}

static void test_global_mem_clusters_adding_into_one_word_with_atomics_pass(void **state)
{
    (void)state;
    run_totals(TOTAL_ATOMIC);
}

enum { HANDOFF_RELEASE = 0, HANDOFF_RELAXED = 1, HANDOFF_FENCED = 2 };

static void run_handoff(int how)
{
    uint32_t *data = dev_zeroed(TILE * 4), *flag = dev_zeroed(4), *out = dev_zeroed(TILE * 4), h[TILE];
    dsm_launch_config cfg = cluster_cfg(4, TILE, 2, 0);
    void *args[] = {&data, &flag, &out, &how};
    if (how == HANDOFF_RELAXED) {
        launch_reported(&cfg, DSM_KERNEL(gpu_flag_handoff), args, DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected);
        report_mentions("global_mem.cu:89"); /* cluster 1's read */
        report_mentions("global_mem.cu:69"); /* cluster 0's write */
    } else {
        launch_clean(&cfg, DSM_KERNEL(gpu_flag_handoff), args);
        assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
        for (uint32_t i = 0; i < TILE; i++)
            assert_int_equal(h[i], i * 7u + 1u);
    }
    dsm_free(data);
    dsm_free(flag);
    dsm_free(out);
}

static void test_global_mem_handoff_between_clusters_with_release_and_acquire_gpu_passes(void **state)
{
    (void)state;
    run_handoff(HANDOFF_RELEASE);
}

static void test_global_mem_handoff_between_clusters_through_a_relaxed_flag_is_a_race(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_handoff(HANDOFF_RELAXED);
}

static void test_global_mem_handoff_between_clusters_with_threadfence_around_relaxed_flags_passes(void **state)
{
    (void)state;
    run_handoff(HANDOFF_FENCED);
}

/* 10 bins over 4 CTAs: 3 each, the last CTA owns 1: the unbounded flush adds 2 words past the end. */
static void run_flush(int bounded)
{
    int nbins = 10;
    uint32_t *bins = dev_zeroed((size_t)nbins * 4), h[10];
    dsm_launch_config cfg = cluster_cfg(4, 32, 4, 0);
    void *args[] = {&bins, &nbins, &bounded};
    if (bounded) {
        launch_clean(&cfg, DSM_KERNEL(flush_bins), args);
        assert_int_equal(dsm_memcpy_to_host(h, bins, sizeof h), dsmSuccess);
        uint32_t total = 0;
        for (int i = 0; i < nbins; i++)
            total += h[i];
        assert_int_equal(total, 3u * 32u + 11u); /* 3 CTAs flush all 32 counts, the last only bin 0 (threads 0, 3, .., 30) */
    } else {
        launch_reported(&cfg, DSM_KERNEL(flush_bins), args, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress);
        report_mentions("global_mem.cu:112");
        report_mentions("which has 40 bytes");
    }
    dsm_free(bins);
}

static void test_global_mem_flush_past_the_last_bin_by_eight_bytes_is_out_of_bounds(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    run_flush(0);
}

static void test_global_mem_flush_of_the_bins_that_exist_passes(void **state)
{
    (void)state;
    run_flush(1);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_global_mem_rewriting_a_scratch_slot_the_peer_still_reads_is_a_race),
    cmocka_unit_test(test_global_mem_scratch_exchange_with_a_barrier_after_the_reads_passes),
    cmocka_unit_test(test_global_mem_clusters_storing_into_one_word_is_a_race_between_clusters),
    cmocka_unit_test(test_global_mem_clusters_storing_their_own_words_pass),
    cmocka_unit_test(test_global_mem_clusters_adding_into_one_word_with_atomics_pass),
    cmocka_unit_test(test_global_mem_handoff_between_clusters_with_release_and_acquire_gpu_passes),
    cmocka_unit_test(test_global_mem_handoff_between_clusters_through_a_relaxed_flag_is_a_race),
    cmocka_unit_test(test_global_mem_handoff_between_clusters_with_threadfence_around_relaxed_flags_passes),
    cmocka_unit_test(test_global_mem_flush_past_the_last_bin_by_eight_bytes_is_out_of_bounds),
    cmocka_unit_test(test_global_mem_flush_of_the_bins_that_exist_passes),
};
RUNTIME_TEST_MAIN(tests)
