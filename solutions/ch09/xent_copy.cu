/* xent_copy.cu: the floor of every cross-entropy kernel: read the logits once and write as many bytes once, with 16-byte accesses. */
#include "dsm.h"

/* dst[i] = src[i] for i < n chunks of 16 bytes; any grid, any block size;
 * each thread keeps 4 loads in flight. */
__global__ void xent_copy(const uint4 *__restrict__ src, uint4 *__restrict__ dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x, i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n; i += 4 * stride) {
        uint4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n; i += stride)
        dst[i] = src[i];
}
DSM_KERNEL_ENTRY(xent_copy, const uint4 *, uint4 *, size_t)
