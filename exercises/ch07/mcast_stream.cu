/* mcast_stream.cu: a cluster streams chunks of global memory into the rings of all its CTAs, reading each byte once with cp.async.bulk .multicast::cluster, and refills a slot only when every CTA is done with it. */
#include "dsm.h"

/* The deepest ring the kernel supports (static mbarrier arrays). */
#define MS_MAX_STAGES 8
/* The most 16-byte lanes of a chunk one consumer thread accumulates. */
#define MS_MAX_LANES 8

/*
 * The contract (the tests check exactly this):
 *
 * Launch: a 1-D grid of 1-D clusters of n CTAs (1 <= n <= 16), blockDim.x a
 * multiple of 32 and at least 96: warps 0 and 1 are yours to organise the
 * copies and the refills, warps 2 and up consume; 1 <= stages <= 8;
 * chunk_bytes a positive multiple of 16 with chunk_bytes <= 128 * (blockDim.x - 64)
 * (it need not be a multiple of 16 n); nchunks >= 1; region_chunks >= 1;
 * dynamic shared memory of stages * chunk_bytes bytes.
 *
 * Input: the stream of cluster c (the same for all its CTAs) is region
 * r = shared_region ? 0 : c of in: the region_chunks * chunk_bytes bytes that
 * start at byte r * region_chunks * chunk_bytes. Chunk k of the stream is region
 * chunk k mod region_chunks.
 *
 * Transfer: every chunk lands in a ring of `stages` slots of chunk_bytes in the
 * dynamic shared memory of EVERY CTA of the cluster, and every byte of it is
 * read from global memory ONCE per cluster: cp.async.bulk with
 * .multicast::cluster (dsm_cp_async_bulk_global_to_shared_multicast). Who issues
 * which bytes is yours to decide, and so is the refill protocol, with one rule:
 * no copy may write into a slot that a CTA of the cluster may still read. No
 * plain load of in.
 *
 * Output: every CTA b writes chunk_bytes / 4 words to out[b * chunk_bytes / 4, ...):
 * word w is the sum over k of (k + 1) * (word w of chunk k of its cluster's
 * stream), modulo 2^32.
 */
__global__ void mcast_stream(const uint4 *in, uint32_t *out, int chunk_bytes, int stages, int nchunks,
                             int region_chunks, int shared_region)
{
    // TODO(ch07.mcast_stream): the whole cluster pipeline (see the contract above
    // and the chapter's figure of the multicast refill protocol).
    (void)in;
    (void)out;
    (void)chunk_bytes;
    (void)stages;
    (void)nchunks;
    (void)region_chunks;
    (void)shared_region;
}
DSM_KERNEL_ENTRY(mcast_stream, const uint4 *, uint32_t *, int, int, int, int, int)
