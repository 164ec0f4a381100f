/* test_neighbor_read.c: ch02.neighbor_read: each CTA of a cluster of 2 reads the other CTA's value through mapa. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"

DSM_DECLARE_KERNEL(neighbor_read);

/* Runs neighbor_read on `clusters` clusters of 2 CTAs of `threads` threads with
 * random values and checks that CTA b got the value of CTA b ^ 1. */
static void check_neighbor_read(int clusters, int threads)
{
    size_t blocks = 2 * (size_t)clusters, bytes = blocks * sizeof(uint32_t);
    uint32_t *host_in = malloc(bytes), *expected = malloc(bytes), *host_out = malloc(bytes);
    test_fill_random_u32(host_in, blocks, 0, 0xFFFFFFFEu);
    for (size_t b = 0; b < blocks; ++b)
        expected[b] = host_in[b ^ 1];

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, bytes), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, bytes), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, bytes), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(neighbor_read), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator()) {
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
        /* The lesson: the peer's value comes from the peer's shared memory (DSMEM),
         * not from in[], of which each CTA reads only its own element. */
        for (uint32_t b = 0; b < (uint32_t)blocks; ++b) {
            mech_reads_only(b, in, "in", b * sizeof(uint32_t), (b + 1) * sizeof(uint32_t));
            mech_writes_only(b, out, "out", b * sizeof(uint32_t), (b + 1) * sizeof(uint32_t));
            dsm_emu_counts c = mech_counts(b);
            if (c.dsmem_ld_bytes < sizeof(uint32_t))
                MECH_FAIL("CTA %u read %" PRIu64 " bytes from its peer's shared memory: the value must be "
                          "read through its cluster address (mapa, then ld.shared::cluster)", b, c.dsmem_ld_bytes);
        }
    }

    assert_int_equal(dsm_memcpy_to_host(host_out, out, bytes), dsmSuccess);
    assert_u32_array_equal(expected, host_out, blocks);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_neighbor_read_both_ctas_of_one_cluster_swap_values(void **state)
{
    (void)state;
    check_neighbor_read(1, 1 + (int)test_random_below(256));
}

static void test_neighbor_read_uses_the_rank_in_the_cluster_not_blockIdx(void **state)
{
    (void)state;
    check_neighbor_read(2 + (int)test_random_below(15), 1 + (int)test_random_below(256));
}

static void test_neighbor_read_every_thread_may_read_the_peer(void **state)
{
    (void)state;
    check_neighbor_read(3, 256);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_neighbor_read_both_ctas_of_one_cluster_swap_values),
    cmocka_unit_test(test_neighbor_read_uses_the_rank_in_the_cluster_not_blockIdx),
    cmocka_unit_test(test_neighbor_read_every_thread_may_read_the_peer),
};

DSM_TEST_MAIN(tests)
