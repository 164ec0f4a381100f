/* gemv_splitk_atomic.cu: ch08.gemv_splitk_atomic: split-K decode GEMV without clusters: y set to the epilogue first, then every K slice's CTA adds its partial sums with fp32 global atomics. */
#include "dsm.h"
#include "gemv_splitk_atomic.h"
#include "dot_bf16.h"

__global__ void gemv_atomic_init(float *y, const float *bias, const float *residual, int M, int nb)
{
    /* programmatic dependent launch (a no-op without it): the kernel before has finished with y */
    dsm_griddepcontrol_launch_dependents();
    dsm_griddepcontrol_wait();
    // BEGIN SOLUTION
    //~ // TODO(ch08.gemv_splitk_atomic): what must y hold before the slices add into it?
    //~ (void)y; (void)bias; (void)residual; (void)M; (void)nb;
    size_t n = (size_t)M * (size_t)nb;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v = 0.0f;
        if (bias)
            v += bias[i % (size_t)M];
        if (residual)
            v += residual[i];
        y[i] = v;
    }
    // END SOLUTION
}
DSM_KERNEL_ENTRY(gemv_atomic_init, float *, const float *, const float *, int, int)

static __device__ __forceinline__ void gemv_splitk_atomic(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                          float *y, int M, int K, int nb, int rows, int split,
                                                          int unroll, const int NB)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.gemv_splitk_atomic): this CTA's rows and K slice, its threads'
    //~ // partial sums (dot_bf16_accumulate, gemv_store_partial, gemv_block_reduce),
    //~ // then one atomicAdd per output.
    //~ (void)W; (void)x; (void)y; (void)M; (void)K; (void)nb; (void)rows; (void)split; (void)unroll; (void)NB;
    const int RT = GEMV_RT(NB);
    int tile = (int)blockIdx.x / split, s = (int)blockIdx.x % split;
    int kc = K / 8, m0 = tile * rows, nrows = M - m0 < rows ? M - m0 : rows;
    int warps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    int c0, c1;
    gemv_slice(kc, split, s, &c0, &c1);
    gemv_warps g = gemv_warps_of(rows, RT, warps);
    float *red = (float *)dsm_dynamic_smem();
    float *part = red + gemv_red_floats(rows, (int)blockDim.x, NB);

    for (int u = warp; u < g.units; u += warps) {
        int group = u / g.parts, h = u % g.parts;
        if (group * RT >= nrows)
            break;
        float acc[GEMV_ACC_MAX];
        for (int j = 0; j < RT * NB; ++j)
            acc[j] = 0.0f;
        dot_bf16_accumulate(W, x, m0 + nrows, kc, m0 + group * RT, nb, c0 + h * 32 + lane, c1, 32 * g.parts, unroll, acc,
                            RT, NB);
        gemv_store_partial(red, g, u, lane, acc, RT * NB);
    }
    gemv_block_reduce(red, part, g, nrows, nb, RT, NB);
    for (int o = (int)threadIdx.x; o < nrows * nb; o += (int)blockDim.x)
        atomicAdd(&y[(size_t)(o % nb) * (size_t)M + (size_t)(m0 + o / nb)], part[o]);
    // END SOLUTION
}

/* Programmatic dependent launch (a no-op without it): the slices add into the
 * y that the init kernel before them wrote, so they wait for it first. */
static __device__ __forceinline__ void gemv_atomic_pdl(void)
{
    dsm_griddepcontrol_launch_dependents();
    dsm_griddepcontrol_wait();
}

#define GEMV_ATOMIC_PARAMS const uint4 *W, const uint4 *x, float *y, int M, int K, int nb, int rows, int split, int unroll
#define GEMV_ATOMIC_TYPES const uint4 *, const uint4 *, float *, int, int, int, int, int, int

__global__ void GEMV_BOUNDS(1) gemv_splitk_atomic_t1(GEMV_ATOMIC_PARAMS) {
    gemv_atomic_pdl();
    gemv_splitk_atomic(W, x, y, M, K, nb, rows, split, unroll, 1);
}
DSM_KERNEL_ENTRY(gemv_splitk_atomic_t1, GEMV_ATOMIC_TYPES)
__global__ void GEMV_BOUNDS(2) gemv_splitk_atomic_t2(GEMV_ATOMIC_PARAMS) {
    gemv_atomic_pdl();
    gemv_splitk_atomic(W, x, y, M, K, nb, rows, split, unroll, 2);
}
DSM_KERNEL_ENTRY(gemv_splitk_atomic_t2, GEMV_ATOMIC_TYPES)
__global__ void GEMV_BOUNDS(4) gemv_splitk_atomic_t4(GEMV_ATOMIC_PARAMS) {
    gemv_atomic_pdl();
    gemv_splitk_atomic(W, x, y, M, K, nb, rows, split, unroll, 4);
}
DSM_KERNEL_ENTRY(gemv_splitk_atomic_t4, GEMV_ATOMIC_TYPES)
__global__ void GEMV_BOUNDS(8) gemv_splitk_atomic_t8(GEMV_ATOMIC_PARAMS) {
    gemv_atomic_pdl();
    gemv_splitk_atomic(W, x, y, M, K, nb, rows, split, unroll, 8);
}
DSM_KERNEL_ENTRY(gemv_splitk_atomic_t8, GEMV_ATOMIC_TYPES)

dsm_kernel_t gemv_atomic_init_kernel(void) { return DSM_KERNEL(gemv_atomic_init); }

dsm_kernel_t gemv_splitk_atomic_kernel(int nb)
{
    return nb <= 1 ? DSM_KERNEL(gemv_splitk_atomic_t1)
         : nb <= 2 ? DSM_KERNEL(gemv_splitk_atomic_t2)
         : nb <= 4 ? DSM_KERNEL(gemv_splitk_atomic_t4)
                   : DSM_KERNEL(gemv_splitk_atomic_t8);
}

dsm_error_t gemv_splitk_atomic_launch(const void *W, const void *x, float *y, const float *bias,
                                      const float *residual, int M, int K, int nb, int rows, int split, int threads,
                                      int unroll)
{
    size_t n = (size_t)M * (size_t)nb, smem = gemv_block_smem(rows, threads, nb);
    unsigned init_blocks = (unsigned)((n + 255) / 256);
    void *init_args[] = {&y, (void *)&bias, (void *)&residual, &M, &nb};
    dsm_launch_config init = {DSM_DIM3(init_blocks, 1, 1), DSM_DIM3(256, 1, 1), DSM_DIM3(0, 0, 0), 0};
    dsm_error_t err = dsm_launch(&init, DSM_KERNEL(gemv_atomic_init), init_args);
    if (err != dsmSuccess)
        return err;
    dsm_kernel_t k = gemv_splitk_atomic_kernel(nb);
    if (smem > (size_t)48 * 1024 && (err = dsm_func_set_max_dynamic_smem(k, (int)smem)) != dsmSuccess)
        return err;
    unsigned tiles = (unsigned)((M + rows - 1) / rows);
    void *args[] = {(void *)&W, (void *)&x, &y, &M, &K, &nb, &rows, &split, &unroll};
    dsm_launch_config cfg = {DSM_DIM3(tiles * (unsigned)split, 1, 1), DSM_DIM3((unsigned)threads, 1, 1),
                             DSM_DIM3(0, 0, 0), smem};
    return dsm_launch(&cfg, k, args);
}
