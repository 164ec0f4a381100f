/* bf16.h: bf16 numbers stored as 16-bit words, widened to fp32 exactly by a 16-bit shift; one bit cast that works in C, on the host and on the GPU. */
#ifndef CH08_BF16_H
#define CH08_BF16_H

#include <stdint.h>
#include <string.h>

/* Usable from kernels, host code and C: nvcc marks it host and device; the
 * emulator's kernels and the tests are plain C. */
#if defined(__CUDACC__)
#define BF16_FN static __host__ __device__ __forceinline__
#else
#define BF16_FN static inline
#endif

/* The fp32 whose bits are `bits`. On the GPU a register move (no memory);
 * elsewhere memcpy, which the compiler turns into the same move and which,
 * unlike a pointer cast, breaks no aliasing rule. */
BF16_FN float bf16_bits_to_f32(uint32_t bits)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

/* The bits of an fp32. */
BF16_FN uint32_t bf16_f32_bits(float f)
{
#if defined(__CUDA_ARCH__)
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
#endif
}

/* A bf16 is the upper half of an fp32: sign, the same 8-bit exponent, 7 bits
 * of mantissa. Widening is exact: put the 16 bits on top, zeros below. */
BF16_FN float bf16_to_f32(uint16_t h) { return bf16_bits_to_f32((uint32_t)h << 16); }

/* A 32-bit word read from memory holds two bf16 (little endian): element 2i in
 * its low half, element 2i + 1 in its high half. The low one needs the shift;
 * the high one is already where an fp32 keeps it and only needs the low half
 * cleared. */
BF16_FN float bf16_lo(uint32_t word) { return bf16_bits_to_f32(word << 16); }
BF16_FN float bf16_hi(uint32_t word) { return bf16_bits_to_f32(word & 0xFFFF0000u); }

/* fp32 to bf16, rounded to nearest, ties to even (what a model's weights went
 * through); NaN stays a quiet NaN. For the host: test data and benchmarks. */
BF16_FN uint16_t bf16_from_f32(float f)
{
    uint32_t u = bf16_f32_bits(f);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
        return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

#endif
