/* xent_gmem.cu: the global-memory twin of the cluster kernel: the same split, slices and pipeline, the partial statistics through a global workspace and a per-row arrival counter instead of DSMEM. */
#include "dsm.h"
#include "xent_block.h"
#include "xent_slice.h"
#include "xent_kernels.h"

/*
 * Launch: G groups of C consecutive CTAs (CTA b is rank b % C of group b / C),
 * T threads, XENT_HEAD_BYTES-free layout: (T + 32) * 8 bytes rounded to 16,
 * then two slices (xent_gmem_smem). Group g takes rows g, g + G, ...; ws holds
 * M * C statistics, flag M * C arrival flags that only ever grow (zero them
 * before the first launch of a configuration: every launch must cover all M
 * rows with the same C). Every CTA of a group must be resident together:
 * launch as clusters of C (co-scheduled by the hardware) or cooperatively.
 * Per row, thread 0 stores its partial and releases it by raising its flag
 * to this launch's epoch (st.release.gpu), spins (ld.acquire.gpu) until its
 * C - 1 peers' flags reach the same epoch, then folds ws in rank order.
 */
static __device__ __forceinline__ void xent_gmem_body(const uint4 *logits, const int *labels, uint4 *grad, float *loss,
                                                      xent_stat *ws, uint32_t *flag, int M, int V, int C,
                                                      float scale, const int dtype)
{
    int q = (int)blockIdx.x % C, g = (int)blockIdx.x / C, G = (int)gridDim.x / C;
    int t = (int)threadIdx.x, T = (int)blockDim.x, e = xent_per_chunk(dtype), vc = xent_row_chunks(V, dtype);
    int lo, hi, l0, h0;
    xent_slice(vc, C, q, &lo, &hi);
    xent_slice(vc, C, 0, &l0, &h0);
    int n = hi - lo;
    __shared__ uint64_t full[2];
    __shared__ xent_stat result;
    xent_stat *red = (xent_stat *)dsm_dynamic_smem();
    uint4 *buf0 = (uint4 *)((char *)red + xent_fold_smem(T));
    uint4 *bufs[2] = {buf0, buf0 + (h0 - l0)};
    if (t == 0) {
        dsm_mbarrier_init(&full[0], 1);
        dsm_mbarrier_init(&full[1], 1);
        if (g < M)
            xent_load_slice(bufs[0], logits + (size_t)g * (size_t)vc + (size_t)lo, n, &full[0]);
    }
    int k = 0;
    for (int row = g; row < M && G > 0; row += G, ++k) {
        int b = k & 1;
        __syncthreads();    /* the barriers' init (k = 0); everyone is done with bufs[b ^ 1] */
        const uint4 *next = row + G < M ? logits + (size_t)(row + G) * (size_t)vc + (size_t)lo : NULL;
#if defined(__CUDACC__)
        if (t == 0 && next)
            xent_load_slice(bufs[b ^ 1], next, n, &full[b ^ 1]);
#endif
        dsm_mbarrier_wait_parity(&full[b], (uint32_t)(k >> 1) & 1u);
        const uint4 *s = bufs[b];
        xent_stat mine = xent_block_fold(red, xent_smem_stat(s, n, t, T, dtype));
        if (t == 0) {
            if (C > 1) {
                uint32_t *mine_flag = &flag[(size_t)row * (size_t)C + (size_t)q];
                uint32_t epoch = *mine_flag + 1u;   /* only this CTA writes it: its count of launches */
                ws[(size_t)row * (size_t)C + (size_t)q] = mine;
                dsm_st_release_gpu_u32(mine_flag, epoch);
                for (int p = 0; p < C; ++p)
                    while (p != q && (int32_t)(dsm_ld_acquire_gpu_u32(&flag[(size_t)row * (size_t)C + (size_t)p]) -
                                               epoch) < 0) {
                    }
                mine = xent_stat_fold(ws + (size_t)row * (size_t)C, C);
            }
            result = mine;
        }
        __syncthreads();
#if !defined(__CUDACC__)
        /* The emulator cannot yet wake a thread spinning on a flag while a bulk
         * copy of its cluster is in flight, so there the next slice starts after
         * the exchange; on the GPU, before (above), as in the cluster kernel. */
        if (t == 0 && next)
            xent_load_slice(bufs[b ^ 1], next, n, &full[b ^ 1]);
#endif
        xent_stat total = result;
        int label = labels[row];
        if (t == 0 && (label == XENT_IGNORE ? q == 0 : (label / e >= lo && label / e < hi)))
            loss[row] = xent_row_loss(total, label == XENT_IGNORE ? 0.0f : xent_element(s, label - lo * e, dtype),
                                      label);
        xent_grad_chunks(s, grad + (size_t)row * (size_t)vc + (size_t)lo, n, t, T, dtype, lo * e, label, total, scale);
    }
}

#define XENT_GMEM_PARAMS                                                                                             \
    const uint4 *logits, const int *labels, uint4 *grad, float *loss, xent_stat *ws, uint32_t *flag, int M, int V, \
        int C, float scale
#define XENT_GMEM_TYPES const uint4 *, const int *, uint4 *, float *, xent_stat *, uint32_t *, int, int, int, float

__global__ void __launch_bounds__(1024) xent_gmem_bf16(XENT_GMEM_PARAMS)
{
    xent_gmem_body(logits, labels, grad, loss, ws, flag, M, V, C, scale, XENT_BF16);
}
DSM_KERNEL_ENTRY(xent_gmem_bf16, XENT_GMEM_TYPES)

__global__ void __launch_bounds__(1024) xent_gmem_f32(XENT_GMEM_PARAMS)
{
    xent_gmem_body(logits, labels, grad, loss, ws, flag, M, V, C, scale, XENT_F32);
}
DSM_KERNEL_ENTRY(xent_gmem_f32, XENT_GMEM_TYPES)
