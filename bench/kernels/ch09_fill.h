/* ch09_fill.h: the logits chapter 9's benchmark fills on the GPU, computable element by element on the host for the rows it checks. */
#ifndef BENCH_CH09_FILL_H
#define BENCH_CH09_FILL_H

#include <math.h>
#include <stdint.h>

#if defined(__CUDACC__)
#define CH09_FILL_FN static __host__ __device__ __forceinline__
#else
#define CH09_FILL_FN static inline
#endif

/* Logit i of row r (of V) in copy `copy`: uniform in [-8, 8) from a hash of
 * (copy, r, i); rows r % 5 == 2 hold -inf over [V / 3, V / 3 + V / 16) (a
 * whole slice of -inf for clusters of up to 16), away from every label the
 * benchmark draws there. */
CH09_FILL_FN float ch09_logit(uint32_t copy, uint32_t r, uint32_t i, uint32_t V)
{
    if (r % 5u == 2u && i >= V / 3u && i < V / 3u + V / 16u)
        return -INFINITY;
    uint64_t h = ((uint64_t)copy << 48) ^ ((uint64_t)r << 24) ^ (uint64_t)i;
    h = (h + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 29;
    return (float)(h >> 40) * (16.0f / 16777216.0f) - 8.0f;
}

#endif
