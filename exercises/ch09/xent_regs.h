/* xent_regs.h: a slice of a row held in registers: XENT_REG_CHUNKS 16-byte chunks per thread, all loaded at once, reduced to the thread's statistic, then turned into loss and gradient without another read. */
#ifndef CH09_XENT_REGS_H
#define CH09_XENT_REGS_H

#include "xent_cluster.h"
#include "xent_slice.h"
#include "xent_stat.h"

/* r[j] = src[t + j * T] for the chunks t, t + T, ... < n: every load issued
 * before any is used (n <= XENT_REG_CHUNKS * T). r is a register array: every
 * index below is a constant once the loops are unrolled. */
static __device__ __forceinline__ void xent_regs_load(uint4 *r, const uint4 *__restrict__ src, int n, int t, int T)
{
    for (int j = 0; j < XENT_REG_CHUNKS; ++j)
        if (t + j * T < n)
            r[j] = src[t + j * T];
}

/* The statistic of the thread's chunks: the max first, then one exp per logit. */
static __device__ __forceinline__ xent_stat xent_regs_stat(const uint4 *r, int n, int t, int T, int dtype)
{
    int e = xent_per_chunk(dtype);
    float v[8], m = -INFINITY, s = 0.0f;
    for (int j = 0; j < XENT_REG_CHUNKS; ++j)
        if (t + j * T < n) {
            xent_chunk_unpack(r[j], dtype, v);
            for (int i = 0; i < e; ++i)
                m = v[i] > m ? v[i] : m;
        }
    if (m != -INFINITY) {
        float ml = m * XENT_LOG2E;
        for (int j = 0; j < XENT_REG_CHUNKS; ++j)
            if (t + j * T < n) {
                xent_chunk_unpack(r[j], dtype, v);
                for (int i = 0; i < e; ++i)
                    s += dsm_ex2_approx_f32(fmaf(v[i], XENT_LOG2E, -ml));
            }
    }
    xent_stat st;
    st.m = m;
    st.s = s;
    return st;
}

/* With the row's statistic: the loss, from the thread that holds the label's
 * chunk (rank 0's thread 0 for an ignored row), and the gradient of the
 * thread's chunks into dst (the slice's first chunk, which is chunk lo of the
 * row). */
static __device__ __forceinline__ void xent_regs_finish(const uint4 *r, int n, int t, int T, int dtype, int lo, int q,
                                                        int label, xent_stat total, float scale, uint4 *dst,
                                                        float *loss)
{
    int e = xent_per_chunk(dtype), k = label / e - lo;   /* the label's chunk in the slice */
    float v[8], ml, a, x = 0.0f;
    int mine = label != XENT_IGNORE && k >= 0 && k < n && k % T == t;
    xent_grad_coef(total, label, scale, &ml, &a);
    if (label == XENT_IGNORE) {
        if (q == 0 && t == 0)
            *loss = 0.0f;
    } else if (mine) {
        for (int j = 0; j < XENT_REG_CHUNKS; ++j)   /* r[j] with j a constant: r stays in registers */
            if (j == k / T) {
                xent_chunk_unpack(r[j], dtype, v);
                for (int i = 0; i < e; ++i)
                    if (i == label % e)
                        x = v[i];
            }
        *loss = xent_row_loss(total, x, label);
    }
    for (int j = 0; j < XENT_REG_CHUNKS; ++j)
        if (t + j * T < n)
            dst[t + j * T] = xent_grad_chunk(r[j], dtype, (lo + t + j * T) * e, label, ml, a, scale);
}

#endif
