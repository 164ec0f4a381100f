/* test_publish_then_read.c: ch03.publish_then_read: two rounds of neighbour exchange through one buffer give the CPU's results, the emulator finds no race and no lifetime error, and every thread passes exactly four cluster barriers. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

DSM_DECLARE_KERNEL(two_round_exchange);

/* Runs two_round_exchange on `clusters` clusters of `cluster` CTAs of
 * `threads` threads with random values and compares with the CPU. */
static void check_exchange(int cluster, int clusters, int threads)
{
    size_t blocks = (size_t)cluster * (size_t)clusters, elems = blocks * (size_t)threads;
    uint32_t *host_in = malloc(elems * sizeof(uint32_t)), *round2 = malloc(elems * sizeof(uint32_t));
    uint32_t *expected = malloc(elems * sizeof(uint32_t)), *host_out = malloc(elems * sizeof(uint32_t));
    test_fill_random_u32(host_in, elems, 0, 0xFFFFFFFFu);
    for (size_t b = 0; b < blocks; ++b) {
        size_t r = b % (size_t)cluster, first = b - r;
        size_t right = first + (r + 1) % (size_t)cluster;
        for (size_t t = 0; t < (size_t)threads; ++t)
            round2[b * (size_t)threads + t] = host_in[right * (size_t)threads + t] * 3u + (uint32_t)r;
    }
    for (size_t b = 0; b < blocks; ++b) {
        size_t r = b % (size_t)cluster, first = b - r;
        size_t left = first + (r + (size_t)cluster - 1) % (size_t)cluster;
        for (size_t t = 0; t < (size_t)threads; ++t)
            expected[b * (size_t)threads + t] = round2[left * (size_t)threads + t];
    }

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, elems * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, elems * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, elems * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, elems * sizeof(uint32_t)), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(cluster, 1, 1),
                             (size_t)threads * sizeof(uint32_t)};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(two_round_exchange), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        /* The lesson: exactly the four barriers the hazards need, in every thread; the
         * values travel through the neighbours' slots (two DSMEM loads per thread), and
         * in[] is read only for one's own slot. */
        size_t row = (size_t)threads * sizeof(uint32_t);
        for (uint32_t b = 0; b < (uint32_t)blocks; ++b) {
            mech_cluster_waits(b, 4, "publish round 1, protect its reads from the overwrite, publish round 2, "
                                     "keep the slot alive for the last read; a fifth is a cluster-wide wait for nothing");
            mech_reads_only(b, in, "in", b * row, (b + 1) * row);
            dsm_emu_counts c = mech_counts(b);
            if (c.dsmem_ld_bytes != 2 * row)
                MECH_FAIL("CTA %u read %" PRIu64 " bytes from its neighbours' slots; each of its %d threads reads "
                          "two words (right in round 1, left in round 2)", b, c.dsmem_ld_bytes, threads);
        }
    }

    assert_int_equal(dsm_memcpy_to_host(host_out, out, elems * sizeof(uint32_t)), dsmSuccess);
    assert_u32_array_equal(expected, host_out, elems);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(round2);
    free(expected);
    free(host_out);
}

static void test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_2(void **state)
{
    (void)state;
    check_exchange(2, 1 + (int)test_random_below(3), 1 + (int)test_random_below(256));
}

static void test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_4(void **state)
{
    (void)state;
    check_exchange(4, 1 + (int)test_random_below(3), 1 + (int)test_random_below(256));
}

static void test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_8(void **state)
{
    (void)state;
    check_exchange(8, 1 + (int)test_random_below(2), 1 + (int)test_random_below(256));
}

static void test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_any_size(void **state)
{
    (void)state;
    for (int trial = 0; trial < 3; ++trial)
        check_exchange(2 + (int)test_random_below(7), 1 + (int)test_random_below(3), 1 + (int)test_random_below(256));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_2),
    cmocka_unit_test(test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_4),
    cmocka_unit_test(test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_8),
    cmocka_unit_test(test_publish_then_read_two_rounds_match_the_cpu_in_clusters_of_any_size),
};

DSM_TEST_MAIN(tests)
