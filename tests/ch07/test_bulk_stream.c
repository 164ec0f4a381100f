/* test_bulk_stream.c: ch07.bulk_stream: every CTA folds every chunk of its region, in order, for every ring depth, chunk size, region and block size; the bytes come by bulk copy, each chunk once, and no plain load touches in. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "ch07/stream_ref.h"

DSM_DECLARE_KERNEL(bulk_stream);

typedef struct shape {
    int blocks, cluster, threads, chunk_bytes, stages, nchunks, region_chunks, group;
} shape;

static void describe(const shape *s, char *buf, size_t n)
{
    snprintf(buf, n, "%d CTAs (clusters of %d) x %d threads, %d B chunks, %d stages, %d chunks, regions of %d chunks, "
                     "group %d", s->blocks, s->cluster, s->threads, s->chunk_bytes, s->stages, s->nchunks,
             s->region_chunks, s->group);
}

/* Runs bulk_stream on shape s; checks every word of every CTA's sum and, on the emulator, the
 * mechanism: each chunk by one bulk copy into the CTA itself, no plain load of in, no cluster barrier. */
static void run_stream(const shape *s)
{
    char what[256];
    describe(s, what, sizeof what);
    size_t cw = (size_t)s->chunk_bytes / 4, region_words = (size_t)s->region_chunks * cw;
    int regions = (s->blocks - 1) / s->group + 1;
    size_t in_words = (size_t)regions * region_words;
    uint32_t *host_in = malloc(in_words * 4), *expected = malloc((size_t)s->blocks * cw * 4);
    uint32_t *host_out = malloc((size_t)s->blocks * cw * 4);
    test_fill_random_u32(host_in, in_words, 0, UINT32_MAX);
    for (int b = 0; b < s->blocks; ++b)
        ch07_stream_ref(host_in + (size_t)(b / s->group) * region_words, cw, s->region_chunks, s->nchunks,
                        expected + (size_t)b * cw);

    void *in, *out;
    assert_int_equal(dsm_malloc(&in, in_words * 4), dsmSuccess);
    assert_int_equal(dsm_malloc(&out, (size_t)s->blocks * cw * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, in_words * 4), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, (size_t)s->blocks * cw * 4), dsmSuccess);
    dsm_kernel_t k = DSM_KERNEL(bulk_stream);
    size_t smem = (size_t)s->stages * (size_t)s->chunk_bytes;
    if (smem > 48 * 1024)
        assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)smem), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(s->blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->cluster, 1, 1), smem};
    int cb = s->chunk_bytes, st = s->stages, nc = s->nchunks, rc = s->region_chunks, g = s->group;
    void *args[] = {&in, &out, &cb, &st, &nc, &rc, &g};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("bulk_stream, %s: %s (%s)", what, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(host_out, out, (size_t)s->blocks * cw * 4), dsmSuccess);
    for (size_t i = 0; i < (size_t)s->blocks * cw; ++i)
        if (host_out[i] != expected[i]) {
            print_error("bulk_stream, %s: CTA %zu, word %zu of its sum is wrong\n", what, i / cw, i % cw);
            break;
        }
    assert_u32_array_equal(expected, host_out, (size_t)s->blocks * cw);

    if (test_on_emulator()) {
        for (int b = 0; b < s->blocks; ++b) {
            dsm_emu_counts c;
            dsm_emu_gmem_use use;
            assert_true(dsm_emu_last_counts((uint32_t)b, &c));
            assert_true(dsm_emu_last_gmem_use((uint32_t)b, in, &use));
            uint64_t want = (uint64_t)s->nchunks * (uint64_t)s->chunk_bytes;
            if (c.bulk_g2s_issued_bytes != want || c.bulk_g2s_landed_bytes != want)
                fail_msg("bulk_stream, %s: CTA %d copied %llu bytes from global memory by bulk copy and received "
                         "%llu; the stream is %llu bytes: each chunk by one cp.async.bulk into this CTA, once", what,
                         b, (unsigned long long)c.bulk_g2s_issued_bytes, (unsigned long long)c.bulk_g2s_landed_bytes,
                         (unsigned long long)want);
            if (use.ld_bytes != want)
                fail_msg("bulk_stream, %s: CTA %d read %llu bytes of in, the stream is %llu: no plain loads of in "
                         "(the copy engine brings the bytes)", what, b, (unsigned long long)use.ld_bytes,
                         (unsigned long long)want);
            size_t lo = (size_t)(b / s->group) * region_words * 4, hi = lo + region_words * 4;
            if (use.ld_lo < lo || use.ld_hi > hi)
                fail_msg("bulk_stream, %s: CTA %d read bytes [%zu, %zu) of in, outside its region [%zu, %zu)", what, b,
                         use.ld_lo, use.ld_hi, lo, hi);
            if (c.cluster_arrives_release + c.cluster_arrives_relaxed != 0)
                fail_msg("bulk_stream, %s: CTA %d used a cluster barrier: the ring is the CTA's own business, "
                         "its mbarriers order it", what, b);
        }
    }
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_bulk_stream_folds_every_chunk_for_ring_depths_1_to_8(void **state)
{
    (void)state;
    for (int stages = 1; stages <= 8; ++stages) {
        shape s = {2, 1, 64, 16 * (1 + (int)test_random_below(16)), stages, 2 * stages + 1 + (int)test_random_below(5),
                   1 + (int)test_random_below(5), 1};
        run_stream(&s);
    }
}

/* Streams shorter than the ring, exactly one lap, a partial last lap; a region of one chunk. */
static void test_bulk_stream_streams_shorter_than_the_ring_or_not_a_whole_number_of_laps(void **state)
{
    (void)state;
    shape a = {2, 1, 64, 64, 4, 1, 3, 1}, b = {1, 1, 64, 64, 4, 4, 4, 1}, c = {3, 1, 96, 48, 3, 11, 1, 1};
    run_stream(&a);
    run_stream(&b);
    run_stream(&c);
}

/* Regions per CTA, per pair of CTAs and one for all, in clusters or not. */
static void test_bulk_stream_reads_the_region_its_group_names(void **state)
{
    (void)state;
    shape a = {4, 2, 64, 128, 2, 7, 3, 2}, b = {6, 1, 64, 32, 3, 9, 5, 1000}, c = {8, 4, 64, 80, 2, 5, 2, 1};
    run_stream(&a);
    run_stream(&b);
    run_stream(&c);
}

/* Chunks of many lanes per consumer thread, and larger blocks. */
static void test_bulk_stream_large_chunks_and_block_sizes(void **state)
{
    (void)state;
    shape a = {1, 1, 64, 128 * 32, 2, 5, 2, 1};
    shape b = {2, 1, 160, 1024 + 16 * (int)test_random_below(64), 3, 7, 4, 1};
    shape c = {1, 1, 256, 16 * 40, 2, 5, 5, 1};
    run_stream(&a);
    run_stream(&b);
    run_stream(&c);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bulk_stream_folds_every_chunk_for_ring_depths_1_to_8),
    cmocka_unit_test(test_bulk_stream_streams_shorter_than_the_ring_or_not_a_whole_number_of_laps),
    cmocka_unit_test(test_bulk_stream_reads_the_region_its_group_names),
    cmocka_unit_test(test_bulk_stream_large_chunks_and_block_sizes),
};

DSM_TEST_MAIN(tests)
