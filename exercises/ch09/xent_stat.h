/* xent_stat.h: ch09.xent_stat: a softmax statistic (the max of some logits and the sum of their exponentials relative to it), merged pairwise, stable for any values. */
#ifndef CH09_XENT_STAT_H
#define CH09_XENT_STAT_H

#include <math.h>

#include "xent_chunk.h"

/* The statistic of a set of logits x_i: m = max x_i, s = sum exp(x_i - m).
 * The empty set (or a set of -inf only) is {-INFINITY, 0}. */
typedef struct xent_stat {
    float m, s;
} xent_stat;
typedef char xent_stat_is_8_bytes[sizeof(xent_stat) == XENT_STAT_BYTES ? 1 : -1];

XENT_FN xent_stat xent_stat_empty(void)
{
    xent_stat e;
    e.m = -INFINITY;
    e.s = 0.0f;
    return e;
}

// BOOK-BEGIN(contract)
/*
 * xent_stat_merge: the statistic of the union of two sets, from theirs:
 *     m = max(a.m, b.m),  s = a.s * exp(a.m - m) + b.s * exp(b.m - m).
 * Stable for any values: no exp of a positive number (it would overflow
 * above 88), and no NaN when either side is empty: merging with
 * {-INFINITY, 0} returns the other side bit for bit, and two empty sides give
 * {-INFINITY, 0}. m is exact (it is one of the inputs).
 *
 * xent_stat_fold: the statistic of p[0..n) at once: m the largest p[i].m,
 * s the sum of p[i].s * exp(p[i].m - m) added in index order (floating-point
 * addition is not associative: a fixed order gives every caller the same
 * bits). The n exponentials are independent, so a GPU computes them in
 * parallel, where n - 1 merges in a row would wait for each other. Empty
 * entries contribute nothing (a fold of one entry and empties returns that
 * entry bit for bit); n = 0 or all empty gives the empty statistic.
 *
 * xent_stat_push: a merged with the statistic of v[0..n).
 */
// BOOK-END(contract)
XENT_FN xent_stat xent_stat_merge(xent_stat a, xent_stat b)
{
    // TODO(ch09.xent_stat): the statistic of the union, stable for any values.
    (void)b;
    return a;
}

XENT_FN xent_stat xent_stat_fold(const xent_stat *p, int n)
{
    // TODO(ch09.xent_stat): the statistic of p[0..n), summed in index order.
    (void)p;
    (void)n;
    return xent_stat_empty();
}

XENT_FN xent_stat xent_stat_push(xent_stat a, const float *v, int n)
{
    // TODO(ch09.xent_stat): the statistic of v[0..n), merged into a.
    (void)v;
    (void)n;
    return a;
}

#endif
