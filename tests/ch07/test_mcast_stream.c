/* test_mcast_stream.c: ch07.mcast_stream: every CTA of every cluster folds every chunk of its cluster's stream, for clusters of 1 to 16, any ring depth, chunk size and block size; each byte is read from global memory once per cluster and lands in every CTA. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "ch07/stream_ref.h"

DSM_DECLARE_KERNEL(mcast_stream);

typedef struct shape {
    int n, clusters, threads, chunk_bytes, stages, nchunks, region_chunks, shared_region;
} shape;

/* Runs mcast_stream on shape s; checks every word of every CTA and, on the emulator, that each
 * cluster read its stream from global memory once, by multicast, and every CTA received all of it. */
static void run_mcast(const shape *s)
{
    char what[256];
    snprintf(what, sizeof what, "%d clusters of %d x %d threads, %d B chunks, %d stages, %d chunks, regions of %d "
                                "chunks%s", s->clusters, s->n, s->threads, s->chunk_bytes, s->stages, s->nchunks,
             s->region_chunks, s->shared_region ? ", one region for all clusters" : "");
    int blocks = s->n * s->clusters, regions = s->shared_region ? 1 : s->clusters;
    size_t cw = (size_t)s->chunk_bytes / 4, region_words = (size_t)s->region_chunks * cw;
    size_t in_words = (size_t)regions * region_words;
    uint32_t *host_in = malloc(in_words * 4), *expected = malloc((size_t)blocks * cw * 4);
    uint32_t *host_out = malloc((size_t)blocks * cw * 4);
    test_fill_random_u32(host_in, in_words, 0, UINT32_MAX);
    for (int b = 0; b < blocks; ++b)
        ch07_stream_ref(host_in + (size_t)(s->shared_region ? 0 : b / s->n) * region_words, cw, s->region_chunks,
                        s->nchunks, expected + (size_t)b * cw);

    void *in, *out;
    assert_int_equal(dsm_malloc(&in, in_words * 4), dsmSuccess);
    assert_int_equal(dsm_malloc(&out, (size_t)blocks * cw * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, in_words * 4), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, (size_t)blocks * cw * 4), dsmSuccess);
    dsm_kernel_t k = DSM_KERNEL(mcast_stream);
    size_t smem = (size_t)s->stages * (size_t)s->chunk_bytes;
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, s->n > 8), dsmSuccess);
    if (smem > 48 * 1024)
        assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)smem), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->n, 1, 1), smem};
    int cb = s->chunk_bytes, st = s->stages, nc = s->nchunks, rc = s->region_chunks, sh = s->shared_region;
    void *args[] = {&in, &out, &cb, &st, &nc, &rc, &sh};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("mcast_stream, %s: %s (%s)", what, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(host_out, out, (size_t)blocks * cw * 4), dsmSuccess);
    for (size_t i = 0; i < (size_t)blocks * cw; ++i)
        if (host_out[i] != expected[i]) {
            print_error("mcast_stream, %s: CTA %zu, word %zu of its sum is wrong\n", what, i / cw, i % cw);
            break;
        }
    assert_u32_array_equal(expected, host_out, (size_t)blocks * cw);

    if (test_on_emulator()) {
        uint64_t stream = (uint64_t)s->nchunks * (uint64_t)s->chunk_bytes;
        for (int c = 0; c < s->clusters; ++c) {
            uint64_t issued = 0, read = 0;
            for (int r = 0; r < s->n; ++r) {
                uint32_t b = (uint32_t)(c * s->n + r);
                dsm_emu_counts k2;
                dsm_emu_gmem_use use;
                assert_true(dsm_emu_last_counts(b, &k2));
                assert_true(dsm_emu_last_gmem_use(b, in, &use));
                issued += k2.bulk_g2s_issued_bytes;
                read += use.ld_bytes;
                if (k2.bulk_g2s_landed_bytes != stream)
                    fail_msg("mcast_stream, %s: CTA %u received %llu bytes by bulk copy, its stream is %llu: every "
                             "chunk must land in every CTA of the cluster", what, b,
                             (unsigned long long)k2.bulk_g2s_landed_bytes, (unsigned long long)stream);
                if (k2.gmem_ld_bytes != 0)
                    fail_msg("mcast_stream, %s: CTA %u read %llu bytes of global memory with plain loads: the copy "
                             "engine brings every byte", what, b, (unsigned long long)k2.gmem_ld_bytes);
            }
            if (issued != stream || read != stream)
                fail_msg("mcast_stream, %s: cluster %d read %llu bytes from global memory for a stream of %llu: each "
                         "byte once per cluster (multicast it to every CTA instead of loading it in each)", what, c,
                         (unsigned long long)issued, (unsigned long long)stream);
        }
    }
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_mcast_stream_every_cta_gets_every_chunk_in_clusters_of_1_to_16(void **state)
{
    (void)state;
    int sizes[] = {1, 2, 3, 4, 5, 8, 16};
    for (int i = 0; i < 7; ++i) {
        int n = sizes[i];
        shape s = {n, n <= 4 ? 2 : 1, 96, 16 * n * (1 + (int)test_random_below(3)), 2, 5 + (int)test_random_below(3),
                   1 + (int)test_random_below(4), (int)test_random_below(2)};
        run_mcast(&s);
    }
}

/* Chunks of fewer 16-byte units than CTAs, and chunk sizes that are not a multiple of 16 n. */
static void test_mcast_stream_chunks_that_do_not_split_evenly(void **state)
{
    (void)state;
    shape a = {4, 1, 96, 32, 2, 6, 3, 0}, b = {3, 2, 96, 16 * 7, 3, 8, 2, 0}, c = {8, 1, 96, 16, 2, 5, 5, 1};
    run_mcast(&a);
    run_mcast(&b);
    run_mcast(&c);
}

static void test_mcast_stream_ring_depths_1_to_8_and_stream_lengths(void **state)
{
    (void)state;
    for (int stages = 1; stages <= 8; ++stages) {
        shape s = {2, 1, 96, 64, stages, 2 * stages + 1 + (int)test_random_below(4), 1 + (int)test_random_below(4), 0};
        run_mcast(&s);
    }
    shape shorter = {4, 1, 96, 64, 4, 2, 3, 0}, one = {2, 2, 96, 128, 3, 1, 1, 0};
    run_mcast(&shorter);
    run_mcast(&one);
}

static void test_mcast_stream_large_chunks_and_block_sizes(void **state)
{
    (void)state;
    shape a = {2, 1, 96, 128 * 32, 2, 5, 2, 0}, b = {4, 1, 160, 1024 + 64 * (int)test_random_below(16), 3, 7, 3, 1};
    shape c = {2, 1, 128, 16 * 60, 2, 5, 4, 0};
    run_mcast(&a);
    run_mcast(&b);
    run_mcast(&c);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mcast_stream_every_cta_gets_every_chunk_in_clusters_of_1_to_16),
    cmocka_unit_test(test_mcast_stream_chunks_that_do_not_split_evenly),
    cmocka_unit_test(test_mcast_stream_ring_depths_1_to_8_and_stream_lengths),
    cmocka_unit_test(test_mcast_stream_large_chunks_and_block_sizes),
};

DSM_TEST_MAIN(tests)
