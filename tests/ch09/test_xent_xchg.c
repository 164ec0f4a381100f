/* test_xent_xchg.c: ch09.xent_xchg: round after round, every thread of every CTA of a cluster of 1 to 16 gets the rank-ordered fold of the cluster's partials, having moved 8 bytes to or from each peer per round through DSMEM and nothing else, with at most one cluster barrier per round plus two. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "xent_stat.h"

DSM_DECLARE_KERNEL(xent_xchg_kernel);

static void run_xchg(int C, int clusters, int rounds, int T)
{
    size_t blocks = (size_t)C * (size_t)clusters, np = blocks * (size_t)rounds, no = np * (size_t)T;
    xent_stat *parts = malloc(np * 8), *got = malloc(no * 8), *all = malloc((size_t)C * 8);
    for (size_t i = 0; i < np; ++i) {
        parts[i].m = test_random_below(7) == 0 ? -INFINITY : test_random_float(-300.0f, 300.0f);
        parts[i].s = parts[i].m == -INFINITY ? 0.0f : test_random_float(1.0f, 4000.0f);
    }
    void *dp, *dout;
    assert_int_equal(dsm_malloc(&dp, np * 8), dsmSuccess);
    assert_int_equal(dsm_malloc(&dout, no * 8), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(dp, parts, np * 8), dsmSuccess);
    assert_int_equal(dsm_memset(dout, 0xFF, no * 8), dsmSuccess);
    dsm_kernel_t k = DSM_KERNEL(xent_xchg_kernel);
    if (C > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3((unsigned)blocks, 1, 1), DSM_DIM3((unsigned)T, 1, 1),
                             DSM_DIM3((unsigned)C, 1, 1), 0};
    void *args[] = {&dp, &dout, &rounds};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("clusters of %d, %d rounds, %d threads: %s (%s)", C, rounds, T, dsm_error_name(err),
                 dsm_error_string(err));
    if (test_on_emulator() && dsm_emu_last_report()->kind != DSM_REPORT_NONE)
        fail_msg("clusters of %d, %d rounds: the emulator reported %s (above)", C, rounds,
                 dsm_report_kind_name(dsm_emu_last_report()->kind));
    assert_int_equal(dsm_memcpy_to_host(got, dout, no * 8), dsmSuccess);
    for (int c = 0; c < clusters; ++c)
        for (int r = 0; r < rounds; ++r) {
            for (int q = 0; q < C; ++q)
                all[q] = parts[((size_t)c * C + q) * rounds + r];
            xent_stat want = xent_stat_fold(all, C);
            const xent_stat *first = &got[(((size_t)c * C) * rounds + r) * T];
            for (int q = 0; q < C; ++q)
                for (int t = 0; t < T; ++t) {
                    const xent_stat *g = &got[(((size_t)c * C + q) * rounds + r) * T + t];
                    int exact = test_on_emulator();     /* the GPU's exp2f and FMAs are not the host's */
                    int ok = exact ? memcmp(g, &want, 8) == 0
                                   : (g->m == want.m && fabs((double)g->s - want.s) <= 1e-5 * fabs((double)want.s));
                    if (!ok || memcmp(g, first, 8) != 0)
                        fail_msg("clusters of %d, round %d of %d: rank %d, thread %d got {%.9g, %.9g}; rank 0 "
                                 "thread 0 got {%.9g, %.9g}; want {%.9g, %.9g}, the fold of ranks 0..%d in rank order "
                                 "(xent_stat_fold), the same bits in every thread (seed %u)", C, r, rounds, q, t,
                                 (double)g->m, (double)g->s, (double)first->m, (double)first->s, (double)want.m,
                                 (double)want.s, C - 1, test_seed());
                }
        }
    if (test_on_emulator())
        for (size_t b = 0; b < blocks; ++b) {
            dsm_emu_counts n;
            dsm_emu_gmem_use u;
            assert_true(dsm_emu_last_counts((uint32_t)b, &n));
            assert_true(dsm_emu_last_gmem_use((uint32_t)b, dout, &u));
            unsigned long long moved = n.dsmem_ld_bytes + n.dsmem_st_bytes + n.async_out_bytes;
            unsigned long long budget = 8ull * (unsigned long long)(C - 1) * (unsigned long long)rounds;
            int q = (int)(b % (size_t)C);
            if (moved > budget || (C > 1 && moved < budget))
                fail_msg("clusters of %d, %d rounds: rank %d moved %llu bytes through DSMEM; one statistic (8 bytes) "
                         "to or from each of %d peers per round is %llu", C, rounds, q, moved, C - 1, budget);
            if (n.dsmem_atom_ops || n.gmem_atom_ops || n.smem_atom_ops)
                fail_msg("clusters of %d: rank %d used atomics: the exchange needs none", C, q);
            if (n.gmem_st_bytes != u.st_bytes || n.gmem_ld_bytes > (unsigned long long)rounds * T * 8ull)
                fail_msg("clusters of %d: rank %d used global memory (%llu bytes stored besides its results, %llu "
                         "loaded): the partials cross through DSMEM only", C, q,
                         (unsigned long long)(n.gmem_st_bytes - u.st_bytes), (unsigned long long)n.gmem_ld_bytes);
            if (n.cluster_waits_max > (uint32_t)rounds + 2u)
                fail_msg("clusters of %d, %d rounds: a thread of rank %d waited at %u cluster barriers; the budget is "
                         "one per round plus two (%d)", C, rounds, q, n.cluster_waits_max, rounds + 2);
        }
    dsm_free(dp);
    dsm_free(dout);
    free(parts);
    free(got);
    free(all);
}

static void test_xchg_folds_in_rank_order_for_clusters_of_1_to_16(void **state)
{
    (void)state;
    static const int Cs[] = {2, 16, 3, 4, 8, 5, 1};
    for (int i = 0; i < 7; ++i)
        run_xchg(Cs[i], 1, 3, 32 * (1 + (int)test_random_below(2)));
}

static void test_xchg_many_rounds_reuse_the_slots(void **state)
{
    (void)state;
    run_xchg(4, 2, 7, 32);     /* an odd count: the last round uses the first slots again */
    run_xchg(2, 1, 12, 64);
    run_xchg(8, 1, 5, 32);
}

static void test_xchg_one_round_and_several_clusters(void **state)
{
    (void)state;
    run_xchg(4, 3, 1, 96);
    run_xchg(16, 1, 1, 32);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_xchg_folds_in_rank_order_for_clusters_of_1_to_16),
    cmocka_unit_test(test_xchg_many_rounds_reuse_the_slots),
    cmocka_unit_test(test_xchg_one_round_and_several_clusters),
};

DSM_TEST_MAIN(tests)
