/* xent_chunk.h: the logits of chapter 9 as 16-byte chunks (8 bf16 or 4 fp32), widened to fp32 and narrowed back. */
#ifndef CH09_XENT_CHUNK_H
#define CH09_XENT_CHUNK_H

#include "dsm.h"
#include "xent_shape.h"

/* The n = xent_per_chunk(dtype) values of one chunk, element j in v[j]. */
XENT_FN void xent_chunk_unpack(uint4 c, int dtype, float v[8])
{
    uint32_t w[4] = {c.x, c.y, c.z, c.w};
    for (int i = 0; i < 4; ++i) {
        if (dtype == XENT_BF16) {
            v[2 * i] = xent_bits_f32(w[i] << 16);
            v[2 * i + 1] = xent_bits_f32(w[i] & 0xFFFF0000u);
        } else {
            v[i] = xent_bits_f32(w[i]);
        }
    }
}

/* The chunk holding v[0..n) in the dtype (bf16 rounded to nearest even, two
 * at a time: one cvt.rn.bf16x2.f32 per pair). */
static __device__ __forceinline__ uint4 xent_chunk_pack(const float v[8], int dtype)
{
    uint32_t w[4];
    for (int i = 0; i < 4; ++i)
        w[i] = dtype == XENT_BF16 ? dsm_cvt_rn_bf16x2_f32(v[2 * i + 1], v[2 * i]) : xent_f32_bits(v[i]);
    uint4 c;
    c.x = w[0];
    c.y = w[1];
    c.z = w[2];
    c.w = w[3];
    return c;
}

#endif
