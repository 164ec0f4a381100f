/* keys.c: the families' tables of their summary keys (which are headline numbers, which source figure stands beside one), looked up for the driver, which knows no family itself. */
#include <string.h>

#include "bench_internal.h"

const bench_key_info *bench_key_lookup(const char *key)
{
    const bench_key_info *best = NULL;
    size_t best_len = 0;
    for (int f = 0; f < bench_family_count; ++f)
        for (const bench_key_info *k = bench_family_table[f].keys; k && k->key; ++k) {
            size_t n = strlen(k->key);
            if (strcmp(k->key, key) == 0)
                return k;
            if (n > best_len && k->key[n - 1] == '.' && strncmp(k->key, key, n) == 0) {
                best = k;
                best_len = n;
            }
        }
    return best;
}
