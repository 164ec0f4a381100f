/* xent_cluster.h: ch09.cluster: the contract of the fused cross-entropy kernel, one row per cluster at a time, each CTA holding its slice of the row on chip. */
#ifndef CH09_XENT_CLUSTER_H
#define CH09_XENT_CLUSTER_H

#include "dsm.h"
#include "xent_chunk.h"
#include "xent_stat.h"
#include "xent_block.h"
#include "xent_xchg.h"

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
 * T threads (32 <= T <= 1024), xent_cluster_smem(V, dtype, C, T) bytes of
 * dynamic shared memory. Cluster c takes rows c, c + clusters, ...; rank q
 * holds chunks xent_slice(chunks, C, q) of its row in its shared memory.
 * Each logit is read from global memory once, each gradient element written
 * once (grad may be logits: in place), the CTAs' partial statistics cross
 * through DSMEM only (ch09.xchg's budget per row), no atomics.
 */
// BOOK-END(contract)

/* Bytes of slice one CTA holds (one buffer). */
static inline size_t xent_cluster_slice_bytes(int V, int dtype, int C)
{
    int lo, hi;
    xent_slice(xent_row_chunks(V, dtype), C, 0, &lo, &hi);
    return (size_t)(hi - lo) * 16u;
}

/* The head of the dynamic shared memory; the slices follow it. */
typedef struct xent_cluster_head {
    uint64_t full[2];       /* a slice landed */
    xent_xchg x;            /* ch09.xchg */
    float label_logit;
} xent_cluster_head;

#define XENT_HEAD_BYTES ((sizeof(xent_cluster_head) + 15u) / 16u * 16u)

/* The dynamic shared memory the kernel needs: the head, the block fold's
 * statistics, and two slices (the row being reduced, the next one landing). */
static inline size_t xent_cluster_smem(int V, int dtype, int C, int T)
{
    size_t red = ((size_t)XENT_BLOCK_RED(T) * sizeof(xent_stat) + 15u) / 16u * 16u;
    return XENT_HEAD_BYTES + red + 2u * xent_cluster_slice_bytes(V, dtype, C);
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
