/* xent_twokernel.cu: fused cross-entropy as two kernels over the same split as the cluster kernel: per-slice statistics into a global workspace, then merge, loss and gradient (the slice read a second time). */
#include "dsm.h"
#include "xent_block.h"
#include "xent_stat.h"
#include "xent_slice.h"

/*
 * Both kernels: M * C CTAs, CTA b takes slice b % C (xent_slice of the row's
 * chunks) of row b / C; T threads, (T + 32) * 8 bytes of dynamic shared
 * memory. ws holds M * C statistics. The first writes ws[row * C + q]; the
 * second, launched after it, folds ws[row * C ..] in rank order and writes
 * the loss (from the CTA that holds the label) and the slice's gradient.
 */
static __device__ __forceinline__ void xent_split_stat_body(const uint4 *__restrict__ logits, xent_stat *ws, int C,
                                                            int V, const int dtype)
{
    int t = (int)threadIdx.x, T = (int)blockDim.x, vc = xent_row_chunks(V, dtype);
    int row = (int)blockIdx.x / C, q = (int)blockIdx.x % C, lo, hi;
    xent_slice(vc, C, q, &lo, &hi);
    xent_stat *red = (xent_stat *)dsm_dynamic_smem();
    xent_stat s = xent_block_fold(red, xent_gmem_stat(logits + (size_t)row * (size_t)vc + (size_t)lo, hi - lo, t, T,
                                                      dtype));
    if (t == 0)
        ws[(size_t)row * (size_t)C + (size_t)q] = s;
}

static __device__ __forceinline__ void xent_split_grad_body(const uint4 *__restrict__ logits, const int *labels,
                                                            const xent_stat *ws, uint4 *grad, float *loss, int C, int V,
                                                            float scale, const int dtype)
{
    int t = (int)threadIdx.x, T = (int)blockDim.x, e = xent_per_chunk(dtype), vc = xent_row_chunks(V, dtype);
    int row = (int)blockIdx.x / C, q = (int)blockIdx.x % C, lo, hi;
    xent_slice(vc, C, q, &lo, &hi);
    xent_stat total = xent_stat_fold(ws + (size_t)row * (size_t)C, C);
    const uint4 *x = logits + (size_t)row * (size_t)vc;
    int label = labels[row];
    if (t == 0 && (label == XENT_IGNORE ? q == 0 : (label / e >= lo && label / e < hi)))
        loss[row] = xent_row_loss(total, label == XENT_IGNORE ? 0.0f : xent_element(x, label, dtype), label);
    xent_grad_chunks(x + lo, grad + (size_t)row * (size_t)vc + (size_t)lo, hi - lo, t, T, dtype, lo * e, label, total,
                     scale);
}

#define XENT_STAT_PARAMS const uint4 *logits, xent_stat *ws, int C, int V
#define XENT_STAT_TYPES const uint4 *, xent_stat *, int, int
#define XENT_GRAD_PARAMS                                                                                             \
    const uint4 *logits, const int *labels, const xent_stat *ws, uint4 *grad, float *loss, int C, int V, float scale
#define XENT_GRAD_TYPES const uint4 *, const int *, const xent_stat *, uint4 *, float *, int, int, float

__global__ void __launch_bounds__(1024) xent_split_stat_bf16(XENT_STAT_PARAMS)
{
    xent_split_stat_body(logits, ws, C, V, XENT_BF16);
}
DSM_KERNEL_ENTRY(xent_split_stat_bf16, XENT_STAT_TYPES)

__global__ void __launch_bounds__(1024) xent_split_stat_f32(XENT_STAT_PARAMS)
{
    xent_split_stat_body(logits, ws, C, V, XENT_F32);
}
DSM_KERNEL_ENTRY(xent_split_stat_f32, XENT_STAT_TYPES)

__global__ void __launch_bounds__(1024) xent_split_grad_bf16(XENT_GRAD_PARAMS)
{
    xent_split_grad_body(logits, labels, ws, grad, loss, C, V, scale, XENT_BF16);
}
DSM_KERNEL_ENTRY(xent_split_grad_bf16, XENT_GRAD_TYPES)

__global__ void __launch_bounds__(1024) xent_split_grad_f32(XENT_GRAD_PARAMS)
{
    xent_split_grad_body(logits, labels, ws, grad, loss, C, V, scale, XENT_F32);
}
DSM_KERNEL_ENTRY(xent_split_grad_f32, XENT_GRAD_TYPES)
