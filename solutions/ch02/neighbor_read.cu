/* neighbor_read.cu: seed 001's mapa example done right: the two CTAs of a cluster read each other's value through mapa and ld.shared::cluster. */
#include "dsm.h"

/* Every CTA puts in[blockIdx.x] in its shared memory; then every thread reads
 * the value of the other CTA of its cluster, and thread 0 writes it to
 * out[blockIdx.x]. Launch with clusters of (2,1,1) and any even grid.x. */
__global__ void neighbor_read(const uint32_t *in, uint32_t *out)
{
    __shared__ uint32_t tile;
    uint32_t rank = dsm_cluster_ctarank();      /* 0 or 1 in every cluster: not blockIdx.x */

    if (threadIdx.x == 0)
        tile = in[blockIdx.x];                  /* one writer per CTA */
    __syncthreads();                            /* this block's threads see tile */
    dsm_barrier_cluster_arrive();               /* release: publish tile to the cluster */
    dsm_barrier_cluster_wait();                 /* acquire: the peer's tile is published too */

    // BEGIN SOLUTION
    //~ // TODO(ch02.neighbor_read): map &tile to the other CTA of the cluster
    //~ // (dsm_smem_addr, then dsm_mapa_shared_cluster), load its value with
    //~ // dsm_ld_shared_cluster_u32, let thread 0 store it in out[blockIdx.x],
    //~ // and do not let this CTA exit while its peer may still read its tile.
    //~ (void)rank;
    //~ (void)out;
    uint32_t local = dsm_smem_addr(&tile);      /* 32-bit .shared::cta address */
    uint32_t remote = dsm_mapa_shared_cluster(local, rank ^ 1u);
    uint32_t v = dsm_ld_shared_cluster_u32(remote);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    dsm_cluster_sync();                         /* the peer may still be reading our tile */
    // END SOLUTION
}
DSM_KERNEL_ENTRY(neighbor_read, const uint32_t *, uint32_t *)
