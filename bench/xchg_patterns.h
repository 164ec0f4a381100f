/* xchg_patterns.h: chapter 6's three traffic patterns among the CTAs of a cluster, as the peer table that xchg_vec consumes; shared by its tests and make bench. */
#ifndef XCHG_PATTERNS_H
#define XCHG_PATTERNS_H

#include <stdint.h>

enum pattern { NEIGHBOUR, PERMUTATION, ALL_TO_ALL };
static const char *const pattern_name[] = {"neighbour", "permutation", "all-to-all"};

/*
 * Fills table[r * n + j] (2 <= n <= 16) with the rank that chunk j of rank r's
 * next tile comes from: NEIGHBOUR, rank (r + 1) mod n for every chunk;
 * PERMUTATION, perm[r] for every chunk, perm a random derangement (no CTA
 * reads itself), drawn with random_below(k), uniform in [0, k); ALL_TO_ALL,
 * rank (r + j) mod n, so chunk j comes from the j-th rank to the right.
 */
static inline void xchg_make_pattern(int *table, int n, enum pattern p, uint32_t (*random_below)(uint32_t))
{
    int perm[16];
    for (;;) {
        for (int r = 0; r < n; ++r)
            perm[r] = r;
        for (int r = n - 1; r > 0; --r) {
            int k = (int)random_below((uint32_t)r + 1), t = perm[r];
            perm[r] = perm[k];
            perm[k] = t;
        }
        int fixed = 0;
        for (int r = 0; r < n; ++r)
            fixed |= perm[r] == r;
        if (!fixed)
            break;
    }
    for (int r = 0; r < n; ++r)
        for (int j = 0; j < n; ++j)
            table[r * n + j] = p == NEIGHBOUR ? (r + 1) % n : p == PERMUTATION ? perm[r] : (r + j) % n;
}

#endif
