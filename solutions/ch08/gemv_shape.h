/* gemv_shape.h: the geometry every decode-GEMV kernel of chapter 8 shares, usable from kernels, host code and tests: layout of W, x and y, K slices, which warp works on which rows, and the shared memory a CTA needs. */
#ifndef CH08_GEMV_SHAPE_H
#define CH08_GEMV_SHAPE_H

#include <stddef.h>

/*
 * The GEMV of one decode step: y = W x for nb tokens at once.
 *   W  M rows of K bf16, row-major. K is a multiple of 8, so a row is
 *      kc = K / 8 chunks of 16 bytes: chunk c of row m is ((const uint4 *)W)[m * kc + c].
 *   x  nb rows of K bf16 (one per token): chunk c of token b is x[b * kc + c].
 *   y  nb rows of M fp32: y[b * M + m] = sum over k of W[m][k] * x[b][k], in fp32.
 * 1 <= nb <= GEMV_NB_MAX. Kernels are compiled for NB = 1, 2, 4 or 8 tokens
 * (gemv_kernel_nb) and run any nb <= NB.
 */
#define GEMV_NB_MAX 8

/* Rows one thread accumulates at once, per compiled token count: with 4
 * tokens each x chunk a thread loads serves two rows, with 8 tokens four,
 * which divides the loads of x (and their widening to fp32) by as much: with
 * 8 tokens a thread loads 8 chunks of x for every chunk of each row, more
 * load instructions than the 16-byte loads of W themselves. */
#define GEMV_RT(NB) ((NB) >= 8 ? 4 : (NB) >= 4 ? 2 : 1)
#define GEMV_RT_MAX 4

/* Accumulators a thread keeps: GEMV_RT(NB) * NB <= 32. */
#define GEMV_ACC_MAX 32

/*
 * Threads per CTA a kernel for NB tokens is compiled to launch with, at most,
 * and how many CTAs of that size an SM must be able to hold at once. A launch
 * needs threads x registers per thread of the SM's 65536 registers: with 8
 * tokens a thread holds 16 sums and its loads in flight, and the compiler,
 * left alone, took 134 registers, so that 1024 threads could not launch at all
 * and 256 held one CTA per SM. GEMV_BOUNDS(NB) (__launch_bounds__ on every
 * kernel of the chapter) makes it fit: at most 65536 / (max x min) registers
 * per thread, 64 up to 4 tokens, 128 with 8.
 */
#define GEMV_MAX_THREADS(NB) ((NB) <= 2 ? 1024 : (NB) <= 4 ? 512 : 256)
#define GEMV_MIN_CTAS(NB) ((NB) <= 2 ? 1 : 2)
#define GEMV_BOUNDS(NB) __launch_bounds__(GEMV_MAX_THREADS(NB), GEMV_MIN_CTAS(NB))

#if defined(__CUDACC__)
#define GEMV_FN static __host__ __device__ __forceinline__
#define GEMV_UNROLL _Pragma("unroll")
#else
#define GEMV_FN static inline
#define GEMV_UNROLL
#endif

/* The compiled token count that runs nb tokens: 1, 2, 4 or 8. */
GEMV_FN int gemv_kernel_nb(int nb) { return nb <= 1 ? 1 : nb <= 2 ? 2 : nb <= 4 ? 4 : 8; }

/* The most threads per CTA the kernels that run nb tokens launch with. */
GEMV_FN int gemv_max_threads(int nb) { return GEMV_MAX_THREADS(gemv_kernel_nb(nb)); }

/* Slice s of `split` balanced K slices: chunks [*c0, *c1) of a row of kc
 * chunks. Slices differ by at most one chunk; with split > kc some are empty. */
GEMV_FN void gemv_slice(int kc, int split, int s, int *c0, int *c1)
{
    *c0 = (int)((long long)s * kc / split);
    *c1 = (int)((long long)(s + 1) * kc / split);
}

/*
 * Which warp works on what. A CTA's rows are cut into `groups` groups of
 * GEMV_RT(NB) rows. When the CTA has at least as many warps as groups, each
 * group gets `parts` = warps / groups warps, which split its K chunks between
 * them (warp part h, lane l takes chunks h * 32 + l, then every 32 * parts-th);
 * with fewer warps than groups, each warp takes several groups one after the
 * other (parts = 1). A (group, part) pair is a unit: unit u is group u / parts,
 * part u % parts, and warp w takes units w, w + warps, ...
 */
typedef struct gemv_warps {
    int groups, parts, units;
} gemv_warps;

GEMV_FN gemv_warps gemv_warps_of(int rows, int rt, int warps)
{
    gemv_warps g;
    g.groups = (rows + rt - 1) / rt;
    g.parts = warps >= g.groups ? warps / g.groups : 1;
    g.units = g.groups * g.parts;
    return g;
}

/* Floats between two lanes' partials in the reduction buffer: odd, so that
 * the 32 lanes of a warp store into 32 different banks. */
GEMV_FN int gemv_red_stride(gemv_warps g, int v) { return (g.units * v) | 1; }

/* Floats of the reduction buffer for `rows` rows, `threads` threads, NB tokens. */
GEMV_FN int gemv_red_floats(int rows, int threads, int kernel_nb)
{
    int rt = GEMV_RT(kernel_nb);
    return 32 * gemv_red_stride(gemv_warps_of(rows, rt, threads / 32), rt * kernel_nb);
}

/* Dynamic shared memory, in bytes, of a CTA of `threads` threads that reduces
 * `rows` rows of nb tokens: the reduction buffer, then the partial vector
 * part[rows * nb]. */
GEMV_FN size_t gemv_block_smem(int rows, int threads, int nb)
{
    int knb = gemv_kernel_nb(nb);
    return 4 * ((size_t)gemv_red_floats(rows, threads, knb) + (size_t)rows * (size_t)knb);
}

#endif
