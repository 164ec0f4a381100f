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

    // BEGIN SOLUTION
    //~ // TODO(ch04.big_histogram): count this thread's grid-stride share of the
    //~ // input into the owner's slice (remote atomics), then, once every count
    //~ // has landed, add this CTA's own bins (only the ones that exist) to `bins`.
    //~ (void)bins;
    //~ (void)input;
    //~ (void)n;
    //~ (void)rank;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uint32_t bin = input[i] < (uint32_t)nbins ? input[i] : (uint32_t)nbins - 1;
        uint32_t addr = dsm_mapa_shared_cluster(dsm_smem_addr(&smem[bin % per]), bin / per);
        dsm_red_add_shared_cluster_u32(addr, 1u);
    }
    dsm_cluster_sync();     /* every count has landed, and no CTA exits while others still add */

    /* The last CTAs own fewer bins than per, or none, when size does not divide nbins. */
    uint32_t first = rank * per;
    uint32_t owned = first >= (uint32_t)nbins ? 0 : ((uint32_t)nbins - first < per ? (uint32_t)nbins - first : per);
    for (uint32_t j = threadIdx.x; j < owned; j += blockDim.x)
        if (smem[j] != 0)   /* most bins of a big histogram stay empty in one cluster: skip their global atomics */
            atomicAdd(&bins[first + j], smem[j]);
    // END SOLUTION
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
    // BEGIN SOLUTION
    //~ // TODO(ch04.big_histogram): the fewest CTAs of at most 227 KB each that
    //~ // hold nbins 4-byte bins (ceil(nbins / size) bins per CTA), or 0.
    //~ (void)nbins;
    //~ return 0;
    if (nbins < 1)
        return 0;
    for (int c = 1; c <= 16; c++)
        if (((size_t)nbins + (size_t)c - 1) / (size_t)c * sizeof(uint32_t) <= BIG_HISTOGRAM_SMEM_PER_CTA_MAX)
            return c;
    return 0;
    // END SOLUTION
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
    // BEGIN SOLUTION
    //~ // TODO(ch04.big_histogram): opt the kernel in to this shape where it
    //~ // needs it, then launch `clusters` clusters of cluster_size CTAs of
    //~ // BIG_HISTOGRAM_THREADS threads with smem bytes each, and wait.
    //~ (void)bins;
    //~ (void)input;
    //~ (void)smem;
    //~ (void)kernel;
    //~ return dsmErrorNotSupported;
    dsm_error_t err = dsmSuccess;
    if (smem > (size_t)48 * 1024)
        err = dsm_func_set_max_dynamic_smem(kernel, (int)smem);
    if (err == dsmSuccess && cluster_size > 8)
        err = dsm_func_set_non_portable_cluster_size_allowed(kernel, 1);
    if (err != dsmSuccess)
        return err;
    void *args[] = {&bins, &nbins, &input, &n};
    dsm_launch_config cfg = {DSM_DIM3(cluster_size * clusters, 1, 1), DSM_DIM3(BIG_HISTOGRAM_THREADS, 1, 1),
                             DSM_DIM3(cluster_size, 1, 1), smem};
    return dsm_launch_sync(&cfg, kernel, args);
    // END SOLUTION
}
