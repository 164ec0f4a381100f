/* mbarrier.cu: pushes into a peer CTA (bulk copy, st.async) completing on its mbarrier, mbarrier ping-pong, and the misuses the emulator reports. */
#include "dsm.h"

#define TILE_WORDS 256 /* 1 KB */

/* Every CTA pushes its tile into its right neighbour's inbox with one bulk copy.
 * bad: 0 correct, 1 misaligned destination, 2 size not a multiple of 16,
 * 3 destination in its own CTA, 4 no barrier after mbarrier.init,
 * 5 expects fewer bytes than it receives. */
__global__ void bulk_push(uint32_t *out, int bad)
{
    __shared__ __align__(16) uint32_t tile[TILE_WORDS];
    __shared__ __align__(16) uint32_t inbox[TILE_WORDS + 4];
    __shared__ __align__(8) uint64_t full;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t right = (rank + 1) % n;
    for (int i = threadIdx.x; i < TILE_WORDS; i += blockDim.x)
        tile[i] = rank * 1000 + (uint32_t)i;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_fence_proxy_async_shared_cta();
    if (bad != 4)
        dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t bytes = bad == 2 ? 20u : TILE_WORDS * 4u;
        uint32_t target = bad == 3 ? rank : right;
        uint32_t dst = dsm_mapa_shared_cluster(dsm_smem_addr(&inbox[bad == 1 ? 1 : 0]), target);
        uint32_t bar = dsm_mapa_shared_cluster(dsm_smem_addr(&full), target);
        dsm_mbarrier_arrive_expect_tx(&full, bad == 5 ? TILE_WORDS * 2u : TILE_WORDS * 4u);
        dsm_cp_async_bulk_shared_cluster(dst, tile, bytes, bar);
    }
    dsm_mbarrier_wait_parity(&full, 0);
    for (int i = threadIdx.x; i < TILE_WORDS; i += blockDim.x)
        out[blockIdx.x * TILE_WORDS + i] = inbox[i];
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(bulk_push, uint32_t *, int)

/* The same push with 16-byte st.async stores from every thread. */
__global__ void st_async_push(uint32_t *out)
{
    __shared__ __align__(16) uint32_t inbox[TILE_WORDS];
    __shared__ __align__(8) uint64_t full;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t right = (rank + 1) % n;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0)
        dsm_mbarrier_arrive_expect_tx(&full, TILE_WORDS * 4u);
    uint32_t bar = dsm_mapa_shared_cluster(dsm_smem_addr(&full), right);
    for (int i = (int)threadIdx.x * 4; i < TILE_WORDS; i += (int)blockDim.x * 4) {
        uint4 v = make_uint4(rank * 1000 + (uint32_t)i, rank * 1000 + (uint32_t)i + 1, rank * 1000 + (uint32_t)i + 2,
                             rank * 1000 + (uint32_t)i + 3);
        dsm_st_async_v4_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&inbox[i]), right), v, bar);
    }
    dsm_mbarrier_wait_parity(&full, 0);
    for (int i = threadIdx.x; i < TILE_WORDS; i += blockDim.x)
        out[blockIdx.x * TILE_WORDS + i] = inbox[i];
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(st_async_push, uint32_t *)

/* Ping-pong with point-to-point signalling: rank 0 and 1 bounce a token `rounds` times
 * through each other's mailbox, each hop announced by a remote mbarrier arrive. */
__global__ void mbarrier_ping_pong(uint32_t *out, int rounds)
{
    __shared__ uint32_t mailbox;
    __shared__ __align__(8) uint64_t got;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        mailbox = 0;
        dsm_mbarrier_init(&got, 1);
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_box = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), rank ^ 1);
        uint32_t peer_bar = dsm_mapa_shared_cluster(dsm_smem_addr(&got), rank ^ 1);
        uint32_t token = 0;
        for (int r = 0; r < rounds; r++) {
            if (rank == 0) {
                dsm_st_shared_cluster_u32(peer_box, token + 1);
                dsm_mbarrier_arrive_remote(peer_bar);
                dsm_mbarrier_wait_parity(&got, (uint32_t)r & 1u);
                token = mailbox;
            } else {
                dsm_mbarrier_wait_parity(&got, (uint32_t)r & 1u);
                token = mailbox;
                dsm_st_shared_cluster_u32(peer_box, token + 1);
                dsm_mbarrier_arrive_remote(peer_bar);
            }
        }
        out[rank] = token;
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mbarrier_ping_pong, uint32_t *, int)
