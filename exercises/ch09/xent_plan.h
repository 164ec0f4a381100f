/* xent_plan.h: ch09.xent_plan: the cluster size, threads and grid of the fused cross-entropy kernel for a shape, from the vocabulary, the dtype and the occupancy API. */
#ifndef CH09_XENT_PLAN_H
#define CH09_XENT_PLAN_H

#include "dsm_host.h"
#include "xent_cluster.h"

/* How to launch xent_cluster_bf16 / _f32: clusters of `cluster` CTAs of
 * `threads` threads, `clusters` clusters (one row each), `smem` bytes of
 * dynamic shared memory; `resident` is the occupancy API's clusters at once
 * for that shape (kept for the caller's report). */
typedef struct xent_plan {
    int cluster, threads, clusters, resident;
    size_t smem;
} xent_plan;

/* The kernel for a dtype. */
static inline dsm_kernel_t xent_cluster_kernel(int dtype)
{
    return dtype == XENT_BF16 ? DSM_KERNEL(xent_cluster_bf16) : DSM_KERNEL(xent_cluster_f32);
}

/* The fewest threads (a multiple of 32, at least 128) that hold a slice of a
 * row split C ways; 0 when not even 512 do. */
static inline int xent_plan_threads(int V, int dtype, int C)
{
    int lo, hi;
    xent_slice(xent_row_chunks(V, dtype), C, 0, &lo, &hi);
    int T = ((hi - lo + XENT_REG_CHUNKS - 1) / XENT_REG_CHUNKS + 31) / 32 * 32;
    T = T < 128 ? 128 : T;
    return xent_cluster_fits(V, dtype, C, T) ? T : 0;
}

/* Sets the attributes the kernel needs for clusters of C and T threads: the
 * shared memory of its largest block (an attribute is a ceiling for every
 * later launch: setting it for a small block would make a larger one fail),
 * and non-portable clusters above 8. */
static inline dsm_error_t xent_cluster_prepare(int dtype, int C, int T)
{
    dsm_kernel_t k = xent_cluster_kernel(dtype);
    dsm_error_t e = dsm_func_set_max_dynamic_smem(k, (int)xent_cluster_smem(T > 512 ? T : 512));
    if (e == dsmSuccess && C > 8)
        e = dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    return e;
}

// BOOK-BEGIN(contract)
/*
 * xent_plan_make: the plan for M rows of V logits of `dtype` on the current
 * device of sm_count SMs. Among cluster sizes C = 1, 2, 4, 8, 16, each with
 * the fewest threads that hold its slice (xent_plan_threads; a C whose slice
 * no 512 threads hold is out), and whose shape the occupancy API accepts
 * (dsm_occupancy_max_active_clusters > 0, after xent_cluster_prepare):
 *   - the smallest C whose resident CTAs (clusters at once x C) are at least
 *     2 x sm_count (two CTAs per SM: one drains while another loads) and whose
 *     M x C CTAs give every SM one (M x C >= sm_count);
 *   - else (few rows) the largest C with two CTAs per SM: the rows spread
 *     over as many SMs as possible;
 *   - else the C with the most resident CTAs (the smallest on a tie).
 * clusters = M (one row per cluster), smem = xent_cluster_smem(threads).
 * Returns dsmSuccess, or dsmErrorInvalidValue for M < 1 or a V no C holds.
 */
// BOOK-END(contract)
static inline dsm_error_t xent_plan_make(int M, int V, int dtype, int sm_count, xent_plan *plan)
{
    // TODO(ch09.xent_plan): try the cluster sizes, ask the occupancy API, choose by the rule above.
    (void)M; (void)V; (void)dtype; (void)sm_count; (void)plan;
    return dsmErrorInvalidValue;
}

#endif
