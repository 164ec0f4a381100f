/* cluster_scan.h: ch04.cluster_scan: inclusive prefix sums of segments held in the shared memory of clusters of up to 16 CTAs, sized and launched from the occupancy API. */
#ifndef CH04_CLUSTER_SCAN_H
#define CH04_CLUSTER_SCAN_H

#include <stddef.h>
#include <stdint.h>
#include "dsm_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per CTA of cluster_scan. */
#define CLUSTER_SCAN_THREADS 128

/* The shape of a launch of cluster_scan. */
typedef struct scan_plan {
    int cluster_size;  /* CTAs per cluster, 1..16 */
    int clusters;      /* clusters in the grid, 1..segments */
    size_t smem_bytes; /* dynamic shared memory per CTA: 4 * ceil(seg_len / cluster_size), its share of a segment */
} scan_plan;

/* Plans the scan of `segments` segments of seg_len words on the GPU it runs on
 * (on the emulator: the device model of DSM_EMU_DEVICE):
 * - cluster_size: the smallest size c in 1..16 for which the occupancy API
 *   (dsm_occupancy_max_active_clusters) reports at least one resident cluster
 *   of c CTAs of CLUSTER_SCAN_THREADS threads with smem_bytes of dynamic
 *   shared memory, asked only after the kernel has been opted in to that
 *   shape (the non-portable attribute above 8 CTAs, the dynamic shared memory
 *   attribute above 48 KB; a share that no attribute can allow is skipped);
 * - clusters: min(segments, the resident clusters of that shape);
 * - smem_bytes: 4 * ceil(seg_len / cluster_size).
 * On return the kernel's attributes allow the planned shape.
 * Errors: dsmErrorInvalidValue for seg_len 0, segments < 1 or a NULL plan;
 * dsmErrorLaunchOutOfResources when no size holds a segment; any other error
 * of the runtime as it came. */
dsm_error_t cluster_scan_plan(uint32_t seg_len, int segments, scan_plan *plan);

/* Scans: for every segment s < segments, out[s * seg_len + i] = in[s *
 * seg_len] + ... + in[s * seg_len + i] (mod 2^32), with cluster_scan launched
 * in the shape of `plan` (which need not be the one cluster_scan_plan would
 * choose). Opts the kernel in to that shape first, whatever attributes it had,
 * and waits for the kernel. Errors: dsmErrorInvalidValue for seg_len 0,
 * segments < 1, a NULL pointer, a cluster size outside 1..16, clusters
 * outside 1..segments, or smem_bytes other than 4 * ceil(seg_len /
 * cluster_size); otherwise the first error of the attributes, the launch or
 * the kernel. */
dsm_error_t cluster_scan_launch(uint32_t *out, const uint32_t *in, uint32_t seg_len, int segments,
                                const scan_plan *plan);

#ifdef __cplusplus
}
#endif

#endif
