/* fix_trap.cu: seed 000's lifetime trap, fixed: rank 0 adds its peers' arrays, and no CTA exits before rank 0 has read them. */
#include "dsm.h"

#define ARRAY_LEN 4096      /* floats per CTA: 16 KB, seed 000's tile */

/* Rank 0 of each cluster writes out[c * ARRAY_LEN + i] = the sum over the
 * cluster's CTAs r = 0, 1, ... (in that order) of in[(c * size + r) * ARRAY_LEN + i],
 * c being the cluster's index. Launch with a 1-D grid and 1-D clusters. */
__global__ void peer_sum(const float *in, float *out)
{
    __shared__ float local_accum[ARRAY_LEN];
    uint32_t rank = dsm_cluster_ctarank();
    uint32_t n = dsm_cluster_nctarank();

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
    // TODO(ch03.fix_trap): what happens to local_accum when a CTA gets here?
}
DSM_KERNEL_ENTRY(peer_sum, const float *, float *)
