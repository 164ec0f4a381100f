/* dot_bf16.h: ch08.dot_bf16: the inner loop of every decode GEMV of chapter 8: bf16 rows times bf16 tokens, 16-byte loads, several in flight, fp32 sums. */
#ifndef CH08_DOT_BF16_H
#define CH08_DOT_BF16_H

#include "gemv_block.h"

/* The most 16-byte chunks per row a thread keeps in flight (the `unroll` argument). */
#define DOT_BF16_UNROLL_MAX 4

// BOOK-BEGIN(contract)
/*
 * dot_bf16_accumulate: one thread's share of RT rows times nb tokens.
 *
 * For every chunk c = first, first + stride, first + 2 * stride, ... below end,
 * every row i < RT with row0 + i < row_end and every token b < nb, adds the 8
 * products of chunk c of row row0 + i and chunk c of token b to
 * acc[i * NB + b] (layout and chunks: gemv_shape.h). Rows at or past row_end
 * (past M, or another CTA's) add nothing and are not read; acc[i * NB + b]
 * for b >= nb is left as it is.
 *
 * Every load of W and x is one 16-byte load (gemv_ld16), and every chunk of W
 * it covers is loaded exactly once. `unroll` (1, 2 or 4) is how many chunks
 * of each row the thread may load before it uses the first (at most: with
 * many tokens registers run out first): the loads of one round are
 * independent, so they are in flight together. RT and NB are compile-time
 * constants (GEMV_RT(NB) and 1, 2, 4 or 8) once inlined.
 */
// BOOK-END(contract)


static __device__ __forceinline__ void dot_bf16_accumulate(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                           int row_end, int kc, int row0, int nb, int first, int end,
                                                           int stride, int unroll, float *acc, const int RT,
                                                           const int NB)
{
    // TODO(ch08.dot_bf16): for every chunk c = first, first + stride, ... below end,
    // load chunk c of each row row0 + i < row_end (i < RT) and of each token b < nb, one
    // uint4 each, and add the 8 products to acc[i * NB + b]: widen each half of
    // each 32-bit word with bf16_lo / bf16_hi (bf16.h). Load `unroll` chunks of
    // every row before you use the first.
    (void)W; (void)x; (void)row_end; (void)kc; (void)row0; (void)nb; (void)first;
    (void)end; (void)stride; (void)unroll; (void)acc; (void)RT; (void)NB;
}

#endif
