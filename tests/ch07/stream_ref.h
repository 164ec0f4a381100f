/* stream_ref.h: the CPU reference of chapter 7's streams (a chunk-weighted sum of a wrapping region) and the shape checks its tests share. */
#ifndef CH07_STREAM_REF_H
#define CH07_STREAM_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* out[w] = sum over k < nchunks of (k + 1) * region[(k mod region_chunks) * chunk_words + w] (mod 2^32),
 * for w < chunk_words: chunks that share a place in the region are summed once, with their summed weights. */
static inline void ch07_stream_ref(const uint32_t *region, size_t chunk_words, int region_chunks, int nchunks,
                                   uint32_t *out)
{
    uint32_t *weight = calloc((size_t)region_chunks, sizeof *weight);
    for (int k = 0; k < nchunks; ++k)
        weight[k % region_chunks] += (uint32_t)k + 1u;
    for (size_t w = 0; w < chunk_words; ++w)
        out[w] = 0;
    for (int p = 0; p < region_chunks && p < nchunks; ++p)
        for (size_t w = 0; w < chunk_words; ++w)
            out[w] += weight[p] * region[(size_t)p * chunk_words + w];
    free(weight);
}

#endif
