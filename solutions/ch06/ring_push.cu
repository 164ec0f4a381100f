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
    // BEGIN SOLUTION
    //~ // TODO(ch06.ring_push): write the whole pipeline (see the contract above
    //~ // and the chapter's figure of the ring and its mbarrier phases).
    //~ (void)in;
    //~ (void)out;
    //~ (void)chunk_bytes;
    //~ (void)stages;
    //~ (void)nchunks;
    __shared__ uint64_t full[RING_MAX_STAGES];     /* mine: "slot s of MY ring holds a chunk" */
    __shared__ uint64_t consumed[RING_MAX_STAGES]; /* mine: "all my consumers are done with slot s" */
    __shared__ uint64_t empty[RING_MAX_STAGES];    /* mine: "slot s of my RIGHT neighbour's ring is free" */
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem();  /* stages slots, filled by my left */
    unsigned char *src = ring + (size_t)stages * (size_t)chunk_bytes;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t right = (rank + 1u) % n, left = (rank + n - 1u) % n;
    int src_units = chunk_bytes / 16 + 8 * stages, units = chunk_bytes / 16;
    int tid = (int)threadIdx.x, consumers = (int)blockDim.x - 64;

    const uint4 *my_in = in + (size_t)blockIdx.x * (size_t)src_units;
    for (int u = tid; u < src_units; u += (int)blockDim.x)
        ((uint4 *)src)[u] = my_in[u];
    dsm_fence_proxy_async_shared_cta();     /* my generic writes of src, visible to the copies' reads */
    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            dsm_mbarrier_init(&full[s], 1);                         /* one expect_tx arrival + the bytes */
            dsm_mbarrier_init(&consumed[s], (uint32_t)consumers);   /* every consumer thread, locally */
            dsm_mbarrier_init(&empty[s], 1);                        /* my right neighbour's forwarder */
        }
        dsm_fence_mbarrier_init();
        for (int s = 0; s < stages && s < nchunks; ++s)
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)chunk_bytes);  /* arm round 0 */
    }
    dsm_cluster_sync();     /* every CTA's barriers exist and are armed before anyone copies */

    if (tid == 0) {
        /* the producer: issues every copy into my right neighbour's ring */
        uint32_t peer_ring = dsm_mapa_shared_cluster(dsm_smem_addr(ring), right);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), right);
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            if (round > 0)  /* the receiver released this slot's previous chunk (round - 1) */
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(round - 1) & 1u);
            dsm_cp_async_bulk_shared_cluster(peer_ring + (uint32_t)(s * chunk_bytes), src + 128 * (k % (stages + 1)),
                                             (uint32_t)chunk_bytes, peer_full + 8u * (uint32_t)s);
        }
    } else if (tid == 32) {
        /* the forwarder, alone in warp 1 (beside the producer in warp 0 it would
         * take turns with the producer's spin): once all my consumers are done
         * with a slot that will be used again, re-arm its full barrier and
         * release it to my left neighbour with ONE remote arrive (not one per
         * consumer thread) */
        uint32_t left_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), left);
        for (int k = 0; k + stages < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            dsm_mbarrier_wait_parity(&consumed[s], (uint32_t)round & 1u);
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)chunk_bytes);
            dsm_mbarrier_arrive_remote(left_empty + 8u * (uint32_t)s);
        }
    } else if (tid >= 64) {
        /* the consumer warps: wait for each chunk, fold it in, say so */
        int c = tid - 64;
        uint32_t acc[RING_MAX_LANES][4];
        for (int i = 0; i < RING_MAX_LANES; ++i)
            acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0u;
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            uint32_t weight = (uint32_t)k + 1u;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)round & 1u);   /* the copy's bytes are here */
            const uint4 *slot = (const uint4 *)(ring + (size_t)s * (size_t)chunk_bytes);
            for (int i = 0; i < RING_MAX_LANES; ++i) {
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
                dsm_mbarrier_arrive(&consumed[s]);  /* done reading slot s for this round */
        }
        for (int i = 0; i < RING_MAX_LANES; ++i) {
            int u = c + i * consumers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * (size_t)(units * 4) + (size_t)(u * 4 + w)] = acc[i][w];
        }
    }
    /* my left neighbour's copies into my ring are complete (I waited for them),
     * my right neighbour has read my src through its copies, and every remote
     * arrive has landed: nobody touches a CTA that has left */
    dsm_cluster_sync();
    // END SOLUTION
}
DSM_KERNEL_ENTRY(ring_push, const uint4 *, uint32_t *, int, int, int)
