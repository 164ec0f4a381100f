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
    // BEGIN SOLUTION
    //~ // TODO(ch07.mcast_stream): the whole cluster pipeline (see the contract above
    //~ // and the chapter's figure of the multicast refill protocol).
    //~ (void)in;
    //~ (void)out;
    //~ (void)chunk_bytes;
    //~ (void)stages;
    //~ (void)nchunks;
    //~ (void)region_chunks;
    //~ (void)shared_region;
    __shared__ uint64_t full[MS_MAX_STAGES];     /* mine: "slot s of MY ring holds the whole chunk" */
    __shared__ uint64_t consumed[MS_MAX_STAGES]; /* mine: "all my consumers are done with slot s" */
    __shared__ uint64_t empty[MS_MAX_STAGES];    /* mine: "every CTA of the cluster released slot s" */
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    int tid = (int)threadIdx.x, consumers = (int)blockDim.x - 64, units = chunk_bytes / 16;
    uint16_t everyone = (uint16_t)((1u << n) - 1u);
    /* my piece of every chunk: units [lo, hi) of 16 bytes (none when the chunk has fewer units than CTAs) */
    int lo = (int)((uint32_t)units * rank / n), hi = (int)((uint32_t)units * (rank + 1u) / n);
    const unsigned char *region = (const unsigned char *)in +
                                  (size_t)(shared_region ? 0u : dsm_clusterid().x) * (size_t)region_chunks *
                                      (size_t)chunk_bytes;

    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            dsm_mbarrier_init(&full[s], 1);                         /* my own arming + every piece's bytes */
            dsm_mbarrier_init(&consumed[s], (uint32_t)consumers);   /* my consumers, locally */
            dsm_mbarrier_init(&empty[s], n);                        /* one release from each CTA of the cluster */
        }
        dsm_fence_mbarrier_init();
        for (int s = 0; s < stages && s < nchunks; ++s)
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)chunk_bytes);  /* round 0: the whole chunk, from n issuers */
    }
    dsm_cluster_sync();   /* every CTA's barriers exist and are armed before anyone multicasts into it */

    if (tid == 0) {
        /* the issuer: my piece of every chunk, into every CTA's slot at once */
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            if (round > 0)   /* every CTA released slot s (my empty counts all n of them) */
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(round - 1) & 1u);
            if (hi > lo)
                dsm_cp_async_bulk_global_to_shared_multicast(
                    ring + (size_t)s * (size_t)chunk_bytes + 16u * (size_t)lo,
                    region + (size_t)(k % region_chunks) * (size_t)chunk_bytes + 16u * (size_t)lo,
                    16u * (uint32_t)(hi - lo), &full[s], everyone);
        }
    } else if (tid == 32) {
        /* the forwarder, in a warp of its own: once my consumers are done with a slot that
         * will be refilled, re-arm my full barrier for its next chunk and release the slot
         * to every issuer of the cluster (one remote arrive each, not one per consumer) */
        for (int k = 0; k + stages < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            dsm_mbarrier_wait_parity(&consumed[s], (uint32_t)round & 1u);
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)chunk_bytes);
            for (uint32_t r = 0; r < n; ++r)
                dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&empty[s]), r));
        }
    } else if (tid >= 64) {
        /* the consumers: wait for each whole chunk, fold it in, say so */
        int c = tid - 64;
        uint32_t acc[MS_MAX_LANES][4];
        for (int i = 0; i < MS_MAX_LANES; ++i)
            acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0u;
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            uint32_t weight = (uint32_t)k + 1u;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)round & 1u);   /* all n pieces are here */
            const uint4 *slot = (const uint4 *)(ring + (size_t)s * (size_t)chunk_bytes);
            for (int i = 0; i < MS_MAX_LANES; ++i) {
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
                dsm_mbarrier_arrive(&consumed[s]);
        }
        for (int i = 0; i < MS_MAX_LANES; ++i) {
            int u = c + i * consumers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * (size_t)(units * 4) + (size_t)(u * 4 + w)] = acc[i][w];
        }
    }
    /* every copy into my ring landed (my consumers waited for all of them) and every
     * remote arrive has landed: nobody touches a CTA that has left */
    dsm_cluster_sync();
    // END SOLUTION
}
DSM_KERNEL_ENTRY(mcast_stream, const uint4 *, uint32_t *, int, int, int, int, int)
