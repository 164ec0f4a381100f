/* xent_shape.h: the shapes of chapter 9, for kernels and host code alike: dtypes, 16-byte chunks of a row, the slice each CTA of a split owns, bf16 rounding. */
#ifndef CH09_XENT_SHAPE_H
#define CH09_XENT_SHAPE_H

#include <stdint.h>
#include <stddef.h>

#if defined(__CUDACC__)
#define XENT_FN static __host__ __device__ __forceinline__
#else
#include <string.h>
#define XENT_FN static inline
#endif

/* The largest cluster (non-portable). */
#define XENT_MAX_CTAS 16
/* Bytes of one statistic (xent_stat: two floats). */
#define XENT_STAT_BYTES 8
/* Statistics in the shared memory of xent_block_fold for T threads. */
#define XENT_BLOCK_RED(T) ((T) + 32)

/* PyTorch's ignore_index: a row with this label contributes no loss and a zero gradient. */
#define XENT_IGNORE (-100)
/* log2(e): exp(x) = exp2(x * XENT_LOG2E); the GPU's exp2 is one instruction. */
#define XENT_LOG2E 1.4426950408889634f
/* The dtypes of the logits and the gradient. */
#define XENT_BF16 0
#define XENT_F32 1

/* Elements per 16-byte chunk. */
XENT_FN int xent_per_chunk(int dtype) { return dtype == XENT_BF16 ? 8 : 4; }
/* Chunks in a row of V logits (V a multiple of 8, as every vocabulary is). */
XENT_FN int xent_row_chunks(int V, int dtype) { return V / xent_per_chunk(dtype); }

XENT_FN float xent_bits_f32(uint32_t u)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, 4);
    return f;
#endif
}
XENT_FN uint32_t xent_f32_bits(float f)
{
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
#endif
}

/* fp32 to bf16 bits, round to nearest even (NaN stays NaN). */
XENT_FN uint32_t xent_bf16_bits(float f)
{
    uint32_t u = xent_f32_bits(f);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
        return (u >> 16) | 0x0040u;
    return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}

/* The slice of rank q when a row of n chunks is split over `split` CTAs:
 * chunks [*lo, *hi), every slice ceil(n / split) chunks but the last ones,
 * which are shorter (or empty). */
XENT_FN void xent_slice(int n, int split, int q, int *lo, int *hi)
{
    int per = (n + split - 1) / split;
    *lo = q * per < n ? q * per : n;
    *hi = (q + 1) * per < n ? (q + 1) * per : n;
}

#endif
