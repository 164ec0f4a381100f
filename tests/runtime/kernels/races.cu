/* races.cu: kernels for races through the device API and through plain pointers, each buggy one with its fixed twin. */
#include "dsm.h"

#define BINS_PER_BLOCK 32

/* The programming guide's distributed histogram: bins owned by rank bin / BINS_PER_BLOCK. */
static __device__ void histogram_body(const uint32_t *in, int n, uint32_t *out, int atomic)
{
    __shared__ uint32_t bins[BINS_PER_BLOCK];
    uint32_t rank = dsm_cluster_ctarank(), nranks = dsm_cluster_nctarank();
    for (int i = threadIdx.x; i < BINS_PER_BLOCK; i += blockDim.x)
        bins[i] = 0;
    dsm_cluster_sync();
    uint32_t nbins = BINS_PER_BLOCK * nranks;
    for (int i = (int)(rank * blockDim.x + threadIdx.x); i < n; i += (int)(nranks * blockDim.x)) {
        uint32_t bin = in[i] % nbins;
        uint32_t addr = dsm_mapa_shared_cluster(dsm_smem_addr(&bins[bin % BINS_PER_BLOCK]), bin / BINS_PER_BLOCK);
        if (atomic)
            dsm_atom_add_shared_cluster_u32(addr, 1);
        else
            dsm_st_shared_cluster_u32(addr, dsm_ld_shared_cluster_u32(addr) + 1);
    }
    dsm_cluster_sync();
    for (int i = threadIdx.x; i < BINS_PER_BLOCK; i += blockDim.x)
        out[rank * BINS_PER_BLOCK + i] = bins[i];
}

__global__ void histogram_atomic(const uint32_t *in, int n, uint32_t *out) { histogram_body(in, n, out, 1); }
DSM_KERNEL_ENTRY(histogram_atomic, const uint32_t *, int, uint32_t *)

__global__ void histogram_plain_rmw(const uint32_t *in, int n, uint32_t *out) { histogram_body(in, n, out, 0); }
DSM_KERNEL_ENTRY(histogram_plain_rmw, const uint32_t *, int, uint32_t *)

/* Reads the peer's tile through ld.shared::cluster, with or without the cluster barrier that publishes it. */
static __device__ void neighbour_copy(uint32_t *out, int publish)
{
    __shared__ uint32_t tile[64];
    uint32_t rank = dsm_cluster_ctarank();
    tile[threadIdx.x] = rank * 100 + threadIdx.x;
    if (publish)
        dsm_cluster_sync();
    uint32_t peer = dsm_mapa_shared_cluster(dsm_smem_addr(&tile[threadIdx.x]), rank ^ 1);
    out[blockIdx.x * blockDim.x + threadIdx.x] = dsm_ld_shared_cluster_u32(peer);
    dsm_cluster_sync();
}

__global__ void unpublished_read(uint32_t *out) { neighbour_copy(out, 0); }
DSM_KERNEL_ENTRY(unpublished_read, uint32_t *)
__global__ void published_read(uint32_t *out) { neighbour_copy(out, 1); }
DSM_KERNEL_ENTRY(published_read, uint32_t *)

/* Ranks 1.. store into rank 0's mailbox in one phase: to one word (a write/write race) or to one word each. */
static __device__ void mailbox(uint32_t *out, int same_word)
{
    __shared__ uint32_t box[16];
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x < 16)
        box[threadIdx.x] = 0;
    dsm_cluster_sync();
    if (rank != 0 && threadIdx.x == 0) {
        uint32_t slot = same_word ? 0 : rank;
        dsm_st_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&box[slot]), 0), rank);
    }
    dsm_cluster_sync();
    if (rank == 0 && threadIdx.x < 16)
        out[threadIdx.x] = box[threadIdx.x];
    dsm_cluster_sync();
}

__global__ void mailbox_same_word(uint32_t *out) { mailbox(out, 1); }
DSM_KERNEL_ENTRY(mailbox_same_word, uint32_t *)
__global__ void mailbox_own_words(uint32_t *out) { mailbox(out, 0); }
DSM_KERNEL_ENTRY(mailbox_own_words, uint32_t *)

/* Rank 1 writes rank 0's word while rank 2 reads it: in one phase (a race) or with a barrier between. */
static __device__ void write_then_read(uint32_t *out, int barrier_between)
{
    __shared__ uint32_t word;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0)
        word = 7;
    dsm_cluster_sync();
    uint32_t a = dsm_mapa_shared_cluster(dsm_smem_addr(&word), 0);
    if (rank == 1 && threadIdx.x == 0)
        dsm_st_shared_cluster_u32(a, 42);
    if (barrier_between)
        dsm_cluster_sync();
    if (rank == 2 && threadIdx.x == 0)
        out[0] = dsm_ld_shared_cluster_u32(a);
    dsm_cluster_sync();
}

__global__ void read_write_same_phase(uint32_t *out) { write_then_read(out, 0); }
DSM_KERNEL_ENTRY(read_write_same_phase, uint32_t *)
__global__ void read_after_barrier(uint32_t *out) { write_then_read(out, 1); }
DSM_KERNEL_ENTRY(read_after_barrier, uint32_t *)

/* Plain generic pointers: each CTA writes into its peer's slot and reads its own, with or without a barrier between. */
static __device__ void swap_slots(uint32_t *out, int barrier_between)
{
    __shared__ uint32_t slot;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0)
        slot = 0;
    dsm_cluster_sync();
    uint32_t *peer = (uint32_t *)dsm_map_shared_rank(&slot, rank ^ 1);
    if (threadIdx.x == 0)
        *peer = rank + 1;
    if (barrier_between)
        dsm_cluster_sync();
    if (threadIdx.x == 0)
        out[blockIdx.x] = slot;
    dsm_cluster_sync();
}

__global__ void swap_without_barrier(uint32_t *out) { swap_slots(out, 0); }
DSM_KERNEL_ENTRY(swap_without_barrier, uint32_t *)
__global__ void swap_with_barrier(uint32_t *out) { swap_slots(out, 1); }
DSM_KERNEL_ENTRY(swap_with_barrier, uint32_t *)

/* Reads this CTA's own shared memory through the device API: before or after writing it. */
static __device__ void own_read(uint32_t *out, int write_first)
{
    __shared__ uint32_t buf[32];
    if (write_first && threadIdx.x < 32)
        buf[threadIdx.x] = threadIdx.x * 3;
    __syncthreads();
    if (threadIdx.x < 32)
        out[blockIdx.x * 32 + threadIdx.x] = dsm_ld_shared_cluster_u32(dsm_smem_addr(&buf[threadIdx.x]));
    dsm_cluster_sync();
}

__global__ void read_before_write(uint32_t *out) { own_read(out, 0); }
DSM_KERNEL_ENTRY(read_before_write, uint32_t *)
__global__ void read_after_write(uint32_t *out) { own_read(out, 1); }
DSM_KERNEL_ENTRY(read_after_write, uint32_t *)

/* Writes one word (through the device API, or with a plain store when `plain`),
 * closes the phase with arrive.relaxed (which publishes nothing) or the default
 * arrive.release, then reads the peer's word: out[block] = peer rank + base. */
static __device__ void publish_word(uint32_t *out, int relaxed, int plain, uint32_t base)
{
    __shared__ uint32_t word;
    uint32_t rank = dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        if (plain)
            word = rank + base;
        else
            dsm_st_shared_cluster_u32(dsm_smem_addr(&word), rank + base);
    }
    if (relaxed)
        dsm_barrier_cluster_arrive_relaxed();
    else
        dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 0)
        out[blockIdx.x] = dsm_ld_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&word), rank ^ 1));
    dsm_cluster_sync();
}

__global__ void publish_relaxed(uint32_t *out) { publish_word(out, 1, 0, 10); }
DSM_KERNEL_ENTRY(publish_relaxed, uint32_t *)
__global__ void publish_release(uint32_t *out) { publish_word(out, 0, 0, 10); }
DSM_KERNEL_ENTRY(publish_release, uint32_t *)
__global__ void publish_plain_relaxed(uint32_t *out) { publish_word(out, 1, 1, 20); }
DSM_KERNEL_ENTRY(publish_plain_relaxed, uint32_t *)
__global__ void publish_plain_release(uint32_t *out) { publish_word(out, 0, 1, 20); }
DSM_KERNEL_ENTRY(publish_plain_release, uint32_t *)
