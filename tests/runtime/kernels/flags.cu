/* flags.cu: ping-pong and hand-off through release/acquire flags (ld.acquire / st.release), and their misuses. */
#include "dsm.h"

enum { FLAG_OK = 0, FLAG_RELAXED_STORE = 1, FLAG_WRONG_VALUE = 2 };

/* Ranks 0 and 1 bounce a token `rounds` times. Each hop writes the token into
 * the peer's mailbox, then sets the peer's flag to the round number; the peer
 * polls its own flag. flags_global: the flags live in global memory instead
 * (gflags[rank]), with .gpu scope. bad: FLAG_RELAXED_STORE publishes nothing,
 * FLAG_WRONG_VALUE waits for a value nobody writes. out[rank] = last token. */
__global__ void flag_ping_pong(uint32_t *out, uint32_t *gflags, int rounds, int flags_global, int bad)
{
    __shared__ uint32_t mailbox;
    __shared__ uint32_t flag;
    uint32_t rank = dsm_cluster_ctarank(), peer = rank ^ 1u;
    if (threadIdx.x == 0) {
        mailbox = 0;
        flag = 0;
    }
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        uint32_t peer_box = dsm_mapa_shared_cluster(dsm_smem_addr(&mailbox), peer);
        uint32_t *my_flag = flags_global ? &gflags[rank] : &flag;
        uint32_t *peer_flag = flags_global ? &gflags[peer] : (uint32_t *)dsm_map_shared_rank(&flag, peer);
        uint32_t token = 0;
        for (int r = 1; r <= rounds; r++) {
            bool my_turn = (uint32_t)(r & 1) == (rank == 0 ? 1u : 0u);
            if (my_turn) {
                dsm_st_shared_cluster_u32(peer_box, token + 1);
                if (bad == FLAG_RELAXED_STORE)
                    dsm_st_relaxed_cluster_u32(peer_flag, (uint32_t)r);
                else if (flags_global)
                    dsm_st_release_gpu_u32(peer_flag, (uint32_t)r);
                else
                    dsm_st_release_cluster_u32(peer_flag, (uint32_t)r);
            } else {
                uint32_t want = bad == FLAG_WRONG_VALUE ? (uint32_t)r + 1 : (uint32_t)r;
                if (flags_global)
                    while (dsm_ld_acquire_gpu_u32(my_flag) != want) { }
                else
                    while (dsm_ld_acquire_cluster_u32(my_flag) != want) { }
                token = dsm_ld_shared_cluster_u32(dsm_smem_addr(&mailbox));
            }
        }
        out[rank] = token;
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(flag_ping_pong, uint32_t *, uint32_t *, int, int, int)

/* One CTA: warp 0's lane 0 fills data[] and sets `ready` with st.release; every
 * thread of warp 1 polls `ready` with ld.acquire and sums data[]. relaxed = 1:
 * the flag is set with st.relaxed (publishes nothing); relaxed = 2: relaxed
 * store and loads, each with fence.acq_rel on the right side (as correct as
 * release/acquire). out[tid - 32] = the sum. */
__global__ void flag_handoff(uint32_t *out, int relaxed)
{
    __shared__ uint32_t data[32];
    __shared__ uint32_t ready;
    if (threadIdx.x == 0)
        ready = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (uint32_t i = 0; i < 32; i++)
            dsm_st_shared_cluster_u32(dsm_smem_addr(&data[i]), i + 1);
        if (relaxed == 2)
            dsm_fence_acq_rel_cluster(); /* release fence: the stores above before the flag */
        if (relaxed)
            dsm_st_relaxed_cluster_u32(&ready, 1);
        else
            dsm_st_release_cluster_u32(&ready, 1);
    } else if (threadIdx.x >= 32) {
        if (relaxed == 2) {
            while (dsm_ld_relaxed_cluster_u32(&ready) == 0) { }
            dsm_fence_acq_rel_cluster(); /* acquire fence: the flag before the loads below */
        } else
            while (dsm_ld_acquire_cluster_u32(&ready) == 0) { }
        uint32_t sum = 0;
        for (uint32_t i = 0; i < 32; i++)
            sum += dsm_ld_shared_cluster_u32(dsm_smem_addr(&data[i]));
        out[threadIdx.x - 32] = sum;
    }
}
DSM_KERNEL_ENTRY(flag_handoff, uint32_t *, int)

/* The pre-Volta idiom: a volatile flag between two __threadfence()s (volatile
 * accesses are relaxed strong accesses; the fences make them release and
 * acquire). fenced = 0: no fences, the data is not ordered; fenced = -1: the
 * flag is never set (the consumers poll forever). */
__global__ void volatile_handoff(uint32_t *out, int fenced)
{
    __shared__ uint32_t data[32];
    __shared__ uint32_t ready;
    volatile uint32_t *flag = &ready;
    if (threadIdx.x == 0)
        ready = 0;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (uint32_t i = 0; i < 32; i++)
            data[i] = i + 1;
        if (fenced > 0)
            __threadfence();
        if (fenced >= 0)
            *flag = 1;
    } else if (threadIdx.x >= 32) {
        while (*flag == 0) { }
        if (fenced > 0)
            __threadfence();
        uint32_t sum = 0;
        for (uint32_t i = 0; i < 32; i++)
            sum += data[i];
        out[threadIdx.x - 32] = sum;
    }
}
DSM_KERNEL_ENTRY(volatile_handoff, uint32_t *, int)
