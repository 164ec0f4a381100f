/* big_histogram.h: ch04.big_histogram: a histogram whose bins do not fit in one CTA, spread over a cluster whose size is chosen from the bin count. */
#ifndef CH04_BIG_HISTOGRAM_H
#define CH04_BIG_HISTOGRAM_H

#include <stdint.h>
#include "dsm_host.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Threads per CTA of big_histogram. */
#define BIG_HISTOGRAM_THREADS 256

/* Shared memory one CTA may use on Hopper after opting in: 227 KB. */
#define BIG_HISTOGRAM_SMEM_PER_CTA_MAX ((size_t)227 * 1024)

/* The fewest CTAs (1..16) whose shared memory, at most 227 KB each, holds
 * nbins 32-bit bins; 0 when nbins < 1 or when even 16 CTAs cannot. */
int big_histogram_min_cluster_size(int nbins);

/* Adds input[0..n) to bins[0..nbins) (values >= nbins count in the last bin)
 * with `clusters` clusters of `cluster_size` CTAs of 256 threads running
 * big_histogram, each CTA holding ceil(nbins / cluster_size) bins in dynamic
 * shared memory; cluster_size 0 means big_histogram_min_cluster_size(nbins).
 * Opts the kernel in to what the shape needs (dynamic shared memory above
 * 48 KB, clusters above 8) and waits for the kernel. bins must start at zero.
 * dsmErrorInvalidValue when nbins, n or clusters is below 1, or the cluster
 * size is above 16 or too small to hold the bins; otherwise the first error
 * of the launch or the kernel. */
dsm_error_t big_histogram_launch(uint32_t *bins, int nbins, const uint32_t *input, int n, int cluster_size,
                                 int clusters);

#ifdef __cplusplus
}
#endif

#endif
