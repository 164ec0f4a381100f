/* activity.cu: kernels whose threads move bytes in known shapes, for the activity counters: which threads and warps touched global memory or DSMEM, and how many 16-byte loads a thread had in flight before it used them. 64 threads per CTA. */
#include "dsm.h"

#define ACT_UNITS 8

/* The threads of the first `warps` warps copy `units` uint4 of in to out (a stride of 64 between a thread's
 * units). batched: all loads first, then all stores (up to ACT_UNITS in flight); else load, store, load, ... */
__global__ void copy_units(const uint4 *in, uint4 *out, int units, int batched, int warps)
{
    uint32_t t = threadIdx.x, base = blockIdx.x * 64u * ACT_UNITS;
    if ((int)(t / 32u) >= warps)
        return;
    if (batched) {
        uint4 v[ACT_UNITS];
        for (int i = 0; i < units; i++)
            v[i] = in[base + (uint32_t)i * 64u + t];
        for (int i = 0; i < units; i++)
            out[base + (uint32_t)i * 64u + t] = v[i];
    } else
        for (int i = 0; i < units; i++) {
            uint4 v = in[base + (uint32_t)i * 64u + t];
            out[base + (uint32_t)i * 64u + t] = v;
        }
}
DSM_KERNEL_ENTRY(copy_units, const uint4 *, uint4 *, int, int, int)

/* Clusters of 2: thread t of rank 0 reads 2 uint4 of rank 1's tile through a mapped pointer (both loads
 * before a barrier, then a store of their sum to its own shared memory); rank 1's threads only fill their
 * own tile. out[block * 64 + t] = the sum's x. */
__global__ void peer_pairs(uint32_t *out)
{
    __shared__ uint4 tile[128];
    __shared__ uint4 sum[64];
    uint32_t t = threadIdx.x, rank = dsm_cluster_ctarank();
    tile[t] = make_uint4(t, t + 1u, t + 2u, t + 3u);
    tile[t + 64u] = make_uint4(2u * t, 0u, 0u, 0u);
    dsm_cluster_sync();
    uint4 s = make_uint4(0u, 0u, 0u, 0u);
    if (rank == 0) {
        const uint4 *peer = (const uint4 *)dsm_map_shared_rank(tile, 1);
        uint4 a = peer[t], b = peer[t + 64u];
        s = make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
    }
    sum[t] = s;
    dsm_cluster_sync();
    out[blockIdx.x * 64u + t] = sum[t].x;
}
DSM_KERNEL_ENTRY(peer_pairs, uint32_t *)
