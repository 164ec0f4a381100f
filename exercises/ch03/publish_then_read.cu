/* publish_then_read.cu: two rounds of neighbour exchange through one shared buffer: each barrier publishes a write, protects a read from the next overwrite, or keeps memory alive. */
#include "dsm.h"

/* Round 1: CTA b puts in[b * blockDim.x + t] in slot[t] and reads a = the
 * slot[t] of its right neighbour (rank r + 1, wrapping). Round 2: it
 * overwrites slot[t] with a * 3 + r and writes the left neighbour's new
 * slot[t] (rank r - 1, wrapping) to out[b * blockDim.x + t]. Every access to
 * slot goes through the explicit API, so that the emulator checks the order
 * of each one. Launch with a 1-D grid, 1-D clusters of 2 or more, and
 * blockDim.x * 4 bytes of dynamic shared memory. */
__global__ void two_round_exchange(const uint32_t *in, uint32_t *out)
{
    uint32_t *slot = (uint32_t *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t n = dsm_cluster_nctarank();
    uint32_t t = threadIdx.x;
    size_t g = (size_t)blockIdx.x * blockDim.x + t;
    uint32_t local = dsm_smem_addr(&slot[t]);
    uint32_t mine = dsm_mapa_shared_cluster(local, rank);   /* my own slot, as a cluster address */
    uint32_t right = dsm_mapa_shared_cluster(local, (rank + 1) % n);
    uint32_t left = dsm_mapa_shared_cluster(local, (rank + n - 1) % n);

    // TODO(ch03.publish_then_read): this kernel has no cluster barrier at all.
    // Add each one it needs, and no other (make grade names the line of
    // each hazard the emulator finds).
    dsm_st_shared_cluster_u32(mine, in[g]);         /* round 1: my slot */
    uint32_t a = dsm_ld_shared_cluster_u32(right);
    dsm_st_shared_cluster_u32(mine, a * 3u + rank); /* round 2 overwrites my slot */
    out[g] = dsm_ld_shared_cluster_u32(left);
}
DSM_KERNEL_ENTRY(two_round_exchange, const uint32_t *, uint32_t *)
