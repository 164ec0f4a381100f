/* test_ring_push.c: ch06.ring_push: the bulk-copy ring delivers every chunk, in order, to the right neighbour for every ring depth, chunk size and cluster size, with no cluster barrier in its loop. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(ring_push);

/* The contract's dynamic shared memory: the ring, the source and 128 bytes per stage. */
static size_t smem_bytes(int chunk_bytes, int stages)
{
    return (size_t)(stages + 1) * (size_t)chunk_bytes + 128 * (size_t)stages;
}

/* On the emulator: every chunk left its sender through the copy engine and
 * landed in its receiver's shared memory (bulk copies, not thread stores into
 * the peer), and each CTA read its slots from its own shared memory. */
static void check_the_copies(size_t blocks, int chunk_bytes, int nchunks)
{
    uint64_t want = (uint64_t)chunk_bytes * (uint64_t)nchunks;
    for (uint32_t b = 0; b < blocks; ++b) {
        dsm_emu_counts c;
        assert_true(dsm_emu_last_counts(b, &c));
        if (c.async_out_bytes != want || c.async_in_bytes != want)
            fail_msg("ring_push, %d chunks of %d B: CTA %u sent %llu and received %llu bytes by bulk copy, %llu each "
                     "expected: every chunk goes out through cp.async.bulk exactly once", nchunks, chunk_bytes, b,
                     (unsigned long long)c.async_out_bytes, (unsigned long long)c.async_in_bytes,
                     (unsigned long long)want);
        if (c.dsmem_st_bytes != 0 || c.dsmem_ld_bytes != 0)
            fail_msg("ring_push: CTA %u stored %llu and loaded %llu bytes of a peer's shared memory with threads: the "
                     "copy engine moves the chunks, the consumers read their own ring", b,
                     (unsigned long long)c.dsmem_st_bytes, (unsigned long long)c.dsmem_ld_bytes);
    }
}

/* Runs ring_push and checks every word of every CTA's weighted sum against the
 * CPU, and on the emulator the copies. Returns the emulator's count of
 * cluster-barrier phases (0 on a GPU). */
static unsigned run_ring(int n, int clusters, int chunk_bytes, int stages, int nchunks, int threads)
{
    size_t blocks = (size_t)n * (size_t)clusters;
    size_t src_words = (size_t)chunk_bytes / 4 + 32 * (size_t)stages, chunk_words = (size_t)chunk_bytes / 4;
    uint32_t *host_in = malloc(blocks * src_words * 4), *expected = calloc(blocks * chunk_words, 4);
    uint32_t *host_out = malloc(blocks * chunk_words * 4);
    test_fill_random_u32(host_in, blocks * src_words, 0, UINT32_MAX);
    for (size_t b = 0; b < blocks; ++b) {
        size_t r = b % (size_t)n, left = b - r + (r + (size_t)n - 1) % (size_t)n;
        for (int k = 0; k < nchunks; ++k) {
            const uint32_t *chunk = host_in + left * src_words + 32 * (size_t)(k % (stages + 1));
            for (size_t w = 0; w < chunk_words; ++w)
                expected[b * chunk_words + w] += (uint32_t)(k + 1) * chunk[w];
        }
    }

    void *in, *out;
    assert_int_equal(dsm_malloc(&in, blocks * src_words * 4), dsmSuccess);
    assert_int_equal(dsm_malloc(&out, blocks * chunk_words * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, blocks * src_words * 4), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, blocks * chunk_words * 4), dsmSuccess);

    dsm_kernel_t k = DSM_KERNEL(ring_push);
    size_t smem = smem_bytes(chunk_bytes, stages);
    if (n > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    if (smem > 48 * 1024)
        assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)smem), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    void *args[] = {&in, &out, &chunk_bytes, &stages, &nchunks};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("ring_push, clusters of %d, %d B chunks, %d stages, %d chunks, %d threads: %s (%s)", n,
                 chunk_bytes, stages, nchunks, threads, dsm_error_name(err), dsm_error_string(err));
    unsigned phases = 0;
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        phases = dsm_emu_last_cluster_barrier_phases();
    }
    assert_int_equal(dsm_memcpy_to_host(host_out, out, blocks * chunk_words * 4), dsmSuccess);
    for (size_t i = 0; i < blocks * chunk_words; ++i)
        if (host_out[i] != expected[i]) {
            print_error("ring_push, clusters of %d, %d B chunks, %d stages, %d chunks, %d threads: CTA %zu, word %zu "
                        "of its sum is wrong\n", n, chunk_bytes, stages, nchunks, threads, i / chunk_words,
                        i % chunk_words);
            break;
        }
    assert_u32_array_equal(expected, host_out, blocks * chunk_words);
    if (test_on_emulator())
        check_the_copies(blocks, chunk_bytes, nchunks);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
    return phases;
}

static void test_ring_push_delivers_every_chunk_for_ring_depths_1_to_8(void **state)
{
    (void)state;
    for (int stages = 1; stages <= 8; ++stages)
        run_ring(2, 1, 16 * (1 + (int)test_random_below(16)), stages, 2 * stages + 1 + (int)test_random_below(5), 96);
}

/* Streams shorter than the ring, exactly one lap, and a partial last lap. */
static void test_ring_push_streams_shorter_than_the_ring_or_not_a_whole_number_of_laps(void **state)
{
    (void)state;
    run_ring(2, 2, 64, 4, 1, 96);
    run_ring(2, 1, 64, 4, 3, 96);
    run_ring(2, 1, 48, 3, 3, 96);
    run_ring(3, 1, 32, 3, 3 * 3 + 2, 96);
}

static void test_ring_push_passes_chunks_round_clusters_of_2_to_16(void **state)
{
    (void)state;
    int sizes[] = {2, 3, 4, 8, 16};
    for (int i = 0; i < 5; ++i)
        run_ring(sizes[i], 1, 16 * (1 + (int)test_random_below(4)), 2, 5, 96);
    run_ring(4, 2, 128, 2, 7, 96);
}

/* Chunks of many lanes per consumer thread, and larger blocks. */
static void test_ring_push_large_chunks_and_block_sizes(void **state)
{
    (void)state;
    run_ring(2, 1, 128 * 32, 2, 5, 96);
    run_ring(2, 1, 1024 + 16 * (int)test_random_below(64), 3, 7, 160);
    run_ring(2, 1, 16 * 40, 2, 5, 128);
}

/* The ring is ordered by mbarriers alone: a cluster barrier per chunk would
 * serialise it. */
static void test_ring_push_has_no_cluster_barrier_inside_its_loop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    unsigned phases = run_ring(2, 1, 64, 2, 12 + (int)test_random_below(8), 96);
    if (phases > 3)
        fail_msg("a stream of at least 12 chunks took %u cluster barriers: at most 3 per launch (set-up and end)",
                 phases);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ring_push_delivers_every_chunk_for_ring_depths_1_to_8),
    cmocka_unit_test(test_ring_push_streams_shorter_than_the_ring_or_not_a_whole_number_of_laps),
    cmocka_unit_test(test_ring_push_passes_chunks_round_clusters_of_2_to_16),
    cmocka_unit_test(test_ring_push_large_chunks_and_block_sizes),
    cmocka_unit_test(test_ring_push_has_no_cluster_barrier_inside_its_loop),
};

DSM_TEST_MAIN(tests)
