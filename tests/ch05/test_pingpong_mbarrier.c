/* test_pingpong_mbarrier.c: ch05.pingpong_mbarrier: the ping-pong signalled on the receiver's mbarrier (remote arrive, st.async) delivers every token in order, one mbarrier phase per receipt and no cluster barrier per hop. */
#include "pingpong_check.h"
#include "pingpong_probe.h"

DSM_DECLARE_KERNEL(pp_mbar_arrive);
DSM_DECLARE_KERNEL(pp_mbar_st_async);

static void test_pingpong_mbarrier_remote_arrive_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_mbarrier_st_async_delivers_every_token_in_order(void **state)
{
    (void)state;
    pp_launch l = pp_random_launch("pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0);
    pp_run_all_schedules(&l);
}

static void test_pingpong_mbarrier_both_run_without_a_trace_and_with_one_thread(void **state)
{
    (void)state;
    pp_launch a = {"pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0, 2, 1, 1 + test_random_below(6), 0, 0};
    pp_run_and_check(&a);
    pp_launch s = {"pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0, 2, 1, 1 + test_random_below(6), 0, 0};
    pp_run_and_check(&s);
}

/* Tokens 0, 0xFFFFFFFF (wraps to 0) and 0x7FFFFFFF: the mailbox's initial contents must never pass
 * for a token. */
static void test_pingpong_mbarrier_both_deliver_the_edge_tokens(void **state)
{
    (void)state;
    pp_launch a = {"pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0, 1, 1 + test_random_below(64), 3, 1, 0};
    pp_expect_edge_tokens(a);
    pp_launch s = {"pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0, 1, 1 + test_random_below(64), 3, 1, 0};
    pp_expect_edge_tokens(s);
}

/* The receiver forwards the token it READ, plus 1: the test adds a number to every token on its
 * way (the remote store, or the st.async), so a receiver that computes its token from first[] and
 * the hop sends the wrong one. */
static void test_pingpong_mbarrier_receivers_forward_the_token_they_read(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch a = {"pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0, 1, 1 + test_random_below(64),
                   2 + test_random_below(4), 1, 0};
    pp_expect_forwarded_tokens(a);
    pp_launch s = {"pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0, 1, 1 + test_random_below(64),
                   2 + test_random_below(4), 1, 0};
    pp_expect_forwarded_tokens(s);
}

/* Each receipt is one completed phase of the receiver's mbarrier: 2 per round
 * trip in each cluster, so the parity a receiver waits on alternates. */
static void test_pingpong_mbarrier_completes_one_mbarrier_phase_per_receipt(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    const char *names[] = {"pp_mbar_arrive", "pp_mbar_st_async"};
    dsm_kernel_t kernels[] = {DSM_KERNEL(pp_mbar_arrive), DSM_KERNEL(pp_mbar_st_async)};
    for (int k = 0; k < 2; ++k) {
        pp_launch l = {names[k], kernels[k], 0, 1 + test_random_below(2), 32, 2 + test_random_below(5), 1, 0};
        uint32_t phases = pp_run_and_check(&l).mbarrier_phases;
        if (phases != 2u * l.rounds)
            fail_msg("%s: a cluster completed %u mbarrier phases for %u round trips; every receipt completes "
                     "exactly one phase of the receiver's mbarrier (%u per cluster)",
                     names[k], phases, l.rounds, 2u * l.rounds);
    }
}

/* The point of the exercise: one hop costs one DSMEM trip, not a cluster-wide barrier. */
static void test_pingpong_mbarrier_uses_no_cluster_barrier_inside_the_hop_loop(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch a = {"pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0, 1, 32, 2, 1, 0};
    pp_expect_no_cluster_barrier_per_hop(a);
    pp_launch s = {"pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0, 1, 32, 2, 1, 0};
    pp_expect_no_cluster_barrier_per_hop(s);
}

/* Remote arrive: per token one store into the peer's shared memory and one remote arrive on the
 * peer's mbarrier; no st.async. Each CTA's own mbarrier completes one phase per receipt. */
static void test_pingpong_mbarrier_remote_arrive_sends_a_store_and_an_arrive_per_token(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_mbar_arrive", DSM_KERNEL(pp_mbar_arrive), 0);
    pp_outcome o = pp_run_and_check(&l);
    for (uint32_t b = 0; b < o.ctas; ++b) {
        const dsm_emu_counts *c = &o.cta[b];
        if (c->dsmem_st_ops < l.rounds || c->mbarrier_remote_arrives != l.rounds || c->async_out_bytes)
            fail_msg("pp_mbar_arrive: CTA %u sent %u tokens with %llu stores into the peer's shared memory, %u "
                     "remote arrives and %llu st.async bytes: every token is a remote store followed by one "
                     "remote arrive on the peer's full mbarrier; repeat with DSM_SEED=%u",
                     b, l.rounds, (unsigned long long)c->dsmem_st_ops, c->mbarrier_remote_arrives,
                     (unsigned long long)c->async_out_bytes, (unsigned)test_seed());
        if (c->mbarrier_phases != l.rounds)
            fail_msg("pp_mbar_arrive: the mbarriers of CTA %u completed %u phases for its %u receipts: one phase "
                     "of its full mbarrier per receipt; repeat with DSM_SEED=%u",
                     b, c->mbarrier_phases, l.rounds, (unsigned)test_seed());
    }
}

/* st.async: per token one 4-byte st.async into the peer, and nothing else crosses (no separate
 * store of the token, no remote arrive). */
static void test_pingpong_mbarrier_st_async_carries_each_token_in_one_st_async(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    pp_launch l = pp_random_launch("pp_mbar_st_async", DSM_KERNEL(pp_mbar_st_async), 0);
    pp_outcome o = pp_run_and_check(&l);
    for (uint32_t b = 0; b < o.ctas; ++b) {
        const dsm_emu_counts *c = &o.cta[b];
        if (c->async_out_bytes != 4ull * l.rounds || c->async_in_bytes != 4ull * l.rounds || c->dsmem_st_ops ||
            c->mbarrier_remote_arrives)
            fail_msg("pp_mbar_st_async: CTA %u sent %u tokens with %llu st.async bytes (and received %llu), %llu "
                     "other stores into the peer's shared memory and %u remote arrives: each token is one 4-byte "
                     "st.async that completes on the peer's mbarrier, nothing else; repeat with DSM_SEED=%u",
                     b, l.rounds, (unsigned long long)c->async_out_bytes, (unsigned long long)c->async_in_bytes,
                     (unsigned long long)c->dsmem_st_ops, c->mbarrier_remote_arrives, (unsigned)test_seed());
        if (c->mbarrier_phases != l.rounds)
            fail_msg("pp_mbar_st_async: the mbarriers of CTA %u completed %u phases for its %u receipts: one "
                     "phase of its full mbarrier per receipt; repeat with DSM_SEED=%u",
                     b, c->mbarrier_phases, l.rounds, (unsigned)test_seed());
    }
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_pingpong_mbarrier_remote_arrive_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_mbarrier_st_async_delivers_every_token_in_order),
    cmocka_unit_test(test_pingpong_mbarrier_both_run_without_a_trace_and_with_one_thread),
    cmocka_unit_test(test_pingpong_mbarrier_both_deliver_the_edge_tokens),
    cmocka_unit_test(test_pingpong_mbarrier_receivers_forward_the_token_they_read),
    cmocka_unit_test(test_pingpong_mbarrier_completes_one_mbarrier_phase_per_receipt),
    cmocka_unit_test(test_pingpong_mbarrier_uses_no_cluster_barrier_inside_the_hop_loop),
    cmocka_unit_test(test_pingpong_mbarrier_remote_arrive_sends_a_store_and_an_arrive_per_token),
    cmocka_unit_test(test_pingpong_mbarrier_st_async_carries_each_token_in_one_st_async),
};

DSM_TEST_MAIN(tests)
