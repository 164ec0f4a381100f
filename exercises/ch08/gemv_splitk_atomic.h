/* gemv_splitk_atomic.h: ch08.gemv_splitk_atomic: split-K decode GEMV without clusters, the partial sums added into y with fp32 global atomics after y was set to the epilogue. */
#ifndef CH08_GEMV_SPLITK_ATOMIC_H
#define CH08_GEMV_SPLITK_ATOMIC_H

#include "dsm_host.h"

#ifdef __cplusplus
extern "C" {
#endif

// BOOK-BEGIN(contract)
/*
 * Two kernels, launched one after the other on the same stream:
 *
 * gemv_atomic_init(float *y, const float *bias, const float *residual, int M, int nb):
 *   any 1-D grid and block size; sets every y[b * M + m] (b < nb, m < M) to
 *   bias[m] + residual[b * M + m], a missing (NULL) term counting as 0.
 *
 * gemv_splitk_atomic_kernel(nb) (nb <= 1, 2, 4, 8 as in gemv_block.h) takes
 *     const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int split, int unroll
 *   Launch: ceil(M / rows) * split CTAs, no cluster, blockDim.x a multiple of
 *   32 (at most 1024), gemv_block_smem(rows, blockDim.x, nb) bytes of dynamic
 *   shared memory; 1 <= split <= K / 8. CTA t * split + s computes the partial
 *   sums of rows [t * rows, min(M, t * rows + rows)) over K slice s
 *   (gemv_slice(K / 8, split, s)), reads each byte of that part of W once,
 *   sums its threads' partials in shared memory, and adds each of its outputs
 *   to y with ONE atomicAdd: never a plain store into y, which the other
 *   slices are adding into at the same time.
 * The order in which the slices' atomics land is up to the GPU: the sums are
 * right, their last bits may differ from run to run.
 */
// BOOK-END(contract)
dsm_kernel_t gemv_atomic_init_kernel(void);
dsm_kernel_t gemv_splitk_atomic_kernel(int nb);

/* Launches both kernels (the init with 256 threads per CTA) on the default
 * stream; returns the first launch error. */
dsm_error_t gemv_splitk_atomic_launch(const void *W, const void *x, float *y, const float *bias,
                                      const float *residual, int M, int K, int nb, int rows, int split, int threads,
                                      int unroll);

#ifdef __cplusplus
}
#endif

#endif
