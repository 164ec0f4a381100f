/* gemv_twokernel.cu: split-K decode GEMV without clusters and without atomics: the K slices write their partial sums to a workspace in global memory, a second kernel adds them in slice order (benchmark baseline of chapter 8). */
#include "dsm.h"
#include "dot_bf16.h"

/*
 * gemv_partial_t<NB>(W, x, ws, M, K, nb, rows, split, unroll): the launch of
 * gemv_splitk_atomic (gemv_splitk_atomic.h), but CTA t * split + s stores its
 * partial sums instead of adding them: ws[(s * nb + b) * M + m] for its rows m
 * and tokens b. Every slice writes its own part of ws: no atomics, no zeroing.
 */
static __device__ __forceinline__ void gemv_partial(const uint4 *__restrict__ W, const uint4 *__restrict__ x, float *ws,
                                                    int M, int K, int nb, int rows, int split, int unroll, const int NB)
{
    const int RT = GEMV_RT(NB);
    int tile = (int)blockIdx.x / split, s = (int)blockIdx.x % split;
    int kc = K / 8, m0 = tile * rows, nrows = M - m0 < rows ? M - m0 : rows;
    int warps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    int c0, c1;
    gemv_slice(kc, split, s, &c0, &c1);
    gemv_warps g = gemv_warps_of(rows, RT, warps);
    float *red = (float *)dsm_dynamic_smem();
    float *part = red + gemv_red_floats(rows, (int)blockDim.x, NB);
    gemv_pdl_start(W, g, warp, lane, m0, nrows, kc, c0, c1, unroll, RT);

    for (int u = warp; u < g.units; u += warps) {
        int group = u / g.parts, h = u % g.parts;
        if (group * RT >= nrows)
            break;
        float acc[GEMV_ACC_MAX];
        for (int j = 0; j < RT * NB; ++j)
            acc[j] = 0.0f;
        dot_bf16_accumulate(W, x, m0 + nrows, kc, m0 + group * RT, nb, c0 + h * 32 + lane, c1, 32 * g.parts, unroll,
                            acc, RT, NB);
        gemv_store_partial(red, g, u, lane, acc, RT * NB);
    }
    gemv_block_reduce(red, part, g, nrows, nb, RT, NB);
    for (int o = (int)threadIdx.x; o < nrows * nb; o += (int)blockDim.x)
        ws[((size_t)s * (size_t)nb + (size_t)(o % nb)) * (size_t)M + (size_t)(m0 + o / nb)] = part[o];
}

#define GEMV_PARTIAL_PARAMS const uint4 *W, const uint4 *x, float *ws, int M, int K, int nb, int rows, int split, int unroll
#define GEMV_PARTIAL_TYPES const uint4 *, const uint4 *, float *, int, int, int, int, int, int

__global__ void GEMV_BOUNDS(1) gemv_partial_t1(GEMV_PARTIAL_PARAMS) { gemv_partial(W, x, ws, M, K, nb, rows, split, unroll, 1); }
DSM_KERNEL_ENTRY(gemv_partial_t1, GEMV_PARTIAL_TYPES)
__global__ void GEMV_BOUNDS(2) gemv_partial_t2(GEMV_PARTIAL_PARAMS) { gemv_partial(W, x, ws, M, K, nb, rows, split, unroll, 2); }
DSM_KERNEL_ENTRY(gemv_partial_t2, GEMV_PARTIAL_TYPES)
__global__ void GEMV_BOUNDS(4) gemv_partial_t4(GEMV_PARTIAL_PARAMS) { gemv_partial(W, x, ws, M, K, nb, rows, split, unroll, 4); }
DSM_KERNEL_ENTRY(gemv_partial_t4, GEMV_PARTIAL_TYPES)
__global__ void GEMV_BOUNDS(8) gemv_partial_t8(GEMV_PARTIAL_PARAMS) { gemv_partial(W, x, ws, M, K, nb, rows, split, unroll, 8); }
DSM_KERNEL_ENTRY(gemv_partial_t8, GEMV_PARTIAL_TYPES)

/* The second kernel: any 1-D grid, 1 <= split <= 16; y[b * M + m] = sum over s in order of
 * ws[(s * nb + b) * M + m], plus bias[m] and residual[b * M + m] when given.
 * Consecutive threads take consecutive m: every read of ws is coalesced. */
__global__ void gemv_reduce_partials(const float *ws, float *y, const float *bias, const float *residual, int M, int nb,
                                     int split)
{
    size_t n = (size_t)M * (size_t)nb;
    dsm_griddepcontrol_launch_dependents();
    dsm_griddepcontrol_wait();  /* with PDL: the partials of the kernel before are complete and visible */
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float t[16];    /* all loads in flight first (split <= 16), then the sum in slice order */
        for (int s = 0; s < 16; ++s)
            t[s] = s < split ? ws[(size_t)s * n + i] : 0.0f;
        float v = t[0];
        for (int s = 1; s < 16; ++s)
            if (s < split)
                v += t[s];
        if (bias)
            v += bias[i % (size_t)M];
        if (residual)
            v += residual[i];
        y[i] = v;
    }
}
DSM_KERNEL_ENTRY(gemv_reduce_partials, const float *, float *, const float *, const float *, int, int, int)
