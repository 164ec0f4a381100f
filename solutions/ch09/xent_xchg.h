/* xent_xchg.h: ch09.xent_xchg: the CTAs of a cluster exchange their partial statistics of a row through DSMEM, round after round, at 8 bytes per peer. */
#ifndef CH09_XENT_XCHG_H
#define CH09_XENT_XCHG_H

#include "dsm.h"
#include "xent_stat.h"

/* Shared memory of one CTA for the exchange, at the same offset in every CTA
 * of the cluster. Two of everything: round k uses [k % 2]. */
typedef struct xent_xchg {
    uint64_t bar[2];
    xent_stat slot[2][XENT_MAX_CTAS];
    xent_stat result;
} xent_xchg;

// BOOK-BEGIN(contract)
/*
 * Every thread of every CTA of the cluster calls these, in this order:
 *   xent_xchg_setup(x)            once, before the first round;
 *   xent_xchg_run(x, mine, k)     for rounds k = 0, 1, 2, ... with a
 *                                 __syncthreads between two rounds;
 *   xent_xchg_finish(x, rounds)   once, after the last round, with the
 *                                 number of rounds run (0 when none).
 * In round k, `mine` is this CTA's partial statistic (the same in all its
 * threads); run returns, in every thread of every CTA, the fold of the
 * partials of ranks 0, 1, ..., C - 1 in that order (xent_stat_fold): the
 * same bits everywhere. After finish no peer touches this CTA's shared
 * memory, so it may exit.
 *
 * Budget: per round, each CTA moves 8 bytes (one statistic) to or from each
 * peer through DSMEM and nothing else (no global memory, no atomics); each
 * thread waits at most at one cluster barrier per round, plus one in setup
 * and one in finish. A cluster of one exchanges nothing. The barrier that
 * makes the peers ready need not stall the caller: whatever it does between
 * setup and the first round (loading its slice, say) may overlap it.
 */
// BOOK-END(contract)
static __device__ __forceinline__ void xent_xchg_setup(xent_xchg *x)
{
    // BEGIN SOLUTION
    //~ // TODO(ch09.xent_xchg): prepare x for round 0, and make sure every peer is ready.
    //~ (void)x;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&x->bar[0], 1);
        dsm_mbarrier_init(&x->bar[1], 1);
        dsm_fence_mbarrier_init();      /* releases the inits to the cluster */
    }
    /* split: arrive now, wait before the first push (round 0, or finish);
     * the caller's loads run meanwhile */
    dsm_barrier_cluster_arrive_relaxed();
    // END SOLUTION
}

static __device__ __forceinline__ xent_stat xent_xchg_run(xent_xchg *x, xent_stat mine, int k)
{
    // BEGIN SOLUTION
    //~ // TODO(ch09.xent_xchg): give every peer your partial, get theirs, fold in rank order.
    //~ (void)x;
    //~ (void)k;
    //~ return mine;
    int C = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank(), b = k & 1, t = (int)threadIdx.x;
    if (k == 0)
        dsm_barrier_cluster_wait();     /* every peer started, its barriers initialised */
    if (C == 1)
        return mine;
    /* push: thread p stores my partial into peer p's slot q, completing 8 bytes
     * on peer p's barrier; no barrier of the cluster, no exit barrier: I wait
     * only on my own memory, for what my peers pushed */
    if (t == 0)
        dsm_mbarrier_arrive_expect_tx(&x->bar[b], 8u * (uint32_t)(C - 1));
    if (t < C && t != q) {
        uint32_t dst = dsm_mapa_shared_cluster(dsm_smem_addr(&x->slot[b][q]), (uint32_t)t);
        uint32_t bar = dsm_mapa_shared_cluster(dsm_smem_addr(&x->bar[b]), (uint32_t)t);
        dsm_st_async_u32(dst, xent_f32_bits(mine.m), bar);
        dsm_st_async_u32(dst + 4, xent_f32_bits(mine.s), bar);
    }
    dsm_mbarrier_wait_parity(&x->bar[b], (uint32_t)(k >> 1) & 1u);
    xent_stat r = xent_stat_empty();   /* xent_stat_fold of ranks 0..C-1, unrolled over XENT_MAX_CTAS */
    for (int p = 0; p < XENT_MAX_CTAS; ++p)
        if (p < C) {
            float m = p == q ? mine.m : x->slot[b][p].m;
            r.m = m > r.m ? m : r.m;
        }
    if (r.m != -INFINITY)
        for (int p = 0; p < XENT_MAX_CTAS; ++p)
            if (p < C) {
                xent_stat o = p == q ? mine : x->slot[b][p];
                r.s += o.s * exp2f((o.m - r.m) * XENT_LOG2E);
            }
    return r;
    // END SOLUTION
}

static __device__ __forceinline__ void xent_xchg_finish(xent_xchg *x, int rounds)
{
    // BEGIN SOLUTION
    //~ // TODO(ch09.xent_xchg): may a peer still touch x when this returns?
    //~ (void)x;
    //~ (void)rounds;
    (void)x;    /* every push into me was waited for in its round: nothing is left */
    if (rounds == 0)
        dsm_barrier_cluster_wait();     /* setup's arrive needs its wait */
    // END SOLUTION
}

#endif
