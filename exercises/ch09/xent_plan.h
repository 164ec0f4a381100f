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

/* Chunks of a slice each thread of the plan handles: enough work per
 * thread that more threads would only take the SM's thread slots from its
 * other CTAs. */
#define XENT_PLAN_CHUNKS_PER_THREAD 16

/* The threads of the plan for clusters of C: a multiple of 32 that gives
 * each thread at most XENT_PLAN_CHUNKS_PER_THREAD chunks of the largest
 * slice, at least 128 and at most 512; 0 when the slice does not fit in one
 * CTA's shared memory. */
static inline int xent_plan_threads(int V, int dtype, int C)
{
    int n = xent_slice_chunks(V, dtype, C);
    int T = ((n + XENT_PLAN_CHUNKS_PER_THREAD - 1) / XENT_PLAN_CHUNKS_PER_THREAD + 31) / 32 * 32;
    T = T < 128 ? 128 : T > 512 ? 512 : T;
    return xent_cluster_fits(V, dtype, C, T) ? T : 0;
}

/* Sets the attributes a launch with clusters of C and smem bytes of dynamic
 * shared memory needs: the most dynamic shared memory (a ceiling for every
 * later launch: a launch that needs more must prepare again), and
 * non-portable clusters above 8. */
static inline dsm_error_t xent_cluster_prepare(int dtype, int C, size_t smem)
{
    dsm_kernel_t k = xent_cluster_kernel(dtype);
    dsm_error_t e = dsm_func_set_max_dynamic_smem(k, (int)smem);
    if (e == dsmSuccess && C > 8)
        e = dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    return e;
}

// BOOK-BEGIN(contract)
/*
 * xent_plan_make: the plan for M rows of V logits of `dtype` on the current
 * device of sm_count SMs. For each cluster size C = 1, 2, ..., 16 with
 * threads T = xent_plan_threads(V, dtype, C) (a C whose slice does not fit
 * is out) and smem = xent_cluster_smem(V, dtype, C, T), after
 * xent_cluster_prepare(dtype, C, smem), the occupancy API gives the clusters resident at
 * once (dsm_occupancy_max_active_clusters; 0 is out); per_sm = that x C /
 * sm_count CTAs per SM (integer division), and the bytes in flight per SM
 * while one of its CTAs computes and stores are
 *     flight(C) = (per_sm - 1) x 16 x xent_slice_chunks(V, dtype, C).
 * The plan's C:
 *   - first the C <= 8 (portable clusters) with the largest flight(C) > 0,
 *     the smallest on a tie;
 *   - else (no C <= 8 keeps two CTAs per SM) the C <= 16 with the largest
 *     flight(C) > 0, the smallest on a tie;
 *   - else the smallest C that launches;
 *   - then, for few rows (M x C < sm_count: some SMs would get no CTA), the
 *     smallest C that launches with M x C >= sm_count instead, or, when none
 *     does, the largest C that launches (each row over as many SMs as
 *     possible).
 * clusters = M (one row per cluster), resident = the occupancy API's answer
 * for the chosen C; the kernel is left prepared for the plan. Returns dsmSuccess, or dsmErrorInvalidValue for M < 1 or
 * a V no C holds.
 */
// BOOK-END(contract)
static inline dsm_error_t xent_plan_make(int M, int V, int dtype, int sm_count, xent_plan *plan)
{
    // TODO(ch09.xent_plan): try the cluster sizes, ask the occupancy API, choose by the rule above.
    (void)M; (void)V; (void)dtype; (void)sm_count; (void)plan;
    return dsmErrorInvalidValue;
}

#endif
