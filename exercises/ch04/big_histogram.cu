/* big_histogram.cu: ch04.big_histogram: a histogram of up to 929 792 bins held in the shared memory of a whole cluster, and the same count with global atomics for comparison. */
#include "dsm.h"
#include "big_histogram.h"

/* Counts input[0..n) into bins[0..nbins) (values >= nbins in the last bin).
 * CTA r of each cluster owns the bins [r * per, min(nbins, (r + 1) * per)),
 * per = ceil(nbins / cluster size), in its dynamic shared memory (per * 4
 * bytes); every thread adds its grid-stride share of the input to the
 * owner's bin with a remote atomic, and each CTA finally adds its bins to
 * `bins` with global atomics. bins must start at zero. */
__global__ void big_histogram(uint32_t *bins, int nbins, const uint32_t *input, int n)
{
    uint32_t *smem = (uint32_t *)dsm_dynamic_smem();
    uint32_t size = dsm_cluster_nctarank(), rank = dsm_cluster_ctarank();
    uint32_t per = ((uint32_t)nbins + size - 1) / size;

    // BOOK-BEGIN(setup)
    for (uint32_t j = threadIdx.x; j < per; j += blockDim.x)
        smem[j] = 0;
    dsm_cluster_sync();     /* every slice zeroed, every CTA started, before anyone counts */
    // BOOK-END(setup)

    // TODO(ch04.big_histogram): count this thread's grid-stride share of the
    // input into the owner's slice (remote atomics), then, once every count
    // has landed, add this CTA's own bins (only the ones that exist) to `bins`.
    (void)bins;
    (void)input;
    (void)n;
    (void)rank;
}
DSM_KERNEL_ENTRY(big_histogram, uint32_t *, int, const uint32_t *, int)

/* The baseline the benchmark compares with: every thread adds its inputs
 * straight to `bins` in global memory (L2 atomics). Same contract as
 * big_histogram without the shared memory; any grid, no cluster. */
__global__ void big_histogram_global(uint32_t *bins, int nbins, const uint32_t *input, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&bins[input[i] < (uint32_t)nbins ? input[i] : (uint32_t)nbins - 1], 1u);
}
DSM_KERNEL_ENTRY(big_histogram_global, uint32_t *, int, const uint32_t *, int)

int big_histogram_min_cluster_size(int nbins)
{
    // TODO(ch04.big_histogram): the fewest CTAs of at most 227 KB each that
    // hold nbins 4-byte bins (ceil(nbins / size) bins per CTA), or 0.
    (void)nbins;
    return 0;
}

dsm_error_t big_histogram_launch(uint32_t *bins, int nbins, const uint32_t *input, int n, int cluster_size,
                                 int clusters)
{
    int least = big_histogram_min_cluster_size(nbins);
    if (cluster_size == 0)
        cluster_size = least;
    if (least == 0 || n < 1 || clusters < 1 || cluster_size < least || cluster_size > 16)
        return dsmErrorInvalidValue;
    size_t smem = ((size_t)nbins + (size_t)cluster_size - 1) / (size_t)cluster_size * sizeof(uint32_t);
    dsm_kernel_t kernel = DSM_KERNEL(big_histogram);
    // TODO(ch04.big_histogram): opt the kernel in to this shape where it
    // needs it, then launch `clusters` clusters of cluster_size CTAs of
    // BIG_HISTOGRAM_THREADS threads with smem bytes each, and wait.
    (void)bins;
    (void)input;
    (void)smem;
    (void)kernel;
    return dsmErrorNotSupported;
}
