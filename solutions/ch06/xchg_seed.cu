/* xchg_seed.cu: seed 000's 16 KB tile exchange as published (scalar loads, a cluster.sync per exchange), on DSMEM and through global memory. */
#include "dsm.h"

/* The seed's tile: 4096 floats, 16 KB, in static shared memory (twice: source and destination). */
#define XCHG_SEED_TILE_FLOATS 4096

/* Clusters of 2 CTAs (a 1-D grid of an even number of blocks, any number of
 * threads; the seed used 128). CTA b first loads its source tile from
 * in[b * 4096, (b + 1) * 4096). Then, iters times, every thread copies its
 * elements (i = threadIdx.x, i += blockDim.x) of the OTHER CTA's source tile
 * into its own destination tile, reading through a pointer from
 * dsm_map_shared_rank, and the cluster meets at a cluster.sync, exactly as
 * seed 000's dsmem_tile_exchange_kernel does. At the end CTA b writes its whole
 * destination tile to out[b * 4096, ...) (the seed wrote one float of it). */
__global__ void xchg_seed_dsmem(int iters, const float *in, float *out)
{
    __shared__ float smem_src[XCHG_SEED_TILE_FLOATS];
    __shared__ float smem_dst[XCHG_SEED_TILE_FLOATS];
    uint32_t peer = dsm_cluster_ctarank() ^ 1u;
    size_t base = (size_t)blockIdx.x * XCHG_SEED_TILE_FLOATS;

    for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
        smem_src[i] = in[base + i];
    dsm_cluster_sync();     /* both source tiles are written and published */

    // BEGIN SOLUTION
    //~ // TODO(ch06.xchg_seed): the seed's DSMEM loop. Map the peer's smem_src,
    //~ // then iters times copy it element by element into smem_dst and meet the
    //~ // peer at a cluster.sync (the seed has one more cluster.sync before the loop).
    //~ (void)peer;
    //~ (void)&smem_src[0];
    //~ (void)iters;
    const float *peer_src = (const float *)dsm_map_shared_rank(smem_src, peer);
    dsm_cluster_sync();     /* the seed's second barrier: orders nothing new */

    for (int it = 0; it < iters; ++it) {
        for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
            smem_dst[i] = peer_src[i];      /* one 4-byte DSMEM load per element */
        dsm_cluster_sync();                 /* one cluster barrier per 16 KB */
    }
    // END SOLUTION

    for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
        out[base + i] = smem_dst[i];
}
DSM_KERNEL_ENTRY(xchg_seed_dsmem, int, const float *, float *)

/* The same exchange through global memory, as seed 000's hbm_tile_exchange_kernel:
 * iters times, CTA b writes its source tile to scratch[b * 4096, ...)
 * (scratch holds one tile per block), fences, meets its peer at a
 * cluster.sync, copies the peer's scratch tile (block b ^ 1) into its
 * destination tile and meets the peer again. out as in xchg_seed_dsmem. */
__global__ void xchg_seed_gmem(int iters, float *scratch, const float *in, float *out)
{
    __shared__ float smem_src[XCHG_SEED_TILE_FLOATS];
    __shared__ float smem_dst[XCHG_SEED_TILE_FLOATS];
    size_t base = (size_t)blockIdx.x * XCHG_SEED_TILE_FLOATS;

    for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
        smem_src[i] = in[base + i];
    dsm_cluster_sync();

    // BEGIN SOLUTION
    //~ // TODO(ch06.xchg_seed): the seed's global-memory loop. Your scratch tile
    //~ // starts at scratch + base, the peer's at scratch + (blockIdx.x ^ 1) * 4096.
    //~ // iters times: write smem_src to your scratch tile, __threadfence(),
    //~ // cluster.sync, copy the peer's scratch tile into smem_dst, cluster.sync.
    //~ (void)iters;
    //~ (void)scratch;
    //~ (void)&smem_src[0];
    float *my_scratch = scratch + base;
    const float *peer_scratch = scratch + (size_t)(blockIdx.x ^ 1u) * XCHG_SEED_TILE_FLOATS;
    for (int it = 0; it < iters; ++it) {
        for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
            my_scratch[i] = smem_src[i];
        __threadfence();
        dsm_cluster_sync();                 /* the peer's tile is in global memory */
        for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
            smem_dst[i] = peer_scratch[i];
        dsm_cluster_sync();                 /* nobody rewrites scratch while the peer reads it */
    }
    // END SOLUTION

    for (int i = threadIdx.x; i < XCHG_SEED_TILE_FLOATS; i += blockDim.x)
        out[base + i] = smem_dst[i];
}
DSM_KERNEL_ENTRY(xchg_seed_gmem, int, float *, const float *, float *)
