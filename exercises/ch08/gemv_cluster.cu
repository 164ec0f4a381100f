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
     * is a cluster of one, and a plain launch is cheaper (the chapter measures it). */
    unsigned cluster = plan->split > 1 ? (unsigned)plan->split : 0u;
    dsm_launch_config cfg = {DSM_DIM3((unsigned)(plan->clusters * plan->split), 1, 1),
                             DSM_DIM3((unsigned)plan->threads, 1, 1), DSM_DIM3(cluster, 0 < cluster, 0 < cluster),
                             plan->smem};
    return dsm_launch(&cfg, gemv_cluster_kernel(nb), args);
}
