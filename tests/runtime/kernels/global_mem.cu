/* global_mem.cu: global memory (dsm_malloc buffers) checked like shared memory: a tile exchange through global scratch slots, outputs shared between clusters, a gpu-scope flag between clusters, a flush loop past the end of its buffer; each buggy kernel with its fixed twin. */
#include "dsm.h"

#define TILE 32
#define ROUNDS 4

/* Two CTAs of a cluster swap a tile ROUNDS times through one global scratch slot
 * per block: each writes its slot, passes a cluster barrier, adds the peer's
 * slot. fixed = 0: the next round's write comes while the peer may still read
 * the slot (no barrier after the reads); 1: a second barrier per round.
 * out[block * TILE + i] = the sum over rounds of the peer's values. */
__global__ void scratch_exchange(uint32_t *scratch, uint32_t *out, int fixed)
{
    uint32_t *mine = scratch + blockIdx.x * TILE;
    const uint32_t *peer = scratch + (blockIdx.x ^ 1u) * TILE;
    uint32_t sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        mine[threadIdx.x] = blockIdx.x * 1000u + (uint32_t)r * 100u + threadIdx.x;
        dsm_cluster_sync();
        sum += peer[threadIdx.x];
        if (fixed)
            dsm_cluster_sync();
    }
    out[blockIdx.x * TILE + threadIdx.x] = sum;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(scratch_exchange, uint32_t *, uint32_t *, int)

enum { TOTAL_PLAIN_SHARED_WORD = 0, TOTAL_OWN_WORD = 1, TOTAL_ATOMIC = 2 };

/* Every cluster sums its CTAs' ranks + 1 (1 + 2 + ... through DSMEM reads of
 * rank 0's word) and stores the sum: how = TOTAL_PLAIN_SHARED_WORD: all
 * clusters store into out[0] with plain stores after adding the cluster index
 * (a race between clusters); TOTAL_OWN_WORD: cluster c into out[c];
 * TOTAL_ATOMIC: atomicAdd into out[0]. */
__global__ void cluster_totals(uint32_t *out, int how)
{
    __shared__ uint32_t total;
    uint32_t rank = dsm_cluster_ctarank(), cluster = dsm_clusterid().x;
    if (threadIdx.x == 0 && rank == 0)
        total = 0;
    dsm_cluster_sync();
    if (threadIdx.x == 0)
        dsm_red_add_shared_cluster_u32(dsm_mapa_shared_cluster(dsm_smem_addr(&total), 0), rank + 1u);
    dsm_cluster_sync();
    if (threadIdx.x == 0 && rank == 0) {
        if (how == TOTAL_PLAIN_SHARED_WORD)
            out[0] = total + cluster;
        else if (how == TOTAL_OWN_WORD)
            out[cluster] = total;
        else
            atomicAdd(&out[0], total);
    }
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(cluster_totals, uint32_t *, int)

enum { HANDOFF_RELEASE = 0, HANDOFF_RELAXED = 1, HANDOFF_FENCED = 2 };

/* Cluster 0 writes data[] and raises flag; cluster 1 waits for the flag and
 * copies data[] to out[]. how: HANDOFF_RELEASE st.release.gpu / ld.acquire.gpu;
 * HANDOFF_RELAXED relaxed .gpu flag accesses, no fence (orders nothing);
 * HANDOFF_FENCED relaxed accesses between __threadfence() calls. One thread per
 * CTA of rank 0 handles the flag; its CTA mates meet it at __syncthreads. */
__global__ void gpu_flag_handoff(uint32_t *data, uint32_t *flag, uint32_t *out, int how)
{
    uint32_t cluster = dsm_clusterid().x, rank = dsm_cluster_ctarank();
    if (rank == 0 && cluster == 0) {
        data[threadIdx.x] = threadIdx.x * 7u + 1u;
        __syncthreads();
        if (threadIdx.x == 0) {
            if (how == HANDOFF_FENCED)
                __threadfence();
            if (how == HANDOFF_RELEASE)
                dsm_st_release_gpu_u32(flag, 1u);
            else
                dsm_st_relaxed_gpu_u32(flag, 1u);
        }
    } else if (rank == 0 && cluster == 1) {
        if (threadIdx.x == 0) {
            if (how == HANDOFF_RELEASE)
                while (dsm_ld_acquire_gpu_u32(flag) == 0) { }
            else
                while (dsm_ld_relaxed_gpu_u32(flag) == 0) { }
            if (how == HANDOFF_FENCED)
                __threadfence();
        }
        __syncthreads();
        out[threadIdx.x] = data[threadIdx.x];
    }
}
DSM_KERNEL_ENTRY(gpu_flag_handoff, uint32_t *, uint32_t *, uint32_t *, int)

/* Each CTA owns `per` bins in shared memory (per = ceil(nbins / cluster size),
 * like ch04.big_histogram), counts one input per thread into them, and flushes
 * its bins to bins[] with global atomics. bounded = 0: the flush runs over all
 * `per` bins even where the last CTA owns fewer (past the end of bins[], by less
 * than a page); 1: only the bins that exist. */
__global__ void flush_bins(uint32_t *bins, int nbins, int bounded)
{
    __shared__ uint32_t mine[64];
    uint32_t size = dsm_cluster_nctarank(), rank = dsm_cluster_ctarank();
    uint32_t per = ((uint32_t)nbins + size - 1) / size, first = rank * per;
    for (uint32_t j = threadIdx.x; j < per; j += blockDim.x)
        mine[j] = 0;
    __syncthreads();
    atomicAdd(&mine[threadIdx.x % per], 1u);
    __syncthreads();
    uint32_t owned = first >= (uint32_t)nbins ? 0 : ((uint32_t)nbins - first < per ? (uint32_t)nbins - first : per);
    uint32_t limit = bounded ? owned : per;
    for (uint32_t j = threadIdx.x; j < limit; j += blockDim.x)
        atomicAdd(&bins[first + j], mine[j]);
}
DSM_KERNEL_ENTRY(flush_bins, uint32_t *, int, int)
