/* bench.c: what a family asks of its run: sizes, the device, progress, failures (by kernel), summary numbers, report text. */
#include <ctype.h>
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

void bench_progress(bench *b, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "  [%s %5.1f s] %s\n", b->family ? b->family : "bench", bench_now() - b->started, msg);
}

/* 1 when `name` occurs in `s` as a whole word (letters, digits and _ around it do not count). */
static int has_word(const char *s, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(s, name); p; p = strstr(p + 1, name)) {
        int before = p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

const bench_kernel_entry *bench_kernel_find(const char *name)
{
    for (int i = 0; i < bench_kernel_count; ++i)
        if (strcmp(bench_kernel_table[i].name, name) == 0)
            return &bench_kernel_table[i];
    return NULL;
}

int bench_kernel_ok(const bench *b, const char *kernel)
{
    return b->failed_kernels.s == NULL || !has_word(b->failed_kernels.s, kernel);
}

static void mark_failed(bench *b, const char *kernel)
{
    if (!bench_kernel_ok(b, kernel))
        return;
    text_printf(&b->failed_kernels, "%s%s ", b->failed_kernels.len ? "" : " ", kernel);
}

static void fail_message(bench *b, const char *msg)
{
    fprintf(stderr, "  [%s] FAILED: %s\n", b->family ? b->family : "bench", msg);
    b->failures++;
    text_printf(&b->failure_log, "%s: %s\n", b->family ? b->family : "bench", msg);
}

void bench_fail(bench *b, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_message(b, msg);
    /* A message that names a kernel of this build marks it failed, as bench_fail_kernel would. */
    for (int i = 0; i < bench_kernel_count; ++i)
        if (has_word(msg, bench_kernel_table[i].name))
            mark_failed(b, bench_kernel_table[i].name);
}

void bench_fail_kernel(bench *b, const char *kernel, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fail_message(b, msg);
    mark_failed(b, kernel);
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
    const char *failed = b->failed_kernels.s;
    if (failed == NULL)
        return;
    /* A number measured with a kernel that failed a check anywhere in the family is not a number. */
    for (int i = 0; i < b->number_count; ++i) {
        bench_number *n = &b->numbers[i];
        if (n->text[0] || !isfinite(n->value) || !n->kernels[0])
            continue;
        char list[sizeof n->kernels], *save = NULL;
        snprintf(list, sizeof list, "%s", n->kernels);
        for (char *k = strtok_r(list, " ", &save); k; k = strtok_r(NULL, " ", &save))
            if (has_word(failed, k)) {
                n->value = NAN;
                snprintf(n->why, sizeof n->why, "%s failed a check in this run", k);
                break;
            }
    }
    /* ... and no CSV row of such a kernel carries a number. */
    const char *p = b->csv_paths.s ? b->csv_paths.s : "";
    while (*p) {
        size_t len = strcspn(p, "\n");
        char path[1100];
        snprintf(path, sizeof path, "%.*s", (int)(len < sizeof path - 1 ? len : sizeof path - 1), p);
        csv_scrub_failed_kernels(path, failed);
        p += len + (p[len] == '\n');
    }
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
