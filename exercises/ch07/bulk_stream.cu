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
    // TODO(ch07.bulk_stream): the producer (one thread) and the consumers (the
    // other warps), a ring of slots, full and empty mbarriers (see the contract).
    (void)in;
    (void)out;
    (void)chunk_bytes;
    (void)stages;
    (void)nchunks;
    (void)region_chunks;
    (void)group;
}
DSM_KERNEL_ENTRY(bulk_stream, const uint4 *, uint32_t *, int, int, int, int, int)
