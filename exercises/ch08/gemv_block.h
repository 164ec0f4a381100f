/* gemv_block.h: the device side every decode-GEMV kernel of chapter 8 shares: storing each thread's partial sums and adding them, in a fixed order, into one partial vector per CTA (the geometry is gemv_shape.h). */
#ifndef CH08_GEMV_BLOCK_H
#define CH08_GEMV_BLOCK_H

#include "dsm.h"
#include "bf16.h"
#include "gemv_shape.h"

/* One 16-byte load of global memory. On the GPU, nvcc makes any uint4 load
 * one ld.global.v4 instruction. Compiled as C for the emulator, a uint4 whose
 * four fields are then used one by one may be loaded as four 4-byte loads
 * (the compiler splits the struct into scalars); going through memcpy keeps
 * it one 16-byte access, so that the emulator sees what the GPU does. */
static __device__ __forceinline__ uint4 gemv_ld16(const uint4 *p)
{
#if defined(__CUDACC__)
    return *p;
#else
    uint4 v;
    memcpy(&v, p, sizeof v);
    return v;
#endif
}

/* Thread `lane` of the warp that worked on unit u stores its accumulators
 * acc[0..v) where the reduction expects them: red[lane * stride + u * v + j]. */
static __device__ __forceinline__ void gemv_store_partial(float *red, gemv_warps g, int u, int lane, const float *acc,
                                                          const int v)
{
    int stride = gemv_red_stride(g, v);
    GEMV_UNROLL
    for (int j = 0; j < v; ++j)
        red[lane * stride + u * v + j] = acc[j];
}

/*
 * Sums what the units stored into this CTA's partial vector, compact:
 * part[r * nb + b] for rows r < nrows (the rows of the CTA that exist) and
 * tokens b < nb. Accumulator j = i * NB + b of a unit of group q belongs to
 * row q * RT + i, token b. Every thread of the CTA calls it, after its own
 * stores; the sums run in a fixed order (lanes 0..31, then parts 0..parts-1),
 * so a CTA's partial vector has the same bits in every run. Units of groups
 * with no row below nrows are not read (they need not store anything).
 * Starts and ends with __syncthreads: part is complete for every thread on return.
 */
static __device__ __forceinline__ void gemv_block_reduce(float *red, float *part, gemv_warps g, int nrows, int nb,
                                                         const int RT, const int NB)
{
    const int v = RT * NB;
    int stride = gemv_red_stride(g, v), tid = (int)threadIdx.x, threads = (int)blockDim.x;
    int live_units = (nrows + RT - 1) / RT * g.parts;
    __syncthreads();
    /* level 1: one thread per (unit, accumulator) adds the 32 lanes, in place in
     * lane 0's row; unrolled, so that the 32 loads are issued back to back and
     * only the additions wait (this runs once per CTA, at its very end, where
     * every cycle adds to the kernel's tail) */
    for (int k = tid; k < live_units * v; k += threads) {
        float s = 0.0f;
        GEMV_UNROLL
        for (int l = 0; l < 32; ++l)
            s += red[l * stride + k];
        red[k] = s;
    }
    __syncthreads();
    /* level 2: one thread per output adds the parts of its group */
    for (int o = tid; o < nrows * nb; o += threads) {
        int r = o / nb, b = o % nb, q = r / RT, j = (r % RT) * NB + b;
        float s = 0.0f;
        for (int h = 0; h < g.parts; ++h)
            s += red[(q * g.parts + h) * v + j];
        part[o] = s;
    }
    __syncthreads();
}

/*
 * The start of every GEMV kernel of the chapter, for programmatic dependent
 * launch (PDL). It lets the next kernel of the stream launch (its CTAs wait in
 * their own gemv_pdl_start), prefetches into L2 the first `unroll` chunks of W
 * that this thread's first unit (warp `warp` of g) loads, rows m0 + group * RT
 * on, chunks c0 + h * 32 + lane, then every 32 * parts-th below c1, and then
 * waits until the kernel before it on the stream has finished and its memory
 * is visible. No kernel writes W, so its loads may start before the wait; x,
 * y, bias, residual and any workspace only after it. Without PDL the wait
 * returns at once; on the emulator all of it does nothing.
 */
static __device__ __forceinline__ void gemv_pdl_start(const uint4 *W, gemv_warps g, int warp, int lane, int m0,
                                                      int nrows, int kc, int c0, int c1, int unroll, const int RT)
{
    dsm_griddepcontrol_launch_dependents();
#if defined(__CUDACC__)
    int group = warp / g.parts, h = warp % g.parts;
    if (warp < g.units && group * RT < nrows)
        for (int i = 0; i < RT && group * RT + i < nrows; ++i)
            for (int u = 0; u < unroll; ++u) {
                int c = c0 + h * 32 + lane + u * 32 * g.parts;
                if (c < c1)
                    asm volatile("prefetch.global.L2 [%0];" ::"l"(W + (size_t)(m0 + group * RT + i) * (size_t)kc + c));
            }
#else
    (void)W; (void)g; (void)warp; (void)lane; (void)m0; (void)nrows; (void)kc; (void)c0; (void)c1; (void)unroll;
    (void)RT;
#endif
    dsm_griddepcontrol_wait();
}

#endif
