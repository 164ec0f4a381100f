/* failures.c: a family's failed checks: the message, the count, and the kernels they fail (bench_fail_kernel names its kernel; nothing is read back from a message). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"

/* 1 when `name` occurs in `s` as a whole word (letters, digits and _ around it do not count). */
int bench_has_word(const char *s, const char *name)
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
    return b->failed_kernels.s == NULL || !bench_has_word(b->failed_kernels.s, kernel);
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
    fail_message(b, msg);   /* fails no kernel: a check of a kernel says which (bench_fail_kernel) */
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

