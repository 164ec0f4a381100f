/* dot_bf16.cu: the row-parallel decode GEMV (no split): each CTA computes whole rows of y = W x with ch08.dot_bf16's inner loop; the baseline of chapter 8. */
#include "dsm.h"
#include "gemv_rowpar.h"


__global__ void GEMV_BOUNDS(1) gemv_rowpar_t1(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, NULL, NULL, M, K, nb, rows, unroll, 1);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t1, const uint4 *, const uint4 *, float *, int, int, int, int, int)

__global__ void GEMV_BOUNDS(2) gemv_rowpar_t2(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, NULL, NULL, M, K, nb, rows, unroll, 2);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t2, const uint4 *, const uint4 *, float *, int, int, int, int, int)

__global__ void GEMV_BOUNDS(4) gemv_rowpar_t4(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, NULL, NULL, M, K, nb, rows, unroll, 4);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t4, const uint4 *, const uint4 *, float *, int, int, int, int, int)

__global__ void GEMV_BOUNDS(8) gemv_rowpar_t8(const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int unroll)
{
    gemv_rowpar(W, x, y, NULL, NULL, M, K, nb, rows, unroll, 8);
}
DSM_KERNEL_ENTRY(gemv_rowpar_t8, const uint4 *, const uint4 *, float *, int, int, int, int, int)
