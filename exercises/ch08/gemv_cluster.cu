/* gemv_cluster.cu: ch08.gemv_cluster: split-K decode GEMV in which the CTAs of a cluster take K slices of the same rows and reduce-scatter their partial sums through DSMEM; and its plan. */
#include "dsm.h"
#include "gemv_cluster.h"
#include "gemv_rowpar.h"
#include "reduce_scatter.h"


#define GEMV_CLUSTER_PARAMS                                                                                         \
    const uint4 *W, const uint4 *x, float *y, const float *bias, const float *residual, int M, int K, int nb,       \
        int rows, int unroll
#define GEMV_CLUSTER_TYPES                                                                                          \
    const uint4 *, const uint4 *, float *, const float *, const float *, int, int, int, int, int

/* One kernel per compiled token count: NB is a constant inside, so the
 * accumulators are registers (gemv_block.h). */
__global__ void GEMV_BOUNDS(1) gemv_cluster_t1(GEMV_CLUSTER_PARAMS)
{
    // TODO(ch08.gemv_cluster): the kernel for nb <= 1 (see gemv_cluster.h). The
    // kernels for 2, 4 and 8 tokens can share one inline function with this one.
    (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
}
DSM_KERNEL_ENTRY(gemv_cluster_t1, GEMV_CLUSTER_TYPES)

__global__ void GEMV_BOUNDS(2) gemv_cluster_t2(GEMV_CLUSTER_PARAMS)
{
    (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
}
DSM_KERNEL_ENTRY(gemv_cluster_t2, GEMV_CLUSTER_TYPES)

__global__ void GEMV_BOUNDS(4) gemv_cluster_t4(GEMV_CLUSTER_PARAMS)
{
    (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
}
DSM_KERNEL_ENTRY(gemv_cluster_t4, GEMV_CLUSTER_TYPES)

__global__ void GEMV_BOUNDS(8) gemv_cluster_t8(GEMV_CLUSTER_PARAMS)
{
    (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
}
DSM_KERNEL_ENTRY(gemv_cluster_t8, GEMV_CLUSTER_TYPES)

/* A cluster of one, as gemv_cluster_launch runs it: the row-parallel code in
 * kernels that hold no cluster instruction. The cluster kernel runs the same
 * code there (gemv_cluster_body), but on an H200 a kernel with cluster
 * instructions in it ran 0.1-0.2 us slower per plain launch, taken or not
 * (bench/hw/rs_protocols.cu, section S). */
#define GEMV_CLUSTER_ONE(NB_)                                                                                       \
    __global__ void GEMV_BOUNDS(NB_) gemv_cluster_one_t##NB_(GEMV_CLUSTER_PARAMS)                                  \
    {                                                                                                               \
        gemv_rowpar(W, x, y, bias, residual, M, K, nb, rows, unroll, NB_);                                          \
    }                                                                                                               \
    DSM_KERNEL_ENTRY(gemv_cluster_one_t##NB_, GEMV_CLUSTER_TYPES)
GEMV_CLUSTER_ONE(1)
GEMV_CLUSTER_ONE(2)
GEMV_CLUSTER_ONE(4)
GEMV_CLUSTER_ONE(8)

dsm_kernel_t gemv_cluster_one_kernel(int nb)
{
    return nb <= 1 ? DSM_KERNEL(gemv_cluster_one_t1)
         : nb <= 2 ? DSM_KERNEL(gemv_cluster_one_t2)
         : nb <= 4 ? DSM_KERNEL(gemv_cluster_one_t4)
                   : DSM_KERNEL(gemv_cluster_one_t8);
}

dsm_kernel_t gemv_cluster_kernel(int nb)
{
    return nb <= 1 ? DSM_KERNEL(gemv_cluster_t1)
         : nb <= 2 ? DSM_KERNEL(gemv_cluster_t2)
         : nb <= 4 ? DSM_KERNEL(gemv_cluster_t4)
                   : DSM_KERNEL(gemv_cluster_t8);
}

size_t gemv_cluster_smem(int rows, int threads, int nb)
{
    // TODO(ch08.gemv_cluster): what your kernel needs; 0 for what it cannot run.
    (void)rows; (void)threads; (void)nb;
    return 0;
}

dsm_error_t gemv_cluster_prepare(const gemv_plan *plan, int nb)
{
    // TODO(ch08.gemv_cluster): allow what the plan's shape needs.
    (void)plan; (void)nb;
    return dsmErrorNotSupported;
}


dsm_error_t gemv_cluster_plan(int M, int K, int nb, int sm_count, gemv_plan *plan)
{
    if (plan == NULL || M < 1 || K < 8 || K % 8 != 0 || nb < 1 || nb > 8 || sm_count < 1)
        return dsmErrorInvalidValue;
    // TODO(ch08.gemv_cluster): choose rows, split and threads by the rules of
    // gemv_cluster.h, asking the occupancy API what your shapes hold.
    return dsmErrorNotSupported;
}

dsm_error_t gemv_cluster_launch(const gemv_plan *plan, const void *W, const void *x, float *y, const float *bias,
                                const float *residual, int M, int K, int nb)
{
    dsm_error_t err = gemv_cluster_prepare(plan, nb);
    if (err != dsmSuccess)
        return err;
    int rows = plan->rows, unroll = plan->unroll;
    void *args[] = {(void *)&W, (void *)&x, &y, (void *)&bias, (void *)&residual, &M, &K, &nb, &rows, &unroll};
    /* A cluster of one needs no cluster attribute: every CTA of a plain launch
     * is a cluster of one, and a plain launch is cheaper (the chapter measures it).
     * It runs gemv_cluster_one_kernel, the same code without cluster instructions. */
    unsigned cluster = plan->split > 1 ? (unsigned)plan->split : 0u;
    dsm_kernel_t k = cluster ? gemv_cluster_kernel(nb) : gemv_cluster_one_kernel(nb);
    if (!cluster && plan->smem > (size_t)48 * 1024) {
        err = dsm_func_set_max_dynamic_smem(k, (int)plan->smem);
        if (err != dsmSuccess)
            return err;
    }
    dsm_launch_config cfg = {DSM_DIM3((unsigned)(plan->clusters * plan->split), 1, 1),
                             DSM_DIM3((unsigned)plan->threads, 1, 1), DSM_DIM3(cluster, 0 < cluster, 0 < cluster),
                             plan->smem};
    return dsm_launch(&cfg, k, args);
}
