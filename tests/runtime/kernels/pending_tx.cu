/* pending_tx.cu: a CTA that exits with an mbarrier phase still expecting bytes that never come (armed for a chunk the stream does not have): harmless by the PTX ISA, so not reported; the copies that do come are all waited for. */
#include "dsm.h"

#define STAGES 4
#define CHUNK_WORDS 32

/* Each CTA pushes `chunks` (1..STAGES) chunks into its right neighbour's ring of
 * STAGES slots, one bulk copy per slot; the receiver arms the slots' `full`
 * mbarriers up front: all STAGES of them when arm_all (the phases of the slots
 * the stream does not reach then expect bytes until the kernel ends), else only
 * the first `chunks`. out[block * CHUNK_WORDS + i] = the sum over slots. */
__global__ void short_stream(uint32_t *out, int chunks, int arm_all)
{
    __shared__ __align__(16) uint32_t src[STAGES][CHUNK_WORDS];
    __shared__ __align__(16) uint32_t ring[STAGES][CHUNK_WORDS];
    __shared__ __align__(8) uint64_t full[STAGES];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    for (int s = 0; s < STAGES; s++)
        src[s][threadIdx.x] = rank * 1000u + (uint32_t)s * 100u + threadIdx.x;
    dsm_fence_proxy_async_shared_cta();
    if (threadIdx.x == 0)
        for (int s = 0; s < STAGES; s++) {
            dsm_mbarrier_init(&full[s], 1);
            if (arm_all || s < chunks)
                dsm_mbarrier_arrive_expect_tx(&full[s], CHUNK_WORDS * 4u);
        }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t right = (rank + 1) % n;
        uint32_t peer_ring = dsm_mapa_shared_cluster(dsm_smem_addr(ring), right);
        uint32_t peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), right);
        for (int s = 0; s < chunks; s++)
            dsm_cp_async_bulk_shared_cluster(peer_ring + (uint32_t)s * CHUNK_WORDS * 4u, src[s], CHUNK_WORDS * 4u,
                                             peer_full + 8u * (uint32_t)s);
    }
    uint32_t sum = 0;
    for (int s = 0; s < chunks; s++) {
        dsm_mbarrier_wait_parity(&full[s], 0);
        sum += ring[s][threadIdx.x];
    }
    out[blockIdx.x * CHUNK_WORDS + threadIdx.x] = sum;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(short_stream, uint32_t *, int, int)
