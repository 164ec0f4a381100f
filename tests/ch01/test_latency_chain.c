/* test_latency_chain.c: ch01.latency_chain follows random single-cycle chains through global memory, its own shared memory and a peer CTA's (DSMEM). */
#include <stdint.h>
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"
#include "support/mechanism.h"
#include "ch01_random.h"

DSM_DECLARE_KERNEL(chase_global);
DSM_DECLARE_KERNEL(chase_shared);

/* Fails the test with CUDA's name for err unless it is dsmSuccess. */
static void expect_success(dsm_error_t err, const char *what)
{
    if (err != dsmSuccess)
        fail_msg("%s failed: %s (%s), repeat with DSM_SEED=%u", what, dsm_error_name(err),
                 dsm_error_string(err), (unsigned)test_seed());
}

/* Runs chase_global on the device copy of next (words) with one thread;
 * returns the index it reached. */
static uint32_t run_chase_global(const uint32_t *next, size_t words, uint32_t start, uint32_t steps)
{
    uint32_t *d_next, *d_last, last;
    unsigned long long *d_cycles;
    expect_success(dsm_malloc((void **)&d_next, words * sizeof *d_next), "dsm_malloc");
    expect_success(dsm_malloc((void **)&d_last, sizeof *d_last), "dsm_malloc");
    expect_success(dsm_malloc((void **)&d_cycles, sizeof *d_cycles), "dsm_malloc");
    expect_success(dsm_memcpy_to_device(d_next, next, words * sizeof *d_next), "dsm_memcpy_to_device");
    expect_success(dsm_memset(d_last, 0xff, sizeof *d_last), "dsm_memset");

    dsm_launch_config cfg = {DSM_DIM3(1, 1, 1), DSM_DIM3(1, 1, 1), DSM_DIM3(1, 1, 1), 0};
    const uint32_t *next_arg = d_next;
    void *args[] = {&next_arg, &start, &steps, &d_last, &d_cycles};
    expect_success(dsm_launch_sync(&cfg, DSM_KERNEL(chase_global), args), "launch of chase_global");
    if (test_on_emulator()) {
        /* The probe's lesson: one 4-byte load per link, each waiting for the one before. */
        dsm_emu_gmem_use u = mech_gmem(0, d_next);
        if (u.ld_bytes != (uint64_t)steps * 4)
            MECH_FAIL("chase_global read %" PRIu64 " bytes of the chain for %u steps: the walk must load "
                      "every link, 4 bytes each, exactly once (%u bytes)", u.ld_bytes, steps, steps * 4);
    }
    expect_success(dsm_memcpy_to_host(&last, d_last, sizeof last), "dsm_memcpy_to_host");

    dsm_free(d_next);
    dsm_free(d_last);
    dsm_free(d_cycles);
    return last;
}

/* What chase_shared must have done, from the emulator's counters: every CTA
 * read its own chain from global memory, once (and no other CTA's), and its
 * walk made one 4-byte load per step from shared memory: from a peer's
 * (DSMEM) when remote, from its own otherwise. */
static void check_chase_mechanism(const uint32_t *d_next, uint32_t n, uint32_t ctas, uint32_t cluster,
                                  uint32_t steps, uint32_t remote)
{
    for (uint32_t b = 0; b < ctas; ++b) {
        size_t chain = (size_t)b * n * sizeof(uint32_t);
        mech_reads_only(b, d_next, "the chains (next)", chain, chain + (size_t)n * sizeof(uint32_t));
        dsm_emu_counts c = mech_counts(b);
        dsm_emu_gmem_use u = mech_gmem(b, d_next);
        if (u.ld_bytes > (uint64_t)n * sizeof(uint32_t))
            MECH_FAIL("CTA %u read %" PRIu64 " bytes of its %u-word chain from global memory: copy it to shared "
                      "memory once, and walk the copy", b, u.ld_bytes, n);
        if (remote && c.dsmem_ld_ops != steps)
            MECH_FAIL("CTA %u (rank %u of a cluster of %u) made %" PRIu64 " loads from a peer's shared memory "
                      "for a walk of %u steps: every step must be one load from the next CTA's copy (DSMEM)",
                      b, b % cluster, cluster, c.dsmem_ld_ops, steps);
        if (!remote && (c.dsmem_ld_ops != 0 || c.smem_ld_ops < steps))
            MECH_FAIL("CTA %u walking its own copy made %" PRIu64 " loads from its shared memory and %" PRIu64
                      " from peers' for %u steps: every step must be one load from its own copy",
                      b, c.smem_ld_ops, c.dsmem_ld_ops, steps);
    }
}

/* Launches chase_shared on `ctas` chains of n words (chains[b * n ...] for
 * CTA b) in clusters of `cluster`; writes each CTA's end index to last[b]. */
static dsm_error_t run_chase_shared(const uint32_t *chains, uint32_t n, uint32_t ctas, uint32_t cluster,
                                    uint32_t threads, uint32_t start, uint32_t steps, uint32_t remote,
                                    uint32_t *last)
{
    size_t words = (size_t)ctas * n;
    uint32_t *d_next, *d_last;
    unsigned long long *d_cycles;
    expect_success(dsm_malloc((void **)&d_next, words * sizeof *d_next), "dsm_malloc");
    expect_success(dsm_malloc((void **)&d_last, ctas * sizeof *d_last), "dsm_malloc");
    expect_success(dsm_malloc((void **)&d_cycles, ctas * sizeof *d_cycles), "dsm_malloc");
    expect_success(dsm_memcpy_to_device(d_next, chains, words * sizeof *d_next), "dsm_memcpy_to_device");
    expect_success(dsm_memset(d_last, 0xff, ctas * sizeof *d_last), "dsm_memset");

    dsm_launch_config cfg = {DSM_DIM3(ctas, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(cluster, 1, 1),
                             (size_t)n * sizeof(uint32_t)};
    const uint32_t *next_arg = d_next;
    void *args[] = {&next_arg, &n, &start, &steps, &remote, &d_last, &d_cycles};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(chase_shared), args);
    if (err == dsmSuccess && test_on_emulator())
        check_chase_mechanism(d_next, n, ctas, cluster, steps, remote);
    if (err == dsmSuccess)
        expect_success(dsm_memcpy_to_host(last, d_last, ctas * sizeof *last), "dsm_memcpy_to_host");

    dsm_free(d_next);
    dsm_free(d_last);
    dsm_free(d_cycles);
    return err;
}

/* Fills chains with `ctas` independent random single cycles of n elements. */
static uint32_t *random_chains(uint32_t n, uint32_t ctas)
{
    uint32_t *chains = malloc((size_t)n * ctas * sizeof *chains);
    assert_non_null(chains);
    for (uint32_t b = 0; b < ctas; ++b)
        ch01_single_cycle(chains + (size_t)b * n, n);
    return chains;
}

static void test_latency_chain_global_returns_to_start_after_exactly_n_steps(void **state)
{
    (void)state;
    uint32_t n = ch01_range(16, 2048);
    uint32_t *perm = malloc(n * sizeof *perm);
    assert_non_null(perm);
    ch01_single_cycle(perm, n);
    uint32_t start = ch01_range(0, n - 1);

    CH01_EXPECT_U64(run_chase_global(perm, n, start, n), start,
                    "after n = %u steps from %u the chain must be back at its start", n, start);
    uint32_t k = ch01_range(1, n - 1);
    uint32_t at_k = run_chase_global(perm, n, start, k);
    if (at_k == start) {
        print_error("after %u of %u steps the chain is already back at %u: some element was skipped "
                    "(repeat with DSM_SEED=%u)\n", k, n, start, (unsigned)test_seed());
        fail();
    }
    free(perm);
}

static void test_latency_chain_global_matches_the_cpu_reference_after_random_steps(void **state)
{
    (void)state;
    uint32_t n = ch01_range(16, 4096);
    uint32_t *perm = malloc(n * sizeof *perm);
    assert_non_null(perm);
    ch01_single_cycle(perm, n);
    for (int trial = 0; trial < 3; ++trial) {
        uint32_t start = ch01_range(0, n - 1);
        uint32_t k = ch01_range(1, 3 * n);
        CH01_EXPECT_U64(run_chase_global(perm, n, start, k), ch01_follow(perm, start, k),
                        "index after %u steps from %u (n = %u)", k, start, n);
    }
    free(perm);
}

/* The benchmark's layout: one element per 128-byte line, indices in words. */
static void test_latency_chain_global_follows_a_cache_line_strided_chain(void **state)
{
    (void)state;
    const uint32_t stride = 128 / sizeof(uint32_t);
    uint32_t lines = ch01_range(16, 1024);
    uint32_t *perm = malloc(lines * sizeof *perm);
    uint32_t *next = malloc((size_t)lines * stride * sizeof *next);
    assert_non_null(perm);
    assert_non_null(next);
    ch01_single_cycle(perm, lines);
    for (uint32_t w = 0; w < lines * stride; ++w) /* decoys: valid indices of the wrong path */
        next[w] = ch01_range(0, lines - 1) * stride;
    for (uint32_t i = 0; i < lines; ++i)
        next[i * stride] = perm[i] * stride;

    uint32_t start = ch01_range(0, lines - 1);
    uint32_t k = ch01_range(1, 2 * lines);
    CH01_EXPECT_U64(run_chase_global(next, (size_t)lines * stride, start * stride, k),
                    ch01_follow(perm, start, k) * stride,
                    "word index after %u steps over %u cache lines", k, lines);
    free(perm);
    free(next);
}

static void test_latency_chain_local_shared_matches_the_cpu_reference(void **state)
{
    (void)state;
    uint32_t n = ch01_range(64, 4096);
    uint32_t cluster = ch01_range(1, 8);  /* any portable cluster size */
    uint32_t ctas = cluster * ch01_range(1, 3);
    uint32_t threads = ch01_range(1, 256);
    uint32_t start = ch01_range(0, n - 1);
    uint32_t steps = ch01_range(1, 3 * n);
    uint32_t *chains = random_chains(n, ctas);
    uint32_t *last = malloc(ctas * sizeof *last);
    assert_non_null(last);

    expect_success(run_chase_shared(chains, n, ctas, cluster, threads, start, steps, 0, last),
                   "launch of chase_shared (remote = 0)");
    for (uint32_t b = 0; b < ctas; ++b)
        CH01_EXPECT_U64(last[b], ch01_follow(chains + (size_t)b * n, start, steps),
                        "CTA %u chasing its own chain: index after %u steps (n = %u)", b, steps, n);
    free(chains);
    free(last);
}

static void test_latency_chain_dsmem_follows_the_next_ctas_chain(void **state)
{
    (void)state;
    uint32_t n = ch01_range(64, 4096);
    uint32_t cluster = ch01_range(2, 8);  /* any portable cluster with a peer */
    uint32_t ctas = cluster * ch01_range(1, 3);
    uint32_t threads = ch01_range(1, 256);
    uint32_t start = ch01_range(0, n - 1);
    uint32_t steps = ch01_range(1, 3 * n);
    uint32_t *chains = random_chains(n, ctas);
    uint32_t *last = malloc(ctas * sizeof *last);
    assert_non_null(last);

    expect_success(run_chase_shared(chains, n, ctas, cluster, threads, start, steps, 1, last),
                   "launch of chase_shared (remote = 1)");
    for (uint32_t b = 0; b < ctas; ++b) {
        uint32_t rank = b % cluster;
        uint32_t peer = b - rank + (rank + 1) % cluster;
        CH01_EXPECT_U64(last[b], ch01_follow(chains + (size_t)peer * n, start, steps),
                        "CTA %u (rank %u of %u) must chase the copy of CTA %u: index after %u steps",
                        b, rank, cluster, peer, steps);
    }
    free(chains);
    free(last);
}

static void test_latency_chain_dsmem_keeps_every_cta_alive_until_its_peers_are_done(void **state)
{
    (void)state;
    uint32_t n = ch01_range(256, 1024);
    uint32_t cluster = 4, ctas = 8;
    uint32_t *chains = random_chains(n, ctas);
    uint32_t last[8];
    /* A long chase on one side, so that an early exit on the other side shows. */
    dsm_error_t err = run_chase_shared(chains, n, ctas, cluster, 32, 0, 4 * n, 1, last);
    dsm_report_kind kind = test_on_emulator() ? dsm_emu_last_report()->kind : DSM_REPORT_NONE;
    if (err != dsmSuccess || kind != DSM_REPORT_NONE)
        fail_msg("chase_shared with remote = 1 failed: %s, emulator report: %s (repeat with DSM_SEED=%u)",
                 dsm_error_name(err), dsm_report_kind_name(kind), (unsigned)test_seed());
    for (uint32_t b = 0; b < ctas; ++b) {
        uint32_t peer = b - b % cluster + (b % cluster + 1) % cluster;
        CH01_EXPECT_U64(last[b], ch01_follow(chains + (size_t)peer * n, 0, 4 * n),
                        "CTA %u after a full-length chase", b);
    }
    free(chains);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_latency_chain_global_returns_to_start_after_exactly_n_steps),
    cmocka_unit_test(test_latency_chain_global_matches_the_cpu_reference_after_random_steps),
    cmocka_unit_test(test_latency_chain_global_follows_a_cache_line_strided_chain),
    cmocka_unit_test(test_latency_chain_local_shared_matches_the_cpu_reference),
    cmocka_unit_test(test_latency_chain_dsmem_follows_the_next_ctas_chain),
    cmocka_unit_test(test_latency_chain_dsmem_keeps_every_cta_alive_until_its_peers_are_done),
};

DSM_TEST_MAIN(tests)
