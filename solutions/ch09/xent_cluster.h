/* xent_cluster.h: ch09.xent_cluster: the contract of the fused cross-entropy kernel, one row per cluster at a time, each CTA holding its slice of the row on chip. */
#ifndef CH09_XENT_CLUSTER_H
#define CH09_XENT_CLUSTER_H

#include "dsm_host.h"
#include "xent_shape.h"

/* The most 16-byte chunks of a slice one thread holds in registers. */
#define XENT_REG_CHUNKS 8

// BOOK-BEGIN(contract)
/*
 * xent_cluster_bf16 / xent_cluster_f32: cross-entropy forward and backward,
 * fused, for logits[M][V] (bf16 or fp32, V a multiple of 8, rows of
 * V / xent_per_chunk(dtype) 16-byte chunks) and labels[M] (in [0, V), or
 * XENT_IGNORE = -100):
 *   loss[r] = log(sum_i exp(x_ri)) - x_r,label   (0 for an ignored row)
 *   grad[r][i] = (exp(x_ri) / sum_j exp(x_rj) - [i == label]) * scale
 *                                                (0 for an ignored row)
 * with scale the gradient's factor (the caller's upstream gradient / the
 * number of rows that count). fp32 math, stable for any finite row, and for
 * slices that are all -inf.
 *
 * Launch: clusters of C CTAs (1 <= C <= 16), any number of clusters,
 * T threads (a multiple of 32, at most 512) with T * XENT_REG_CHUNKS at
 * least the chunks of a slice (xent_cluster_fits), xent_cluster_smem(T)
 * bytes of dynamic shared memory. Cluster c takes rows c, c + clusters, ...;
 * rank q owns chunks xent_slice(chunks, C, q) of each of its rows and holds
 * them on chip (registers or shared memory) from the load to the gradient.
 * Each logit is read from global memory once, each gradient element written
 * once (grad may be logits: in place), the CTAs' partial statistics cross
 * through DSMEM only (ch09.xent_xchg's budget per row), no atomics.
 */
// BOOK-END(contract)

/* Whether T threads of clusters of C hold a slice of a row of V logits. */
static inline int xent_cluster_fits(int V, int dtype, int C, int T)
{
    int lo, hi;
    xent_slice(xent_row_chunks(V, dtype), C, 0, &lo, &hi);
    return T >= 32 && T <= 512 && T % 32 == 0 && C >= 1 && C <= XENT_MAX_CTAS &&
           (long long)T * XENT_REG_CHUNKS >= hi - lo;
}

/* The dynamic shared memory the kernel needs: the block fold's statistics. */
static inline size_t xent_cluster_smem(int T)
{
    return (size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES;
}

#ifdef __cplusplus
extern "C" {
#endif
DSM_DECLARE_KERNEL(xent_cluster_bf16);
DSM_DECLARE_KERNEL(xent_cluster_f32);
#ifdef __cplusplus
}
#endif

#endif
