/* mcast_bugs.cu: three small multicast rings (every CTA of a cluster receives six chunks, each CTA multicasting its piece of every chunk to all), each with one of the multicast bugs users reported, for the emulator's reports in chapter 7. */
#include "dsm.h"

#define DEMO_STAGES 2           /* slots in every CTA's ring */
#define DEMO_CHUNKS 6           /* chunks of the stream */
#define DEMO_UNITS 8            /* 16-byte units per chunk: 128-byte chunks */
#define DEMO_CHUNK_BYTES (DEMO_UNITS * 16)

/* Every demo has this shape: one cluster of n CTAs of 64 threads; thread 0 of rank r
 * multicasts units [r * 8 / n, (r + 1) * 8 / n) of chunk k into slot k % 2 of every CTA;
 * thread 32 waits for chunk k, copies it to out[(r * DEMO_CHUNKS + k) * DEMO_UNITS, ...),
 * re-arms its full barrier and releases the slot on the empty barrier of every CTA. */

/* The consumer side, the same in every demo (arm: whether this CTA arms its full barrier). */
static __device__ void demo_consume(uint4 *ring, uint64_t *full, uint64_t *empty, uint4 *out, int arm)
{
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    for (int k = 0; k < DEMO_CHUNKS; ++k) {
        int s = k % DEMO_STAGES;
        dsm_mbarrier_wait_parity(&full[s], (uint32_t)(k / DEMO_STAGES) & 1u);
        for (int u = 0; u < DEMO_UNITS; ++u)
            out[(rank * DEMO_CHUNKS + (uint32_t)k) * DEMO_UNITS + (uint32_t)u] = ring[s * DEMO_UNITS + u];
        if (k + DEMO_STAGES < DEMO_CHUNKS) {
            if (arm)
                dsm_mbarrier_arrive_expect_tx(&full[s], DEMO_CHUNK_BYTES);
            for (uint32_t r = 0; r < n; ++r)
                dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&empty[s]), r));
        }
    }
}

/* The issuer side: this CTA's piece of every chunk to the CTAs of `mask`, a slot refilled
 * after this CTA's empty barrier says it was released. */
static __device__ void demo_issue(const uint4 *in, uint4 *ring, uint64_t *full, uint64_t *empty, uint16_t mask)
{
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t lo = DEMO_UNITS * rank / n, hi = DEMO_UNITS * (rank + 1u) / n;
    for (int k = 0; k < DEMO_CHUNKS; ++k) {
        int s = k % DEMO_STAGES, round = k / DEMO_STAGES;
        if (round > 0)
            dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(round - 1) & 1u);
        dsm_cp_async_bulk_global_to_shared_multicast(&ring[s * DEMO_UNITS + (int)lo], &in[k * DEMO_UNITS + (int)lo],
                                                     16u * (hi - lo), &full[s], mask);
    }
}

/* Bug 1 (deepseek-ai/DeepGEMM#51): the empty barrier counts one release, as in a
 * one-to-one ring, but every CTA of the cluster reads the slots this CTA fills. */
__global__ void mcast_empty_count_one(const uint4 *in, uint4 *out)
{
    __shared__ __align__(16) uint4 ring[DEMO_STAGES * DEMO_UNITS];
    __shared__ uint64_t full[DEMO_STAGES], empty[DEMO_STAGES];
    uint32_t n = dsm_cluster_nctarank();
    if (threadIdx.x == 0) {
        // BOOK-BEGIN(empty-count-one)
        for (int s = 0; s < DEMO_STAGES; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], 1);   /* BUG: n CTAs release each slot, the count must be n */
        }
        // BOOK-END(empty-count-one)
        dsm_fence_mbarrier_init();
        for (int s = 0; s < DEMO_STAGES; ++s)
            dsm_mbarrier_arrive_expect_tx(&full[s], DEMO_CHUNK_BYTES);
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0)
        demo_issue(in, ring, full, empty, (uint16_t)((1u << n) - 1u));
    else if (threadIdx.x == 32)
        demo_consume(ring, full, empty, out, 1);
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mcast_empty_count_one, const uint4 *, uint4 *)

/* Bug 2 (facebookexperimental/triton#908): only rank 0 arms its full barrier, as if the
 * CTA that issues a copy armed the barriers of all its receivers. */
__global__ void mcast_only_rank0_arms(const uint4 *in, uint4 *out)
{
    __shared__ __align__(16) uint4 ring[DEMO_STAGES * DEMO_UNITS];
    __shared__ uint64_t full[DEMO_STAGES], empty[DEMO_STAGES];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    if (threadIdx.x == 0) {
        for (int s = 0; s < DEMO_STAGES; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], n);
        }
        dsm_fence_mbarrier_init();
        // BOOK-BEGIN(only-rank0-arms)
        if (rank == 0)   /* BUG: every receiver arms its OWN full barrier */
            for (int s = 0; s < DEMO_STAGES; ++s)
                dsm_mbarrier_arrive_expect_tx(&full[s], DEMO_CHUNK_BYTES);
        // BOOK-END(only-rank0-arms)
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0)
        demo_issue(in, ring, full, empty, (uint16_t)((1u << n) - 1u));
    else if (threadIdx.x == 32)
        demo_consume(ring, full, empty, out, rank == 0);
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mcast_only_rank0_arms, const uint4 *, uint4 *)

/* Bug 3 (NVIDIA/cutlass#3658): a mask written for clusters of 4, launched in clusters of 2. */
__global__ void mcast_mask_outside(const uint4 *in, uint4 *out)
{
    __shared__ __align__(16) uint4 ring[DEMO_STAGES * DEMO_UNITS];
    __shared__ uint64_t full[DEMO_STAGES], empty[DEMO_STAGES];
    uint32_t n = dsm_cluster_nctarank();
    if (threadIdx.x == 0) {
        for (int s = 0; s < DEMO_STAGES; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], n);
        }
        dsm_fence_mbarrier_init();
        for (int s = 0; s < DEMO_STAGES; ++s)
            dsm_mbarrier_arrive_expect_tx(&full[s], DEMO_CHUNK_BYTES);
    }
    dsm_cluster_sync();
    // BOOK-BEGIN(mask-outside)
    if (threadIdx.x == 0)
        demo_issue(in, ring, full, empty, 0xF);   /* BUG: the cluster has dsm_cluster_nctarank() CTAs, not 4 */
    // BOOK-END(mask-outside)
    else if (threadIdx.x == 32)
        demo_consume(ring, full, empty, out, 1);
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mcast_mask_outside, const uint4 *, uint4 *)
