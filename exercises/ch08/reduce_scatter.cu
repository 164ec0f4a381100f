/* reduce_scatter.cu: the test kernel of ch08.reduce_scatter: each CTA loads a partial vector into shared memory, the cluster reduce-scatters, each CTA writes its share of the sums. */
#include "dsm.h"
#include "reduce_scatter.h"

/*
 * Launch: a 1-D grid of clusters of S CTAs (1 <= S <= 16), any block size,
 * dynamic shared memory of at least 4 * (n + reduce_scatter_recv_floats(n, S))
 * bytes. CTA b's partial vector is parts[b * n, (b + 1) * n); cluster c's sums
 * go to out[c * n, (c + 1) * n), each CTA writing its own share. The loads of
 * the partials stand for a kernel's work: they come after the reduce-scatter's
 * start, as a kernel's main loop does.
 */
__global__ void reduce_scatter_kernel(const float *parts, float *out, int n)
{
    __shared__ uint64_t landed;
    float *part = (float *)dsm_dynamic_smem();
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    float *recv = part + n;
    size_t cluster = dsm_clusterid().x;
    cluster_reduce_scatter_begin(&landed, n);
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x)
        part[i] = parts[(size_t)blockIdx.x * (size_t)n + (size_t)i];
    cluster_reduce_scatter(part, recv, &landed, n);
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x)
        out[cluster * (size_t)n + (size_t)i] = part[i];
}
DSM_KERNEL_ENTRY(reduce_scatter_kernel, const float *, float *, int)
