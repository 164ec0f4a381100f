/* ring_bugs.cu: three small bulk-copy rings (rank 0 pushes six chunks into a two-slot ring in rank 1), each with one of the classic ring bugs, for the emulator's reports in chapter 6. */
#include "dsm.h"

#define DEMO_STAGES 2           /* slots in rank 1's ring */
#define DEMO_CHUNKS 6           /* chunks rank 0 sends */
#define DEMO_UNITS 4            /* 16-byte units per chunk: 64-byte chunks */
#define DEMO_CHUNK_BYTES (DEMO_UNITS * 16)

/* Every demo has this shape: one cluster of 2 CTAs, thread 0 of rank 0 is the
 * producer, thread 0 of rank 1 the consumer, which copies chunk k to
 * out[k * DEMO_UNITS, ...); in holds the DEMO_CHUNKS chunks. */

/* Bug 1: the producer refills a slot without waiting for the consumer to
 * release it (no wait on empty). */
__global__ void ring_reuse_early(const uint4 *in, uint4 *out)
{
    __shared__ uint4 src[DEMO_CHUNKS * DEMO_UNITS];     /* rank 0: the stream */
    __shared__ uint4 ring[DEMO_STAGES * DEMO_UNITS];    /* rank 1: the slots */
    __shared__ uint64_t full[DEMO_STAGES], empty[DEMO_STAGES];
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        for (int u = 0; u < DEMO_CHUNKS * DEMO_UNITS; ++u)
            src[u] = in[u];
        dsm_fence_proxy_async_shared_cta();
        for (int s = 0; s < DEMO_STAGES; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], 1);
        }
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0 && rank == 0) {
        uint32_t peer_ring = dsm_mapa_shared_cluster(dsm_smem_addr(ring), 1);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), 1);
        // BOOK-BEGIN(reuse-early)
        for (int k = 0; k < DEMO_CHUNKS; ++k) {
            int s = k % DEMO_STAGES;
            /* BUG: no dsm_mbarrier_wait_parity(&empty[s], ...) before refilling slot s */
            dsm_cp_async_bulk_shared_cluster(peer_ring + (uint32_t)(s * DEMO_CHUNK_BYTES), &src[k * DEMO_UNITS],
                                             DEMO_CHUNK_BYTES, peer_full + 8u * (uint32_t)s);
        }
        // BOOK-END(reuse-early)
    }
    if (threadIdx.x == 0 && rank == 1) {
        uint32_t peer_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), 0);
        for (int k = 0; k < DEMO_CHUNKS; ++k) {
            int s = k % DEMO_STAGES;
            dsm_mbarrier_arrive_expect_tx(&full[s], DEMO_CHUNK_BYTES);
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)(k / DEMO_STAGES) & 1u);
            for (int u = 0; u < DEMO_UNITS; ++u)
                out[k * DEMO_UNITS + u] = ring[s * DEMO_UNITS + u];
            dsm_mbarrier_arrive_remote(peer_empty + 8u * (uint32_t)s);
        }
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(ring_reuse_early, const uint4 *, uint4 *)

/* Bug 2: the consumer arms its full barrier with a plain arrive, without
 * expect_tx, so the phase does not wait for the copy's bytes. */
__global__ void ring_no_expect_tx(const uint4 *in, uint4 *out)
{
    __shared__ uint4 src[DEMO_CHUNKS * DEMO_UNITS];
    __shared__ uint4 ring[DEMO_STAGES * DEMO_UNITS];
    __shared__ uint64_t full[DEMO_STAGES], empty[DEMO_STAGES];
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        for (int u = 0; u < DEMO_CHUNKS * DEMO_UNITS; ++u)
            src[u] = in[u];
        dsm_fence_proxy_async_shared_cta();
        for (int s = 0; s < DEMO_STAGES; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], 1);
        }
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0 && rank == 0) {
        uint32_t peer_ring = dsm_mapa_shared_cluster(dsm_smem_addr(ring), 1);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), 1);
        for (int k = 0; k < DEMO_CHUNKS; ++k) {
            int s = k % DEMO_STAGES;
            if (k >= DEMO_STAGES)
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(k / DEMO_STAGES - 1) & 1u);
            dsm_cp_async_bulk_shared_cluster(peer_ring + (uint32_t)(s * DEMO_CHUNK_BYTES), &src[k * DEMO_UNITS],
                                             DEMO_CHUNK_BYTES, peer_full + 8u * (uint32_t)s);
        }
    }
    if (threadIdx.x == 0 && rank == 1) {
        uint32_t peer_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), 0);
        // BOOK-BEGIN(no-expect-tx)
        for (int k = 0; k < DEMO_CHUNKS; ++k) {
            int s = k % DEMO_STAGES;
            dsm_mbarrier_arrive(&full[s]);  /* BUG: should be dsm_mbarrier_arrive_expect_tx(&full[s], 64) */
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)(k / DEMO_STAGES) & 1u);
            for (int u = 0; u < DEMO_UNITS; ++u)
                out[k * DEMO_UNITS + u] = ring[s * DEMO_UNITS + u];
            dsm_mbarrier_arrive_remote(peer_empty + 8u * (uint32_t)s);
        }
        // BOOK-END(no-expect-tx)
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(ring_no_expect_tx, const uint4 *, uint4 *)

/* Bug 3: the consumer waits for the wrong parity: on a fresh barrier a wait
 * for parity 1 returns at once (it asks about the phase "before" phase 0). */
__global__ void ring_wrong_parity(const uint4 *in, uint4 *out)
{
    __shared__ uint4 src[DEMO_CHUNKS * DEMO_UNITS];
    __shared__ uint4 ring[DEMO_STAGES * DEMO_UNITS];
    __shared__ uint64_t full[DEMO_STAGES], empty[DEMO_STAGES];
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        for (int u = 0; u < DEMO_CHUNKS * DEMO_UNITS; ++u)
            src[u] = in[u];
        dsm_fence_proxy_async_shared_cta();
        for (int s = 0; s < DEMO_STAGES; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&empty[s], 1);
        }
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0 && rank == 0) {
        uint32_t peer_ring = dsm_mapa_shared_cluster(dsm_smem_addr(ring), 1);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), 1);
        for (int k = 0; k < DEMO_CHUNKS; ++k) {
            int s = k % DEMO_STAGES;
            if (k >= DEMO_STAGES)
                dsm_mbarrier_wait_parity(&empty[s], (uint32_t)(k / DEMO_STAGES - 1) & 1u);
            dsm_cp_async_bulk_shared_cluster(peer_ring + (uint32_t)(s * DEMO_CHUNK_BYTES), &src[k * DEMO_UNITS],
                                             DEMO_CHUNK_BYTES, peer_full + 8u * (uint32_t)s);
        }
    }
    if (threadIdx.x == 0 && rank == 1) {
        uint32_t peer_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), 0);
        // BOOK-BEGIN(wrong-parity)
        for (int k = 0; k < DEMO_CHUNKS; ++k) {
            int s = k % DEMO_STAGES;
            dsm_mbarrier_arrive_expect_tx(&full[s], DEMO_CHUNK_BYTES);
            /* BUG: the k-th use of slot s completes phase k / DEMO_STAGES, parity (k / DEMO_STAGES) & 1 */
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)(k / DEMO_STAGES + 1) & 1u);
            for (int u = 0; u < DEMO_UNITS; ++u)
                out[k * DEMO_UNITS + u] = ring[s * DEMO_UNITS + u];
            dsm_mbarrier_arrive_remote(peer_empty + 8u * (uint32_t)s);
        }
        // BOOK-END(wrong-parity)
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(ring_wrong_parity, const uint4 *, uint4 *)
