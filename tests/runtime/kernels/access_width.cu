/* access_width.cu: 16-byte loads the compiler could split: a uint4 read whose fields are used one by one, and one of whose fields only two are used. 64 threads per CTA. */
#include "dsm.h"

/* out[i] = x + 3y + 5z + 7w of in[i]. */
__global__ void fields_one_by_one(const uint4 *in, uint32_t *out)
{
    uint32_t i = blockIdx.x * 64u + threadIdx.x;
    uint4 v = in[i];
    out[i] = v.x + 3u * v.y + 5u * v.z + 7u * v.w;
}
DSM_KERNEL_ENTRY(fields_one_by_one, const uint4 *, uint32_t *)

/* out[i] = x + y of in[i]: the load still moves all 16 bytes on a GPU (ld.global.v4). */
__global__ void two_fields(const uint4 *in, uint32_t *out)
{
    uint32_t i = blockIdx.x * 64u + threadIdx.x;
    uint4 v[1];
    v[0] = in[i];
    out[i] = v[0].x + v[0].y;
}
DSM_KERNEL_ENTRY(two_fields, const uint4 *, uint32_t *)
