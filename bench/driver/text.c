/* text.c: a growable string for the report and JSON the driver assembles. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

/* Appends n bytes of s; exits on out-of-memory (the run cannot go on without its report). */
void text_append(text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1024;
        while (cap < t->len + n + 1)
            cap *= 2;
        char *p = realloc(t->s, cap);
        if (p == NULL) {
            fprintf(stderr, "bench: out of memory\n");
            exit(EXIT_FAILURE);
        }
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
}

void text_vprintf(text *t, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (n <= 0)
        return;
    char *buf = malloc((size_t)n + 1);
    if (buf == NULL) {
        fprintf(stderr, "bench: out of memory\n");
        exit(EXIT_FAILURE);
    }
    vsnprintf(buf, (size_t)n + 1, fmt, ap);
    text_append(t, buf, (size_t)n);
    free(buf);
}

void text_printf(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(t, fmt, ap);
    va_end(ap);
}

void text_free(text *t)
{
    free(t->s);
    t->s = NULL;
    t->len = t->cap = 0;
}
