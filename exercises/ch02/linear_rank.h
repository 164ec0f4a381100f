/* linear_rank.h: the 1-D rank that mapa takes (%cluster_ctarank) for a CTA's 3-D position in its cluster; one function for host and device. */
#ifndef CH02_LINEAR_RANK_H
#define CH02_LINEAR_RANK_H

#include "dsm_types.h"

#if defined(__CUDACC__)
#define LINEAR_RANK_FN static __host__ __device__ __forceinline__
#else
#define LINEAR_RANK_FN static inline
#endif

/* The rank of the CTA at position pos (what %cluster_ctaid gives) in a
 * cluster of dims CTAs (%cluster_nctaid): x varies fastest, then y, then z,
 * as in %cluster_ctarank. Requires pos.x < dims.x, pos.y < dims.y, pos.z < dims.z. */
LINEAR_RANK_FN uint32_t linear_rank(dsm_dim3 pos, dsm_dim3 dims)
{
    // TODO(ch02.linear_rank): return the 1-D rank of pos in a cluster of dims.
    (void)pos;
    (void)dims;
    return 0;
}

#endif
