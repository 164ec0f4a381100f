/* ch01_random.h: random inputs for the chapter 1 tests (single-cycle chains, doubles) on top of support/test_support.h, and assertions that print the seed. */
#ifndef CH01_RANDOM_H
#define CH01_RANDOM_H

#include <inttypes.h>
#include <stdint.h>
#include "support/test_support.h"

/* A uniform integer in [lo, hi] (hi - lo < 2^32 - 1). */
static inline uint32_t ch01_range(uint32_t lo, uint32_t hi)
{
    return lo + test_random_below(hi - lo + 1);
}

/* A uniform double in [lo, hi), with 53 random bits. */
static inline double ch01_uniform(double lo, double hi)
{
    uint64_t bits = ((uint64_t)test_random_u32() << 21) ^ (test_random_u32() >> 11);
    return lo + (hi - lo) * (double)bits * (1.0 / 9007199254740992.0);
}

/* Writes a random permutation of 0..n-1 (n >= 2) that is one single cycle
 * (Sattolo's algorithm) to perm: following i -> perm[i] from any i visits
 * all n elements before it comes back. */
static inline void ch01_single_cycle(uint32_t *perm, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i)
        perm[i] = i;
    for (uint32_t i = n - 1; i > 0; --i) {
        uint32_t j = test_random_below(i); /* j < i, never i itself: one cycle */
        uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
}

/* The index reached after `steps` links of perm from start (the CPU reference). */
static inline uint32_t ch01_follow(const uint32_t *perm, uint32_t start, uint64_t steps)
{
    uint32_t idx = start;
    for (uint64_t s = 0; s < steps; ++s)
        idx = perm[idx];
    return idx;
}

/* Fails the running test unless actual == expected; prints the quantity
 * (printf-style arguments after the two values), both values and the seed. */
#define CH01_EXPECT_U64(actual, expected, ...)                                                \
    do {                                                                                      \
        uint64_t ch01_a_ = (uint64_t)(actual), ch01_e_ = (uint64_t)(expected);                \
        if (ch01_a_ != ch01_e_) {                                                             \
            print_error(__VA_ARGS__);                                                         \
            print_error(": got %" PRIu64 ", expected %" PRIu64                                \
                        " (repeat with DSM_SEED=%" PRIu32 ")\n",                              \
                        ch01_a_, ch01_e_, test_seed());                                       \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

/* Fails unless |actual - expected| <= rel * |expected| + 1e-12. */
#define CH01_EXPECT_NEAR(actual, expected, rel, ...)                                          \
    do {                                                                                      \
        double ch01_a_ = (double)(actual), ch01_e_ = (double)(expected);                      \
        double ch01_d_ = ch01_a_ > ch01_e_ ? ch01_a_ - ch01_e_ : ch01_e_ - ch01_a_;           \
        double ch01_m_ = (ch01_e_ < 0 ? -ch01_e_ : ch01_e_) * (rel) + 1e-12;                  \
        if (!(ch01_d_ <= ch01_m_)) {                                                          \
            print_error(__VA_ARGS__);                                                         \
            print_error(": got %.17g, expected %.17g (repeat with DSM_SEED=%" PRIu32 ")\n",   \
                        ch01_a_, ch01_e_, test_seed());                                       \
            fail();                                                                           \
        }                                                                                     \
    } while (0)

#endif
