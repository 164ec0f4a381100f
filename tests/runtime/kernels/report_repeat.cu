/* report_repeat.cu: a kernel that reads shared memory nobody wrote (or, with write_first, reads what it wrote), launched again and again by test_report_repeat.c. */
#include "dsm.h"

/* Thread t copies cell[t] to out[blockIdx.x * blockDim.x + t]; cell is written
 * first only when write_first != 0. Launch with at most 64 threads per CTA. */
__global__ void read_unwritten(int *out, int write_first)
{
    __shared__ int cell[64];
    if (write_first)
        cell[threadIdx.x] = (int)threadIdx.x;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = cell[threadIdx.x];
}
DSM_KERNEL_ENTRY(read_unwritten, int *, int)
