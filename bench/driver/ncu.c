/* ncu.c: make bench NCU=1 for the driver, which knows no family: the plan of the families' Nsight Compute profiles (for ncu.sh), the import of what ncu wrote (each family's own import), and the reading of ncu's table the families share. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_internal.h"

enum { MAX_FIELDS = 32 };

int bench_csv_fields(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (*p && *p != '\n' && *p != '\r' && n < max) {
        if (*p == '"') {
            fields[n++] = ++p;
            while (*p && *p != '"')
                ++p;
            if (*p)
                *p++ = '\0';
        } else {
            fields[n++] = p;
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                ++p;
        }
        if (*p == ',')
            *p++ = '\0';
        else if (*p)
            *p = '\0';
    }
    return n;
}

int bench_csv_column(char **fields, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(fields[i], name) == 0)
            return i;
    return -1;
}

/* A counter value in base units: thousands separators dropped, the unit's prefix applied. */
static double value_of(const char *value, const char *unit)
{
    char digits[64];
    size_t n = 0;
    for (const char *p = value; *p && n + 1 < sizeof digits; ++p)
        if (*p != ',')
            digits[n++] = *p;
    digits[n] = '\0';
    double v = atof(digits), scale = 1;
    if (unit && tolower((unsigned char)unit[0]) == 'k')
        scale = 1e3;
    else if (unit && tolower((unsigned char)unit[0]) == 'm')
        scale = 1e6;
    else if (unit && tolower((unsigned char)unit[0]) == 'g')
        scale = 1e9;
    return v * scale;
}

void bench_bytes_text(char *buf, size_t size, double v)
{
    if (v >= 1e9)
        snprintf(buf, size, "%.2f GB", v / 1e9);
    else if (v >= 1e6)
        snprintf(buf, size, "%.2f MB", v / 1e6);
    else if (v >= 1e3)
        snprintf(buf, size, "%.1f KB", v / 1e3);
    else
        snprintf(buf, size, "%.0f bytes", v);
}

int bench_ncu_read(const char *path, bench_ncu_value *out, int max)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int kcol = -1, mcol = -1, ucol = -1, vcol = -1, idcol = -1, n = 0;
    char line[4096], *fields[MAX_FIELDS];
    while (fgets(line, sizeof line, f) != NULL) {
        int nf = bench_csv_fields(line, fields, MAX_FIELDS);
        if (kcol < 0) { /* ncu prints its own lines before the table's header */
            kcol = bench_csv_column(fields, nf, "Kernel Name");
            mcol = bench_csv_column(fields, nf, "Metric Name");
            ucol = bench_csv_column(fields, nf, "Metric Unit");
            vcol = bench_csv_column(fields, nf, "Metric Value");
            idcol = bench_csv_column(fields, nf, "ID");
            if (mcol < 0 || vcol < 0)
                kcol = -1;
            continue;
        }
        if (nf <= kcol || nf <= mcol || nf <= vcol || n >= max)
            continue;
        bench_ncu_value *v = &out[n++];
        snprintf(v->id, sizeof v->id, "%s", idcol >= 0 && idcol < nf ? fields[idcol] : "");
        snprintf(v->kernel, sizeof v->kernel, "%s", fields[kcol]);
        snprintf(v->metric, sizeof v->metric, "%s", fields[mcol]);
        v->value = value_of(fields[vcol], ucol >= 0 && ucol < nf ? fields[ucol] : NULL);
    }
    fclose(f);
    return kcol < 0 ? -2 : n;
}

void ncu_print_plan(FILE *out)
{
    for (int f = 0; f < bench_family_count; ++f) {
        const bench_counters *c = bench_family_table[f].counters;
        for (const bench_counter_profile *p = c ? c->profiles : NULL; p && p->name; ++p)
            fprintf(out, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", bench_family_table[f].name, p->name, p->kernels, p->metrics,
                    p->launch_count, p->quick, p->env ? p->env : "-");
    }
}

int ncu_import(bench *b, const char *work_dir, const char **families, int count)
{
    int bad = 0;
    for (int f = 0; f < bench_family_count; ++f) {
        const bench_counters *c = bench_family_table[f].counters;
        int listed = count == 0;
        for (int i = 0; i < count && !listed; ++i)
            listed = strcmp(families[i], bench_family_table[f].name) == 0;
        if (listed && c != NULL && c->import != NULL)
            bad |= c->import(b, work_dir) != 0;
    }
    return bad ? -1 : 0;
}
