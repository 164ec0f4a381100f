/* reduce_scatter.h: ch08.reduce_scatter: the CTAs of a cluster add up their partial vectors through DSMEM, each CTA the sums of its own share. */
#ifndef CH08_REDUCE_SCATTER_H
#define CH08_REDUCE_SCATTER_H

#include "dsm.h"

/* The largest cluster (non-portable). */
#define REDUCE_SCATTER_MAX_CTAS 16

/* The share of rank q in a cluster of S CTAs: elements [q * n / S, (q + 1) * n / S).
 * Shares differ by at most one element; with n < S some are empty. */
static __host__ __device__ __forceinline__ int reduce_scatter_lo(int n, int q, int S)
{
    return (int)((long long)q * n / S);
}

// BOOK-BEGIN(contract)
/*
 * cluster_reduce_scatter: every thread of every CTA of the cluster calls it.
 *
 * On entry each CTA holds its partial vector part[0..n) in its shared memory,
 * at the same offset in every CTA; any of its threads may have written it
 * (this function publishes their writes to the cluster).
 *
 * On return, for every i in this CTA's share [lo, hi) (reduce_scatter_lo of
 * its rank and the next), part[i] holds, for every thread of the CTA to read,
 * the sum over the cluster,
 *     part_0[i] + part_1[i] + ... + part_{S-1}[i],
 * added in that order starting from part_0[i], so that every run and every
 * schedule gives the same bits. Elements outside the share are unchanged.
 *
 * The partials travel through DSMEM: each CTA reads, from every peer, the
 * elements of its own share and nothing else; no atomics. Exactly two cluster
 * barriers: one that publishes the partials, and one after which no peer
 * touches this CTA's shared memory again, so that the CTA may exit (or reuse
 * part) as soon as the function returns.
 */
// BOOK-END(contract)
static __device__ __forceinline__ void cluster_reduce_scatter(float *part, int n)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.reduce_scatter): publish, add up your share from every CTA of
    //~ // the cluster in rank order, make sure nobody reads you any more.
    //~ (void)part;
    //~ (void)n;
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S);
    dsm_cluster_sync();     /* every CTA's partials written, published, and every peer started */
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        /* all S loads first, so that they are in flight together (a DSMEM load
         * takes about 200 cycles), then the additions in rank order: the same
         * bits in every CTA and every run */
        float v[REDUCE_SCATTER_MAX_CTAS];
        for (int p = 0; p < REDUCE_SCATTER_MAX_CTAS; ++p)
            v[p] = p >= S ? 0.0f : p == q ? part[i] : ((const float *)dsm_map_shared_rank(part, (uint32_t)p))[i];
        float s = v[0];
        for (int p = 1; p < REDUCE_SCATTER_MAX_CTAS; ++p)
            if (p < S)
                s += v[p];
        part[i] = s;    /* my share only: no peer reads it */
    }
    dsm_cluster_sync();     /* every peer has read its share of me: I may leave */
    // END SOLUTION
}

#endif
