/* xent_cluster.h: ch09.xent_cluster: the contract of the fused cross-entropy kernel, one row per cluster at a time, each CTA holding its slice of the row on chip. */
#ifndef CH09_XENT_CLUSTER_H
#define CH09_XENT_CLUSTER_H

#include "dsm_host.h"
#include "xent_shape.h"

/* Bulk copies (and mbarriers) per slice: the statistic of the first piece
 * starts while the others are still in flight. */
#define XENT_PIECES 4
/* The most dynamic shared memory the kernel may ask for on Hopper: 227 KB a
 * CTA, less 1 KB for its static shared memory (the exchange's). */
#define XENT_SMEM_MAX (226 * 1024)

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
 * T threads (a multiple of 32, at most 512), xent_cluster_smem(V, dtype, C,
 * T) bytes of dynamic shared memory, at most XENT_SMEM_MAX
 * (xent_cluster_fits). Cluster c takes rows c, c + clusters, ...; rank q
 * owns chunks xent_slice(chunks, C, q) of each of its rows and holds them in
 * its shared memory from the load to the gradient. Each logit is read from
 * global memory once, each gradient element written once (grad may be
 * logits: in place), the CTAs' partial statistics cross through DSMEM only
 * (ch09.xent_xchg's budget per row), no atomics.
 */
// BOOK-END(contract)

/* The chunks of the largest slice of a row of V logits split C ways. */
static inline int xent_slice_chunks(int V, int dtype, int C)
{
    int lo, hi;
    xent_slice(xent_row_chunks(V, dtype), C, 0, &lo, &hi);
    return hi - lo;
}

/* The dynamic shared memory of the kernel: the block fold's statistics
 * (rounded up to 128 bytes), then the largest slice. */
static inline size_t xent_cluster_smem(int V, int dtype, int C, int T)
{
    size_t red = ((size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES + 127u) / 128u * 128u;
    return red + (size_t)xent_slice_chunks(V, dtype, C) * 16u;
}

/* Whether T threads in clusters of C may run the kernel on rows of V logits. */
static inline int xent_cluster_fits(int V, int dtype, int C, int T)
{
    return T >= 32 && T <= 512 && T % 32 == 0 && C >= 1 && C <= XENT_MAX_CTAS &&
           xent_cluster_smem(V, dtype, C, T) <= XENT_SMEM_MAX;
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
