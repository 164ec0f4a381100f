/* xent_block.h: the statistic of a whole CTA from one per thread, through shared memory, in a fixed order. */
#ifndef CH09_XENT_BLOCK_H
#define CH09_XENT_BLOCK_H

#include "xent_stat.h"

/* Shared memory xent_block_fold needs for T threads: T + 32 statistics. */
#define XENT_BLOCK_RED(T) ((T) + 32)

/* Every thread of the CTA calls it with its statistic; each gets the fold of
 * all of them (threads 0..31 each fold every 32nd entry in index order, then
 * every thread folds those 32 in order: the same bits every run). `red` holds
 * XENT_BLOCK_RED(blockDim.x) statistics. Two __syncthreads; a caller may call
 * it again at once. */
static __device__ __forceinline__ xent_stat xent_block_fold(xent_stat *red, xent_stat mine)
{
    int T = (int)blockDim.x, t = (int)threadIdx.x, W = T < 32 ? T : 32;
    red[t] = mine;
    __syncthreads();
    if (t < W) {
        xent_stat r = red[t];
        for (int i = t + 32; i < T; i += 32)
            r = xent_stat_merge(r, red[i]);
        red[T + t] = r;
    }
    __syncthreads();
    return xent_stat_fold(red + T, W);
}

#endif
