/* measure.c: ch05_pingpong, part 2: is every hop right, and how many cycles does it take: the checked launch, the emulator's proof that every hop happened, and the check-then-sample of a group of configurations. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_emu_control.h"
#include "pp_bench.h"

/* 1 when err is success; otherwise a failed check named after the call, which fails `kernel` (NULL: none). */
int pp_ok(bench *b, const char *kernel, const char *key, const char *what, dsm_error_t err)
{
    if (err == dsmSuccess)
        return 1;
    if (kernel != NULL)
        bench_fail_kernel(b, kernel, "%s: %s failed: %s", key, what, dsm_error_name(err));
    else
        bench_fail(b, "%s: %s failed: %s", key, what, dsm_error_name(err));
    return 0;
}

/* The token CTA `rank` receives in its receipt i when the first token is `first`. */
static uint32_t expected_token(uint32_t first, uint32_t rank, uint32_t i)
{
    return first + 2u * i + (1u - rank);
}

/* Stores of CTA `block` into a peer's shared memory and into the global slots in the emulator's last
 * launch, counted every way the mechanism counters see them (plain and volatile stores by bytes,
 * the flag functions by operation; an access counted twice only weakens a lower bound). */
static void delivered(uint32_t block, const uint32_t *slots, uint64_t *into_peer, uint64_t *async_bytes,
                      uint64_t *into_global, dsm_emu_counts *c)
{
    dsm_emu_gmem_use use;
    dsm_emu_last_counts(block, c);
    dsm_emu_last_gmem_use(block, slots, &use);
    *into_peer = c->dsmem_st_ops;
    *into_global = use.st_bytes / 4u; /* trace, last and cycles are other buffers */
    for (int sem = 0; sem < DSM_FLAG_SEM_COUNT; ++sem)
        for (int scope = 0; scope < DSM_FLAG_SCOPE_COUNT; ++scope) {
            *into_peer += c->flags[DSM_FLAG_STORE][sem][scope][DSM_FLAG_PEER_SMEM];
            *into_global += c->flags[DSM_FLAG_STORE][sem][scope][DSM_FLAG_GLOBAL];
        }
    *async_bytes = c->async_out_bytes;
}

/* Dry run only: the emulator's mechanism counters of the checked launch say that every hop really
 * happened (each CTA sent `rounds` tokens through the mechanism's channel, met at the barrier of
 * every hop, completed a phase per receipt). A kernel that computes its tokens instead of receiving
 * them passes the token check and fails here. (The dry run builds every kernel with the emulator's
 * instrumentation of plain accesses, as the tests do, so plain stores count too.) */
static int hops_happened(bench *b, const pp_config *c, const pp_buffers *d, uint32_t rounds)
{
    dsm_emu_counts cnt;
    if (!bench_dry(b) || !dsm_emu_last_counts(0, &cnt))
        return 1;
    for (uint32_t block = 0; block < 2; ++block) {
        uint64_t peer, async_bytes, global;
        delivered(block, d->slots, &peer, &async_bytes, &global, &cnt);
        const char *what = NULL;
        uint64_t seen = 0, want = rounds;
        if (c->m->channel == VIA_DSMEM_STORE && peer < rounds)
            what = "stores into the peer's shared memory", seen = peer;
        else if (c->m->channel == VIA_ST_ASYNC && async_bytes < 4ull * rounds)
            what = "st.async bytes into the peer", seen = async_bytes, want = 4ull * rounds;
        else if (c->m->channel == VIA_GLOBAL && global < rounds)
            what = "stores into the global slots", seen = global;
        else if (c->m->barrier_per_hop && cnt.cluster_waits_min < 2u * rounds)
            what = "cluster-barrier waits of its least busy thread", seen = cnt.cluster_waits_min, want = 2u * rounds;
        else if (c->m->barrier_per_hop && c->m->channel == VIA_GLOBAL && cnt.fences < rounds)
            what = "fences (__threadfence)", seen = cnt.fences;
        else if (c->m->mbarrier_per_receipt && cnt.mbarrier_phases < rounds)
            what = "phases of its mbarrier", seen = cnt.mbarrier_phases;
        if (what) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u made %llu %s in %u round trips, at least %llu if every hop happened "
                          "(emulator's mechanism counters)",
                       c->who, block, (unsigned long long)seen, what, rounds, (unsigned long long)want);
            return 0;
        }
    }
    return 1;
}

/* One launch of c with `rounds` round trips starting at token `first`, recording every hop when
 * with_trace. Checks last[] (and the trace) against the tokens the contract says; returns 1 when
 * right, with CTA 0's cycles and the launch's event time in *cycles and *ms. */
static int launch_checked(bench *b, const pp_config *c, const pp_buffers *d, const dsm_launch_config *cfg,
                          uint32_t rounds, uint32_t first, int with_trace, unsigned long long *cycles, double *ms)
{
    uint32_t *trace = with_trace ? d->trace : NULL;
    const uint32_t *first_arg = d->first;
    void *args_plain[] = {&first_arg, &rounds, &trace, (void *)&d->last, (void *)&d->cycles};
    void *args_slots[] = {&first_arg, &rounds, (void *)&d->slots, &trace, (void *)&d->last, (void *)&d->cycles};
    uint32_t last[2], poison[2] = {~first, ~first};
    unsigned long long cyc[2] = {0, 0};
    if (!pp_ok(b, c->kernel, c->who, "dsm_memcpy_to_device", dsm_memcpy_to_device(d->first, &first, sizeof first)) ||
        !pp_ok(b, c->kernel, c->who, "dsm_memcpy_to_device", dsm_memcpy_to_device(d->last, poison, sizeof poison)))
        return 0;
    dsm_error_t err =
        bench_time_launches(b, cfg, pp_kernel_of(c), c->m->with_slots ? args_slots : args_plain, 0, 1, ms);
    if (!pp_ok(b, c->kernel, c->who, "launch", err) ||
        !pp_ok(b, c->kernel, c->who, "dsm_memcpy_to_host", dsm_memcpy_to_host(last, d->last, sizeof last)) ||
        !pp_ok(b, c->kernel, c->who, "dsm_memcpy_to_host", dsm_memcpy_to_host(cyc, d->cycles, sizeof cyc)))
        return 0;
    for (uint32_t r = 0; r < 2; ++r) {
        uint32_t want = expected_token(first, r, rounds - 1);
        if (last[r] != want) {
            bench_fail_kernel(b, c->kernel, "%s: rank %u's last token is %u, the contract says %u (%u round trips)", c->who, r,
                       last[r], want, rounds);
            return 0;
        }
    }
    if (with_trace) {
        uint32_t *got = malloc(2 * (size_t)rounds * sizeof *got);
        if (got == NULL) {
            bench_fail_kernel(b, c->kernel, "%s: out of host memory for the trace", c->who);
            return 0;
        }
        size_t bytes = 2 * (size_t)rounds * sizeof *got;
        int good = pp_ok(b, c->kernel, c->who, "dsm_memcpy_to_host", dsm_memcpy_to_host(got, d->trace, bytes));
        for (uint32_t r = 0; good && r < 2; ++r)
            for (uint32_t i = 0; good && i < rounds; ++i)
                if (got[(size_t)r * rounds + i] != expected_token(first, r, i)) {
                    bench_fail_kernel(b, c->kernel, "%s: rank %u's receipt %u is %u, the token of that hop is %u", c->who, r, i,
                               got[(size_t)r * rounds + i], expected_token(first, r, i));
                    good = 0;
                }
        free(got);
        if (!good || !hops_happened(b, c, d, rounds))
            return 0;
    }
    *cycles = cyc[0];
    return 1;
}

/* One configuration as a variant of bench_time_variants: its launch, buffers, and the event time of
 * each sampled round. */
typedef struct pp_run {
    bench *b;
    const pp_config *c;
    const pp_buffers *d;
    dsm_launch_config cfg;
    uint32_t check_rounds;
    double event_ns[BENCH_ROUNDS_MAX];
} pp_run;

/* bench_variant's check: one launch with every hop recorded, every receipt compared with its token. */
static int run_check(void *ctx, char *why, size_t why_len)
{
    pp_run *r = ctx;
    unsigned long long cyc = 0;
    double ms = 0;
    (void)why, (void)why_len; /* launch_checked reports its failures itself */
    return pp_ok(r->b, r->c->kernel, r->c->who, "dsm_func_set_max_dynamic_smem",
                 dsm_func_set_max_dynamic_smem(pp_kernel_of(r->c), (int)r->cfg.dynamic_smem_bytes)) &&
           launch_checked(r->b, r->c, r->d, &r->cfg, r->check_rounds, 0x9e3779b9u, 1, &cyc, &ms);
}

/* bench_variant's sample: one checked launch of the full round trips (a first token of its own in
 * every round, so a stale result fails), CTA 0's cycles per hop. */
static int run_sample(void *ctx, int round, double *value, char *why, size_t why_len)
{
    pp_run *r = ctx;
    unsigned long long cyc = 0;
    double ms = 0;
    uint32_t first = round < 0 ? 0x12345678u : 0x1000u * (uint32_t)(round + 1) + 0xabcu;
    (void)why, (void)why_len;
    if (!launch_checked(r->b, r->c, r->d, &r->cfg, r->c->rounds, first, 0, &cyc, &ms))
        return 0;
    *value = (double)cyc / pp_timed_hops(r->c, r->c->rounds);
    if (round >= 0)
        r->event_ns[round] = ms * 1e6 / (2.0 * r->c->rounds);
    return 1;
}

void pp_measure_group(bench *b, const pp_sizes *sz, const pp_config *cfgs, int n, const pp_buffers *d,
                      const dsm_launch_config *base, pp_result *res)
{
    enum { MAX_GROUP = MECHANISMS };
    pp_run runs[MAX_GROUP];
    bench_variant v[MAX_GROUP] = {{0}};
    bench_variant_result vr[MAX_GROUP];
    if (n > MAX_GROUP) {
        bench_fail(b, "pp_measure_group: %d configurations, at most %d", n, MAX_GROUP);
        n = MAX_GROUP;
    }
    for (int i = 0; i < n; ++i) {
        runs[i] = (pp_run){b, &cfgs[i], d, *base, sz->check_rounds < cfgs[i].rounds ? sz->check_rounds : cfgs[i].rounds,
                           {0}};
        runs[i].cfg.block = DSM_DIM3(pp_harnesses[cfgs[i].harness].threads, 1, 1);
        v[i] = (bench_variant){cfgs[i].who, cfgs[i].kernel, &runs[i], run_check, NULL, 0, 0, 0, run_sample};
    }
    bench_time_variants(b, NULL, v, n, 1, cfgs[0].repeats, vr); /* sampling variants use no stream */
    for (int i = 0; i < n; ++i) {
        res[i].rounds = cfgs[i].rounds;
        res[i].rounds_seen = vr[i];
        res[i].measured = vr[i].status == BENCH_VARIANT_TIMED;
        if (res[i].measured) {
            res[i].cycles = vr[i].stats;
            res[i].event_ns = bench_stats_of(runs[i].event_ns, vr[i].rounds);
        }
    }
}
