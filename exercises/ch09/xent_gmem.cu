/* xent_gmem.cu: the global-memory twin of the cluster kernel: the same split, slices copied into shared memory and loop, the partial statistics through a global workspace and per-row arrival flags instead of DSMEM. */
#include "dsm.h"
#include "xent_block.h"
#include "xent_stat.h"
#include "xent_slice.h"
#include "xent_kernels.h"
#include "xent_onchip.h"

/*
 * Launch: G groups of C consecutive CTAs (CTA b is rank b % C of group b / C),
 * T threads and xent_cluster_smem(V, dtype, C, T) bytes of dynamic shared
 * memory, as for xent_cluster_bf16. Group
 * g takes rows g, g + G, ...; ws holds M * C statistics, flag M * C arrival
 * flags that only ever grow (zero them before the first launch of a
 * configuration: every launch covers all M rows with the same C). Every CTA
 * of a group must be resident together: launch as clusters of C (the
 * hardware co-schedules a cluster) or cooperatively (the whole grid at once).
 * Per row, thread 0 stores its partial and releases it by raising its flag to
 * this launch's epoch (st.release.gpu), spins (ld.acquire.gpu) until its
 * C - 1 peers' flags reach the same epoch, then folds ws in rank order.
 */
static __device__ __forceinline__ void xent_gmem_body(const uint4 *__restrict__ logits, const int *labels,
                                                      uint4 *grad, float *loss, xent_stat *ws, uint32_t *flag, int M,
                                                      int V, int C, float scale, const int dtype)
{
    __shared__ xent_stat result;
    __shared__ uint64_t landed[XENT_PIECES];
    int q = (int)blockIdx.x % C, G = (int)gridDim.x / C;
    int t = (int)threadIdx.x, T = (int)blockDim.x, vc = xent_row_chunks(V, dtype);
    int lo, hi;
    xent_slice(vc, C, q, &lo, &hi);
    int n = hi - lo, row = (int)blockIdx.x / C;
    xent_stat *red = (xent_stat *)dsm_dynamic_smem();
    uint4 *buf = xent_onchip_buffer(T);
    if (t == 0) {
        xent_onchip_init(landed);
        if (row < M && G > 0)
            xent_onchip_load(buf, logits + (size_t)row * (size_t)vc + (size_t)lo, n, landed);
    }
    __syncthreads();
    for (int k = 0; row < M && G > 0; row += G, ++k) {
        xent_stat mine = xent_block_fold(red, xent_onchip_stat(buf, n, landed, (uint32_t)k & 1u, t, T, dtype));
        if (t == 0) {
            if (C > 1) {
                uint32_t *own = &flag[(size_t)row * (size_t)C + (size_t)q];
                uint32_t epoch = *own + 1u;     /* only this CTA writes it: its count of launches */
                ws[(size_t)row * (size_t)C + (size_t)q] = mine;
                dsm_st_release_gpu_u32(own, epoch);
                for (int p = 0; p < C; ++p)
                    while (p != q && (int32_t)(dsm_ld_acquire_gpu_u32(&flag[(size_t)row * (size_t)C + (size_t)p]) -
                                               epoch) < 0) {
                    }
                mine = xent_stat_fold(ws + (size_t)row * (size_t)C, C);
            }
            result = mine;
        }
        __syncthreads();
        xent_onchip_finish(buf, n, t, T, dtype, lo, q, labels[row], result, scale,
                           grad + (size_t)row * (size_t)vc + (size_t)lo, &loss[row]);
        __syncthreads();            /* every thread done with buf (and result): the next row may land */
        if (t == 0 && row + G < M)
            xent_onchip_load(buf, logits + (size_t)(row + G) * (size_t)vc + (size_t)lo, n, landed);
    }
}

#define XENT_GMEM_PARAMS                                                                                             \
    const uint4 *logits, const int *labels, uint4 *grad, float *loss, xent_stat *ws, uint32_t *flag, int M, int V,  \
        int C, float scale
#define XENT_GMEM_TYPES const uint4 *, const int *, uint4 *, float *, xent_stat *, uint32_t *, int, int, int, float

__global__ void __launch_bounds__(512) xent_gmem_bf16(XENT_GMEM_PARAMS)
{
    xent_gmem_body(logits, labels, grad, loss, ws, flag, M, V, C, scale, XENT_BF16);
}
DSM_KERNEL_ENTRY(xent_gmem_bf16, XENT_GMEM_TYPES)

__global__ void __launch_bounds__(512) xent_gmem_f32(XENT_GMEM_PARAMS)
{
    xent_gmem_body(logits, labels, grad, loss, ws, flag, M, V, C, scale, XENT_F32);
}
DSM_KERNEL_ENTRY(xent_gmem_f32, XENT_GMEM_TYPES)
