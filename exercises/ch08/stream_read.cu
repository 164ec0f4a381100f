/* stream_read.cu: the streaming read that measures HBM read bandwidth in chapter 8's benchmark (every byte of a buffer loaded once, 16 bytes at a time, several loads in flight per thread), and an empty kernel that measures what a launch itself costs. */
#include <string.h>

#include "dsm.h"

/*
 * stream_read(in, n16, out, unroll, pdl): any 1-D grid and block (a multiple
 * of 32, at most 1024). Reads the n16 16-byte words of in, each once
 * (grid-stride, `unroll` loads in flight per thread: 1, 2, 4 or 8), and writes
 * to out[blockIdx.x] the sum, modulo 2^32, of every 32-bit word its threads
 * read: the sum of out over the grid is the sum of the buffer's words, which
 * the host checks, so a launch that skipped bytes cannot pass. Static shared
 * memory: 4 bytes per thread, for the block's sum.
 *
 * pdl != 0: for a launch with programmatic dependent launch (Hopper's
 * griddepcontrol). The kernel lets the next launch of its stream start at once
 * (its CTAs take SMs as this kernel's leave), reads its buffer, and waits for
 * the previous launch to finish before it writes out, the one thing the two
 * share. On the emulator, and in a launch without the attribute, both are
 * no-ops. What that saves per call is the launch, ramp and tail a stream of
 * kernels pays one by one: the benchmark's "floor with PDL".
 */
#define STREAM_READ_THREADS_MAX 1024

static __device__ __forceinline__ uint32_t stream_sum16(uint4 v) { return v.x + v.y + v.z + v.w; }

static __device__ __forceinline__ uint4 stream_ld16(const uint4 *p)
{
#if defined(__CUDACC__)
    return *p;
#else
    uint4 v;
    memcpy(&v, p, sizeof v);
    return v;
#endif
}

static __device__ __forceinline__ uint32_t stream_rounds(const uint4 *__restrict__ in, long long n16, long long first,
                                                         long long stride, const int U)
{
    uint32_t s = 0;
    long long i = first;
    for (; i + (U - 1) * stride < n16; i += U * stride) {
        uint4 v[8];
        for (int u = 0; u < U; ++u)
            v[u] = stream_ld16(&in[i + u * stride]);
        for (int u = 0; u < U; ++u)
            s += stream_sum16(v[u]);
    }
    for (; i < n16; i += stride)
        s += stream_sum16(stream_ld16(&in[i]));
    return s;
}

/* griddepcontrol (PTX ISA 7.8, sm_90): let dependent launches start; wait for the grids this one depends on. */
static __device__ __forceinline__ void stream_launch_dependents(void)
{
#if defined(__CUDA_ARCH__)
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

static __device__ __forceinline__ void stream_wait_previous(void)
{
#if defined(__CUDA_ARCH__)
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__global__ void stream_read(const uint4 *in, long long n16, uint32_t *out, int unroll, int pdl)
{
    __shared__ uint32_t sums[STREAM_READ_THREADS_MAX];
    if (pdl)
        stream_launch_dependents();
    long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x, stride = (long long)gridDim.x * blockDim.x;
    uint32_t s = unroll >= 8 ? stream_rounds(in, n16, first, stride, 8)
               : unroll >= 4 ? stream_rounds(in, n16, first, stride, 4)
               : unroll >= 2 ? stream_rounds(in, n16, first, stride, 2)
                             : stream_rounds(in, n16, first, stride, 1);
    sums[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x < 32) {     /* 32 threads fold the block's sums, then one adds those */
        for (unsigned j = threadIdx.x + 32; j < blockDim.x; j += 32)
            s += sums[j];
        sums[threadIdx.x] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t t = 0;
        for (unsigned j = 0; j < 32; ++j)
            t += sums[j];
        if (pdl)
            stream_wait_previous();
        out[blockIdx.x] = t;
    }
}
DSM_KERNEL_ENTRY(stream_read, const uint4 *, long long, uint32_t *, int, int)

/*
 * launch_mark(out, mark, pdl): the cost of a launch alone. Thread 0 of CTA b
 * writes mark + b to out[b], nothing else: a graph of such calls, each with
 * its own mark, times what a kernel costs beyond its work (launch, the CTAs'
 * start and exit), plain, in clusters, or with PDL (as stream_read). The host
 * checks out after the calls: the last call's marks, every CTA's.
 */
__global__ void launch_mark(uint32_t *out, uint32_t mark, int pdl)
{
    if (pdl)
        stream_launch_dependents();
    if (threadIdx.x == 0) {
        if (pdl)
            stream_wait_previous();
        out[blockIdx.x] = mark + blockIdx.x;
    }
}
DSM_KERNEL_ENTRY(launch_mark, uint32_t *, uint32_t, int)
