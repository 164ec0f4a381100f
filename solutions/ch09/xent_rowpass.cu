/* xent_rowpass.cu: fused cross-entropy with one CTA per row and two passes over global memory (Liger-Kernel's design): read the row for its statistic, read it again for the gradient. */
#include "dsm.h"
#include "xent_block.h"
#include "xent_stat.h"
#include "xent_slice.h"

/*
 * Launch: any number of CTAs (CTA b takes rows b, b + gridDim.x, ...), T
 * threads, (T + 32) * 8 bytes of dynamic shared memory (xent_block_fold).
 * Parameters and results as xent_cluster_bf16 (xent_cluster.h).
 */
static __device__ __forceinline__ void xent_rowpass_body(const uint4 *__restrict__ logits, const int *labels,
                                                         uint4 *grad, float *loss, int M, int V, float scale,
                                                         const int dtype)
{
    int t = (int)threadIdx.x, T = (int)blockDim.x, vc = xent_row_chunks(V, dtype);
    xent_stat *red = (xent_stat *)dsm_dynamic_smem();
    for (int row = (int)blockIdx.x; row < M; row += (int)gridDim.x) {
        const uint4 *x = logits + (size_t)row * (size_t)vc;
        xent_stat total = xent_block_fold(red, xent_gmem_stat(x, vc, t, T, dtype));
        int label = labels[row];
        if (t == 0)
            loss[row] = xent_row_loss(total, label == XENT_IGNORE ? 0.0f : xent_element(x, label, dtype), label);
        xent_grad_chunks(x, grad + (size_t)row * (size_t)vc, vc, t, T, dtype, 0, label, total, scale);
    }
}

#define XENT_PARAMS const uint4 *logits, const int *labels, uint4 *grad, float *loss, int M, int V, float scale
#define XENT_TYPES const uint4 *, const int *, uint4 *, float *, int, int, float

__global__ void __launch_bounds__(1024) xent_rowpass_bf16(XENT_PARAMS)
{
    xent_rowpass_body(logits, labels, grad, loss, M, V, scale, XENT_BF16);
}
DSM_KERNEL_ENTRY(xent_rowpass_bf16, XENT_TYPES)

__global__ void __launch_bounds__(1024) xent_rowpass_f32(XENT_PARAMS)
{
    xent_rowpass_body(logits, labels, grad, loss, M, V, scale, XENT_F32);
}
DSM_KERNEL_ENTRY(xent_rowpass_f32, XENT_TYPES)
