/* test_fix_trap.c: ch03.fix_trap: rank 0 sums its peers' arrays, and every CTA outlives the reads of its shared memory. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

#define ARRAY_LEN 4096      /* as in ch03/fix_trap.cu */

DSM_DECLARE_KERNEL(peer_sum);

/* Runs peer_sum on `clusters` clusters of `cluster` CTAs with random arrays and
 * compares rank 0's sums with the CPU (same order of additions). */
static void check_peer_sum(int cluster, int clusters, int threads)
{
    size_t blocks = (size_t)cluster * (size_t)clusters;
    size_t in_elems = blocks * ARRAY_LEN, out_elems = (size_t)clusters * ARRAY_LEN;
    float *host_in = malloc(in_elems * sizeof(float));
    float *expected = malloc(out_elems * sizeof(float)), *host_out = malloc(out_elems * sizeof(float));
    test_fill_random_float(host_in, in_elems, -100.0f, 100.0f);
    for (size_t c = 0; c < (size_t)clusters; ++c)
        for (size_t i = 0; i < ARRAY_LEN; ++i) {
            float acc = host_in[(c * (size_t)cluster) * ARRAY_LEN + i];
            for (size_t r = 1; r < (size_t)cluster; ++r)
                acc += host_in[(c * (size_t)cluster + r) * ARRAY_LEN + i];
            expected[c * ARRAY_LEN + i] = acc;
        }

    float *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, in_elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, out_elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, in_elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, out_elems * sizeof(float)), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(cluster, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(peer_sum), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        /* The deep dive's kernel, kept: rank 0 reads its peers' arrays through DSMEM
         * (not from in[]), and every thread of every CTA waits at the barrier you added. */
        const size_t array = ARRAY_LEN * sizeof(float);
        for (uint32_t b = 0; b < (uint32_t)blocks; ++b) {
            mech_reads_only(b, in, "in", b * array, (b + 1) * array);
            dsm_emu_counts c = mech_counts(b);
            uint64_t want = b % (uint32_t)cluster == 0 ? (uint64_t)(cluster - 1) * array : 0;
            if (c.dsmem_ld_bytes != want)
                MECH_FAIL("CTA %u (rank %u of %d) read %" PRIu64 " bytes of its peers' shared memory; rank 0 reads "
                          "every peer's array once (%" PRIu64 " bytes), the others nothing", b, b % (uint32_t)cluster,
                          cluster, c.dsmem_ld_bytes, want);
            mech_cluster_waits(b, 2, "the kernel's barrier after the copy, and one that keeps every CTA until rank 0 "
                                     "has read it");
        }
    }

    assert_int_equal(dsm_memcpy_to_host(host_out, out, out_elems * sizeof(float)), dsmSuccess);
    assert_float_array_near(expected, host_out, out_elems, 0.0);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_fix_trap_rank_0_sums_its_peer_in_clusters_of_2(void **state)
{
    (void)state;
    check_peer_sum(2, 1 + (int)test_random_below(8), 1 + (int)test_random_below(256));
}

static void test_fix_trap_rank_0_sums_all_peers_in_clusters_of_4(void **state)
{
    (void)state;
    check_peer_sum(4, 1 + (int)test_random_below(4), 1 + (int)test_random_below(256));
}

static void test_fix_trap_rank_0_sums_all_peers_in_clusters_of_any_size(void **state)
{
    (void)state;
    check_peer_sum(2 + (int)test_random_below(7), 1 + (int)test_random_below(3), 1 + (int)test_random_below(256));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fix_trap_rank_0_sums_its_peer_in_clusters_of_2),
    cmocka_unit_test(test_fix_trap_rank_0_sums_all_peers_in_clusters_of_4),
    cmocka_unit_test(test_fix_trap_rank_0_sums_all_peers_in_clusters_of_any_size),
};

DSM_TEST_MAIN(tests)
