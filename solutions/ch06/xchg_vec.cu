/* xchg_vec.cu: the tile exchange done with care: 16-byte accesses, any block size, one cluster barrier per exchange, any traffic pattern, clusters of 2 to 16; on DSMEM and through global memory. */
#include "dsm.h"

/* The largest cluster (non-portable) and so the most chunks of a tile. */
#define XCHG_VEC_MAX_CLUSTER 16
/* 16-byte accesses in flight per thread before the first is used. */
#define XCHG_VEC_UNROLL 4

/* The traffic pattern of both kernels. Clusters of n CTAs (1-D grid, 1-D
 * clusters, n <= 16), any block size. A tile is tile_bytes bytes (a multiple
 * of 16 * n), cut into n chunks of tile_bytes / n. CTA b starts with tile
 * in[b * tile_bytes / 16, ...) (in uint4 units). Each of the iters exchanges
 * builds every CTA's next tile at once from the current tiles of its cluster:
 * chunk j of the next tile of the CTA of rank r is chunk j of the current tile
 * of the CTA of rank chunk_src[r * n + j] (chunk_src holds n * n ranks; the
 * same table for every cluster). A neighbour pattern has every entry of row r
 * equal to r + 1 mod n, a permutation perm[r], all-to-all (r + j) mod n. At the
 * end CTA b writes its tile to out[b * tile_bytes / 16, ...). */

/* DSMEM path: dynamic shared memory of 2 * tile_bytes (two tile buffers). */
__global__ void xchg_vec_dsmem(const uint4 *in, uint4 *out, const int *chunk_src, int tile_bytes, int iters)
{
    uint4 *buf = (uint4 *)dsm_dynamic_smem();   /* buffer 0: buf[0, units), buffer 1: buf[units, 2 units) */
    __shared__ uint32_t from[XCHG_VEC_MAX_CLUSTER]; /* rank that chunk j of my next tile comes from */
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    int units = tile_bytes / 16;
    size_t base = (size_t)blockIdx.x * (size_t)units;

    for (int u = threadIdx.x; u < units; u += blockDim.x)
        buf[u] = in[base + u];
    if (threadIdx.x < n)
        from[threadIdx.x] = (uint32_t)chunk_src[rank * n + threadIdx.x];
    dsm_cluster_sync();     /* every buffer 0 of the cluster is written and published */

    // BEGIN SOLUTION
    //~ // TODO(ch06.xchg_vec): iters exchanges. Exchange `it` reads buffer it & 1
    //~ // of the CTAs named in from[] (chunk j is units / n 16-byte units long)
    //~ // with 16-byte loads through mapa, and writes your buffer (it + 1) & 1.
    //~ // Decide how many cluster barriers an exchange really needs, and keep
    //~ // several loads in flight per thread.
    //~ (void)from[0];
    //~ (void)iters;
    int bd = (int)blockDim.x, chunk_units = units / (int)n;    /* chunk j: units [j * chunk_units, ...) */
    for (int it = 0; it < iters; ++it) {
        uint32_t cur = (uint32_t)(it & 1);
        uint32_t src_base = dsm_smem_addr(buf + cur * (uint32_t)units);
        uint4 *dst = buf + (cur ^ 1u) * (uint32_t)units;
        for (int u0 = threadIdx.x; u0 < units; u0 += XCHG_VEC_UNROLL * bd) {
            uint4 v[XCHG_VEC_UNROLL];
            /* issue every load first: they travel together, then land in order */
            for (int q = 0; q < XCHG_VEC_UNROLL; ++q) {
                int u = u0 + q * bd;
                v[q] = make_uint4(0u, 0u, 0u, 0u);
                if (u < units)
                    v[q] = dsm_ld_shared_cluster_v4_u32(
                        dsm_mapa_shared_cluster(src_base + (uint32_t)u * 16u, from[u / chunk_units]));
            }
            for (int q = 0; q < XCHG_VEC_UNROLL; ++q) {
                int u = u0 + q * bd;
                if (u < units)
                    dst[u] = v[q];
            }
        }
        /* One barrier per exchange, and it is needed: it publishes the buffer just
         * written (read in the next exchange) and tells every source CTA that its
         * buffer `cur` may be overwritten (in the exchange after next). */
        dsm_cluster_sync();
    }
    // END SOLUTION

    const uint4 *result = buf + (uint32_t)(iters & 1) * (uint32_t)units;
    for (int u = threadIdx.x; u < units; u += blockDim.x)
        out[base + u] = result[u];
}
DSM_KERNEL_ENTRY(xchg_vec_dsmem, const uint4 *, uint4 *, const int *, int, int)

/* Global-memory path, the same exchanges through scratch: 2 * gridDim.x * tile_bytes
 * bytes of device memory (two slots per block); dynamic shared memory of tile_bytes
 * (one tile). Each exchange stages the tile through global memory (L2) instead of
 * reading the peers' shared memory. */
__global__ void xchg_vec_gmem(const uint4 *in, uint4 *out, const int *chunk_src, int tile_bytes, int iters,
                              uint4 *scratch)
{
    uint4 *tile = (uint4 *)dsm_dynamic_smem();
    __shared__ uint32_t from[XCHG_VEC_MAX_CLUSTER];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    int units = tile_bytes / 16;
    size_t base = (size_t)blockIdx.x * (size_t)units;

    for (int u = threadIdx.x; u < units; u += blockDim.x)
        tile[u] = in[base + u];
    if (threadIdx.x < n)
        from[threadIdx.x] = (uint32_t)chunk_src[rank * n + threadIdx.x];
    __syncthreads();

    // BEGIN SOLUTION
    //~ // TODO(ch06.xchg_vec): the same exchanges through global memory: put your
    //~ // tile in your slot of scratch, let the cluster meet, read the chunks named
    //~ // in from[] back from their owners' slots. Alternate between the two slots
    //~ // so that one cluster barrier per exchange is enough.
    //~ (void)from[0];
    //~ (void)iters;
    //~ (void)scratch;
    int bd = (int)blockDim.x, chunk_units = units / (int)n;
    size_t first = (size_t)blockIdx.x - rank;     /* block index of rank 0 of my cluster */
    size_t slot_units = (size_t)gridDim.x * (size_t)units;
    for (int it = 0; it < iters; ++it) {
        uint4 *slots = scratch + (size_t)(it & 1) * slot_units;
        for (int u = threadIdx.x; u < units; u += bd)
            slots[base + (size_t)u] = tile[u];
        /* publishes the slots (the barrier's release covers global memory, at
         * cluster scope); slot it & 1 is rewritten only two exchanges later,
         * after the next barrier, so its readers are done by then */
        dsm_cluster_sync();
        for (int u0 = threadIdx.x; u0 < units; u0 += XCHG_VEC_UNROLL * bd) {
            uint4 v[XCHG_VEC_UNROLL];
            for (int q = 0; q < XCHG_VEC_UNROLL; ++q) {
                int u = u0 + q * bd;
                v[q] = make_uint4(0u, 0u, 0u, 0u);
                if (u < units)
                    v[q] = slots[(first + from[u / chunk_units]) * (size_t)units + (size_t)u];
            }
            for (int q = 0; q < XCHG_VEC_UNROLL; ++q) {
                int u = u0 + q * bd;
                if (u < units)
                    tile[u] = v[q];     /* the same thread stored tile[u] above: no __syncthreads */
            }
        }
    }
    // END SOLUTION

    for (int u = threadIdx.x; u < units; u += blockDim.x)
        out[base + u] = tile[u];
}
DSM_KERNEL_ENTRY(xchg_vec_gmem, const uint4 *, uint4 *, const int *, int, int, uint4 *)
