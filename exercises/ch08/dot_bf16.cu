/* dot_bf16.cu: the row-parallel decode GEMV (no split): each CTA computes whole rows of y = W x with ch08.dot_bf16's inner loop; the baseline of chapter 8. */
#include "dsm.h"
#include "dot_bf16.h"

// BOOK-BEGIN(rowpar)
/*
 * gemv_rowpar_t<NB>: y = W x (gemv_block.h) for nb <= NB tokens, no split of K.
 * Launch: ceil(M / rows) CTAs (no cluster), blockDim.x a multiple of 32 (at
 * most 1024), dynamic shared memory gemv_block_smem(rows, blockDim.x, nb).
 * CTA t computes rows [t * rows, t * rows + rows) over the whole of K; unroll
 * is dot_bf16_accumulate's.
 */
static __device__ __forceinline__ void gemv_rowpar(const uint4 *__restrict__ W, const uint4 *__restrict__ x, float *y,
                                                   int M, int K, int nb, int rows, int unroll, const int NB)
{
    const int RT = GEMV_RT(NB);
    int kc = K / 8, m0 = (int)blockIdx.x * rows, nrows = M - m0 < rows ? M - m0 : rows;
    int warps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    gemv_warps g = gemv_warps_of(rows, RT, warps);
    float *red = (float *)dsm_dynamic_smem();
    float *part = red + gemv_red_floats(rows, (int)blockDim.x, NB);

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
    for (int o = (int)threadIdx.x; o < nrows * nb; o += (int)blockDim.x)
        y[(size_t)(o % nb) * (size_t)M + (size_t)(m0 + o / nb)] = part[o];
}
// BOOK-END(rowpar)

__global__ void GEMV_BOUNDS(1) gemv_rowpar_t1(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, M, K, nb, rows, unroll, 1);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t1, const uint4 *, const uint4 *, float *, int, int, int, int, int)

__global__ void GEMV_BOUNDS(2) gemv_rowpar_t2(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, M, K, nb, rows, unroll, 2);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t2, const uint4 *, const uint4 *, float *, int, int, int, int, int)

__global__ void GEMV_BOUNDS(4) gemv_rowpar_t4(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, M, K, nb, rows, unroll, 4);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t4, const uint4 *, const uint4 *, float *, int, int, int, int, int)

__global__ void GEMV_BOUNDS(8) gemv_rowpar_t8(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, M, K, nb, rows, unroll, 8);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t8, const uint4 *, const uint4 *, float *, int, int, int, int, int)
