/* csv.c: one CSV file per family table, every row prefixed with where and when it was measured. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_internal.h"

struct bench_csv {
    bench *b;
    FILE *f;
    char path[1024];
};

/* The columns the driver puts before the family's own: gpu,sm_clock_mhz,date,commit. */
static void write_prefix(bench_csv *csv)
{
    const bench_machine *m = &csv->b->machine;
    fprintf(csv->f, "\"%s\",%.0f,%s,%s,", m->gpu, m->sm_clock_mhz, m->date, m->commit);
}

bench_csv *bench_csv_open(bench *b, const char *name, const char *header)
{
    bench_csv *csv = calloc(1, sizeof *csv);
    if (csv == NULL) {
        bench_fail(b, "out of memory opening %s.csv", name);
        return NULL;
    }
    csv->b = b;
    snprintf(csv->path, sizeof csv->path, "%s/%s.csv", b->run_dir, name);
    csv->f = fopen(csv->path, "w");
    if (csv->f == NULL) {
        bench_fail(b, "cannot write %s", csv->path);
        free(csv);
        return NULL;
    }
    fprintf(csv->f, "gpu,sm_clock_mhz,date,commit,%s\n", header);
    return csv;
}

void bench_csv_row(bench_csv *csv, const char *fmt, ...)
{
    if (csv == NULL) /* the open failed and was counted: the rows have nowhere to go */
        return;
    write_prefix(csv);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(csv->f, fmt, ap);
    va_end(ap);
    fputc('\n', csv->f);
    fflush(csv->f); /* a family that crashes later still leaves its rows */
}

void bench_csv_close(bench_csv *csv)
{
    if (csv == NULL)
        return;
    if (fclose(csv->f) != 0)
        bench_fail(csv->b, "cannot finish %s", csv->path);
    free(csv);
}
