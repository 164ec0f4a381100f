/* stats.c: median, min and max of a family's timed repeats. */
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

bench_stats bench_stats_of(const double *samples, int n)
{
    bench_stats s = {0, 0, 0, n};
    if (n < 1)
        return s;
    /* Sort a copy: the caller's samples stay in launch order (they may print them). */
    double small[64], *sorted = n <= 64 ? small : malloc((size_t)n * sizeof *sorted);
    if (sorted == NULL) {
        s.n = 0;
        return s;
    }
    memcpy(sorted, samples, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    if (sorted != small)
        free(sorted);
    return s;
}
