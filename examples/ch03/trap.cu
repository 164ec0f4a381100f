/* trap.cu: the deep dive's lifetime trap: rank 0 reads its peers' shared memory while the peers, having nothing else to do, exit. */
#include "dsm.h"

#define ARRAY_LEN 4096      /* floats per CTA: 16 KB, the deep dive's tile */

/* Meant to do what ch03.fix_trap's peer_sum does; wrong: ranks 1.. leave the
 * kernel right after the first barrier, and their shared memory with them. */
__global__ void peer_sum_trap(const float *in, float *out)
{
    __shared__ float local_accum[ARRAY_LEN];
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t n = dsm_cluster_nctarank();

    // BOOK-BEGIN(kernel)
    for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
        local_accum[i] = in[(size_t)blockIdx.x * ARRAY_LEN + i];
    dsm_cluster_sync();     /* every CTA's array is written and published */

    if (rank == 0) {
        for (uint32_t r = 1; r < n; ++r) {
            const float *peer_smem = (const float *)dsm_map_shared_rank(local_accum, r);
            for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
                local_accum[i] += peer_smem[i];     /* reads CTA r's shared memory */
        }
        for (int i = threadIdx.x; i < ARRAY_LEN; i += blockDim.x)
            out[(size_t)(blockIdx.x / n) * ARRAY_LEN + i] = local_accum[i];
    }
    /* fatal: ranks 1.. did not enter the if and exit here, at once */
    // BOOK-END(kernel)
}
DSM_KERNEL_ENTRY(peer_sum_trap, const float *, float *)
