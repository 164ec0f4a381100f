/* launch_bounds.cu: kernels that declare __launch_bounds__ (a literal, an expression through a macro, with and without the minimum of blocks) and one between them that declares none. Every thread writes out[block * blockDim + thread] = thread + 1. */
#include "dsm.h"

#define LB_BOUND(n) __launch_bounds__((n) * 64)

__global__ void __launch_bounds__(256, 2) bounded_256(uint32_t *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x + 1u;
}
DSM_KERNEL_ENTRY(bounded_256, uint32_t *)

__global__ void unbounded(uint32_t *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x + 1u;
}
DSM_KERNEL_ENTRY(unbounded, uint32_t *)

__global__ void LB_BOUND(2) bounded_128(uint32_t *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x + 1u;
}
DSM_KERNEL_ENTRY(bounded_128, uint32_t *)
