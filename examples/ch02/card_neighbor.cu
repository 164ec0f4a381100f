/* card_neighbor.cu: the feature card's mapa example, transcribed to this course's API: as published (no barrier before exit), and with only that barrier added (blockIdx.x still used as the rank). */
#include "dsm.h"

/* The feature card's kernel, line for line (its __cluster_dims__(2,1,1) is the launch's
 * cluster shape here, and its .aligned barriers are the default ones). */
// BOOK-BEGIN(as_published)
__global__ void card_as_published(int *out)
{
    __shared__ int tile;
    uint32_t local = dsm_smem_addr(&tile);
    tile = (int)blockIdx.x;
    __syncthreads();                                    /* this block sees tile */

    dsm_barrier_cluster_arrive();                       /* cluster barrier */
    dsm_barrier_cluster_wait();

    uint32_t neighbor_rank = 1 - blockIdx.x;            /* 2-block cluster: 0 <-> 1 */
    uint32_t remote = dsm_mapa_shared_cluster(local, neighbor_rank);
    int v = (int)dsm_ld_shared_cluster_u32(remote);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;                            /* the neighbour's value */
}
// BOOK-END(as_published)
DSM_KERNEL_ENTRY(card_as_published, int *)

/* The same kernel with a cluster barrier before exit: correct for a grid of
 * one cluster, wrong as soon as there are two, because blockIdx.x is not the
 * rank in the cluster. */
__global__ void card_barrier_added(int *out)
{
    __shared__ int tile;
    uint32_t local = dsm_smem_addr(&tile);
    tile = (int)blockIdx.x;
    __syncthreads();
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();

    uint32_t neighbor_rank = 1 - blockIdx.x;            /* 1 - 2 = 4294967295 in cluster 1 */
    uint32_t remote = dsm_mapa_shared_cluster(local, neighbor_rank);
    int v = (int)dsm_ld_shared_cluster_u32(remote);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
    dsm_cluster_sync();                                 /* the peer may still read our tile */
}
DSM_KERNEL_ENTRY(card_barrier_added, int *)
