/* xent_slice.h: one thread's share of a slice of a row: its statistic, and its gradient written with 16-byte stores (the pieces every kernel of chapter 9 is built from). */
#ifndef CH09_XENT_SLICE_H
#define CH09_XENT_SLICE_H

#include "xent_stat.h"

/* Loads in flight per thread when a slice is read from global memory. */
#define XENT_UNROLL 4

/* The statistic of chunks c[i], i = t, t + T, ... < n, read from shared
 * memory (twice: the max first, then the sum: one exp per logit). */
static __device__ __forceinline__ xent_stat xent_smem_stat(const uint4 *c, int n, int t, int T, int dtype)
{
    int e = xent_per_chunk(dtype);
    float v[8], m = -INFINITY, s = 0.0f;
    for (int i = t; i < n; i += T) {
        xent_chunk_unpack(c[i], dtype, v);
        for (int j = 0; j < e; ++j)
            m = v[j] > m ? v[j] : m;
    }
    if (m != -INFINITY) {
        float ml = m * XENT_LOG2E;
        for (int i = t; i < n; i += T) {
            xent_chunk_unpack(c[i], dtype, v);
            for (int j = 0; j < e; ++j)
                s += dsm_ex2_approx_f32(fmaf(v[j], XENT_LOG2E, -ml));
        }
    }
    xent_stat r;
    r.m = m;
    r.s = s;
    return r;
}

/* The same read once from global memory, XENT_UNROLL loads in flight. The
 * max is kept per chunk: the sum is rescaled only when a chunk raises it
 * (rare once the first chunks are in), never per element. */
static __device__ __forceinline__ void xent_stat_add_chunk(float *m, float *s, const float *v, int e)
{
    float cm = v[0];
    for (int j = 1; j < e; ++j)
        cm = v[j] > cm ? v[j] : cm;
    if (cm > *m) {
        *s *= dsm_ex2_approx_f32((*m - cm) * XENT_LOG2E);   /* 0 while *m is -inf */
        *m = cm;
    }
    if (*m != -INFINITY) {
        float ml = *m * XENT_LOG2E;
        for (int j = 0; j < e; ++j)
            *s += dsm_ex2_approx_f32(fmaf(v[j], XENT_LOG2E, -ml));
    }
}

static __device__ __forceinline__ xent_stat xent_gmem_stat(const uint4 *__restrict__ c, int n, int t, int T, int dtype)
{
    int e = xent_per_chunk(dtype);
    xent_stat r = xent_stat_empty();
    float v[8];
    int i = t;
    for (; i + (XENT_UNROLL - 1) * T < n; i += XENT_UNROLL * T) {
        uint4 u[XENT_UNROLL];
        for (int j = 0; j < XENT_UNROLL; ++j)
            u[j] = c[i + j * T];
        for (int j = 0; j < XENT_UNROLL; ++j) {
            xent_chunk_unpack(u[j], dtype, v);
            xent_stat_add_chunk(&r.m, &r.s, v, e);
        }
    }
    for (; i < n; i += T) {
        xent_chunk_unpack(c[i], dtype, v);
        xent_stat_add_chunk(&r.m, &r.s, v, e);
    }
    return r;
}

/* Element `i` of a row of chunks, as fp32. */
static __device__ __forceinline__ float xent_element(const uint4 *row, int i, int dtype)
{
    int e = xent_per_chunk(dtype);
    float v[8];
    xent_chunk_unpack(row[i / e], dtype, v);
    return v[i % e];
}

/* The gradient of one chunk whose first element is element e0 of its row:
 * exp(x - m) / s * scale as ex2(x * log2e - ml) * a, with ml = m * log2e and
 * a = scale / s computed once per row (a = 0 for an ignored row: a zero
 * gradient), less scale at the label: one compare per chunk, not per element. */
static __device__ __forceinline__ uint4 xent_grad_chunk(uint4 c, int dtype, int e0, int label, float ml, float a,
                                                         float scale)
{
    int e = xent_per_chunk(dtype);
    float v[8];
    xent_chunk_unpack(c, dtype, v);
    for (int j = 0; j < e; ++j)
        v[j] = dsm_ex2_approx_f32(fmaf(v[j], XENT_LOG2E, -ml)) * a;
    if ((unsigned)(label - e0) < (unsigned)e)   /* the label's chunk (never for XENT_IGNORE) */
        for (int j = 0; j < e; ++j)
            if (e0 + j == label)
                v[j] -= scale;
    return xent_chunk_pack(v, dtype);
}

/* ml and a of xent_grad_chunk for a row with statistic total. */
static __device__ __forceinline__ void xent_grad_coef(xent_stat total, int label, float scale, float *ml, float *a)
{
    *ml = total.m * XENT_LOG2E;
    *a = label == XENT_IGNORE ? 0.0f : scale / total.s;
}

/* dst[i] = the gradient of src[i], i = t, t + T, ... < n; chunk 0 starts at
 * element e0 of the row. src may be shared or global memory (then
 * XENT_UNROLL loads are in flight); dst is global memory. */
static __device__ __forceinline__ void xent_grad_chunks(const uint4 *__restrict__ src, uint4 *__restrict__ dst, int n,
                                                        int t, int T, int dtype, int e0, int label, xent_stat total,
                                                        float scale)
{
    int e = xent_per_chunk(dtype), i = t;
    float ml, a;
    xent_grad_coef(total, label, scale, &ml, &a);
    for (; i + (XENT_UNROLL - 1) * T < n; i += XENT_UNROLL * T) {
        uint4 u[XENT_UNROLL];
        for (int j = 0; j < XENT_UNROLL; ++j)
            u[j] = src[i + j * T];
        for (int j = 0; j < XENT_UNROLL; ++j)
            dst[i + j * T] = xent_grad_chunk(u[j], dtype, e0 + (i + j * T) * e, label, ml, a, scale);
    }
    for (; i < n; i += T)
        dst[i] = xent_grad_chunk(src[i], dtype, e0 + i * e, label, ml, a, scale);
}

/* The loss of a row from its statistic and the logit at its label:
 * log(sum exp(x)) - x[label] = m + log(s) - x[label]; 0 for an ignored row. */
XENT_FN float xent_row_loss(xent_stat total, float x_label, int label)
{
    return label == XENT_IGNORE ? 0.0f : total.m + logf(total.s) - x_label;
}

/* Bytes per bulk copy: a slice is issued in pieces of at most this. */
#define XENT_PIECE 16384u

/* One thread: start the copy of this rank's slice of `row` into buf, completing on bar. */
static __device__ __forceinline__ void xent_load_slice(uint4 *buf, const uint4 *row, int n, uint64_t *bar)
{
    uint32_t bytes = (uint32_t)n * 16u;
    if (bytes == 0) {
        dsm_mbarrier_arrive(bar);
        return;
    }
    dsm_mbarrier_arrive_expect_tx(bar, bytes);
    for (uint32_t off = 0; off < bytes; off += XENT_PIECE)
        dsm_cp_async_bulk_global_to_shared((char *)buf + off, (const char *)row + off,
                                           bytes - off < XENT_PIECE ? bytes - off : XENT_PIECE, bar);
}

#endif
