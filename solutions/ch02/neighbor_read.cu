/* neighbor_read.cu: seed 001's mapa example done right: the two CTAs of a cluster read each other's value through mapa and ld.shared::cluster. */
#include "dsm.h"

/* Every CTA puts in[blockIdx.x] in its shared memory; then every thread reads
 * the value of the other CTA of its cluster, and thread 0 writes it to
 * out[blockIdx.x]. Launch with clusters of (2,1,1) and any even grid.x. */
__global__ void neighbor_read(const uint32_t *in, uint32_t *out)
{
    __shared__ uint32_t tile;
    if (threadIdx.x == 0)
        tile = in[blockIdx.x];                  /* one writer per CTA */
    __syncthreads();                            /* this block's threads see tile */
    dsm_barrier_cluster_arrive();               /* release: publish tile to the cluster */
    dsm_barrier_cluster_wait();                 /* acquire: the peer's tile is published too */

    // BEGIN SOLUTION
    //~ // TODO(ch02.neighbor_read): read the other CTA's tile through its cluster
    //~ // address (mapa, then ld.shared::cluster) and let thread 0 store it in
    //~ // out[blockIdx.x]. How does mapa name "the other CTA"? And when may this CTA end?
    //~ (void)out;
    uint32_t rank = dsm_cluster_ctarank();      /* 0 or 1 in every cluster: not blockIdx.x */
    uint32_t local = dsm_smem_addr(&tile);      /* 32-bit .shared::cta address */
    uint32_t remote = dsm_mapa_shared_cluster(local, rank ^ 1u);
    uint32_t v = dsm_ld_shared_cluster_u32(remote);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    dsm_cluster_sync();                         /* the peer may still be reading our tile */
    // END SOLUTION
}
DSM_KERNEL_ENTRY(neighbor_read, const uint32_t *, uint32_t *)
