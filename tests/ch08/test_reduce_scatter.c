/* test_reduce_scatter.c: ch08.reduce_scatter: every CTA ends with the rank-ordered sums of its share, for any cluster size and vector length, each share pushed to its owner with st.async, one cluster barrier (none after the exchange) and no atomics. */
#include <stdlib.h>
#include <string.h>

#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(reduce_scatter_kernel);

/* The share of rank q (the contract's reduce_scatter_lo). */
static int share_lo(int n, int q, int S) { return (int)((long long)q * n / S); }

/* The contract's reduce_scatter_recv_floats. */
static int recv_floats(int n, int S) { return S * ((n + S - 1) / S); }

/* Runs `clusters` clusters of S CTAs on random partial vectors of n floats and
 * checks every sum bit for bit; on the emulator also the mechanism. */
static void run_reduce_scatter(int S, int clusters, int n, int threads)
{
    size_t blocks = (size_t)S * (size_t)clusters;
    float *parts = malloc(blocks * (size_t)n * 4), *want = malloc((size_t)clusters * (size_t)n * 4);
    float *got = malloc((size_t)clusters * (size_t)n * 4);
    test_fill_random_float(parts, blocks * (size_t)n, -1000.0f, 1000.0f);
    for (int c = 0; c < clusters; ++c)
        for (int i = 0; i < n; ++i) {
            float s = parts[((size_t)c * S) * n + i];
            for (int p = 1; p < S; ++p)
                s += parts[((size_t)c * S + p) * n + i];
            want[(size_t)c * n + i] = s;
        }
    void *dparts, *dout;
    assert_int_equal(dsm_malloc(&dparts, blocks * (size_t)n * 4), dsmSuccess);
    assert_int_equal(dsm_malloc(&dout, (size_t)clusters * (size_t)n * 4), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(dparts, parts, blocks * (size_t)n * 4), dsmSuccess);
    assert_int_equal(dsm_memset(dout, 0xFF, (size_t)clusters * (size_t)n * 4), dsmSuccess);

    dsm_kernel_t k = DSM_KERNEL(reduce_scatter_kernel);
    if (S > 8)
        assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3((unsigned)blocks, 1, 1), DSM_DIM3((unsigned)threads, 1, 1),
                             DSM_DIM3((unsigned)S, 1, 1),
                             (size_t)(n + recv_floats(n, S)) * 4};
    void *args[] = {&dparts, &dout, &n};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess)
        fail_msg("clusters of %d, n %d, %d threads: %s (%s)", S, n, threads, dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(got, dout, (size_t)clusters * (size_t)n * 4), dsmSuccess);
    for (size_t i = 0; i < (size_t)clusters * (size_t)n; ++i)
        if (memcmp(&got[i], &want[i], 4) != 0)
            fail_msg("clusters of %d, n %d, %d threads: cluster %zu, element %zu: got %.9g, want %.9g (the sum in rank "
                     "order 0..%d, bit for bit; seed %u)", S, n, threads, i / (size_t)n, i % (size_t)n, (double)got[i],
                     (double)want[i], S - 1, test_seed());

    if (test_on_emulator()) {
        for (size_t b = 0; b < blocks; ++b) {
            dsm_emu_counts c;
            assert_true(dsm_emu_last_counts((uint32_t)b, &c));
            int q = (int)(b % (size_t)S), mine = share_lo(n, q + 1, S) - share_lo(n, q, S);
            unsigned long long want_bytes = (unsigned long long)(S - 1) * (unsigned long long)mine * 4ull;
            if (c.dsmem_atom_ops != 0 || c.gmem_atom_ops != 0 || c.smem_atom_ops != 0)
                fail_msg("clusters of %d, n %d: rank %d used atomics: the sums must come out the same in every run",
                         S, n, q);
            unsigned long long pushed = (unsigned long long)(n - mine) * 4ull;
            if (c.dsmem_ld_bytes != 0 || c.dsmem_st_bytes != 0 || c.async_out_bytes != pushed
                || c.async_in_bytes != want_bytes)
                fail_msg("clusters of %d, n %d: rank %d loaded %llu bytes from its peers' shared memory, stored %llu "
                         "with plain stores and %llu with st.async, and received %llu: the push sends each peer its "
                         "share of my partials with st.async, %llu bytes in all, loads nothing from a peer, and "
                         "receives its own share (%d floats) from each of the %d peers, %llu bytes", S, n, q,
                         (unsigned long long)c.dsmem_ld_bytes, (unsigned long long)c.dsmem_st_bytes,
                         (unsigned long long)c.async_out_bytes, (unsigned long long)c.async_in_bytes, pushed, mine,
                         S - 1, want_bytes);
            if (c.cluster_waits_max > 1 || (S > 1 && c.cluster_waits_min != 1))
                fail_msg("clusters of %d, n %d: the threads of rank %d waited at %u to %u cluster barriers: exactly one "
                         "(every peer has started before the first push), and none after the exchange: the owner's "
                         "mbarrier says when its share has landed, and nobody reads the pusher's memory", S, n, q,
                         c.cluster_waits_min, c.cluster_waits_max);
        }
    }
    dsm_free(dparts);
    dsm_free(dout);
    free(parts);
    free(want);
    free(got);
}

static void test_reduce_scatter_sums_in_rank_order_for_clusters_of_1_to_16(void **state)
{
    (void)state;
    int sizes[] = {2, 16, 3, 4, 5, 8, 12, 1};   /* 1 last: a missing barrier shows as the emulator's report first */
    for (int i = 0; i < 8; ++i)
        run_reduce_scatter(sizes[i], 1, 17 + (int)test_random_below(200), 32 * (1 + (int)test_random_below(4)));
}

/* n shorter than the cluster (ranks with empty shares), n = 1, n not a
 * multiple of the cluster size, one thread per element and fewer. */
static void test_reduce_scatter_awkward_lengths(void **state)
{
    (void)state;
    run_reduce_scatter(8, 1, 5, 32);
    run_reduce_scatter(16, 1, 1, 32);
    run_reduce_scatter(3, 2, 100, 32);
    run_reduce_scatter(4, 1, 4 * 64 + 3, 64);
    run_reduce_scatter(2, 1, 1000 + (int)test_random_below(24), 96);
}

static void test_reduce_scatter_several_clusters(void **state)
{
    (void)state;
    run_reduce_scatter(4, 3, 64 + (int)test_random_below(64), 64);
    run_reduce_scatter(2, 5, 33, 32);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reduce_scatter_sums_in_rank_order_for_clusters_of_1_to_16),
    cmocka_unit_test(test_reduce_scatter_awkward_lengths),
    cmocka_unit_test(test_reduce_scatter_several_clusters),
};

DSM_TEST_MAIN(tests)
