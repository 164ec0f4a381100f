/* blas.c: the vendor's GEMM (cuBLAS cublasGemmEx, bf16 in, fp32 out) on a stream of the host API, for families that set their kernels beside it; the emulator build has none and says so. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_internal.h"

#ifdef DSM_BACKEND_CUDA
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#define BLAS_WORKSPACE_BYTES ((size_t)64 << 20)

struct bench_blas {
    cublasHandle_t handle;
    void *workspace;
};

bench_blas *bench_blas_open(dsm_stream_t stream, char *why, size_t why_len)
{
    bench_blas *h = calloc(1, sizeof *h);
    if (h == NULL) {
        snprintf(why, why_len, "no host memory for a cuBLAS handle");
        return NULL;
    }
    /* a dsm_stream_t on the GPU build is the cudaStream_t (runtime/hopper/host_cuda.c) */
    if (cublasCreate(&h->handle) != CUBLAS_STATUS_SUCCESS) {
        free(h);
        snprintf(why, why_len, "cuBLAS did not initialise on this GPU");
        return NULL;
    }
    if (cublasSetStream(h->handle, (cudaStream_t)(void *)stream) != CUBLAS_STATUS_SUCCESS ||
        dsm_malloc(&h->workspace, BLAS_WORKSPACE_BYTES) != dsmSuccess ||
        cublasSetWorkspace(h->handle, h->workspace, BLAS_WORKSPACE_BYTES) != CUBLAS_STATUS_SUCCESS) {
        bench_blas_close(h);
        snprintf(why, why_len, "cuBLAS did not accept the run's stream or its workspace");
        return NULL;
    }
    return h;
}

void bench_blas_close(bench_blas *h)
{
    if (h == NULL)
        return;
    cublasDestroy(h->handle);
    dsm_free(h->workspace);
    free(h);
}

dsm_error_t bench_blas_gemm_bf16_tn(bench_blas *h, int m, int n, int k, const void *a, int lda, const void *b,
                                    int ldb, float *c, int ldc)
{
    const float alpha = 1.0f, beta = 0.0f;
    if (h == NULL)
        return dsmErrorInvalidValue;
    cublasStatus_t st = cublasGemmEx(h->handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, a, CUDA_R_16BF, lda, b,
                                     CUDA_R_16BF, ldb, &beta, c, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS ? dsmSuccess : dsmErrorUnknown;
}
#else
struct bench_blas {
    int none;
};

bench_blas *bench_blas_open(dsm_stream_t stream, char *why, size_t why_len)
{
    (void)stream;
    snprintf(why, why_len, "the emulator build has no cuBLAS (it is linked in the GPU build only)");
    return NULL;
}

void bench_blas_close(bench_blas *h) { (void)h; }

dsm_error_t bench_blas_gemm_bf16_tn(bench_blas *h, int m, int n, int k, const void *a, int lda, const void *b,
                                    int ldb, float *c, int ldc)
{
    (void)h, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc;
    return dsmErrorNotSupported;
}
#endif
