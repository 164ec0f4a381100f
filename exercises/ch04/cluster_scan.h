/* cluster_scan.h: ch04.cluster_scan: an inclusive prefix sum over the CTAs of a cluster of up to 16, through DSMEM. */
#ifndef CH04_CLUSTER_SCAN_H
#define CH04_CLUSTER_SCAN_H

#include <stdint.h>
#include "dsm_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per CTA of cluster_scan. */
#define CLUSTER_SCAN_THREADS 128

/* Computes, for each cluster g of `clusters` clusters of cluster_size CTAs,
 * the inclusive prefix sum (mod 2^32) of its segment in[g * L, (g + 1) * L),
 * L = cluster_size * per_cta, into out[g * L, ...): CTA b handles
 * in[b * per_cta, (b + 1) * per_cta). Opts the kernel in to clusters above 8
 * and waits for it. dsmErrorInvalidValue when per_cta or clusters is below 1
 * or cluster_size is outside 1..16; otherwise the first error of the launch
 * or the kernel. */
dsm_error_t cluster_scan_launch(uint32_t *out, const uint32_t *in, int per_cta, int cluster_size, int clusters);

#ifdef __cplusplus
}
#endif

#endif
