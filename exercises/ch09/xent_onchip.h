/* xent_onchip.h: a slice of a row held in shared memory: brought in by bulk copies in XENT_PIECES pieces, reduced to the thread's statistic as the pieces land, then turned into loss and gradient without another read of global memory. */
#ifndef CH09_XENT_ONCHIP_H
#define CH09_XENT_ONCHIP_H

#include "xent_cluster.h"
#include "xent_slice.h"
#include "xent_stat.h"

/* Chunks [*a, *b) of piece p of a slice of n chunks. */
static __device__ __forceinline__ void xent_piece(int n, int p, int *a, int *b)
{
    int per = (n + XENT_PIECES - 1) / XENT_PIECES;
    *a = p * per < n ? p * per : n;
    *b = (p + 1) * per < n ? (p + 1) * per : n;
}

/* The slice's buffer in dynamic shared memory: after the block fold's
 * XENT_BLOCK_RED(T) statistics, at a multiple of 128 bytes (xent_cluster_smem). */
static __device__ __forceinline__ uint4 *xent_onchip_buffer(int T)
{
    return (uint4 *)((unsigned char *)dsm_dynamic_smem() +
                     ((size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES + 127u) / 128u * 128u);
}

/* One thread, once, before anyone waits on them: the XENT_PIECES mbarriers
 * of one arrival each, their inits released (to the copy engine too). */
static __device__ __forceinline__ void xent_onchip_init(uint64_t *bar)
{
    for (int p = 0; p < XENT_PIECES; ++p)
        dsm_mbarrier_init(&bar[p], 1);
    dsm_fence_mbarrier_init();
}

/* One thread: start the copies of the n chunks at src into buf, piece p
 * completing on bar[p]. buf must not be read by anyone until its piece's
 * phase completes, nor be still in use from an earlier row. */
static __device__ __forceinline__ void xent_onchip_load(uint4 *buf, const uint4 *src, int n, uint64_t *bar)
{
    for (int p = 0; p < XENT_PIECES; ++p) {
        int a, b;
        xent_piece(n, p, &a, &b);
        xent_load_slice(buf + a, src + a, b - a, &bar[p]);
    }
}

/* The statistic of this thread's chunks t, t + T, ... of each piece, each
 * piece read as soon as its phase with this parity completes (one pass: the
 * sum is rescaled only when a chunk raises the max). */
static __device__ __forceinline__ xent_stat xent_onchip_stat(const uint4 *buf, int n, uint64_t *bar, uint32_t parity,
                                                             int t, int T, int dtype)
{
    int e = xent_per_chunk(dtype);
    xent_stat r = xent_stat_empty();
    float v[8];
    for (int p = 0; p < XENT_PIECES; ++p) {
        int a, b;
        xent_piece(n, p, &a, &b);
        dsm_mbarrier_wait_parity(&bar[p], parity);
        for (int i = a + t; i < b; i += T) {
            xent_chunk_unpack(buf[i], dtype, v);
            xent_stat_add_chunk(&r.m, &r.s, v, e);
        }
    }
    return r;
}

/* With the row's statistic: the loss, from the thread that holds the label's
 * chunk (rank 0's thread 0 for an ignored row), and the gradient of the
 * slice (chunk lo of the row is buf[0]) into dst, each chunk read from
 * shared memory and written once. */
static __device__ __forceinline__ void xent_onchip_finish(const uint4 *buf, int n, int t, int T, int dtype, int lo,
                                                          int q, int label, xent_stat total, float scale, uint4 *dst,
                                                          float *loss)
{
    int e = xent_per_chunk(dtype), k = label / e - lo;   /* the label's chunk in the slice */
    if (label == XENT_IGNORE) {
        if (q == 0 && t == 0)
            *loss = 0.0f;
    } else if (k >= 0 && k < n && k % T == t) {
        float v[8], x = 0.0f;
        xent_chunk_unpack(buf[k], dtype, v);
        for (int i = 0; i < 8; ++i)   /* v indexed by constants only: it stays in registers */
            if (i == label % e)
                x = v[i];
        *loss = xent_row_loss(total, x, label);
    }
    xent_grad_chunks(buf, dst, n, t, T, dtype, lo * e, label, total, scale);
}

#endif
