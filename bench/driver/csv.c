/* csv.c: one CSV file per family table, every row prefixed with where and when it was measured, written once when the family ends, so that no row of a failed kernel keeps a number; the audit of a run's tables. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

struct bench_csv {
    bench *b;
    char path[1024];
    text lines;             /* the header, then one line per row: written once, when the family ends */
    bench_csv *next;        /* the family's tables, in the order opened */
};

bench_csv *bench_csv_open(bench *b, const char *name, const char *header)
{
    bench_csv *csv = calloc(1, sizeof *csv);
    if (csv == NULL) {
        bench_fail(b, "out of memory opening %s.csv", name);
        return NULL;
    }
    csv->b = b;
    snprintf(csv->path, sizeof csv->path, "%s/%s.csv", b->run_dir, name);
    text_printf(&csv->lines, "gpu,sm_clock_mhz,date,commit,%s\n", header);
    bench_csv **last = &b->csvs;
    while (*last)
        last = &(*last)->next;
    *last = csv;
    return csv;
}

void bench_csv_row(bench_csv *csv, const char *fmt, ...)
{
    if (csv == NULL) /* the open failed and was counted: the rows have nowhere to go */
        return;
    /* the columns the driver puts before the family's own: gpu,sm_clock_mhz,date,commit */
    const bench_machine *m = &csv->b->machine;
    text_printf(&csv->lines, "\"%s\",%.0f,%s,%s,", m->gpu, m->sm_clock_mhz, m->date, m->commit);
    va_list ap;
    va_start(ap, fmt);
    text_vprintf(&csv->lines, fmt, ap);
    va_end(ap);
    text_printf(&csv->lines, "\n");
}

/* The table is complete; it is written with the others when the family ends (csv_write_all). */
void bench_csv_close(bench_csv *csv) { (void)csv; }

enum { CSV_MAX_FIELDS = 64 };

/* Splits a line (no newline) into fields at commas outside double quotes; each
 * field keeps its quotes. Returns the number of fields. */
static int split_fields(char *line, char **fields)
{
    int n = 0, quoted = 0;
    fields[n++] = line;
    for (char *p = line; *p; ++p) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == ',' && !quoted && n < CSV_MAX_FIELDS) {
            *p = '\0';
            fields[n++] = p + 1;
        }
    }
    return n;
}

/* A field without its quotes, into buf. */
static const char *unquote(const char *field, char *buf, size_t size)
{
    size_t n = strlen(field);
    if (n >= 2 && field[0] == '"' && field[n - 1] == '"')
        snprintf(buf, size, "%.*s", (int)(n - 2), field + 1);
    else
        snprintf(buf, size, "%s", field);
    return buf;
}

/* The columns named kernel and launch (or status) of a header line; -1 when absent. */
static void find_columns(char *header, int *kcol, int *scol)
{
    char *fields[CSV_MAX_FIELDS], buf[128];
    int n = split_fields(header, fields);
    *kcol = *scol = -1;
    for (int i = 0; i < n; ++i) {
        unquote(fields[i], buf, sizeof buf);
        if (strcmp(buf, "kernel") == 0)
            *kcol = i;
        else if (*scol < 0 && (strcmp(buf, "launch") == 0 || strcmp(buf, "status") == 0))
            *scol = i;
    }
}

static int kernel_failed(const char *failed, const char *kernel)
{
    char word[160];
    snprintf(word, sizeof word, " %s ", kernel);
    return kernel[0] && strstr(failed, word) != NULL;
}

/* One table's lines into its file: a row of a kernel in `failed` reads
 * "failed" from its status column on (but for the kernel column itself). */
static void write_table(bench_csv *csv, const char *failed)
{
    FILE *f = fopen(csv->path, "w");
    if (f == NULL) {
        bench_fail(csv->b, "cannot write %s", csv->path);
        return;
    }
    int kcol = -1, scol = -1, line_no = 0;
    const char *p = csv->lines.s ? csv->lines.s : "";
    while (*p) {
        size_t len = strcspn(p, "\n");
        char line[8192], copy[8192], *fields[CSV_MAX_FIELDS], kernel[160];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        p += len + (p[len] == '\n');
        snprintf(copy, sizeof copy, "%s", line);
        if (line_no++ == 0) {
            find_columns(copy, &kcol, &scol);
            fprintf(f, "%s\n", line);
            continue;
        }
        int n = split_fields(copy, fields);
        if (kcol < 0 || scol < 0 || kcol >= n || !kernel_failed(failed, unquote(fields[kcol], kernel, sizeof kernel))) {
            fprintf(f, "%s\n", line);
            continue;
        }
        for (int i = 0; i < n; ++i)
            fprintf(f, "%s%s", i ? "," : "", i >= scol && i != kcol ? "failed" : fields[i]);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        bench_fail(csv->b, "cannot finish %s", csv->path);
}

void csv_write_all(bench *b, const char *failed)
{
    while (b->csvs) {
        bench_csv *csv = b->csvs;
        b->csvs = csv->next;
        write_table(csv, failed ? failed : "");
        text_free(&csv->lines);
        free(csv);
    }
}

/* Reads a whole file into a text; 0 on success. */
static int slurp(const char *path, text *t)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        text_append(t, buf, n);
    fclose(f);
    return 0;
}

/* 1 when the whole field is a number (quotes allowed around it). */
static int is_number(const char *field)
{
    char buf[128], *end;
    unquote(field, buf, sizeof buf);
    if (buf[0] == '\0')
        return 0;
    strtod(buf, &end);
    return *end == '\0';
}

int csv_audit_file(const char *path, const char *failed, FILE *out, int *audited)
{
    text in = {0};
    *audited = 0;
    if (slurp(path, &in) != 0 || in.s == NULL) {
        fprintf(out, "  %s: cannot read\n", path);
        return 1;
    }
    int kcol = -1, scol = -1, bad = 0, line_no = 0;
    char *save = NULL;
    for (char *line = strtok_r(in.s, "\n", &save); line; line = strtok_r(NULL, "\n", &save), ++line_no) {
        char *fields[CSV_MAX_FIELDS], kernel[160];
        int n = split_fields(line, fields);
        if (line_no == 0) {
            /* split_fields cut the header in place: find the columns on the pieces */
            for (int i = 0; i < n; ++i) {
                char name[128];
                unquote(fields[i], name, sizeof name);
                if (strcmp(name, "kernel") == 0)
                    kcol = i;
                else if (scol < 0 && (strcmp(name, "launch") == 0 || strcmp(name, "status") == 0))
                    scol = i;
            }
            if (kcol < 0 || scol < 0) {
                fprintf(out, "  %s: not audited (no \"kernel\" or no \"launch\"/\"status\" column; bench/bench.h)\n",
                        path);
                break;
            }
            *audited = 1;
            continue;
        }
        if (kcol >= n || !kernel_failed(failed, unquote(fields[kcol], kernel, sizeof kernel)))
            continue;
        for (int i = scol; i < n; ++i)
            if (i != kcol && is_number(fields[i])) {
                fprintf(out, "  %s, line %d: kernel %s failed a check, but its column %d holds the number %s\n", path,
                        line_no + 1, kernel, i + 1, fields[i]);
                ++bad;
                break;
            }
    }
    text_free(&in);
    return bad;
}
