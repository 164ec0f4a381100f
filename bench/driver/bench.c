/* bench.c: what a family asks of its run: sizes, the device, progress, summary numbers, report text; the end of a family (no number of a failed kernel survives it). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_internal.h"

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int bench_dry(const bench *b) { return b->dry; }
int bench_quick(const bench *b) { return b->quick; }
int bench_sm_count(const bench *b) { return b->machine.sm_count; }
double bench_sm_clock_mhz(const bench *b) { return b->machine.sm_clock_mhz; }
size_t bench_smem_per_sm(const bench *b) { return b->machine.smem_per_sm; }
size_t bench_smem_per_block_optin(const bench *b) { return b->machine.smem_per_block_optin; }
const char *bench_commit(const bench *b) { return b->machine.commit; }

void bench_progress(bench *b, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  [%s %5.1f s] %s\n", b->family ? b->family : "bench", bench_now() - b->started, msg);
}

/* The next free number of the run for `key`, or NULL (a failure, counted) when the key is refused. */
static bench_number *new_number(bench *b, const char *key)
{
    const char *why = NULL;
    if (b->number_count >= BENCH_MAX_NUMBERS) {
        bench_fail(b, "too many summary numbers (at most %d): %s dropped", BENCH_MAX_NUMBERS, key);
        return NULL;
    }
    if (strlen(key) >= sizeof b->numbers[0].key || summary_key_clashes(b->numbers, b->number_count, key, &why)) {
        bench_fail(b, "summary key \"%s\" refused: %s", key, why ? why : "too long");
        return NULL;
    }
    bench_number *n = &b->numbers[b->number_count++];
    memset(n, 0, sizeof *n);
    snprintf(n->key, sizeof n->key, "%s", key);
    return n;
}

void bench_summary_measured(bench *b, const char *key, double value, const char *kernels)
{
    bench_number *n = new_number(b, key);
    if (n == NULL)
        return;
    n->value = value;
    snprintf(n->kernels, sizeof n->kernels, "%s", kernels ? kernels : "");
}

void bench_summary_failed(bench *b, const char *key, const char *why)
{
    bench_number *n = new_number(b, key);
    if (n == NULL)
        return;
    n->value = NAN;
    snprintf(n->why, sizeof n->why, "%s", why && why[0] ? why : "not measured");
}

void bench_summary_text(bench *b, const char *key, const char *value)
{
    bench_number *n = new_number(b, key);
    if (n == NULL)
        return;
    n->value = NAN;
    snprintf(n->text, sizeof n->text, "%s", value && value[0] ? value : "-");
}

void bench_finish_family(bench *b)
{
    const char *failed = b->failed_kernels.s ? b->failed_kernels.s : "";
    /* A number measured with a kernel that failed a check anywhere in the family is not a number. */
    for (int i = 0; i < b->number_count; ++i) {
        bench_number *n = &b->numbers[i];
        if (n->text[0] || !isfinite(n->value) || !n->kernels[0])
            continue;
        char list[sizeof n->kernels], *save = NULL;
        snprintf(list, sizeof list, "%s", n->kernels);
        for (char *k = strtok_r(list, " ", &save); k; k = strtok_r(NULL, " ", &save))
            if (bench_has_word(failed, k)) {
                n->value = NAN;
                snprintf(n->why, sizeof n->why, "%s failed a check in this run", k);
                break;
            }
    }
    /* ... and no CSV row of such a kernel carries a number: the tables are written now, once */
    csv_write_all(b, failed);
}

void bench_summary_number(bench *b, const char *key, double value)
{
    bench_number *n = new_number(b, key);
    if (n != NULL)
        n->value = value;
}

void bench_report(bench *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(&b->report, fmt, ap);
    va_end(ap);
}
