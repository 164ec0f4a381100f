/* ring_global.cu: ring_push's twin through global memory: the same stream, slots, stages and roles, the chunks going out with cp.async.bulk shared->global and in with cp.async.bulk global->shared. */
#include "dsm.h"

/* Given code, not an exercise: make bench runs it beside ring_push (chapter 6,
 * "Like for like"), with the same sweeps. What changes from ring_push, and why:
 *
 * ring_push's copy writes straight into the receiver's slot and completes the
 * receiver's mbarrier: the data carries its own signal. Through global memory
 * the chunk crosses L2 twice, and the signal cannot ride on it: a bulk store's
 * completion is known only to the thread that issued it (its bulk
 * async-group, cp.async.bulk.wait_group), so the sender must wait for it and
 * then publish the chunk with a release flag, which the receiver acquires
 * before it fetches the chunk with a second bulk copy. The release of the
 * global slot is a flag too. Every signal goes through global memory (L2),
 * like the data: nothing of this kernel touches another CTA's shared memory.
 */

/* The deepest ring the kernel supports (static mbarrier arrays). */
#define RING_GLOBAL_MAX_STAGES 8
/* The most 16-byte lanes of a chunk one consumer thread accumulates. */
#define RING_GLOBAL_MAX_LANES 8

/*
 * The contract is ring_push's (solutions/ch06/ring_push.cu): the same launch
 * shape, dynamic shared memory, input stream and output, and in addition:
 *
 * scratch: the global slots, stages * chunk_bytes bytes per block: CTA b's
 *   left neighbour writes chunk k into slot k mod stages of block b's slots.
 * flags: 2 * stages uint32_t per block, any contents at launch (the kernel
 *   clears its own): flags[2 * stages * b + s] = "ready": 1 + the trip of the
 *   chunk now in slot s of block b; flags[2 * stages * b + stages + s] =
 *   "freed": the number of trips of slot s that block b has finished with.
 *
 * Roles, as in ring_push: thread 0 is the producer (bulk stores into the right
 * neighbour's global slots, then the ready flags), thread 32 the fetcher (the
 * forwarder's twin: waits for the ready flag, fetches the chunk into its own
 * ring with a bulk copy that completes full[s], and frees the global slot once
 * the consumers are done with the shared one), threads 64 and up the consumers.
 */
__global__ void ring_global(const uint4 *in, uint32_t *out, int chunk_bytes, int stages, int nchunks, uint4 *scratch,
                            uint32_t *flags)
{
    __shared__ uint64_t full[RING_GLOBAL_MAX_STAGES];     /* "slot s of my ring holds a chunk" (the fetch completes it) */
    __shared__ uint64_t consumed[RING_GLOBAL_MAX_STAGES]; /* "all my consumers are done with slot s" */
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem();  /* stages slots, filled from global memory */
    unsigned char *src = ring + (size_t)stages * (size_t)chunk_bytes;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t right_block = blockIdx.x - rank + (rank + 1u) % n;
    int src_units = chunk_bytes / 16 + 8 * stages, units = chunk_bytes / 16;
    int tid = (int)threadIdx.x, consumers = (int)blockDim.x - 64;
    size_t slot_units = (size_t)chunk_bytes / 16;

    uint32_t *my_ready = flags + 2u * (uint32_t)stages * blockIdx.x, *my_freed = my_ready + stages;
    uint32_t *right_ready = flags + 2u * (uint32_t)stages * right_block, *right_freed = right_ready + stages;
    uint4 *my_slots = scratch + (size_t)blockIdx.x * (size_t)stages * slot_units;
    uint4 *right_slots = scratch + (size_t)right_block * (size_t)stages * slot_units;

    const uint4 *my_in = in + (size_t)blockIdx.x * (size_t)src_units;
    for (int u = tid; u < src_units; u += (int)blockDim.x)
        ((uint4 *)src)[u] = my_in[u];
    dsm_fence_proxy_async_shared_cta();     /* my generic writes of src, visible to the bulk stores' reads */
    if (tid < stages) {                      /* my flags start from nothing, whatever an earlier launch left */
        my_ready[tid] = 0u;
        my_freed[tid] = 0u;
    }
    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            dsm_mbarrier_init(&full[s], 1);                         /* the fetcher's expect_tx + the bytes */
            dsm_mbarrier_init(&consumed[s], (uint32_t)consumers);   /* every consumer thread, locally */
        }
        dsm_fence_mbarrier_init();
    }
    /* my flags are cleared and my barriers exist before my left neighbour writes or anyone waits
     * (the barrier releases and acquires at cluster scope, global memory included) */
    dsm_cluster_sync();

    if (tid == 0) {
        /* the producer: bulk stores into my right neighbour's global slots. A store's completion is
         * known only to me (my bulk async-groups), so I publish chunk k once its group is complete:
         * one chunk behind the newest store (wait_group 1), so that two stores are in flight. */
        int lag = stages > 1 ? 1 : 0, published = 0;
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            if (round > 0) {
                /* slot s is free once chunk k - stages has been fetched and consumed. Before waiting for
                 * that, publish every chunk in flight: the receiver may need the one I hold back to get
                 * there (it frees slots in order), and would wait for me while I wait for it. */
                if (dsm_ld_acquire_cluster_u32(&right_freed[s]) < (uint32_t)round) {
                    dsm_cp_async_bulk_wait_group(0);
                    for (; published < k; ++published)
                        dsm_st_release_cluster_u32(&right_ready[published % stages],
                                                   (uint32_t)(published / stages) + 1u);
                    while (dsm_ld_acquire_cluster_u32(&right_freed[s]) < (uint32_t)round) {
                    }
                }
                dsm_fence_proxy_async_global();     /* that acquire before my async-proxy write of the slot */
            }
            dsm_cp_async_bulk_shared_to_global(right_slots + (size_t)s * slot_units, src + 128 * (k % (stages + 1)),
                                               (uint32_t)chunk_bytes);
            dsm_cp_async_bulk_commit_group();
            if (lag == 0)
                dsm_cp_async_bulk_wait_group(0);    /* chunk k's bytes are in global memory */
            else
                dsm_cp_async_bulk_wait_group(1);    /* every chunk before k is */
            for (; published <= k - lag; ++published)
                dsm_st_release_cluster_u32(&right_ready[published % stages], (uint32_t)(published / stages) + 1u);
        }
        dsm_cp_async_bulk_wait_group(0);            /* the last chunk too (and src is no longer read) */
        for (; published < nchunks; ++published)
            dsm_st_release_cluster_u32(&right_ready[published % stages], (uint32_t)(published / stages) + 1u);
    } else if (tid == 32) {
        /* the fetcher, alone in warp 1 (ring_push's forwarder): frees each global slot once my
         * consumers are done with the chunk it brought, waits for the next chunk to be published,
         * and fetches it into my ring with a bulk copy that completes full[s] */
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            if (round > 0) {
                dsm_mbarrier_wait_parity(&consumed[s], (uint32_t)(round - 1) & 1u);
                /* the fetch of trip round - 1 completed before the consumers read it: the global slot is free */
                dsm_st_release_cluster_u32(&my_freed[s], (uint32_t)round);
            }
            while (dsm_ld_acquire_cluster_u32(&my_ready[s]) != (uint32_t)round + 1u) {
            }
            dsm_fence_proxy_async_global();         /* the acquire before my async-proxy read of the slot */
            dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)chunk_bytes);    /* trip `round` of slot s */
            dsm_cp_async_bulk_global_to_shared(ring + (size_t)s * (size_t)chunk_bytes, my_slots + (size_t)s * slot_units,
                                               (uint32_t)chunk_bytes, &full[s]);
        }
    } else if (tid >= 64) {
        /* the consumer warps, exactly as in ring_push */
        int c = tid - 64;
        uint32_t acc[RING_GLOBAL_MAX_LANES][4];
        for (int i = 0; i < RING_GLOBAL_MAX_LANES; ++i)
            acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0u;
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            uint32_t weight = (uint32_t)k + 1u;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)round & 1u);   /* the fetch's bytes are here */
            const uint4 *slot = (const uint4 *)(ring + (size_t)s * (size_t)chunk_bytes);
            for (int i = 0; i < RING_GLOBAL_MAX_LANES; ++i) {
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
        for (int i = 0; i < RING_GLOBAL_MAX_LANES; ++i) {
            int u = c + i * consumers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * (size_t)(units * 4) + (size_t)(u * 4 + w)] = acc[i][w];
        }
    }
    /* Nothing of this kernel touches another CTA's shared memory, so no CTA has to wait for its
     * peers before it leaves: no cluster barrier at the end (ring_push needs one). */
}
DSM_KERNEL_ENTRY(ring_global, const uint4 *, uint32_t *, int, int, int, uint4 *, uint32_t *)
