/* xent_pipe_kernel.h: candidate designs of chapter 9's fused cluster kernel for the probe: persistent clusters whose CTAs keep S slices of rows in shared memory, filled by bulk copies ahead of use, with the statistics' exchange of a row overlapped with the next row's statistic. */
#ifndef XENT_PIPE_KERNEL_H
#define XENT_PIPE_KERNEL_H

#include "dsm.h"
#include "../../solutions/ch09/xent_block.h"
#include "../../solutions/ch09/xent_slice.h"
#include "../../solutions/ch09/xent_stat.h"

#define XP_MAX_STAGES 8
/* Exchange buffers: with one row of look-ahead a peer may push round k + 2
 * before this CTA has read round k, never round k + 4. */
#define XP_XBUF 4

typedef struct xp_hdr {
    uint64_t full[XP_MAX_STAGES];
    uint64_t xbar[XP_XBUF];
    xent_stat slot[XP_XBUF][XENT_MAX_CTAS];
} xp_hdr;

#define XP_HDR_BYTES ((sizeof(xp_hdr) + 127) / 128 * 128)
/* Chunks between two stages' buffers: a slice of ceil(vc / C) chunks, rounded to 128 bytes. */
XENT_FN int xp_stage_chunks(int vc, int C) { return ((vc + C - 1) / C + 7) / 8 * 8; }
XENT_FN size_t xp_smem(int vc, int C, int T, int S)
{
    size_t red = ((size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES + 127) / 128 * 128;
    return XP_HDR_BYTES + red + (size_t)S * (size_t)xp_stage_chunks(vc, C) * 16u;
}

static __device__ __forceinline__ void xp_push(xp_hdr *h, xent_stat mine, int k)
{
    int C = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank(), b = k % XP_XBUF, t = (int)threadIdx.x;
    if (C == 1)
        return;
    if (t == 0)
        dsm_mbarrier_arrive_expect_tx(&h->xbar[b], 8u * (uint32_t)(C - 1));
    if (t < C && t != q) {
        uint32_t dst = dsm_mapa_shared_cluster(dsm_smem_addr(&h->slot[b][q]), (uint32_t)t);
        uint32_t bar = dsm_mapa_shared_cluster(dsm_smem_addr(&h->xbar[b]), (uint32_t)t);
        dsm_st_async_u32(dst, xent_f32_bits(mine.m), bar);
        dsm_st_async_u32(dst + 4, xent_f32_bits(mine.s), bar);
    }
}

static __device__ __forceinline__ xent_stat xp_wait(xp_hdr *h, xent_stat mine, int k)
{
    int C = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank(), b = k % XP_XBUF;
    if (C == 1)
        return mine;
    dsm_mbarrier_wait_parity(&h->xbar[b], (uint32_t)(k / XP_XBUF) & 1u);
    xent_stat r = xent_stat_empty();
    for (int p = 0; p < XENT_MAX_CTAS; ++p)
        if (p < C) {
            float m = p == q ? mine.m : h->slot[b][p].m;
            r.m = m > r.m ? m : r.m;
        }
    if (r.m != -INFINITY)
        for (int p = 0; p < XENT_MAX_CTAS; ++p)
            if (p < C) {
                xent_stat o = p == q ? mine : h->slot[b][p];
                r.s += o.s * exp2f((o.m - r.m) * XENT_LOG2E);
            }
    return r;
}

/* The gradient and loss of round j (row `row`) from stage buffer `buf`, then
 * (thread 0, after every thread is done with it) the buffer's refill with
 * round j + S's row. */
static __device__ __forceinline__ void xp_finish(xp_hdr *h, uint4 *buf, const uint4 *__restrict__ logits,
                                                 const int *labels, uint4 *grad, float *loss, int vc, int lo, int n,
                                                 int row, xent_stat total, float scale, int dtype, int next_row,
                                                 int s, int streaming)
{
    int t = (int)threadIdx.x, T = (int)blockDim.x, e = xent_per_chunk(dtype), q = (int)dsm_cluster_ctarank();
    int label = labels[row];
    float ml, a;
    xent_grad_coef(total, label, scale, &ml, &a);
    uint4 *dst = grad + (size_t)row * (size_t)vc + (size_t)lo;
    if (label == XENT_IGNORE) {
        if (q == 0 && t == 0)
            loss[row] = 0.0f;
    } else {
        int kk = label / e - lo;
        if (kk >= 0 && kk < n && kk % T == t) {
            float v[8], xl = 0.0f;
            xent_chunk_unpack(buf[kk], dtype, v);
            for (int j = 0; j < 8; ++j)
                if (j == label % e)
                    xl = v[j];
            loss[row] = xent_row_loss(total, xl, label);
        }
    }
    int i = t;
    for (; i + 3 * T < n; i += 4 * T) {
        uint4 u[4];
        for (int j = 0; j < 4; ++j)
            u[j] = buf[i + j * T];
        for (int j = 0; j < 4; ++j) {
            uint4 g = xent_grad_chunk(u[j], dtype, (lo + i + j * T) * e, label, ml, a, scale);
            if (streaming)
                __stcs(&dst[i + j * T], g);
            else
                dst[i + j * T] = g;
        }
    }
    for (; i < n; i += T) {
        uint4 g = xent_grad_chunk(buf[i], dtype, (lo + i) * e, label, ml, a, scale);
        if (streaming)
            __stcs(&dst[i], g);
        else
            dst[i] = g;
    }
    __syncthreads();   /* every thread has read buf: the bulk copy may overwrite it */
    if (t == 0 && next_row >= 0)
        xent_load_slice(buf, logits + (size_t)next_row * (size_t)vc + (size_t)lo, n, &h->full[s]);
}

/*
 * Persistent clusters: cluster c takes rows c, c + G, ... (G clusters); rank
 * q's slice of S rows in flight through S stage buffers. ahead = 1: round k's
 * partial is pushed, then round k - 1 is finished (its exchange hidden behind
 * round k's statistic); ahead = 0: each round waits for its own exchange.
 */
static __device__ __forceinline__ void xp_body(const uint4 *__restrict__ logits, const int *labels, uint4 *grad,
                                               float *loss, int M, int V, float scale, int S, int ahead,
                                               int streaming, const int dtype)
{
    unsigned char *base = (unsigned char *)dsm_dynamic_smem();
    xp_hdr *h = (xp_hdr *)base;
    int C = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int t = (int)threadIdx.x, T = (int)blockDim.x, vc = xent_row_chunks(V, dtype);
    xent_stat *red = (xent_stat *)(base + XP_HDR_BYTES);
    uint4 *buf0 = (uint4 *)(base + XP_HDR_BYTES + ((size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES + 127) / 128 * 128);
    int stride = xp_stage_chunks(vc, C), lo, hi;
    xent_slice(vc, C, q, &lo, &hi);
    int n = hi - lo;
    int c = (int)dsm_clusterid().x, G = (int)dsm_nclusterid().x;
    int K = c < M ? (M - 1 - c) / G + 1 : 0;
    if (t == 0) {
        for (int s = 0; s < S; ++s)
            dsm_mbarrier_init(&h->full[s], 1);
        for (int b = 0; b < XP_XBUF; ++b)
            dsm_mbarrier_init(&h->xbar[b], 1);
        dsm_fence_mbarrier_init();
        dsm_fence_proxy_async_shared_cta();
        for (int s = 0; s < S && s < K; ++s)
            xent_load_slice(buf0 + (size_t)s * stride, logits + (size_t)(c + s * G) * (size_t)vc + (size_t)lo, n,
                            &h->full[s]);
    }
    __syncthreads();
    dsm_barrier_cluster_arrive_relaxed();
    xent_stat prev = xent_stat_empty();
    for (int k = 0; k < K; ++k) {
        int s = k % S, row = c + k * G;
        dsm_mbarrier_wait_parity(&h->full[s], (uint32_t)(k / S) & 1u);
        xent_stat mine = xent_block_fold(red, xent_smem_stat(buf0 + (size_t)s * stride, n, t, T, dtype));
        if (k == 0)
            dsm_barrier_cluster_wait();
        xp_push(h, mine, k);
        if (ahead) {
            if (k > 0) {
                int j = k - 1, sj = j % S;
                xent_stat tot = xp_wait(h, prev, j);
                xp_finish(h, buf0 + (size_t)sj * stride, logits, labels, grad, loss, vc, lo, n, row - G, tot, scale,
                          dtype, j + S < K ? c + (j + S) * G : -1, sj, streaming);
            }
            prev = mine;
        } else {
            xent_stat tot = xp_wait(h, mine, k);
            xp_finish(h, buf0 + (size_t)s * stride, logits, labels, grad, loss, vc, lo, n, row, tot, scale, dtype,
                      k + S < K ? c + (k + S) * G : -1, s, streaming);
        }
    }
    if (ahead && K > 0) {
        int j = K - 1, sj = j % S;
        xent_stat tot = xp_wait(h, prev, j);
        xp_finish(h, buf0 + (size_t)sj * stride, logits, labels, grad, loss, vc, lo, n, c + j * G, tot, scale, dtype,
                  -1, sj, streaming);
    }
    if (K == 0)
        dsm_barrier_cluster_wait();
}

#define XP_PARAMS                                                                                                   \
    const uint4 *logits, const int *labels, uint4 *grad, float *loss, int M, int V, float scale, int S, int ahead, \
        int streaming
__global__ void __launch_bounds__(512, 1) xp_bf16(XP_PARAMS)
{
    xp_body(logits, labels, grad, loss, M, V, scale, S, ahead, streaming, XENT_BF16);
}
__global__ void __launch_bounds__(512, 1) xp_f32(XP_PARAMS)
{
    xp_body(logits, labels, grad, loss, M, V, scale, S, ahead, streaming, XENT_F32);
}

/*
 * One row per cluster (cluster c takes row c): rank q's slice lands in P
 * pieces, each a bulk copy on its own mbarrier, so the statistic of piece 0
 * starts while the others are in flight; then the exchange, the loss and the
 * gradient from shared memory.
 */
static __device__ __forceinline__ void xp1_body(const uint4 *__restrict__ logits, const int *labels, uint4 *grad,
                                                float *loss, int M, int V, float scale, int P, int streaming,
                                                const int dtype)
{
    unsigned char *base = (unsigned char *)dsm_dynamic_smem();
    xp_hdr *h = (xp_hdr *)base;
    int C = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int t = (int)threadIdx.x, T = (int)blockDim.x, vc = xent_row_chunks(V, dtype), e = xent_per_chunk(dtype);
    xent_stat *red = (xent_stat *)(base + XP_HDR_BYTES);
    uint4 *buf = (uint4 *)(base + XP_HDR_BYTES + ((size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES + 127) / 128 * 128);
    int lo, hi;
    xent_slice(vc, C, q, &lo, &hi);
    int n = hi - lo, row = (int)dsm_clusterid().x;
    int per = (n + P - 1) / P;
    const uint4 *src = logits + (size_t)row * (size_t)vc + (size_t)lo;
    if (t == 0) {
        for (int p = 0; p < P; ++p)
            dsm_mbarrier_init(&h->full[p], 1);
        dsm_mbarrier_init(&h->xbar[0], 1);
        dsm_fence_mbarrier_init();
        dsm_fence_proxy_async_shared_cta();
        for (int p = 0; p < P; ++p) {
            int a = p * per < n ? p * per : n, b = (p + 1) * per < n ? (p + 1) * per : n;
            xent_load_slice(buf + a, src + a, b - a, &h->full[p]);
        }
    }
    __syncthreads();
    dsm_barrier_cluster_arrive_relaxed();
    xent_stat mine = xent_stat_empty();
    float v[8];
    for (int p = 0; p < P; ++p) {
        int a = p * per < n ? p * per : n, b = (p + 1) * per < n ? (p + 1) * per : n;
        dsm_mbarrier_wait_parity(&h->full[p], 0u);
        for (int i = a + t; i < b; i += T) {
            xent_chunk_unpack(buf[i], dtype, v);
            xent_stat_add_chunk(&mine.m, &mine.s, v, e);
        }
    }
    mine = xent_block_fold(red, mine);
    dsm_barrier_cluster_wait();
    xp_push(h, mine, 0);
    xent_stat tot = xp_wait(h, mine, 0);
    xp_finish(h, buf, logits, labels, grad, loss, vc, lo, n, row, tot, scale, dtype, -1, 0, streaming);
    (void)M;
}
__global__ void __launch_bounds__(512, 1) xp1_bf16(XP_PARAMS)
{
    (void)ahead;
    xp1_body(logits, labels, grad, loss, M, V, scale, S, streaming, XENT_BF16);
}
__global__ void __launch_bounds__(512, 1) xp1_f32(XP_PARAMS)
{
    (void)ahead;
    xp1_body(logits, labels, grad, loss, M, V, scale, S, streaming, XENT_F32);
}

#endif
