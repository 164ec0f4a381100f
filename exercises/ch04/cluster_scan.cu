/* cluster_scan.cu: ch04.cluster_scan: each cluster of up to 16 CTAs holds a segment in its CTAs' shared memory, scans it, and adds the totals of the lower ranks read through DSMEM; the host picks the cluster size and the grid from the occupancy API. */
#include "dsm.h"
#include "cluster_scan.h"

/*
 * The kernel's contract (course/ch04.ini states it as the task; the tests check exactly this):
 *
 * Launch: a 1-D grid of G clusters of c CTAs (1 <= c <= 16, 1 <= G <= segments),
 * CLUSTER_SCAN_THREADS threads per CTA, 4 * ceil(seg_len / c) bytes of dynamic
 * shared memory per CTA, launched by cluster_scan_launch (cluster_scan.h).
 *
 * Work: cluster g (dsm_clusterid().x) scans the segments g, g + G, g + 2G, ...
 * < segments: out[s * seg_len + i] = in[s * seg_len] + ... + in[s * seg_len + i]
 * (mod 2^32). The CTA of rank r holds the elements [r * share, min(seg_len,
 * (r + 1) * share)) of each of them, share = ceil(seg_len / c), in its dynamic
 * shared memory: the last ranks may hold fewer elements, or none.
 *
 * Mechanism:
 * - Global memory: every element of `in` is read exactly once, by the CTA that
 *   holds it, and every element of `out` written exactly once, by the same
 *   CTA; nothing else.
 * - The CTAs of a cluster combine their totals through distributed shared
 *   memory (a CTA needs the sum of the totals of the lower ranks).
 * - Every thread passes at most S + 1 cluster barriers, S the number of
 *   segments its cluster scans.
 */
__global__ void cluster_scan(uint32_t *out, const uint32_t *in, uint32_t seg_len, uint32_t segments)
{
    // TODO(ch04.cluster_scan): yours to design, from the contract above.
    (void)out;
    (void)in;
    (void)seg_len;
    (void)segments;
}
DSM_KERNEL_ENTRY(cluster_scan, uint32_t *, const uint32_t *, uint32_t, uint32_t)

/* Largest dynamic shared memory a launch may use without the attribute. */
#define SCAN_DEFAULT_DYNAMIC_SMEM ((size_t)48 * 1024)

dsm_error_t cluster_scan_plan(uint32_t seg_len, int segments, scan_plan *plan)
{
    if (seg_len == 0 || segments < 1 || plan == NULL)
        return dsmErrorInvalidValue;
    dsm_kernel_t kernel = DSM_KERNEL(cluster_scan);
    // TODO(ch04.cluster_scan): the smallest cluster size whose shape the
    // occupancy API says can run, once the kernel is allowed to (cluster_scan.h).
    (void)kernel;
    return dsmErrorNotSupported;
}

dsm_error_t cluster_scan_launch(uint32_t *out, const uint32_t *in, uint32_t seg_len, int segments,
                                const scan_plan *plan)
{
    if (out == NULL || in == NULL || plan == NULL || seg_len == 0 || segments < 1)
        return dsmErrorInvalidValue;
    int c = plan->cluster_size;
    if (c < 1 || c > 16 || plan->clusters < 1 || plan->clusters > segments ||
        plan->smem_bytes != 4 * (size_t)((seg_len + (uint32_t)c - 1) / (uint32_t)c))
        return dsmErrorInvalidValue;
    dsm_kernel_t kernel = DSM_KERNEL(cluster_scan);
    // TODO(ch04.cluster_scan): opt the kernel in to the plan's shape, launch
    // it and wait for it.
    (void)kernel;
    return dsmErrorNotSupported;
}
