/* compare.c: `bench_driver --compare A B`: do two runs agree on every headline number (repeatability)? Every other number is printed too. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"

/* Keys that describe the machine or the run, not a measurement: not compared. */
static int is_measurement(const char *key)
{
    static const char *const not_measured[] = {"sm_clock_mhz", "sm_clock_mhz_smi_max", "sm_clock_mhz_observed",
                                               "failures", NULL};
    for (int i = 0; not_measured[i]; ++i)
        if (strcmp(key, not_measured[i]) == 0)
            return 0;
    return 1;
}

int compare_is_headline(const char *key)
{
    const bench_key_info *k = bench_key_lookup(key);
    return k != NULL && k->headline;
}

int compare_runs(const char *a, const char *b, double tolerance_pct, int all)
{
    static bench_number na[BENCH_MAX_NUMBERS + 16], nb[BENCH_MAX_NUMBERS + 16];
    int ca = json_read_numbers(a, na, BENCH_MAX_NUMBERS + 16);
    int cb = json_read_numbers(b, nb, BENCH_MAX_NUMBERS + 16);
    if (ca < 0 || cb < 0) {
        fprintf(stderr, "bench compare: cannot read %s\n", ca < 0 ? a : b);
        return 2;
    }
    /* A dry run's numbers are the emulator's and mean nothing: then only which numbers
     * exist is compared (a headline the dry run could not measure is missing). */
    int dry = summary_is_dry_run(a) || summary_is_dry_run(b);
    if (dry)
        printf("bench compare: %s is a dry run on the emulator: its numbers are not measurements, so only "
               "whether each headline number was measured (its checks passed) is compared\n",
               summary_is_dry_run(a) ? a : b);
    int off = 0, compared = 0;
    printf("%-52s %14s %14s %9s\n", "key", "first", "second", "diff %");
    for (int i = 0; i < ca; ++i) {
        if (!is_measurement(na[i].key) || na[i].text[0])
            continue;
        int counts = all || compare_is_headline(na[i].key);
        int j = 0;
        while (j < cb && strcmp(nb[j].key, na[i].key) != 0)
            ++j;
        if (j == cb) {
            printf("%-52s %14.6g %14s %9s  only in the first run%s\n", na[i].key, na[i].value, "-", "-",
                   counts ? "" : " (not a headline)");
            off += counts && !dry;
            continue;
        }
        double x = na[i].value, y = nb[j].value;
        if (!isfinite(x) || !isfinite(y)) { /* null: a check failed, there is no number */
            printf("%-52s %14s %14s %9s  not measured (a check failed)%s\n", na[i].key, isfinite(x) ? "" : "null",
                   isfinite(y) ? "" : "null", "-", counts ? "" : " (not a headline)");
            off += counts;
            compared += counts;
            continue;
        }
        compared += counts;
        if (dry) {
            printf("%-52s %14.6g %14.6g %9s\n", na[i].key, x, y, "-");
            continue;
        }
        /* Relative to the mean of the two, so the order of the runs does not matter. */
        double diff = (x == y) ? 0.0 : 200.0 * fabs(x - y) / (fabs(x) + fabs(y));
        int bad = !(diff <= tolerance_pct);
        off += bad && counts;
        printf("%-52s %14.6g %14.6g %9.2f%s\n", na[i].key, x, y, diff,
               bad ? (counts ? "  OFF" : "  off (not a headline)") : "");
    }
    for (int j = 0; j < cb; ++j) {
        int i = 0;
        while (i < ca && strcmp(na[i].key, nb[j].key) != 0)
            ++i;
        if (i == ca && is_measurement(nb[j].key) && !nb[j].text[0]) {
            int counts = all || compare_is_headline(nb[j].key);
            printf("%-52s %14s %14.6g %9s  only in the second run%s\n", nb[j].key, "-", nb[j].value, "-",
                   counts ? "" : " (not a headline)");
            off += counts;
        }
    }
    if (dry)
        printf("bench compare: %d %s in both runs, %d missing or not measured in one of them\n", compared,
               all ? "numbers" : "headline numbers", off);
    else
        printf("bench compare: %d %s compared, %d differ by more than %.1f %% (or are missing)\n", compared,
               all ? "numbers" : "headline numbers", off, tolerance_pct);
    return off ? 1 : 0;
}
