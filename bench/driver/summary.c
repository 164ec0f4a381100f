/* summary.c: summary.json: the machine, the families' numbers (dotted keys nest; null with the reason when not measured), failed kernels, failures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"

/* Top-level names the driver writes itself: a family may not take them. */
static const char *const reserved[] = {"gpu", "driver", "compute_capability", "sm_clock_mhz",
                                       "sm_clock_mhz_smi_max", "sm_clock_mhz_observed", "date", "commit",
                                       "backend", "dry_run", "failures", "failure_messages", "families",
                                       "not_measured", "failed_kernels", NULL};

/* 1 when a is b followed by ".": then a would be both a number and an object. */
static int nests_under(const char *a, const char *b)
{
    size_t n = strlen(b);
    return strncmp(a, b, n) == 0 && a[n] == '.';
}

int summary_key_clashes(const bench_number *numbers, int count, const char *key, const char **why)
{
    if (key[0] == '\0' || key[0] == '.' || key[strlen(key) - 1] == '.' || strstr(key, "..") || strchr(key, '"') ||
        strchr(key, '\\')) {
        *why = "not a dotted name";
        return 1;
    }
    size_t top = strcspn(key, ".");
    for (int i = 0; reserved[i]; ++i)
        if (strlen(reserved[i]) == top && strncmp(key, reserved[i], top) == 0) {
            *why = "the driver writes that key";
            return 1;
        }
    for (int i = 0; i < count; ++i) {
        if (strcmp(numbers[i].key, key) == 0) {
            *why = "already set in this run";
            return 1;
        }
        if (nests_under(numbers[i].key, key) || nests_under(key, numbers[i].key)) {
            *why = "a number and a group of the same name";
            return 1;
        }
    }
    return 0;
}

static void write_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("null", f); /* JSON has no NaN */
}

static void write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

/* The members of the group whose keys start with prefix, in the order they were
 * first set; *first says whether a comma is due before the next member. */
static void write_group(FILE *f, const bench_number *numbers, int count, const char *prefix, int indent, int *first)
{
    size_t plen = strlen(prefix);
    for (int i = 0; i < count; ++i) {
        const char *key = numbers[i].key;
        if (strncmp(key, prefix, plen) != 0)
            continue;
        const char *rest = key + plen;
        size_t seg = strcspn(rest, ".");
        int seen = 0; /* this member was written with an earlier key of the group */
        for (int j = 0; j < i && !seen; ++j)
            seen = strncmp(numbers[j].key, prefix, plen) == 0 && strncmp(numbers[j].key + plen, rest, seg) == 0 &&
                   (numbers[j].key[plen + seg] == '.' || numbers[j].key[plen + seg] == '\0');
        if (seen)
            continue;
        fprintf(f, "%s\n%*s\"%.*s\": ", *first ? "" : ",", indent, "", (int)seg, rest);
        *first = 0;
        if (rest[seg] == '\0' && numbers[i].text[0]) {
            write_string(f, numbers[i].text);
        } else if (rest[seg] == '\0') {
            write_number(f, numbers[i].value);
        } else {
            char sub[256];
            snprintf(sub, sizeof sub, "%s%.*s.", prefix, (int)seg, rest);
            int inner_first = 1;
            fputc('{', f);
            write_group(f, numbers, count, sub, indent + 2, &inner_first);
            fprintf(f, "\n%*s}", indent, "");
        }
    }
}

void summary_write_json(FILE *f, const bench_machine *m, const bench_number *numbers, int count,
                        int failures, const text *failure_log, const char *failed_kernels, const char *families_json,
                        int dry)
{
    fputs("{\n  \"gpu\": ", f);
    write_string(f, m->gpu);
    fputs(",\n  \"driver\": ", f);
    write_string(f, m->driver);
    fputs(",\n  \"compute_capability\": ", f);
    write_string(f, m->compute_cap);
    fputs(",\n  \"sm_clock_mhz\": ", f);
    write_number(f, m->sm_clock_mhz);
    fputs(",\n  \"sm_clock_mhz_smi_max\": ", f);
    write_number(f, m->smi_max_clock_mhz);
    fputs(",\n  \"sm_clock_mhz_observed\": ", f);
    write_number(f, m->smi_clock_mhz);
    fputs(",\n  \"date\": ", f);
    write_string(f, m->date);
    fputs(",\n  \"commit\": ", f);
    write_string(f, m->commit);
    fprintf(f, ",\n  \"backend\": \"%s\",\n  \"dry_run\": %s,", dsm_backend_name(), dry ? "true" : "false");
    int first = 1;
    write_group(f, numbers, count, "", 2, &first);
    /* Why each null is null: a failed check is never a number, and says so. */
    fputs(",\n  \"not_measured\": {", f);
    int nulls = 0;
    for (int i = 0; i < count; ++i) {
        if (numbers[i].text[0] || isfinite(numbers[i].value))
            continue;
        fputs(nulls++ ? ",\n    " : "\n    ", f);
        write_string(f, numbers[i].key);
        fputs(": ", f);
        write_string(f, numbers[i].why[0] ? numbers[i].why : "not a finite number");
    }
    fprintf(f, "%s},\n  \"failed_kernels\": [", nulls ? "\n  " : "");
    /* The kernels a check failed for, with the exercise each belongs to. */
    int nk = 0;
    char list[4096], *save = NULL;
    snprintf(list, sizeof list, "%s", failed_kernels ? failed_kernels : "");
    for (char *k = strtok_r(list, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        const bench_kernel_entry *e = bench_kernel_find(k);
        fputs(nk++ ? ",\n    {\"kernel\": " : "\n    {\"kernel\": ", f);
        write_string(f, k);
        fputs(", \"exercise\": ", f);
        write_string(f, e ? e->exercise : "");
        fputs(", \"file\": ", f);
        write_string(f, e ? e->file : "");
        fputs("}", f);
    }
    fprintf(f, "%s],\n  \"failures\": %d,\n  \"failure_messages\": [", nk ? "\n  " : "", failures);
    /* One string per line of the failure log. */
    const char *p = failure_log->s ? failure_log->s : "";
    int n = 0;
    while (*p) {
        size_t len = strcspn(p, "\n");
        char line[1200];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1), p);
        fputs(n++ ? ",\n    " : "\n    ", f);
        write_string(f, line);
        p += len + (p[len] == '\n');
    }
    fprintf(f, "%s],\n  \"families\": %s\n}\n", n ? "\n  " : "", families_json);
}
