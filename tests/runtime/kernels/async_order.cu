/* async_order.cu: copies in flight complete in any order, not in issue order: an all-to-all whose rounds share one mbarrier (a peer a round ahead completes its bytes on the round this CTA still waits for) and two copies onto one barrier read as if the first landed first; their fixed twins. 32 threads per CTA. */
#include "dsm.h"

#define AO_MAX_CLUSTER 8
#define AO_ROUNDS 6

/* Every round each CTA of the cluster sends its value to every peer with st.async and then adds what it got:
 * v' = v + sum over peers p of (p + 1) * v_p + k. one_barrier = 1: every round completes on full[0] (the
 * bug); else round k on full[k % 2], whose phase k / 2 it is. out[block] = v at the end. */
__global__ void a2a_rounds(uint32_t *out, int one_barrier)
{
    __shared__ uint32_t inbox[2][AO_MAX_CLUSTER];
    __shared__ __align__(8) uint64_t full[2];
    __shared__ uint32_t v;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank(), t = threadIdx.x;
    if (t == 0) {
        dsm_mbarrier_init(&full[0], 1);
        dsm_mbarrier_init(&full[1], 1);
        dsm_fence_mbarrier_init();
        v = blockIdx.x + 1u;
    }
    dsm_cluster_sync();
    for (uint32_t k = 0; k < AO_ROUNDS; k++) {
        uint32_t b = k & 1u, bar = one_barrier ? 0u : b;
        uint32_t parity = one_barrier ? (k & 1u) : ((k >> 1) & 1u);
        if (t == 0)
            (void)dsm_mbarrier_arrive_expect_tx(&full[bar], 4u * (n - 1u));
        if (t < n && t != rank)
            dsm_st_async_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&inbox[b][rank]), t), v,
                             dsm_mapa_shared_cluster(dsm_smem_addr(&full[bar]), t));
        __syncthreads();
        if (t == 0) {
            dsm_mbarrier_wait_parity(&full[bar], parity);
            uint32_t nv = v + k;
            for (uint32_t p = 0; p < n; p++)
                if (p != rank)
                    nv += (p + 1u) * inbox[b][p];
            v = nv;
        }
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = v;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(a2a_rounds, uint32_t *, int)

/* Rank 0's thread 0 pushes two 16-byte chunks into rank 1, both completing on rank 1's mbarrier.
 * armed_all = 0: rank 1 arms its phase with 16 bytes and reads both chunks after it, as if the first copy
 * landed first and the second belonged to the next phase (the bug); armed_all = 1: the phase expects both
 * chunks' 32 bytes. out[0] (rank 1) = the chunks' words summed. */
__global__ void two_copies(uint32_t *out, int armed_all)
{
    __shared__ __align__(16) uint32_t src[8];
    __shared__ __align__(16) uint32_t dst[8];
    __shared__ __align__(8) uint64_t full;
    uint32_t rank = dsm_cluster_ctarank(), t = threadIdx.x;
    if (t < 8)
        src[t] = 10u * (t + 1u);
    dsm_fence_proxy_async_shared_cta();
    if (t == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (rank == 1 && t == 0) {
        (void)dsm_mbarrier_arrive_expect_tx(&full, armed_all ? 32u : 16u);
        dsm_mbarrier_wait_parity(&full, 0);
        uint32_t s = 0;
        for (int i = 0; i < 8; i++)
            s += dst[i];
        out[0] = s;
        if (!armed_all) { /* the second chunk's phase, so that nothing is left in flight */
            (void)dsm_mbarrier_arrive_expect_tx(&full, 16u);
            dsm_mbarrier_wait_parity(&full, 1);
        }
    }
    if (rank == 0 && t == 0) {
        uint32_t d = dsm_mapa_shared_cluster(dsm_smem_addr(dst), 1), bar = dsm_mapa_shared_cluster(dsm_smem_addr(&full), 1);
        dsm_cp_async_bulk_shared_cluster(d, src, 16u, bar);
        dsm_cp_async_bulk_shared_cluster(d + 16u, src + 4, 16u, bar);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(two_copies, uint32_t *, int)
