/* json_read.c: the one reader of summary.json: its numbers as dotted keys (null: NAN), its top-level strings and booleans as texts; enough JSON for the files the driver writes. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

typedef struct reader {
    const char *p;
    bench_number *out;
    int max, count, bad;
} reader;

static void skip_space(reader *r)
{
    while (isspace((unsigned char)*r->p))
        r->p++;
}

/* A string into buf (escapes kept simple: \x becomes x, \uXXXX becomes ?). */
static void read_string(reader *r, char *buf, size_t size)
{
    size_t n = 0;
    if (*r->p != '"') {
        r->bad = 1;
        return;
    }
    r->p++;
    while (*r->p && *r->p != '"') {
        char c = *r->p++;
        if (c == '\\' && *r->p) {
            c = *r->p++;
            if (c == 'u') {
                for (int i = 0; i < 4 && *r->p; ++i)
                    r->p++;
                c = '?';
            }
        }
        if (n + 1 < size)
            buf[n++] = c;
    }
    if (*r->p == '"')
        r->p++;
    else
        r->bad = 1;
    if (size)
        buf[n] = '\0';
}

static void read_value(reader *r, const char *path);

/* A top-level string or boolean: value NAN, the text beside it. */
static void add_text(reader *r, const char *path, const char *value)
{
    if (r->count >= r->max)
        return;
    bench_number *n = &r->out[r->count++];
    memset(n, 0, sizeof *n);
    snprintf(n->key, sizeof n->key, "%s", path);
    snprintf(n->text, sizeof n->text, "%s", value);
    n->value = NAN;
}

static void read_object(reader *r, const char *path)
{
    r->p++; /* { */
    skip_space(r);
    while (!r->bad && *r->p && *r->p != '}') {
        char key[128], sub[256];
        read_string(r, key, sizeof key);
        skip_space(r);
        if (*r->p != ':') {
            r->bad = 1;
            return;
        }
        r->p++;
        snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", key);
        read_value(r, sub);
        skip_space(r);
        if (*r->p == ',') {
            r->p++;
            skip_space(r);
        }
    }
    if (*r->p == '}')
        r->p++;
    else
        r->bad = 1;
}

static void read_value(reader *r, const char *path)
{
    skip_space(r);
    char c = *r->p;
    if (c == '{') {
        read_object(r, path);
    } else if (c == '[') { /* arrays hold messages, not numbers: skip them */
        r->p++;
        skip_space(r);
        while (!r->bad && *r->p && *r->p != ']') {
            read_value(r, "");
            skip_space(r);
            if (*r->p == ',')
                r->p++;
            skip_space(r);
        }
        if (*r->p == ']')
            r->p++;
        else
            r->bad = 1;
    } else if (c == '"') {
        char str[1024];
        read_string(r, str, sizeof str);
        if (path[0] && strchr(path, '.') == NULL)   /* "gpu", "date", "commit", ...: a text, never compared */
            add_text(r, path, str);
    } else if (c == '-' || isdigit((unsigned char)c)) {
        char *end;
        double v = strtod(r->p, &end);
        r->p = end;
        if (path[0] && r->count < r->max) {
            memset(&r->out[r->count], 0, sizeof r->out[r->count]);
            snprintf(r->out[r->count].key, sizeof r->out[r->count].key, "%s", path);
            r->out[r->count++].value = v;
        }
    } else if (strncmp(r->p, "null", 4) == 0) { /* a number that was not measured: NAN */
        r->p += 4;
        if (path[0] && r->count < r->max) {
            memset(&r->out[r->count], 0, sizeof r->out[r->count]);
            snprintf(r->out[r->count].key, sizeof r->out[r->count].key, "%s", path);
            snprintf(r->out[r->count].why, sizeof r->out[r->count].why, "null");
            r->out[r->count++].value = NAN;
        }
    } else if (strncmp(r->p, "true", 4) == 0) {
        r->p += 4;
        if (path[0] && strchr(path, '.') == NULL)
            add_text(r, path, "true");
    } else if (strncmp(r->p, "false", 5) == 0) {
        r->p += 5;
        if (path[0] && strchr(path, '.') == NULL)
            add_text(r, path, "false");
    } else {
        r->bad = 1;
    }
}

int json_read_numbers(const char *path, bench_number *out, int max)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    text t = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text_append(&t, buf, n);
    fclose(f);
    reader r = {t.s ? t.s : "", out, max, 0, 0};
    skip_space(&r);
    if (*r.p == '{')
        read_object(&r, "");
    else
        r.bad = 1;
    text_free(&t);
    return r.bad ? -1 : r.count;
}

int summary_is_dry_run(const char *path)
{
    static bench_number n[BENCH_MAX_NUMBERS + 64];
    int count = json_read_numbers(path, n, BENCH_MAX_NUMBERS + 64);
    for (int i = 0; i < count; ++i)
        if (strcmp(n[i].key, "dry_run") == 0)
            return strcmp(n[i].text, "true") == 0;
    return 0;
}

int summary_print_value(const char *path, const char *key)
{
    static bench_number n[BENCH_MAX_NUMBERS + 64];
    int count = json_read_numbers(path, n, BENCH_MAX_NUMBERS + 64);
    if (count < 0) {
        fprintf(stderr, "bench: cannot read %s\n", path);
        return 2;
    }
    for (int i = 0; i < count; ++i)
        if (strcmp(n[i].key, key) == 0) {
            if (n[i].text[0])
                printf("%s\n", n[i].text);
            else if (isfinite(n[i].value))
                printf("%.17g\n", n[i].value);
            else
                printf("null\n");
            return 0;
        }
    return 1;
}
