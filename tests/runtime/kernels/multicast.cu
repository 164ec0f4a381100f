/* multicast.cu: a cluster streams chunks from global memory into every CTA's ring with cp.async.bulk .multicast::cluster, each CTA issuing its piece of every chunk to all; the refill protocol and the bugs users hit with it (public issues, one per MC_* value). */
#include "dsm.h"

#define MC_STAGES 2
#define MC_MAX_WORDS 256   /* words per chunk */

enum {
    MC_OK = 0,
    MC_MASK_OUTSIDE = 1,    /* a mask bit for a rank outside the cluster (NVIDIA/cutlass#3658) */
    MC_DST_EXITED = 2,      /* the last rank leaves at once: copies into a CTA that exited */
    MC_NOT_STARTED = 3,     /* no cluster barrier before the first copy: peers may not have started */
    MC_EARLY_FIRE = 4,      /* the issuer refills without waiting on "empty" (inclusionAI/humming#54) */
    MC_ONLY_CTA0_ARMS = 5,  /* only rank 0 arms its full barrier (facebookexperimental/triton#908) */
    MC_OVERCOUNT = 6,       /* each CTA expects n chunks' bytes, not one (tile-ai/tilelang#2644) */
    MC_EMPTY_COUNT_1 = 7,   /* "empty" counts one CTA's consumers, not n CTAs' (deepseek-ai/DeepGEMM#51) */
    MC_REUSE_EARLY = 8,     /* consumers release only their own CTA's slot (inclusionAI/humming#56) */
    MC_EXIT_PENDING = 9,    /* the last chunk is never waited for, no final barrier (rchardx/hopper-gemm#3) */
    MC_MISALIGNED = 10,     /* pieces start 8 bytes off a 16-byte boundary */
    MC_SIZE = 11            /* pieces of 8 bytes less: not a multiple of 16 */
};

/*
 * Clusters of n CTAs (1..16); blockDim.x = 64: thread 0 issues, warp 1 consumes.
 * chunk_words a multiple of 4 * n, at most MC_MAX_WORDS. Cluster c streams `chunks` chunks of
 * in[c * chunks * chunk_words ...]; every CTA of the cluster receives every chunk, into
 * slot k % MC_STAGES of its ring. Rank r issues bytes [r * piece, (r + 1) * piece) of each chunk
 * (piece = chunk bytes / n) to all n CTAs with one multicast. In each CTA: full[s] (count 1)
 * is armed by the CTA itself with the whole chunk's bytes (n issuers x one piece each);
 * empty[s] (count 32 n) completes when the 32 consumers of every CTA released slot s, and
 * gates the refill of slot s. Output: CTA b writes chunk_words words to
 * out[b * chunk_words ...], word w = sum over k of (k + 1) * chunk_k[w].
 */
__global__ void mcast_ring(const uint32_t *in, uint32_t *out, int chunk_words, int chunks, int bad)
{
    __shared__ __align__(16) uint32_t slot[MC_STAGES][MC_MAX_WORDS];
    __shared__ __align__(8) uint64_t full[MC_STAGES], empty[MC_STAGES];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t chunk_bytes = (uint32_t)chunk_words * 4u, piece = chunk_bytes / n;
    uint32_t expect = bad == MC_OVERCOUNT ? chunk_bytes * n : chunk_bytes;
    bool arms = bad != MC_ONLY_CTA0_ARMS || rank == 0;
    const uint32_t *src = in + (size_t)dsm_clusterid().x * (size_t)chunks * (size_t)chunk_words;
    if (threadIdx.x == 0) {
        for (int s = 0; s < MC_STAGES; s++) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], bad == MC_EMPTY_COUNT_1 || bad == MC_REUSE_EARLY ? 32u : 32u * n);
        }
        dsm_fence_mbarrier_init();
        for (int s = 0; s < MC_STAGES && s < chunks; s++)
            if (arms)
                dsm_mbarrier_arrive_expect_tx(&full[s], expect);   /* round 0 of my own barriers */
    }
    if (bad == MC_NOT_STARTED)
        __syncthreads();
    else
        dsm_cluster_sync();   /* every CTA's barriers initialised and armed before anyone copies */
    if (bad == MC_DST_EXITED && rank == n - 1)
        return;
    if (threadIdx.x == 0) {
        uint16_t mask = (uint16_t)((1u << (bad == MC_MASK_OUTSIDE ? n + 1u : n)) - 1u);
        uint32_t off = rank * piece + (bad == MC_MISALIGNED ? 8u : 0u);
        uint32_t bytes = bad == MC_SIZE ? piece - 8u : piece;
        for (int k = 0; k < chunks; k++) {
            int s = k % MC_STAGES, round = k / MC_STAGES;
            if (round > 0 && bad != MC_EARLY_FIRE)   /* every consumer of every CTA released slot s */
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(round - 1) & 1u);
            dsm_cp_async_bulk_global_to_shared_multicast((unsigned char *)slot[s] + rank * piece,
                                                         (const unsigned char *)(src + (size_t)k * (size_t)chunk_words) + off,
                                                         bytes, &full[s], mask);
        }
    } else if (threadIdx.x >= 32) {
        uint32_t lane = threadIdx.x - 32u, acc[MC_MAX_WORDS / 32];
        for (int i = 0; i < MC_MAX_WORDS / 32; i++)
            acc[i] = 0u;
        int last = bad == MC_EXIT_PENDING ? chunks - 1 : chunks;
        for (int k = 0; k < last; k++) {
            int s = k % MC_STAGES, round = k / MC_STAGES;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)round & 1u);
            for (int i = 0; (int)lane + 32 * i < chunk_words; i++)
                acc[i] += (uint32_t)(k + 1) * slot[s][lane + 32u * (uint32_t)i];
            if (k + MC_STAGES < chunks) {
                if (lane == 0 && arms)   /* my barrier's next phase expects the next chunk */
                    dsm_mbarrier_arrive_expect_tx(&full[s], expect);
                if (bad == MC_REUSE_EARLY)
                    dsm_mbarrier_arrive(&empty[s]);
                else   /* every issuer writes into my slot: tell each of them */
                    for (uint32_t r = 0; r < n; r++)
                        dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&empty[s]), r));
            }
        }
        for (int i = 0; (int)lane + 32 * i < chunk_words; i++)
            out[(size_t)blockIdx.x * (size_t)chunk_words + lane + 32u * (uint32_t)i] = acc[i];
    }
    if (bad != MC_EXIT_PENDING)
        dsm_cluster_sync();   /* nobody copies into, or arrives on, a CTA that has left */
}
DSM_KERNEL_ENTRY(mcast_ring, const uint32_t *, uint32_t *, int, int, int)
