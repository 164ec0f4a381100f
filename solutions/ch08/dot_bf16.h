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

// BEGIN SOLUTION
/* The 8 products of one chunk of a row and one chunk of a token, added to s
 * in element order: 4 words, each two bf16 widened by a shift or a mask. */
static __device__ __forceinline__ float dot_bf16_chunk(uint4 w, uint4 v, float s)
{
    s += bf16_lo(w.x) * bf16_lo(v.x);
    s += bf16_hi(w.x) * bf16_hi(v.x);
    s += bf16_lo(w.y) * bf16_lo(v.y);
    s += bf16_hi(w.y) * bf16_hi(v.y);
    s += bf16_lo(w.z) * bf16_lo(v.z);
    s += bf16_hi(w.z) * bf16_hi(v.z);
    s += bf16_lo(w.w) * bf16_lo(v.w);
    s += bf16_hi(w.w) * bf16_hi(v.w);
    return s;
}

/* U rounds' worth of chunks per row: all the loads first, then the arithmetic. */
static __device__ __forceinline__ void dot_bf16_rounds(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                       int row_end, int kc, int row0, int nb, int first, int end,
                                                       int stride, float *acc, const int U, const int RT,
                                                       const int NB)
{
    const uint4 zero = make_uint4(0u, 0u, 0u, 0u);
    int c = first;
    /* whole rounds: U chunks per row, no bounds test inside */
    for (; c + (U - 1) * stride < end; c += U * stride) {
        uint4 w[DOT_BF16_UNROLL_MAX][GEMV_RT_MAX], v[DOT_BF16_UNROLL_MAX][GEMV_NB_MAX];
        GEMV_UNROLL
        for (int u = 0; u < U; ++u) {
            GEMV_UNROLL
            for (int i = 0; i < RT; ++i)
                w[u][i] = row0 + i < row_end ? gemv_ld16(&W[(size_t)(row0 + i) * (size_t)kc + (size_t)(c + u * stride)]) : zero;
            GEMV_UNROLL
            for (int b = 0; b < NB; ++b)
                v[u][b] = b < nb ? gemv_ld16(&x[(size_t)b * (size_t)kc + (size_t)(c + u * stride)]) : zero;
        }
        GEMV_UNROLL
        for (int u = 0; u < U; ++u)
            GEMV_UNROLL
            for (int i = 0; i < RT; ++i)
                GEMV_UNROLL
                for (int b = 0; b < NB; ++b)
                    acc[i * NB + b] = dot_bf16_chunk(w[u][i], v[u][b], acc[i * NB + b]);
    }
    /* the rest, fewer than U chunks per row: one at a time */
    for (; c < end; c += stride) {
        GEMV_UNROLL
        for (int i = 0; i < RT; ++i) {
            uint4 w = row0 + i < row_end ? gemv_ld16(&W[(size_t)(row0 + i) * (size_t)kc + (size_t)c]) : zero;
            GEMV_UNROLL
            for (int b = 0; b < NB; ++b)
                if (b < nb)
                    acc[i * NB + b] = dot_bf16_chunk(w, gemv_ld16(&x[(size_t)b * (size_t)kc + (size_t)c]), acc[i * NB + b]);
        }
    }
}
// END SOLUTION

static __device__ __forceinline__ void dot_bf16_accumulate(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                           int row_end, int kc, int row0, int nb, int first, int end,
                                                           int stride, int unroll, float *acc, const int RT,
                                                           const int NB)
{
    // BEGIN SOLUTION
    //~ // TODO(ch08.dot_bf16): for every chunk c = first, first + stride, ... below end,
    //~ // load chunk c of each row row0 + i < row_end (i < RT) and of each token b < nb, one
    //~ // uint4 each, and add the 8 products to acc[i * NB + b]: widen each half of
    //~ // each 32-bit word with bf16_lo / bf16_hi (bf16.h). Load `unroll` chunks of
    //~ // every row before you use the first.
    //~ (void)W; (void)x; (void)row_end; (void)kc; (void)row0; (void)nb; (void)first;
    //~ (void)end; (void)stride; (void)unroll; (void)acc; (void)RT; (void)NB;
    /* Four registers of x per token and round, four of W per row and round:
     * with 4 tokens (2 rows) at most 2 rounds, with 8 tokens (4 rows) one,
     * which already has 4 chunks of W in flight; more would cost the
     * registers that keep two CTAs per SM (GEMV_BOUNDS), for loads in flight
     * the other rows already give. */
    if (unroll >= 4 && NB <= 2)
        dot_bf16_rounds(W, x, row_end, kc, row0, nb, first, end, stride, acc, 4, RT, NB);
    else if (unroll >= 2 && NB <= 4)
        dot_bf16_rounds(W, x, row_end, kc, row0, nb, first, end, stride, acc, 2, RT, NB);
    else
        dot_bf16_rounds(W, x, row_end, kc, row0, nb, first, end, stride, acc, 1, RT, NB);
    // END SOLUTION
}

#endif
