/* rs_probe.cu: what chapter 8's reduce-scatter costs by itself, for the benchmark: the CTAs of a cluster make up a partial vector in shared memory without loading anything, reduce-scatter it through DSMEM (ch08.reduce_scatter) and write their shares; or the same launch without the reduce-scatter. */
#include "dsm.h"
#include "reduce_scatter.h"

/*
 * rs_probe(out, n, mark, exchange): a 1-D grid of 1-D clusters of S CTAs, any
 * block size, at least 4 * n bytes of dynamic shared memory. CTA q of cluster
 * c sets part[i] = mark + q * n + i for i < n (small integers: every sum is
 * exact in fp32). With `exchange`, the cluster reduce-scatters (two cluster
 * barriers, DSMEM loads of each CTA's share) and each CTA writes its share of
 * the sums to out[c * n + i]: S * mark + n * S * (S - 1) / 2 + S * i. Without,
 * each CTA writes its share of its own part: mark + q * n + i. The difference
 * between the two launches, timed alike, is what the reduce-scatter costs.
 */
__global__ void rs_probe(float *out, int n, int mark, int exchange)
{
    float *part = (float *)dsm_dynamic_smem();
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    size_t c = dsm_clusterid().x;
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x)
        part[i] = (float)(mark + q * n + i);
    if (exchange)
        cluster_reduce_scatter(part, n);
    else
        __syncthreads();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x)
        out[c * (size_t)n + (size_t)i] = part[i];
}
DSM_KERNEL_ENTRY(rs_probe, float *, int, int, int)
