/* test_dot_bf16_probe.h: force-included into ch08.dot_bf16's kernels on the emulator: every gemv_ld16 and every widening (bf16_lo, bf16_hi) also tells test_dot_bf16.c, which finds how many chunks of a row a thread loaded before it used the first. */
#ifndef __CUDACC__
#include "dsm.h"
#include "gemv_block.h"
#include "bf16.h"
/* what = 0: a 16-byte load at p; 1: a widening (a loaded chunk is used). */
void probe_dot_note(int what, const void *p);
static __device__ __forceinline__ uint4 probe_dot_ld16(const uint4 *p)
{
    probe_dot_note(0, p);
    return gemv_ld16(p);
}
static __device__ __forceinline__ float probe_dot_lo(uint32_t w)
{
    probe_dot_note(1, 0);
    return bf16_lo(w);
}
static __device__ __forceinline__ float probe_dot_hi(uint32_t w)
{
    probe_dot_note(1, 0);
    return bf16_hi(w);
}
#define gemv_ld16(p) probe_dot_ld16(p)
#define bf16_lo(w) probe_dot_lo(w)
#define bf16_hi(w) probe_dot_hi(w)
#endif
