/* report.c: the grader's output for people and for programs (see report.h). */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define DETAIL_INDENT "        "

const char *outcome_name(outcome o)
{
    static const char *const names[] = {"pass",     "missing",   "compile",   "timeout",
                                        "crash",    "emulator",  "assertion", "failed"};
    return names[o];
}

void report_begin(const options *o, size_t n)
{
    const char *where = strcmp(o->backend, "gpu") == 0 ? "on the GPU" : "on the emulator";
    printf("Grading %s/ %s%s%s: %zu exercise%s, %g s limit each.\n", o->src_dir, where,
           o->wrap ? " under " : "", o->wrap ? o->wrap : "", n, n == 1 ? "" : "s", o->timeout);
    fflush(stdout);
}

/* Prints text indented, one line at a time. */
static void print_indented(const char *text)
{
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        printf(DETAIL_INDENT "%.*s\n", (int)len, p);
        p += len + (nl != NULL);
    }
}

void report_exercise(const options *o, const result *r, int id_width)
{
    bool pass = r->outcome == OUTCOME_PASS;
    const char *on = !o->color ? "" : pass ? "\033[32m" : "\033[31m";
    const char *off = o->color ? "\033[0m" : "";
    printf("  %s%s%s %3d/%-3d %-*s  %s\n", on, pass ? "PASS" : "FAIL", off, r->points,
           r->ex->points, id_width, r->ex->id, r->ex->title);
    if (!pass) {
        if (r->detail.data != NULL)
            print_indented(r->detail.data);
        printf(DETAIL_INDENT "hint: %s\n", exercise_hint_for(r->ex, r->kind));
        const char *log = r->outcome == OUTCOME_COMPILE ? r->build_log : r->run_log;
        if (r->outcome != OUTCOME_MISSING)
            printf(DETAIL_INDENT "log: %s\n", path_exists(log) ? log : "(none)");
    }
    fflush(stdout);
}

void report_scores(const result *r, size_t n)
{
    int total = 0, max = 0;
    for (size_t i = 0; i < n; ++i) {
        int chapter = r[i].ex->chapter;
        bool first = true;
        for (size_t j = 0; j < i; ++j)
            first &= r[j].ex->chapter != chapter;
        if (!first)
            continue;
        int got = 0, of = 0;
        for (size_t j = i; j < n; ++j) {
            if (r[j].ex->chapter == chapter) {
                got += r[j].points;
                of += r[j].ex->points;
            }
        }
        printf("Score ch%02d: %d/%d\n", chapter, got, of);
        total += got;
        max += of;
    }
    printf("Score: %d/%d\n", total, max);
    fflush(stdout);
}

/* Appends s as a JSON string. */
static void json_string(strbuf *j, const char *s)
{
    sb_add(j, "\"");
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
        if (*p == '"' || *p == '\\')
            sb_printf(j, "\\%c", *p);
        else if (*p == '\n')
            sb_add(j, "\\n");
        else if (*p == '\t')
            sb_add(j, "\\t");
        else if (*p < 0x20)
            sb_printf(j, "\\u%04x", *p);
        else
            sb_addn(j, (const char *)p, 1);
    }
    sb_add(j, "\"");
}

void report_json(const options *o, const result *r, size_t n)
{
    strbuf j = {0};
    int total = 0, max = 0;
    for (size_t i = 0; i < n; ++i) {
        total += r[i].points;
        max += r[i].ex->points;
    }
    sb_add(&j, "{\n  \"src\": ");
    json_string(&j, o->src_dir);
    sb_add(&j, ",\n  \"backend\": ");
    json_string(&j, o->backend);
    sb_printf(&j, ",\n  \"score\": %d,\n  \"max\": %d,\n  \"chapters\": [", total, max);
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        bool first = true;
        for (size_t k = 0; k < i; ++k)
            first &= r[k].ex->chapter != r[i].ex->chapter;
        if (!first)
            continue;
        int got = 0, of = 0;
        for (size_t k = i; k < n; ++k) {
            if (r[k].ex->chapter == r[i].ex->chapter) {
                got += r[k].points;
                of += r[k].ex->points;
            }
        }
        sb_printf(&j, "%s\n    {\"chapter\": %d, \"score\": %d, \"max\": %d}", any ? "," : "",
                  r[i].ex->chapter, got, of);
        any = true;
    }
    sb_add(&j, any ? "\n  ],\n  \"exercises\": [" : "],\n  \"exercises\": [");
    for (size_t i = 0; i < n; ++i) {
        sb_add(&j, i ? ",\n    {\"id\": " : "\n    {\"id\": ");
        json_string(&j, r[i].ex->id);
        sb_printf(&j, ", \"chapter\": %d, \"status\": \"%s\", \"outcome\": \"%s\", \"points\": %d, \"max\": %d, \"reason\": ",
                  r[i].ex->chapter, r[i].outcome == OUTCOME_PASS ? "pass" : "fail",
                  outcome_name(r[i].outcome), r[i].points, r[i].ex->points);
        json_string(&j, r[i].reason);
        sb_add(&j, ", \"kind\": ");
        json_string(&j, failure_kind_name(r[i].kind));
        sb_add(&j, ", \"report\": ");
        json_string(&j, r[i].report != NULL ? r[i].report : "");
        sb_add(&j, ", \"log\": ");
        json_string(&j, r[i].outcome == OUTCOME_MISSING   ? ""
                        : r[i].outcome == OUTCOME_COMPILE ? r[i].build_log
                                                          : r[i].run_log);
        sb_add(&j, "}");
    }
    sb_add(&j, n ? "\n  ]\n}\n" : "]\n}\n");
    char *path = xasprintf("%s/results.json", o->out_dir);
    if (!mkdir_p(o->out_dir) || !write_file_atomic(path, j.data, j.len))
        die("cannot write %s", path);
    free(path);
    free(j.data);
}
