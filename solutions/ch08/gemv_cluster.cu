/* gemv_cluster.cu: ch08.gemv_cluster: split-K decode GEMV in which the CTAs of a cluster take K slices of the same rows and reduce-scatter their partial sums through DSMEM; and its plan. */
#include "dsm.h"
#include "gemv_cluster.h"
#include "gemv_rowpar.h"
#include "reduce_scatter.h"

// BEGIN SOLUTION
/* The reduce-scatter's mbarrier, after a receive buffer of n + 16 floats
 * (reduce_scatter_recv_floats(n, S) <= n + 15 for any S <= 16). recv starts
 * n floats after part, which starts an even number of floats into the
 * 128-byte aligned dynamic shared memory: recv + n + 16 is 8-byte aligned. */
static __device__ __forceinline__ uint64_t *gemv_cluster_landed(float *recv, int n)
{
    return (uint64_t *)(recv + n + REDUCE_SCATTER_MAX_CTAS);
}

/*
 * One cluster: `rows` rows of W, one K slice per CTA (gemv_slice of its rank),
 * the CTA's partial vector part[r * nb + b] reduced in the CTA
 * (gemv_block_reduce), then reduce-scattered over the cluster by pushing
 * (cluster_reduce_scatter: its start before the K loop, so that the one
 * cluster barrier's wait finds every peer long started; st.async of each
 * peer's share into its receive buffer; no barrier after); each CTA writes
 * the outputs of its share, with the epilogue. A cluster of one has nothing to
 * exchange: its partial vector is the sum, and it runs the row-parallel path,
 * no barrier at all.
 */
static __device__ __forceinline__ void gemv_cluster_body(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                         float *y, const float *bias, const float *residual, int M,
                                                         int K, int nb, int rows, int unroll, const int NB)
{
    int split = (int)dsm_cluster_nctarank();
    if (split == 1) {   /* nothing to exchange: the row-parallel kernel's code, the same loop */
        gemv_rowpar(W, x, y, bias, residual, M, K, nb, rows, unroll, NB);
        return;
    }
    const int RT = GEMV_RT(NB);
    int rank = (int)dsm_cluster_ctarank();
    int kc = K / 8, m0 = (int)dsm_clusterid().x * rows, nrows = M - m0 < rows ? M - m0 : rows;
    int warps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    int c0, c1;
    gemv_slice(kc, split, rank, &c0, &c1);
    gemv_warps g = gemv_warps_of(rows, RT, warps);
    float *red = (float *)dsm_dynamic_smem();
    float *part = red + gemv_red_floats(rows, (int)blockDim.x, NB);
    float *recv = part + rows * NB;     /* the reduce-scatter's receive buffer */
    uint64_t *landed = gemv_cluster_landed(recv, rows * NB);
    int n = nrows * nb;
    cluster_reduce_scatter_begin(landed, n);
    gemv_pdl_start(W, g, warp, lane, m0, nrows, kc, c0, c1, unroll, RT);

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

    cluster_reduce_scatter(part, recv, landed, n);
    int lo = reduce_scatter_lo(n, rank, split), hi = reduce_scatter_lo(n, rank + 1, split);
    for (int o = lo + (int)threadIdx.x; o < hi; o += (int)blockDim.x) {
        int m = m0 + o / nb, b = o % nb;
        float v = part[o];
        if (bias)
            v += bias[m];
        if (residual)
            v += residual[(size_t)b * (size_t)M + (size_t)m];
        y[(size_t)b * (size_t)M + (size_t)m] = v;
    }
}
// END SOLUTION

#define GEMV_CLUSTER_PARAMS                                                                                         \
    const uint4 *W, const uint4 *x, float *y, const float *bias, const float *residual, int M, int K, int nb,       \
        int rows, int unroll
#define GEMV_CLUSTER_TYPES                                                                                          \
    const uint4 *, const uint4 *, float *, const float *, const float *, int, int, int, int, int

/* One kernel per compiled token count: NB is a constant inside, so the
 * accumulators are registers (gemv_block.h). */
__global__ void GEMV_BOUNDS(1) gemv_cluster_t1(GEMV_CLUSTER_PARAMS)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.gemv_cluster): the kernel for nb <= 1 (see gemv_cluster.h). The
    //~ // kernels for 2, 4 and 8 tokens can share one inline function with this one.
    //~ (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
    gemv_cluster_body(W, x, y, bias, residual, M, K, nb, rows, unroll, 1);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(gemv_cluster_t1, GEMV_CLUSTER_TYPES)

__global__ void GEMV_BOUNDS(2) gemv_cluster_t2(GEMV_CLUSTER_PARAMS)
{
    // BEGIN SOLUTION
    //~ (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
    gemv_cluster_body(W, x, y, bias, residual, M, K, nb, rows, unroll, 2);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(gemv_cluster_t2, GEMV_CLUSTER_TYPES)

__global__ void GEMV_BOUNDS(4) gemv_cluster_t4(GEMV_CLUSTER_PARAMS)
{
    // BEGIN SOLUTION
    //~ (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
    gemv_cluster_body(W, x, y, bias, residual, M, K, nb, rows, unroll, 4);
    // END SOLUTION
}
DSM_KERNEL_ENTRY(gemv_cluster_t4, GEMV_CLUSTER_TYPES)

__global__ void GEMV_BOUNDS(8) gemv_cluster_t8(GEMV_CLUSTER_PARAMS)
{
    // BEGIN SOLUTION
    //~ (void)W; (void)x; (void)y; (void)bias; (void)residual; (void)M; (void)K; (void)nb; (void)rows; (void)unroll;
    gemv_cluster_body(W, x, y, bias, residual, M, K, nb, rows, unroll, 8);
    // END SOLUTION
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
    // BEGIN SOLUTION
    //~ // TODO(ch08.gemv_cluster): what your kernel needs; 0 for what it cannot run.
    //~ (void)rows; (void)threads; (void)nb;
    //~ return 0;
    if (rows < 1 || nb < 1 || nb > GEMV_NB_MAX || threads < 32 || threads > gemv_max_threads(nb) || threads % 32 != 0)
        return 0;
    /* the reduction buffer and the partial vector, then the receive buffer and the mbarrier */
    size_t n = (size_t)rows * (size_t)gemv_kernel_nb(nb);
    size_t bytes = gemv_block_smem(rows, threads, nb) + 4 * (n + REDUCE_SCATTER_MAX_CTAS) + 8;
    return bytes <= (size_t)227 * 1024 ? bytes : 0;
    // END SOLUTION
}

dsm_error_t gemv_cluster_prepare(const gemv_plan *plan, int nb)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.gemv_cluster): allow what the plan's shape needs.
    //~ (void)plan; (void)nb;
    //~ return dsmErrorNotSupported;
    dsm_kernel_t k = gemv_cluster_kernel(nb);
    dsm_error_t err = dsmSuccess;
    if (plan->split > 8)
        err = dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    if (err == dsmSuccess && plan->smem > (size_t)48 * 1024)
        err = dsm_func_set_max_dynamic_smem(k, (int)plan->smem);
    return err;
    // END SOLUTION
}

// BEGIN SOLUTION
/* Clusters of plan resident at once, as the occupancy API answers after prepare. */
static dsm_error_t resident_clusters(const gemv_plan *plan, int nb, int *resident)
{
    dsm_error_t err = gemv_cluster_prepare(plan, nb);
    if (err != dsmSuccess)
        return err;
    dsm_launch_config cfg = {DSM_DIM3(plan->split, 1, 1), DSM_DIM3(plan->threads, 1, 1),
                             DSM_DIM3(plan->split, 1, 1), plan->smem};
    return dsm_occupancy_max_active_clusters(resident, gemv_cluster_kernel(nb), &cfg);
}
// END SOLUTION

dsm_error_t gemv_cluster_plan(int M, int K, int nb, int sm_count, gemv_plan *plan)
{
    if (plan == NULL || M < 1 || K < 8 || K % 8 != 0 || nb < 1 || nb > 8 || sm_count < 1)
        return dsmErrorInvalidValue;
    // BEGIN SOLUTION
    //~ // TODO(ch08.gemv_cluster): choose rows, split and threads by the rules of
    //~ // gemv_cluster.h, asking the occupancy API what your shapes hold.
    //~ return dsmErrorNotSupported;
    int kc = K / 8, max_split = kc < 16 ? kc : 16;
    /* Rows per cluster: as many as still leave two clusters per SM, so that
     * whole rows need no split and the launch no cluster attribute. With 4
     * and 8 tokens, at least 8: each x chunk a thread loads serves its rt
     * rows, and the CTA's rows share their slice of x in L1, so x costs less
     * per weight; splitting K keeps the SMs busy instead. */
    int min_rows = nb > 2 ? 8 : 1, rows = 16;
    while (rows > min_rows && (M + rows - 1) / rows < 2 * sm_count)
        rows /= 2;
    for (; rows >= 1; rows /= 2) {
        int clusters = (M + rows - 1) / rows;
        int split = clusters >= sm_count ? 1 : (sm_count + clusters - 1) / clusters; /* the least that gives every SM a CTA */
        if (split > max_split)
            continue;
        /* 256 threads, fewer when the occupancy API holds too few (registers, shared memory) */
        for (int threads = 256; threads >= 32; threads /= 2) {
            gemv_plan p = {split, rows, threads, nb <= 2 ? 4 : 2, gemv_cluster_smem(rows, threads, nb), clusters};
            if (p.smem == 0)
                continue;
            int resident = 0;
            dsm_error_t err = resident_clusters(&p, nb, &resident);
            if (err != dsmSuccess)
                return err;
            int wave = resident < clusters ? resident : clusters;
            if (resident >= 1 && (long long)wave * split >= sm_count) {
                *plan = p;
                return dsmSuccess;
            }
        }
    }
    return dsmErrorLaunchOutOfResources;
    // END SOLUTION
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
