/* gemv_rowpar.h: the row-parallel decode GEMV (no split): each CTA computes whole rows of y = W x with ch08.dot_bf16's inner loop; the baseline of chapter 8, and the cluster kernel's code in a cluster of one. */
#ifndef CH08_GEMV_ROWPAR_H
#define CH08_GEMV_ROWPAR_H

#include "dsm.h"
#include "dot_bf16.h"

// BOOK-BEGIN(rowpar)
/*
 * gemv_rowpar: y = W x (+ bias) (+ residual) (gemv_block.h; bias and residual
 * may be NULL) for nb <= NB tokens, no split of K. Launch: ceil(M / rows) CTAs
 * (no cluster, or clusters of one), blockDim.x a multiple of 32 (at most
 * 1024), dynamic shared memory of at least gemv_block_smem(rows, blockDim.x,
 * nb). CTA t computes rows [t * rows, t * rows + rows) over the whole of K;
 * unroll is dot_bf16_accumulate's. The row-parallel kernels run it, and so
 * does the cluster kernel in a cluster of one.
 */
static __device__ __forceinline__ void gemv_rowpar(const uint4 *__restrict__ W, const uint4 *__restrict__ x, float *y,
                                                   const float *bias, const float *residual, int M, int K, int nb,
                                                   int rows, int unroll, const int NB)
{
    const int RT = GEMV_RT(NB);
    int kc = K / 8, m0 = (int)blockIdx.x * rows, nrows = M - m0 < rows ? M - m0 : rows;
    int warps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    gemv_warps g = gemv_warps_of(rows, RT, warps);
    float *red = (float *)dsm_dynamic_smem();
    float *part = red + gemv_red_floats(rows, (int)blockDim.x, NB);
    gemv_pdl_start(W, g, warp, lane, m0, nrows, kc, 0, kc, unroll, RT);

    for (int u = warp; u < g.units; u += warps) {
        int group = u / g.parts, h = u % g.parts;
        if (group * RT >= nrows)
            break;      /* rows past M: the units after this one are past M too */
        float acc[GEMV_ACC_MAX];
        for (int j = 0; j < RT * NB; ++j)
            acc[j] = 0.0f;
        dot_bf16_accumulate(W, x, m0 + nrows, kc, m0 + group * RT, nb, h * 32 + lane, kc, 32 * g.parts, unroll, acc, RT, NB);
        gemv_store_partial(red, g, u, lane, acc, RT * NB);
    }
    gemv_block_reduce(red, part, g, nrows, nb, RT, NB);
    for (int o = (int)threadIdx.x; o < nrows * nb; o += (int)blockDim.x) {
        int m = m0 + o / nb, b = o % nb;
        float v = part[o];
        if (bias)
            v += bias[m];
        if (residual)
            v += residual[(size_t)b * (size_t)M + (size_t)m];
        y[(size_t)b * (size_t)M + (size_t)m] = v;
    }
}
// BOOK-END(rowpar)

#endif
