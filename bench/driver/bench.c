/* bench.c: what a family asks of its run: sizes, the device, progress, failures, headline numbers, report text. */
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

void bench_progress(bench *b, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  [%s %5.1f s] %s\n", b->family ? b->family : "bench", bench_now() - b->started, msg);
}

void bench_fail(bench *b, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  [%s] FAILED: %s\n", b->family ? b->family : "bench", msg);
    b->failures++;
    text_printf(&b->failure_log, "%s: %s\n", b->family ? b->family : "bench", msg);
}

void bench_summary_number(bench *b, const char *key, double value)
{
    const char *why = NULL;
    if (b->number_count >= BENCH_MAX_NUMBERS) {
        bench_fail(b, "too many summary numbers (at most %d): %s dropped", BENCH_MAX_NUMBERS, key);
        return;
    }
    if (strlen(key) >= sizeof b->numbers[0].key || summary_key_clashes(b->numbers, b->number_count, key, &why)) {
        bench_fail(b, "summary key \"%s\" refused: %s", key, why ? why : "too long");
        return;
    }
    bench_number *n = &b->numbers[b->number_count++];
    snprintf(n->key, sizeof n->key, "%s", key);
    n->value = value;
}

void bench_report(bench *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(&b->report, fmt, ap);
    va_end(ap);
}
