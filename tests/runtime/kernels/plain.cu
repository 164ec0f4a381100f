/* plain.cu: bugs made with plain loads and stores (through dsm_map_shared_rank pointers and array indexing) and their fixed twins: issue 8's classes 1, 2 and 4. */
#include <string.h>

#include "dsm.h"

#define BINS_PER_CTA 16

/* Seed 001 / the programming guide's histogram: each CTA owns BINS_PER_CTA bins;
 * every thread counts its inputs into the owner's slice. atomic = 0: a plain
 * p[bin]++ through the mapped pointer (loses counts on a GPU). */
__global__ void plain_histogram(const uint32_t *in, int n, uint32_t *out, int atomic)
{
    __shared__ uint32_t bins[BINS_PER_CTA];
    uint32_t nranks = dsm_cluster_nctarank();
    for (int i = threadIdx.x; i < BINS_PER_CTA; i += blockDim.x)
        bins[i] = 0;
    dsm_cluster_sync();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        uint32_t bin = in[i] % (BINS_PER_CTA * nranks);
        uint32_t owner = bin / BINS_PER_CTA;
        if (atomic)
            dsm_red_add_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&bins[bin % BINS_PER_CTA]), owner), 1u);
        else {
            uint32_t *p = (uint32_t *)dsm_map_shared_rank(bins, owner);
            p[bin % BINS_PER_CTA]++;
        }
    }
    dsm_cluster_sync();
    for (int i = threadIdx.x; i < BINS_PER_CTA; i += blockDim.x)
        atomicAdd(&out[dsm_cluster_ctarank() * BINS_PER_CTA + i], bins[i]);
}
DSM_KERNEL_ENTRY(plain_histogram, const uint32_t *, int, uint32_t *, int)

/* Each CTA writes its own tile with plain stores, arrives (relaxed = 1: relaxed;
 * 2: fence.acq_rel then relaxed, which releases; 0: release), waits, and reads
 * its neighbour's tile through a plain pointer. */
__global__ void plain_publish(uint32_t *out, int relaxed)
{
    __shared__ uint32_t tile[64];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    dsm_cluster_sync(); /* every CTA started */
    tile[threadIdx.x] = rank * 100 + threadIdx.x;
    if (relaxed == 2)
        dsm_fence_acq_rel_cluster();
    if (relaxed)
        dsm_barrier_cluster_arrive_relaxed();
    else
        dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    const uint32_t *peer = (const uint32_t *)dsm_map_shared_rank(tile, (rank + 1) % n);
    out[blockIdx.x * blockDim.x + threadIdx.x] = peer[threadIdx.x];
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(plain_publish, uint32_t *, int)

/* Publication belongs to the writing thread (issue 8, class 2): every CTA writes
 * one word into rank 0's inbox with a plain store, then rank 0 reads them all.
 * writers_relaxed = 0: the writers arrive with .release and rank 0 (which wrote
 * nothing) arrives .relaxed: correct. writers_relaxed = 1: the writers arrive
 * .relaxed and rank 0 .release: their writes are unpublished. */
__global__ void inbox_publish(uint32_t *out, int writers_relaxed)
{
    __shared__ uint32_t inbox[16];
    uint32_t rank = dsm_cluster_ctarank();
    dsm_cluster_sync();
    if (rank != 0 && threadIdx.x == 0) {
        uint32_t *remote = (uint32_t *)dsm_map_shared_rank(inbox, 0);
        remote[rank] = rank * 7;
    }
    bool relaxed = rank == 0 ? writers_relaxed == 0 : writers_relaxed != 0;
    if (relaxed)
        dsm_barrier_cluster_arrive_relaxed();
    else
        dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    if (rank == 0 && threadIdx.x > 0 && threadIdx.x < dsm_cluster_nctarank())
        out[threadIdx.x] = inbox[threadIdx.x];
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(inbox_publish, uint32_t *, int)

/* A read of a shared word nobody wrote, whose value is then transformed (so the
 * poison never reaches the output as such). init = 1 writes it first. */
__global__ void uninitialised_transform(uint32_t *out, int init)
{
    __shared__ uint32_t scratch[64];
    if (init)
        scratch[threadIdx.x] = threadIdx.x;
    __syncthreads();
    uint32_t v = scratch[(threadIdx.x + 1) % 64];
    out[blockIdx.x * blockDim.x + threadIdx.x] = (v * 3u + 1u) & 0xFFu;
}
DSM_KERNEL_ENTRY(uninitialised_transform, uint32_t *, int)

/* Copies in[0..n) to out with one thread per element, but the grid has
 * `extra` more threads than elements and checks the bound only when guard = 1. */
__global__ void global_copy(const uint32_t *in, uint32_t *out, int n, int guard)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (!guard || i < n)
        out[i % n] = in[i] + 1u;
}
DSM_KERNEL_ENTRY(global_copy, const uint32_t *, uint32_t *, int, int)

/* Rank 1 says "I am done" with an arrive and leaves; rank 0 waits for that
 * phase and then reads rank 1's tile through a plain pointer. final_barrier = 1:
 * rank 1 waits too and every CTA passes a last cluster barrier. */
__global__ void read_after_exit(uint32_t *out, int final_barrier)
{
    __shared__ uint32_t tile[32];
    uint32_t rank = dsm_cluster_ctarank();
    tile[threadIdx.x] = rank + 1;
    dsm_cluster_sync();
    dsm_barrier_cluster_arrive();
    if (rank == 1 && !final_barrier)
        return;
    dsm_barrier_cluster_wait();
    if (rank == 0) {
        const uint32_t *peer = (const uint32_t *)dsm_map_shared_rank(tile, 1);
        out[threadIdx.x] = peer[threadIdx.x];
    }
    if (final_barrier)
        dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(read_after_exit, uint32_t *, int)

/* Each CTA stores into its neighbour's shared memory. early = 1: before any
 * cluster barrier (the neighbour may not have started); 0: after one. */
__global__ void store_before_start(uint32_t *out, int early)
{
    __shared__ uint32_t slot[32];
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank();
    uint32_t *next = (uint32_t *)dsm_map_shared_rank(slot, (rank + 1) % n);
    if (!early)
        dsm_cluster_sync();
    next[threadIdx.x] = rank;
    dsm_cluster_sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = slot[threadIdx.x];
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(store_before_start, uint32_t *, int)

/* Copies shared memory nobody wrote to global memory with memcpy (a library
 * call the emulator does not see): the poison reaches the results. */
__global__ void copy_unwritten(uint32_t *out, int write_first)
{
    __shared__ uint32_t buf[32];
    if (write_first)
        buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        memcpy(out + blockIdx.x * 32, buf, sizeof buf);
}
DSM_KERNEL_ENTRY(copy_unwritten, uint32_t *, int)

/* Publication is per thread: rank 1's thread 0 writes a word of rank 0's inbox;
 * the other threads of rank 1 arrive with .release. writer_relaxed = 1: the
 * writer itself arrives .relaxed, so its write is unpublished although its CTA
 * mates released; 0: it releases too. Rank 0 reads the word after the wait. */
__global__ void mixed_arrive(uint32_t *out, int writer_relaxed)
{
    __shared__ uint32_t inbox[4];
    uint32_t rank = dsm_cluster_ctarank();
    dsm_cluster_sync();
    bool writer = rank == 1 && threadIdx.x == 0;
    if (writer)
        ((uint32_t *)dsm_map_shared_rank(inbox, 0))[1] = 42;
    if (writer && writer_relaxed)
        dsm_barrier_cluster_arrive_relaxed();
    else
        dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    if (rank == 0 && threadIdx.x == 0)
        out[0] = inbox[1];
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mixed_arrive, uint32_t *, int)
