/* gemv_splitk_atomic.cu: ch08.gemv_splitk_atomic: split-K decode GEMV without clusters: y set to the epilogue first, then every K slice's CTA adds its partial sums with fp32 global atomics. */
#include "dsm.h"
#include "gemv_splitk_atomic.h"
#include "dot_bf16.h"

__global__ void gemv_atomic_init(float *y, const float *bias, const float *residual, int M, int nb)
{
    /* programmatic dependent launch (a no-op without it): the kernel before has finished with y */
    dsm_griddepcontrol_launch_dependents();
    dsm_griddepcontrol_wait();
    // TODO(ch08.gemv_splitk_atomic): what must y hold before the slices add into it?
    (void)y; (void)bias; (void)residual; (void)M; (void)nb;
}
DSM_KERNEL_ENTRY(gemv_atomic_init, float *, const float *, const float *, int, int)

static __device__ __forceinline__ void gemv_splitk_atomic(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                          float *y, int M, int K, int nb, int rows, int split,
                                                          int unroll, const int NB)
{
    // TODO(ch08.gemv_splitk_atomic): this CTA's rows and K slice, its threads'
    // partial sums (dot_bf16_accumulate, gemv_store_partial, gemv_block_reduce),
    // then one atomicAdd per output.
    (void)W; (void)x; (void)y; (void)M; (void)K; (void)nb; (void)rows; (void)split; (void)unroll; (void)NB;
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
