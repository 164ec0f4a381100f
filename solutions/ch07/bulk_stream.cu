/* bulk_stream.cu: each CTA streams chunks of global memory into a ring of its own shared-memory slots with cp.async.bulk, a "full" mbarrier per slot completed by the copy's bytes and an "empty" one by its consumers. */
#include "dsm.h"

/* The deepest ring the kernel supports (static mbarrier arrays). */
#define BS_MAX_STAGES 8
/* The most 16-byte lanes of a chunk one consumer thread accumulates. */
#define BS_MAX_LANES 8

/*
 * The contract (the tests check exactly this):
 *
 * Launch: a 1-D grid (clusters of any size, or none), blockDim.x a multiple of 32
 * and at least 64: warp 0 loads, the other warps consume; 1 <= stages <= 8;
 * chunk_bytes a positive multiple of 16 with chunk_bytes <= 128 * (blockDim.x - 32);
 * nchunks >= 1; region_chunks >= 1; group >= 1; dynamic shared memory of
 * stages * chunk_bytes bytes.
 *
 * Input: CTA b reads region r = b / group of in: the region_chunks * chunk_bytes
 * bytes that start at byte r * region_chunks * chunk_bytes (group = 1: a region per
 * CTA; group = cluster size: one per cluster; group >= gridDim.x: one for all).
 * Its stream is nchunks chunks: chunk k is region chunk k mod region_chunks.
 *
 * Transfer: each chunk exactly once, global -> this CTA's shared memory, with
 * cp.async.bulk (dsm_cp_async_bulk_global_to_shared), into a ring of `stages`
 * slots of chunk_bytes in dynamic shared memory: a "full" mbarrier per slot
 * completes when the chunk's bytes landed (expect_tx + the copy's complete_tx);
 * a slot is refilled only after every consumer is done with it. No plain load of in.
 *
 * Output: CTA b writes chunk_bytes / 4 words to out[b * chunk_bytes / 4, ...):
 * word w is the sum over k of (k + 1) * (word w of chunk k), modulo 2^32.
 */
__global__ void bulk_stream(const uint4 *in, uint32_t *out, int chunk_bytes, int stages, int nchunks,
                            int region_chunks, int group)
{
    // BEGIN SOLUTION
    //~ // TODO(ch07.bulk_stream): the producer (one thread) and the consumers (the
    //~ // other warps), a ring of slots, full and empty mbarriers (see the contract).
    //~ (void)in;
    //~ (void)out;
    //~ (void)chunk_bytes;
    //~ (void)stages;
    //~ (void)nchunks;
    //~ (void)region_chunks;
    //~ (void)group;
    __shared__ uint64_t full[BS_MAX_STAGES];   /* "slot s holds chunk k": 1 arrival + the copy's bytes */
    __shared__ uint64_t empty[BS_MAX_STAGES];  /* "every consumer is done with slot s" */
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem();
    int tid = (int)threadIdx.x, consumers = (int)blockDim.x - 32, units = chunk_bytes / 16;
    const unsigned char *region = (const unsigned char *)in +
                                  (size_t)(blockIdx.x / (unsigned)group) * (size_t)region_chunks * (size_t)chunk_bytes;
    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], (uint32_t)consumers);
        }
    }
    __syncthreads();   /* the barriers exist before anyone uses them (all of them in this CTA) */

    if (tid == 0) {
        /* the producer: arms each slot's phase with the bytes it expects, then copies */
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            if (round > 0)   /* the consumers released this slot's previous chunk */
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(round - 1) & 1u);
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)chunk_bytes);
            dsm_cp_async_bulk_global_to_shared(ring + (size_t)s * (size_t)chunk_bytes,
                                               region + (size_t)(k % region_chunks) * (size_t)chunk_bytes,
                                               (uint32_t)chunk_bytes, &full[s]);
        }
    } else if (tid >= 32) {
        /* the consumers: wait for each chunk, fold it in, release the slot */
        int c = tid - 32;
        uint32_t acc[BS_MAX_LANES][4];
        for (int i = 0; i < BS_MAX_LANES; ++i)
            acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0u;
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            uint32_t weight = (uint32_t)k + 1u;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)round & 1u);   /* the copy's bytes are here */
            const uint4 *slot = (const uint4 *)(ring + (size_t)s * (size_t)chunk_bytes);
            for (int i = 0; i < BS_MAX_LANES; ++i) {
                int u = c + i * consumers;
                if (u < units) {
                    uint4 v = slot[u];
                    acc[i][0] += weight * v.x;
                    acc[i][1] += weight * v.y;
                    acc[i][2] += weight * v.z;
                    acc[i][3] += weight * v.w;
                }
            }
            if (k + stages < nchunks)
                dsm_mbarrier_arrive(&empty[s]);   /* done with slot s for this round */
        }
        for (int i = 0; i < BS_MAX_LANES; ++i) {
            int u = c + i * consumers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * (size_t)(units * 4) + (size_t)(u * 4 + w)] = acc[i][w];
        }
    }
    // END SOLUTION
}
DSM_KERNEL_ENTRY(bulk_stream, const uint4 *, uint32_t *, int, int, int, int, int)
