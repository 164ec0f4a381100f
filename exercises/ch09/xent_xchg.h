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
    // TODO(ch09.xent_xchg): prepare x for round 0, and make sure every peer is ready.
    (void)x;
}

static __device__ __forceinline__ xent_stat xent_xchg_run(xent_xchg *x, xent_stat mine, int k)
{
    // TODO(ch09.xent_xchg): give every peer your partial, get theirs, fold in rank order.
    (void)x;
    (void)k;
    return mine;
}

static __device__ __forceinline__ void xent_xchg_finish(xent_xchg *x, int rounds)
{
    // TODO(ch09.xent_xchg): may a peer still touch x when this returns?
    (void)x;
    (void)rounds;
}

#endif
