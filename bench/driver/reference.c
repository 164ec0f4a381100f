/* reference.c: the report's headline tables: each number of this run beside the committed H200 reference and seed 000's H100 PCIe figure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"

/* What the source document reports for the quantity a key measures (the family's key table). */
static const char *source_figure(const char *key)
{
    const bench_key_info *k = bench_key_lookup(key);
    return k != NULL ? k->source_figure : NULL;
}

/* A number as the table shows it: bytes in MB or GB, the rest with 4 digits. */
static void show(char *buf, size_t size, const char *key, double v)
{
    size_t n = strlen(key);
    if (!isfinite(v))
        snprintf(buf, size, "n/a");
    else if (n > 6 && strcmp(key + n - 6, "_bytes") == 0 && fabs(v) >= 1e9)
        snprintf(buf, size, "%.2f GB", v / 1e9);
    else if (n > 6 && strcmp(key + n - 6, "_bytes") == 0 && fabs(v) >= 1e6)
        snprintf(buf, size, "%.2f MB", v / 1e6);
    else
        snprintf(buf, size, "%.4g", v);
}

/* One row per number of `numbers` whose headline-ness is `headline`. */
static void table(text *out, const bench_number *numbers, int count, const bench_number *ref, int nref, int headline)
{
    text_printf(out, "| key | this run | H200 reference | this / reference | seed 000 (H100 PCIe) |\n"
                     "|---|---:|---:|---:|---|\n");
    for (int i = 0; i < count; ++i) {
        if (compare_is_headline(numbers[i].key) != headline)
            continue;
        char mine[256], theirs[64] = "no reference yet", ratio[32] = "";
        if (numbers[i].text[0])
            snprintf(mine, sizeof mine, "%s", numbers[i].text);
        else if (!isfinite(numbers[i].value))
            snprintf(mine, sizeof mine, "failed: %s", numbers[i].why[0] ? numbers[i].why : "not measured");
        else
            show(mine, sizeof mine, numbers[i].key, numbers[i].value);
        for (int j = 0; j < nref; ++j)
            if (strcmp(ref[j].key, numbers[i].key) == 0) {
                if (isfinite(ref[j].value))
                    show(theirs, sizeof theirs, ref[j].key, ref[j].value);
                else
                    snprintf(theirs, sizeof theirs, "not measured");
                if (ref[j].value != 0 && isfinite(ref[j].value) && isfinite(numbers[i].value))
                    snprintf(ratio, sizeof ratio, "%.3f", numbers[i].value / ref[j].value);
                break;
            }
        if (nref >= 0 && strcmp(theirs, "no reference yet") == 0)
            snprintf(theirs, sizeof theirs, "not in reference");
        const char *seed = source_figure(numbers[i].key);
        text_printf(out, "| `%s` | %s | %s | %s | %s |\n", numbers[i].key, mine, theirs, ratio, seed ? seed : "");
    }
    text_printf(out, "\n");
}

void report_headline(text *out, const bench_number *numbers, int count, const char *reference_path)
{
    static bench_number ref[BENCH_MAX_NUMBERS + 16];
    int nref = reference_path ? json_read_numbers(reference_path, ref, BENCH_MAX_NUMBERS + 16) : -1;
    text_printf(out, "## Headline numbers\n\n");
    if (nref < 0)
        text_printf(out, "The H200 reference column is empty: no reference yet (%s does not exist or "
                         "cannot be read; `make bench-commit` makes one from an H200 run).\n\n",
                    reference_path ? reference_path : "none given");
    else
        text_printf(out, "Reference: `%s` (the committed H200 run). Seed 000 measured on an H100 PCIe "
                         "(114 SMs); its figures are what it printed, with its own method.\n\n",
                    reference_path);
    table(out, numbers, count, ref, nref, 1);
    int others = 0;
    for (int i = 0; i < count; ++i)
        others += !compare_is_headline(numbers[i].key);
    if (others) {
        text_printf(out, "### Every other number of summary.json\n\n");
        table(out, numbers, count, ref, nref, 0);
    }
}
