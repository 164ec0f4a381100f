/* gemv_cluster.h: ch08.gemv_cluster, the contract: the split-K decode GEMV whose K slices are the CTAs of a cluster and whose partial sums meet in DSMEM, and the plan that shapes it for a GPU. */
#ifndef CH08_GEMV_CLUSTER_H
#define CH08_GEMV_CLUSTER_H

#include <stddef.h>
#include "dsm_host.h"
#include "gemv_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

// BOOK-BEGIN(kernel-contract)
/*
 * THE KERNEL. gemv_cluster_kernel(nb) returns the kernel that runs nb tokens
 * (1 <= nb <= 8); it takes, in this order,
 *     const uint4 *W, const uint4 *x, float *y, const float *bias,
 *     const float *residual, int M, int K, int nb, int rows, int unroll
 * and computes, for every row m < M and token b < nb,
 *     y[b * M + m] = sum_k W[m][k] * x[b][k]  (+ bias[m])  (+ residual[b * M + m])
 * (layout: gemv_block.h; bias and residual may each be NULL: no term).
 *
 * Launch: plan->clusters * plan->split CTAs in 1-D clusters of plan->split
 * (1..16, at most K / 8; a split of 1 may also be a plain launch, in which
 * every CTA is a cluster of one), plan->threads threads (a multiple of 32, at
 * most gemv_max_threads(nb): 1024 up to 2 tokens, 512 for 4, 256 for 8, what
 * the registers of GEMV_BOUNDS allow), plan->smem =
 * gemv_cluster_smem(rows, threads, nb) bytes of dynamic shared memory, after
 * gemv_cluster_prepare. Cluster c owns rows [c * rows, min(M, (c + 1) * rows));
 * `unroll` (1, 2 or 4) is a hint your kernel may ignore. What the tests
 * require, on every schedule:
 *   - the right y (exactly, for data whose sums fp32 represents exactly),
 *     with the same bits in every run: no atomics anywhere, global or DSMEM;
 *   - split-K: every CTA of a cluster reads one contiguous slice of K of every
 *     row its cluster owns, the slices of a cluster's CTAs cover the row, and
 *     no byte of W is read twice;
 *   - a reduce-scatter through DSMEM: the cluster's outputs (row, token) are
 *     shared among its CTAs, each CTA owning at most ceil(rows of the cluster
 *     / split) rows' worth; each output's partial sums cross from the CTAs
 *     that computed them to the one that owns it through DSMEM, and nothing
 *     else does: (split - 1) * (rows of the cluster) * nb * 4 bytes per
 *     cluster, loads or stores. The owner writes the output, once;
 *   - at most two cluster barriers per thread.
 * The kernel must run every configuration this file's functions accept:
 * gemv_cluster_smem nonzero for (rows, threads, nb) means that it does; it
 * must accept at least rows 1..16 with threads 32..gemv_max_threads(nb). On
 * the GPU that is a promise about registers too, which the emulator does not
 * model: the tests launch every block size on the GPU.
 */
// BOOK-END(kernel-contract)
dsm_kernel_t gemv_cluster_kernel(int nb);

/* Dynamic shared memory, in bytes, of one CTA of the kernel for nb tokens with
 * `rows` rows per cluster and `threads` threads; 0 when your kernel does not
 * support that configuration (threads above gemv_max_threads(nb) among them).
 * At most 227 KB. */
size_t gemv_cluster_smem(int rows, int threads, int nb);

/* A launch shape. */
typedef struct gemv_plan {
    int split;      /* CTAs per cluster = slices of K, 1..16 */
    int rows;       /* rows of W per cluster */
    int threads;    /* threads per CTA */
    int unroll;     /* 16-byte loads in flight per thread and row: 1, 2 or 4 (a hint) */
    size_t smem;    /* gemv_cluster_smem(rows, threads, nb) */
    int clusters;   /* ceil(M / rows) */
} gemv_plan;

// BOOK-BEGIN(plan-contract)
/*
 * THE PLAN, for y = W x with W M x K (K a positive multiple of 8), nb tokens,
 * on a GPU of sm_count SMs. Any plan that follows these rules is right; the
 * tests check each on every GPU the course models, for the shapes of the
 * chapter and random ones (with M * min(16, K / 8) >= sm_count):
 *   1. it is valid: the fields as above, 1 <= split <= min(16, K / 8);
 *   2. it runs: after gemv_cluster_prepare, the occupancy API holds at least
 *      one cluster of it;
 *   3. the first wave keeps every SM busy: of its clusters, those resident at
 *      once (min(clusters, what the occupancy API holds)) have at least
 *      sm_count CTAs together;
 *   4. it splits K no further than that takes: split == 1, or
 *      clusters * (split - 1) < sm_count.
 * Returns dsmErrorInvalidValue for a bad argument, dsmErrorLaunchOutOfResources
 * when no plan fits, any error of the runtime as it came.
 */
dsm_error_t gemv_cluster_plan(int M, int K, int nb, int sm_count, gemv_plan *plan);
// BOOK-END(plan-contract)

/* Sets the kernel attributes a plan needs (non-portable clusters above 8,
 * dynamic shared memory above 48 KB) on gemv_cluster_kernel(nb). */
dsm_error_t gemv_cluster_prepare(const gemv_plan *plan, int nb);

/* The kernel a plan of split 1 runs (gemv_cluster_launch): gemv_rowpar with
 * the epilogue, in a kernel without cluster instructions; the parameters of
 * gemv_cluster_kernel(nb). */
dsm_kernel_t gemv_cluster_one_kernel(int nb);

/* gemv_cluster_prepare, then launches the plan on the default stream, a split
 * of 1 as a plain launch of gemv_cluster_one_kernel(nb) (what dsm_launch
 * returns; synchronize to see execution errors). */
dsm_error_t gemv_cluster_launch(const gemv_plan *plan, const void *W, const void *x, float *y, const float *bias,
                                const float *residual, int M, int K, int nb);

#ifdef __cplusplus
}
#endif

#endif
