/* addressing.cu: kernels for identity registers, linear ranks in 3-D clusters, and bad addresses (rank out of range, out of bounds, NULL). */
#include "dsm.h"

/* out[4 * block] = {ctarank, linear rank from %cluster_ctaid, clusterid linear, nctarank}. */
__global__ void identity(uint32_t *out)
{
    dsm_dim3 id = dsm_cluster_ctaid(), nd = dsm_cluster_nctaid(), cl = dsm_clusterid(), ncl = dsm_nclusterid();
    uint32_t block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    if (threadIdx.x == 0) {
        out[4 * block + 0] = dsm_cluster_ctarank();
        out[4 * block + 1] = id.x + nd.x * (id.y + nd.y * id.z);
        out[4 * block + 2] = cl.x + ncl.x * (cl.y + ncl.y * cl.z);
        out[4 * block + 3] = dsm_cluster_nctarank();
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(identity, uint32_t *)

/* Maps to rank `rank` (out of range when rank >= cluster size). */
__global__ void map_rank(uint32_t *out, uint32_t rank)
{
    __shared__ uint32_t v;
    if (threadIdx.x == 0)
        v = dsm_cluster_ctarank();
    dsm_cluster_sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = dsm_ld_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&v), rank));
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(map_rank, uint32_t *, uint32_t)

/* Reads word `index` of the peer's dynamic shared memory: through the API (api=1) or a plain pointer. */
__global__ void peer_index(uint32_t *out, int index, int api)
{
    uint32_t *dyn = (uint32_t *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        dyn[i] = rank;
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        if (api)
            out[blockIdx.x] = dsm_ld_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(dyn), rank ^ 1) + 4u * (uint32_t)index);
        else
            out[blockIdx.x] = ((const uint32_t *)dsm_map_shared_rank(dyn, rank ^ 1))[index];
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(peer_index, uint32_t *, int, int)

__global__ void write_through(uint32_t *out)
{
    out[threadIdx.x] = 1;
}
DSM_KERNEL_ENTRY(write_through, uint32_t *)

/* Spins on a flag nobody sets. */
__global__ void spin_forever(volatile uint32_t *flag)
{
    while (*flag == 0) {
    }
}
DSM_KERNEL_ENTRY(spin_forever, volatile uint32_t *)

