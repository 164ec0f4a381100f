/* fit_cluster.h: ch04.fit_cluster: choose the cluster shape for a working set that one cluster shares through DSMEM, opt in to what it needs, and launch it. */
#ifndef CH04_FIT_CLUSTER_H
#define CH04_FIT_CLUSTER_H

#include "dsm_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shape fit_cluster_plan chose. */
typedef struct cluster_plan {
    int cluster_size;       /* CTAs per cluster, 1..16 */
    size_t smem_per_cta;    /* dynamic shared memory per CTA: the CTA's share of the working set */
    int resident_clusters;  /* clusters of this shape the GPU holds at once (the occupancy API's answer) */
} cluster_plan;

/* The share of a working set of `bytes` that each of `cluster_size` CTAs
 * holds: ceil(bytes / cluster_size) rounded up to a multiple of 16 bytes. */
size_t fit_cluster_share(size_t bytes, int cluster_size);

/* Plans a launch of `kernel` (blocks of `threads` threads, no static shared
 * memory) in which every cluster holds one copy of a working set of `bytes`
 * bytes, spread evenly over its CTAs (fit_cluster_share). Of the cluster sizes
 * 1..16, chooses the one with the most clusters resident at once (the most
 * working sets in flight), the smaller size on a tie. Before asking the
 * occupancy API about a size it opts the kernel in to what that size needs:
 * the non-portable attribute above 8 CTAs, the dynamic shared memory
 * attribute above 48 KB; a size whose share cannot be allowed, or of which no
 * cluster is resident, is skipped. On return the kernel's attributes allow
 * the chosen shape. Errors: dsmErrorInvalidValue for bytes == 0, a NULL
 * argument, or threads outside 1..1024; dsmErrorLaunchOutOfResources when no
 * size fits (the working set is too large for any cluster); any other error
 * of the runtime as it came. */
dsm_error_t fit_cluster_plan(dsm_kernel_t kernel, int threads, size_t bytes, cluster_plan *plan);

/* fit_cluster_plan, then launches `kernel` with `args` in
 * min(plan->resident_clusters, max_clusters) clusters of the chosen shape (a
 * persistent kernel launches exactly the resident ones; tests launch fewer),
 * and waits for it. Returns the first error of the plan, the launch or the
 * kernel. */
dsm_error_t fit_cluster_launch(dsm_kernel_t kernel, void **args, int threads, size_t bytes, int max_clusters,
                               cluster_plan *plan);

#ifdef __cplusplus
}
#endif

#endif
