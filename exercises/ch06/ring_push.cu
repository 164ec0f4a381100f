/* ring_push.cu: a bulk-copy push pipeline: each CTA streams chunks into its right neighbour's shared memory through a ring of slots guarded by full/empty mbarriers. */
#include "dsm.h"

/* The deepest ring the kernel supports (static mbarrier arrays). */
#define RING_MAX_STAGES 8
/* The most 16-byte lanes of a chunk one consumer thread accumulates. */
#define RING_MAX_LANES 8

/*
 * The contract (the tests check exactly this):
 *
 * Launch: a 1-D grid of clusters of n CTAs (2 <= n <= 16, 1-D), blockDim.x a
 * multiple of 32 and at least 96; 1 <= stages <= 8; chunk_bytes a positive
 * multiple of 16 with chunk_bytes <= 128 * (blockDim.x - 64); nchunks >= 1;
 * dynamic shared memory of (stages + 1) * chunk_bytes + 128 * stages bytes.
 *
 * Input: CTA b owns src_bytes = chunk_bytes + 128 * stages bytes of in, starting
 * at byte b * src_bytes. Its stream is nchunks chunks: chunk k is the chunk_bytes
 * that start 128 * (k mod (stages + 1)) bytes into its src_bytes (so chunk k and
 * chunk k + stages never hold the same bytes).
 *
 * Transfer: the CTA of rank r sends its stream to the CTA of rank (r + 1) mod n
 * with cp.async.bulk (dsm_cp_async_bulk_shared_cluster), chunk by chunk, into a
 * ring of `stages` slots of chunk_bytes in the receiver's shared memory. A
 * "full" mbarrier per slot in the receiver says a chunk landed (expect_tx of
 * chunk_bytes, completed by the copy); an "empty" mbarrier per slot in the
 * sender says the receiver is done with the slot (remote arrive). No cluster
 * barrier inside the loop: only mbarriers order the ring.
 *
 * Output: CTA b writes chunk_bytes / 4 words to out[b * chunk_bytes / 4, ...):
 * word w is the sum over k of (k + 1) * (word w of the k-th chunk it RECEIVED),
 * modulo 2^32. Every byte of every chunk counts, and its position in the stream.
 */
__global__ void ring_push(const uint4 *in, uint32_t *out, int chunk_bytes, int stages, int nchunks)
{
    // TODO(ch06.ring_push): write the whole pipeline (see the contract above
    // and the chapter's figure of the ring and its mbarrier phases).
    (void)in;
    (void)out;
    (void)chunk_bytes;
    (void)stages;
    (void)nchunks;
}
DSM_KERNEL_ENTRY(ring_push, const uint4 *, uint32_t *, int, int, int)
