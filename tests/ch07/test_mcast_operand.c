/* test_mcast_operand.c: ch07.mcast_operand: every CTA folds its own stream and its cluster's operand, with and without multicast, for clusters of 1 to 16 and any mix of own and shared bytes; with multicast each operand byte is read once per cluster, own bytes once per CTA. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "ch07/stream_ref.h"

DSM_DECLARE_KERNEL(mcast_operand);

typedef struct shape {
    int n, clusters, threads, own_bytes, opnd_bytes, stages, nsteps, own_region_steps, opnd_region_steps, multicast;
} shape;

static void run_operand(const shape *s)
{
    char what[300];
    snprintf(what, sizeof what, "%s, %d clusters of %d x %d threads, %d own + %d operand bytes per step, %d stages, "
                                "%d steps, regions of %d / %d steps", s->multicast ? "multicast" : "per CTA",
             s->clusters, s->n, s->threads, s->own_bytes, s->opnd_bytes, s->stages, s->nsteps, s->own_region_steps,
             s->opnd_region_steps);
    int blocks = s->n * s->clusters;
    size_t ow = (size_t)s->own_bytes / 4, pw = (size_t)s->opnd_bytes / 4, W = ow + pw;
    size_t own_words = (size_t)blocks * (size_t)s->own_region_steps * ow;
    size_t opnd_words = (size_t)s->clusters * (size_t)s->opnd_region_steps * pw;
    uint32_t *h_own = malloc(own_words * 4 + 4), *h_opnd = malloc(opnd_words * 4 + 4);
    uint32_t *expected = malloc((size_t)blocks * W * 4 + 4), *got = malloc((size_t)blocks * W * 4 + 4);
    test_fill_random_u32(h_own, own_words, 0, UINT32_MAX);
    test_fill_random_u32(h_opnd, opnd_words, 0, UINT32_MAX);
    for (int b = 0; b < blocks; ++b) {
        ch07_stream_ref(h_own + (size_t)b * (size_t)s->own_region_steps * ow, ow, s->own_region_steps, s->nsteps,
                        expected + (size_t)b * W);
        ch07_stream_ref(h_opnd + (size_t)(b / s->n) * (size_t)s->opnd_region_steps * pw, pw, s->opnd_region_steps,
                        s->nsteps, expected + (size_t)b * W + ow);
    }
    void *own, *opnd, *out;
    assert_int_equal(dsm_malloc(&own, own_words * 4 + 16), dsmSuccess);
    assert_int_equal(dsm_malloc(&opnd, opnd_words * 4 + 16), dsmSuccess);
    assert_int_equal(dsm_malloc(&out, (size_t)blocks * W * 4), dsmSuccess);
    if (own_words)
        assert_int_equal(dsm_memcpy_to_device(own, h_own, own_words * 4), dsmSuccess);
    if (opnd_words)
        assert_int_equal(dsm_memcpy_to_device(opnd, h_opnd, opnd_words * 4), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, (size_t)blocks * W * 4), dsmSuccess);
    dsm_kernel_t k = DSM_KERNEL(mcast_operand);
    size_t smem = (size_t)s->stages * W * 4;
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, s->n > 8), dsmSuccess);
    if (smem > 48 * 1024)
        assert_int_equal(dsm_func_set_max_dynamic_smem(k, (int)smem), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->n, 1, 1), smem};
    int a3 = s->own_bytes, a4 = s->opnd_bytes, a5 = s->stages, a6 = s->nsteps, a7 = s->own_region_steps,
        a8 = s->opnd_region_steps, a9 = s->multicast;
    void *args[] = {&own, &opnd, &out, &a3, &a4, &a5, &a6, &a7, &a8, &a9};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("mcast_operand, %s: %s (%s)", what, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(got, out, (size_t)blocks * W * 4), dsmSuccess);
    for (size_t i = 0; i < (size_t)blocks * W; ++i)
        if (got[i] != expected[i]) {
            print_error("mcast_operand, %s: CTA %zu, word %zu (%s) is wrong\n", what, i / W, i % W,
                        i % W < ow ? "its own stream" : "the operand");
            break;
        }
    assert_u32_array_equal(expected, got, (size_t)blocks * W);

    if (test_on_emulator()) {
        uint64_t own_stream = (uint64_t)s->nsteps * (uint64_t)s->own_bytes;
        uint64_t opnd_stream = (uint64_t)s->nsteps * (uint64_t)s->opnd_bytes;
        for (int c = 0; c < s->clusters; ++c) {
            uint64_t opnd_read = 0;
            for (int r = 0; r < s->n; ++r) {
                uint32_t b = (uint32_t)(c * s->n + r);
                dsm_emu_counts cnt;
                dsm_emu_gmem_use uo, up;
                assert_true(dsm_emu_last_counts(b, &cnt));
                assert_true(dsm_emu_last_gmem_use(b, own, &uo));
                assert_true(dsm_emu_last_gmem_use(b, opnd, &up));
                opnd_read += up.ld_bytes;
                if (uo.ld_bytes != own_stream)
                    fail_msg("mcast_operand, %s: CTA %u read %llu bytes of own, its own stream is %llu: each own chunk "
                             "once, by bulk copy, by its CTA", what, b, (unsigned long long)uo.ld_bytes,
                             (unsigned long long)own_stream);
                if (cnt.bulk_g2s_landed_bytes != own_stream + opnd_stream)
                    fail_msg("mcast_operand, %s: CTA %u received %llu bytes by bulk copy, it needs %llu", what, b,
                             (unsigned long long)cnt.bulk_g2s_landed_bytes,
                             (unsigned long long)(own_stream + opnd_stream));
                if (cnt.gmem_ld_bytes != 0)
                    fail_msg("mcast_operand, %s: CTA %u read %llu bytes with plain loads: bulk copies only", what, b,
                             (unsigned long long)cnt.gmem_ld_bytes);
                if (!s->multicast && up.ld_bytes != opnd_stream)
                    fail_msg("mcast_operand, %s: CTA %u read %llu bytes of the operand, not its %llu: without "
                             "multicast every CTA loads the whole operand itself", what, b,
                             (unsigned long long)up.ld_bytes, (unsigned long long)opnd_stream);
            }
            if (s->multicast && opnd_read != opnd_stream)
                fail_msg("mcast_operand, %s: cluster %d read %llu bytes of the operand for a stream of %llu: with "
                         "multicast, each operand byte once per cluster", what, c, (unsigned long long)opnd_read,
                         (unsigned long long)opnd_stream);
        }
    }
    dsm_free(own);
    dsm_free(opnd);
    dsm_free(out);
    free(h_own);
    free(h_opnd);
    free(expected);
    free(got);
}

static void test_mcast_operand_both_modes_in_clusters_of_1_to_16(void **state)
{
    (void)state;
    int sizes[] = {1, 2, 3, 4, 8, 16};
    for (int i = 0; i < 6; ++i)
        for (int m = 0; m < 2; ++m) {
            int n = sizes[i];
            shape s = {n, n <= 4 ? 2 : 1, 96, 16 * (1 + (int)test_random_below(4)), 16 * n * (1 + (int)test_random_below(2)),
                       2, 5 + (int)test_random_below(3), 1 + (int)test_random_below(3), 1 + (int)test_random_below(3), m};
            run_operand(&s);
        }
}

/* Only own data, only the operand, an operand of fewer units than CTAs. */
static void test_mcast_operand_any_mix_of_own_and_shared_bytes(void **state)
{
    (void)state;
    shape a = {4, 1, 96, 64, 0, 2, 5, 2, 1, 1}, b = {4, 1, 96, 0, 128, 3, 7, 1, 3, 1}, c = {4, 2, 96, 32, 32, 2, 6, 2, 2, 1};
    shape d = {2, 1, 96, 0, 64, 2, 5, 1, 2, 0};
    run_operand(&a);
    run_operand(&b);
    run_operand(&c);
    run_operand(&d);
}

static void test_mcast_operand_ring_depths_and_block_sizes(void **state)
{
    (void)state;
    for (int stages = 1; stages <= 8; stages += 3) {
        shape s = {2, 1, 128, 48, 64, stages, 2 * stages + 1 + (int)test_random_below(3), 3, 2, 1};
        run_operand(&s);
    }
    shape big = {2, 1, 160, 1024, 2048, 2, 5, 2, 2, 1}, one = {4, 1, 96, 16, 64, 4, 1, 1, 1, 1};
    run_operand(&big);
    run_operand(&one);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_mcast_operand_both_modes_in_clusters_of_1_to_16),
    cmocka_unit_test(test_mcast_operand_any_mix_of_own_and_shared_bytes),
    cmocka_unit_test(test_mcast_operand_ring_depths_and_block_sizes),
};

DSM_TEST_MAIN(tests)
