/* test_pingpong_seed.c: ch05.pingpong_seed: the deep dive's ping-pong (a cluster barrier per hop) delivers every token in order, through DSMEM and through global memory. */
#include "pingpong_check.h"
#include "pingpong_probe.h"

DSM_DECLARE_KERNEL(pp_seed_dsmem);
DSM_DECLARE_KERNEL(pp_seed_global);

static void test_pingpong_seed_dsmem_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_seed_global_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_seed_global", DSM_KERNEL(pp_seed_global), 1);
    pp_run_all_schedules(&l);
}

/* The benchmark times with trace = NULL and checks last[] only. */
static void test_pingpong_seed_both_paths_run_without_a_trace(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0);
    l.with_trace = 0;
    pp_run_and_check(&l);
    pp_launch g = pp_random_launch("pp_seed_global", DSM_KERNEL(pp_seed_global), 1);
    g.with_trace = 0;
    pp_run_and_check(&g);
}

/* With one thread per CTA, and with several warps whose other threads only
 * take part in the barriers. */
static void test_pingpong_seed_works_with_one_thread_and_with_many(void **state)
{
    (void)state;
    uint32_t threads[] = {1, 33 + test_random_below(200)};
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {"pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0, 2, threads[k], 2 + test_random_below(3), 1, 0};
        pp_run_and_check(&l);
        pp_launch g = {"pp_seed_global", DSM_KERNEL(pp_seed_global), 1, 2, threads[k], 2 + test_random_below(3), 1, 0};
        pp_run_and_check(&g);
    }
}

/* As published: every hop is one cluster barrier (the seed's cluster.sync()),
 * on both paths, so that the two differ only in where the token travels. */
static void test_pingpong_seed_uses_a_cluster_barrier_on_every_hop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    const char *names[] = {"pp_seed_dsmem", "pp_seed_global"};
    dsm_kernel_t kernels[] = {DSM_KERNEL(pp_seed_dsmem), DSM_KERNEL(pp_seed_global)};
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {names[k], kernels[k], k, 1, 32, 2 + test_random_below(5), 1, 0};
        uint32_t phases = pp_run_and_check(&l).cluster_barrier_phases;
        if (phases < 2u * l.rounds || phases > 2u * l.rounds + 3u)
            fail_msg("%s: %u cluster-barrier phases for %u round trips (%u hops): the deep dive's kernel meets "
                     "at one cluster barrier per hop (and at most a few outside the loop)",
                     names[k], phases, l.rounds, 2 * l.rounds);
    }
}

/* A launch for the mechanism checks: random shape, at least two threads per CTA (so that a
 * barrier only thread 0 reaches shows), under the default schedules. */
static pp_outcome run_counted(pp_launch *l)
{
    l->threads = 2u + test_random_below(95);
    return pp_run_and_check(l);
}

/* The DSMEM path moves the token: each CTA stores one token per round trip into the peer's shared
 * memory, reads its own mailbox once per receipt, and touches no global slot. A kernel that computes
 * the tokens (first[c] + hop) delivers the right values without a single hop. */
static void test_pingpong_seed_dsmem_every_hop_is_a_remote_store_and_a_local_load(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0);
    pp_outcome o = run_counted(&l);
    for (uint32_t b = 0; b < o.ctas; ++b) {
        const dsm_emu_counts *c = &o.cta[b];
        if (c->dsmem_st_ops < l.rounds || c->smem_ld_ops < l.rounds)
            fail_msg("pp_seed_dsmem: CTA %u made %llu stores into its peer's shared memory and %llu loads of its "
                     "own in %u round trips: every token is stored into the receiver's mailbox by the sender "
                     "and read from it by the receiver (at least %u of each); repeat with DSM_SEED=%u",
                     b, (unsigned long long)c->dsmem_st_ops, (unsigned long long)c->smem_ld_ops, l.rounds,
                     l.rounds, (unsigned)test_seed());
        if (o.slots[b].st_bytes || o.slots[b].ld_bytes)
            fail_msg("pp_seed_dsmem: CTA %u used the global slots (%llu bytes read, %llu written): the DSMEM path "
                     "passes the token through shared memory only", b, (unsigned long long)o.slots[b].ld_bytes,
                     (unsigned long long)o.slots[b].st_bytes);
    }
}

/* The global path as published: per token one store into the receiver's slot, a __threadfence after
 * it, and a load of the receiver's own slot; no DSMEM. */
static void test_pingpong_seed_global_every_hop_is_a_store_a_fence_and_a_load_of_the_slots(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_seed_global", DSM_KERNEL(pp_seed_global), 1);
    pp_outcome o = run_counted(&l);
    pp_expect_no_dsmem(&l, &o);
    for (uint32_t b = 0; b < o.ctas; ++b) {
        const dsm_emu_gmem_use *u = &o.slots[b];
        size_t mine = 4u * b, peer = 4u * (b ^ 1u);
        if (u->st_bytes < 4ull * l.rounds || u->st_lo != peer || u->st_hi != peer + 4u)
            fail_msg("pp_seed_global: CTA %u wrote %llu bytes of the slots, bytes [%zu, %zu), in %u round trips: "
                     "the sender stores every token into the receiver's slot, slots[%u] (bytes [%zu, %zu)); "
                     "repeat with DSM_SEED=%u",
                     b, (unsigned long long)u->st_bytes, u->st_lo, u->st_hi, l.rounds, b ^ 1u, peer, peer + 4u,
                     (unsigned)test_seed());
        if (u->ld_bytes < 4ull * l.rounds || u->ld_lo != mine || u->ld_hi != mine + 4u)
            fail_msg("pp_seed_global: CTA %u read %llu bytes of the slots, bytes [%zu, %zu), in %u round trips: "
                     "the receiver loads every token from its own slot, slots[%u]; repeat with DSM_SEED=%u",
                     b, (unsigned long long)u->ld_bytes, u->ld_lo, u->ld_hi, l.rounds, b, (unsigned)test_seed());
        if (o.cta[b].fences < l.rounds)
            fail_msg("pp_seed_global: CTA %u sent %u tokens and fenced %u times: the deep dive's kernel makes "
                     "every store visible with __threadfence() before the barrier; repeat with DSM_SEED=%u",
                     b, l.rounds, o.cta[b].fences, (unsigned)test_seed());
    }
}

/* cluster.sync() is for every thread of the cluster: threads that leave early make a barrier that
 * waits for nobody, and the benchmark would time something else than the deep dive's kernel. */
static void test_pingpong_seed_every_thread_meets_at_every_hop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch d = pp_random_launch("pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0);
    pp_outcome o = run_counted(&d);
    pp_expect_every_thread_waits(&d, &o, 2u * d.rounds);
    pp_launch g = pp_random_launch("pp_seed_global", DSM_KERNEL(pp_seed_global), 1);
    o = run_counted(&g);
    pp_expect_every_thread_waits(&g, &o, 2u * g.rounds);
}

/* Tokens 0, 0xFFFFFFFF (the next one wraps to 0) and 0x7FFFFFFF on both paths. */
static void test_pingpong_seed_both_paths_deliver_the_edge_tokens(void **state)
{
    (void)state;
    pp_launch d = {"pp_seed_dsmem", DSM_KERNEL(pp_seed_dsmem), 0, 1, 1 + test_random_below(64), 3, 1, 0};
    pp_expect_edge_tokens(d);
    pp_launch g = {"pp_seed_global", DSM_KERNEL(pp_seed_global), 1, 1, 1 + test_random_below(64), 3, 1, 0};
    pp_expect_edge_tokens(g);
}

/* The receiver forwards the token it READ, plus 1: the test adds a number to every token on its
 * way (the DSMEM path's st.shared::cluster, the global path's slot at the sender's fence), so
 * a receiver that computes its token from first[] and the hop sends the wrong one. One schedule,
 * so that the k-th fence of a CTA is its k-th send. */
static void test_pingpong_seed_receivers_forward_the_token_they_read(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    const char *names[] = {"pp_seed_dsmem", "pp_seed_global"};
    dsm_kernel_t kernels[] = {DSM_KERNEL(pp_seed_dsmem), DSM_KERNEL(pp_seed_global)};
    assert_int_equal(dsm_emu_set_schedules("asc"), dsmSuccess);
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {names[k], kernels[k], k, 1, 1 + test_random_below(64), 2 + test_random_below(4), 1, 0};
        pp_expect_forwarded_tokens(l);
    }
    dsm_emu_set_schedules(NULL);
}

/* The deep dive's order on the global path: the store, THEN the fence, then the barrier. A fence
 * before the store orders nothing the barrier needs: at each fence the peer's slot must already
 * hold the token of this hop. */
static void test_pingpong_seed_global_fences_after_the_store(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    assert_int_equal(dsm_emu_set_schedules("asc"), dsmSuccess);
    pp_launch l = {"pp_seed_global", DSM_KERNEL(pp_seed_global), 1, 1, 1 + test_random_below(64),
                   2 + test_random_below(4), 1, 0};
    pp_tokens x = {1, test_random_below(0x40000000u), 0, NULL};
    probe_reset(0);
    pp_run_and_check_ex(&l, &x);
    dsm_emu_set_schedules(NULL);
    for (uint32_t b = 0; b < PROBE_CTAS; ++b) {
        for (int i = 0; i < probe_fences[b]; ++i) {
            uint32_t hop = 2u * (uint32_t)i + b, want = pp_token(x.first_token, hop, 0);
            if (i < (int)l.rounds && probe_seen[b][i] != want)
                fail_msg("pp_seed_global: at its fence of hop %u, CTA %u had not stored the token yet (the peer's "
                         "slot held %u, the token is %u): the deep dive stores, then fences, then meets at the "
                         "barrier; repeat with DSM_SEED=%u",
                         hop, b, probe_seen[b][i], want, (unsigned)test_seed());
        }
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pingpong_seed_dsmem_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_seed_global_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_seed_both_paths_run_without_a_trace),
    cmocka_unit_test(test_pingpong_seed_works_with_one_thread_and_with_many),
    cmocka_unit_test(test_pingpong_seed_uses_a_cluster_barrier_on_every_hop),
    cmocka_unit_test(test_pingpong_seed_dsmem_every_hop_is_a_remote_store_and_a_local_load),
    cmocka_unit_test(test_pingpong_seed_global_every_hop_is_a_store_a_fence_and_a_load_of_the_slots),
    cmocka_unit_test(test_pingpong_seed_every_thread_meets_at_every_hop),
    cmocka_unit_test(test_pingpong_seed_both_paths_deliver_the_edge_tokens),
    cmocka_unit_test(test_pingpong_seed_receivers_forward_the_token_they_read),
    cmocka_unit_test(test_pingpong_seed_global_fences_after_the_store),
};

DSM_TEST_MAIN(tests)
