/* ch09_fill.cu: fills chapter 9's logits on the device (ch09_fill.h): gigabytes in milliseconds, the host recomputing any row it checks. */
#include "dsm.h"
#include "ch09_fill.h"

/* rows x V logits of copy `copy` (bf16 when bf16 != 0, else fp32) into out, any grid. */
__global__ void ch09_fill(void *out, int rows, int V, int bf16, uint32_t copy)
{
    size_t n = (size_t)rows * (size_t)V, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += stride) {
        float v = ch09_logit(copy, (uint32_t)(k / (size_t)V), (uint32_t)(k % (size_t)V), (uint32_t)V);
        if (bf16) {
            uint32_t u;
            memcpy(&u, &v, 4);
            if ((u & 0x7F800000u) != 0x7F800000u)
                u += 0x7FFFu + ((u >> 16) & 1u);
            ((uint16_t *)out)[k] = (uint16_t)(u >> 16);
        } else {
            ((float *)out)[k] = v;
        }
    }
}
DSM_KERNEL_ENTRY(ch09_fill, void *, int, int, int, uint32_t)
