/* xent_block.h: the statistic of a whole CTA from one per thread, through shared memory, in a fixed order. */
#ifndef CH09_XENT_BLOCK_H
#define CH09_XENT_BLOCK_H

#include "xent_stat.h"

/* Every thread of the CTA calls it with its statistic; each gets the fold of
 * all of them (threads 0..31 each fold every 32nd entry in index order, then
 * every thread folds those 32 in order with xent_stat_fold: the same bits
 * every run). `red` holds
 * XENT_BLOCK_RED(blockDim.x) statistics. Two __syncthreads; a caller may call
 * it again at once. */
static __device__ __forceinline__ xent_stat xent_block_fold(xent_stat *red, xent_stat mine)
{
    int T = (int)blockDim.x, t = (int)threadIdx.x, W = T < 32 ? T : 32;
    red[t] = mine;
    __syncthreads();
    if (t < W) {   /* every 32nd entry: the max first, then the sum (independent exponentials) */
        xent_stat r = xent_stat_empty();
        for (int i = t; i < T; i += 32)
            r.m = red[i].m > r.m ? red[i].m : r.m;
        if (r.m != -INFINITY)
            for (int i = t; i < T; i += 32)
                r.s += red[i].s * exp2f((red[i].m - r.m) * XENT_LOG2E);
        red[T + t] = r;
    }
    __syncthreads();
    return xent_stat_fold(red + T, W);
}

#endif
