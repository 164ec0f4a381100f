/* diagnose.c: reading build and test logs into an outcome and a short explanation (see diagnose.h). */
#include "diagnose.h"

#include <ctype.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>

#include "report_category.h"
#include "util.h"

#define MAX_COMPILER_LINES 6
#define MAX_WARNINGS 3 /* shown under a failure, each with its source lines */
#define MAX_MESSAGE_LINES 8
#define MAX_REPORT_LINES 60 /* room for the per-CTA timeline of lifetime and race reports */
#define MAX_TAIL_LINES 6
#define MAX_LINE_CHARS 600 /* a longer line is cut at a field boundary */

static const char CMOCKA_RUN[] = "[ RUN      ] ";
static const char CMOCKA_DONE[] = "[==========] ";
static const char CMOCKA_OK[] = "[       OK ] ";
static const char CMOCKA_ERROR[] = "[  ERROR   ] --- ";
static const char CMOCKA_LINE[] = "[   LINE   ] --- ";
static const char CMOCKA_FAILED[] = "[  FAILED  ] ";
static const char CMOCKA_SKIPPED[] = "[  SKIPPED ] ";
static const char EXCEPTION[] = "Test failed with exception: ";
static const char EMU_REPORT[] = "dsm-emu: error:";
static const char EMU_KIND[] = DSM_REPORT_KIND_LINE_PREFIX; /* the report's kind, the line before its text */
static const char SANITIZER[] = "========= ";

/* A log split into lines (the text is modified in place). */
typedef struct lines {
    char *text;
    char **line;
    size_t count;
} lines;

static lines read_lines(const char *path)
{
    lines l = {read_file(path, NULL), NULL, 0};
    if (l.text == NULL)
        return l;
    for (char *p = l.text; *p;) {
        char *nl = strchr(p, '\n');
        if (nl != NULL)
            *nl = '\0';
        size_t len = strlen(p);
        if (len > 0 && p[len - 1] == '\r')
            p[len - 1] = '\0';
        l.line = xrealloc(l.line, (l.count + 1) * sizeof *l.line);
        l.line[l.count++] = p;
        if (nl == NULL)
            break;
        p = nl + 1;
    }
    return l;
}

static void free_lines(lines *l)
{
    free(l->text);
    free(l->line);
}

/* Where to cut a line longer than MAX_LINE_CHARS: after the last field
 * (", ", "; " or ": ") that ends before the limit, else after the last word;
 * a summary cut inside a field would show half a name or half a number. */
static size_t cut_at(const char *s)
{
    size_t word = 0;
    for (size_t i = MAX_LINE_CHARS; i > 0; --i) {
        if (s[i] == ' ' && (s[i - 1] == ',' || s[i - 1] == ';' || s[i - 1] == ':'))
            return i - 1;
        if (s[i] == ' ' && word == 0)
            word = i;
    }
    return word > 0 ? word : MAX_LINE_CHARS;
}

/* Adds one line to the detail, whole unless very long. */
static void add_line(strbuf *d, const char *prefix, const char *s)
{
    size_t n = strlen(s);
    if (n > MAX_LINE_CHARS)
        sb_printf(d, "%s%.*s ... (the whole line is in the log)\n", prefix, (int)cut_at(s), s);
    else
        sb_printf(d, "%s%s\n", prefix, s);
}

/* Adds one formatted line to the detail. */
static void add_linef(strbuf *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_linef(strbuf *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = xvasprintf(fmt, ap);
    va_end(ap);
    add_line(d, "", s);
    free(s);
}

static bool is_blank(const char *s)
{
    while (isspace((unsigned char)*s))
        ++s;
    return *s == '\0';
}

const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGPIPE: return "SIGPIPE";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGXCPU: return "SIGXCPU";
    case SIGINT: return "SIGINT";
    default: {
        static char buf[32];
        snprintf(buf, sizeof buf, "signal %d", sig);
        return buf;
    }
    }
}

/* What a signal usually means in a test of this course. */
static const char *signal_meaning(int sig)
{
    switch (sig) {
    case SIGSEGV: return "segmentation fault: a bad pointer, or an access out of bounds";
    case SIGBUS: return "bus error: a misaligned or unmapped access";
    case SIGFPE: return "arithmetic exception: a division by zero?";
    case SIGILL: return "illegal instruction";
    case SIGABRT: return "aborted: abort() or a failed assert()";
    case SIGKILL: return "killed: out of memory?";
    case SIGXFSZ: return "wrote more than 64 MB of output: a print in a loop?";
    default: return strsignal(sig);
    }
}

/* True for a compiler's error line (gcc, ld, nvcc, make). */
static bool is_error_line(const char *s)
{
    return strstr(s, "error") != NULL || strstr(s, "Error") != NULL ||
           strstr(s, "undefined reference") != NULL || strstr(s, "No rule to make") != NULL;
}

/* True for gcc's lines that are neither errors nor their source context. */
static bool is_aside_line(const char *s)
{
    return strstr(s, ": warning:") != NULL || strstr(s, ": note:") != NULL ||
           strstr(s, ": In function") != NULL || strstr(s, ": At top level") != NULL ||
           strstr(s, "In file included from") != NULL;
}

/* The first compiler errors of a build log (or make's own log), each with
 * the source lines gcc prints under it; warnings and notes are left out.
 * The first error line goes to *first. */
static void compiler_errors(const char *path, strbuf *d, char **first)
{
    lines l = read_lines(path);
    size_t shown = 0;
    bool showing = false;
    for (size_t i = 0; i < l.count && shown < MAX_COMPILER_LINES; ++i) {
        const char *s = l.line[i];
        if (starts_with(s, "+ ") || is_blank(s))
            continue;
        if (is_aside_line(s))
            showing = false;
        else if (is_error_line(s) && !isspace((unsigned char)s[0]))
            showing = true;
        else if (!isspace((unsigned char)s[0]))
            showing = false;
        if (!showing)
            continue;
        if (*first == NULL)
            *first = xstrdup(s);
        add_line(d, "  ", s);
        ++shown;
    }
    if (shown == 0) { /* no error line: show the end */
        for (size_t i = l.count > MAX_TAIL_LINES ? l.count - MAX_TAIL_LINES : 0; i < l.count; ++i) {
            if (starts_with(l.line[i], "+ ") || is_blank(l.line[i]))
                continue;
            if (*first == NULL)
                *first = xstrdup(l.line[i]);
            add_line(d, "  ", l.line[i]);
        }
    }
    free_lines(&l);
}

/* The first compiler warnings about the learner's files (those under
 * src_dir/) in a build log, each with the source lines gcc prints under it:
 * a warning is often the failure's cause (an integer passed as a pointer). */
static void compiler_warnings(const char *path, const char *src_dir, strbuf *d)
{
    lines l = read_lines(path);
    char *mine = xasprintf("%s/", src_dir);
    size_t total = 0, shown = 0;
    bool showing = false;
    strbuf w = {0};
    for (size_t i = 0; i < l.count; ++i) {
        const char *s = l.line[i];
        if (starts_with(s, mine) && strstr(s, ": warning:") != NULL) {
            ++total;
            showing = shown < MAX_WARNINGS;
            shown += showing;
        } else if (!isspace((unsigned char)s[0]) || is_blank(s)) {
            showing = false;
        }
        if (showing)
            add_line(&w, "  ", s);
    }
    if (total > 0) {
        if (shown == total)
            add_linef(d, "the compiler warned (build log: %s):", path);
        else
            add_linef(d, "the compiler warned %zu times; the first %zu (all in the build log: %s):", total, shown, path);
        sb_add(d, w.data);
    }
    free(w.data);
    free(mine);
    free_lines(&l);
}

/* What the test log says, in the pieces the learner needs. */
typedef struct run_facts {
    const char *seed;           /* "seed N (repeat with ...)" */
    size_t report_at, report_n; /* first emulator report: lines [at, at+n) */
    const char *report_kind;    /* its kind's name, from the kind line before it, or NULL */
    const char *failed_test;    /* first test with an ERROR */
    const char *error;          /* its first error message */
    const char *where;          /* its "file:line" */
    size_t test_from, test_to;  /* its lines, for the messages it printed */
    const char *exception;      /* "Segmentation fault(11)" when cmocka caught a signal */
    const char *message;        /* the failed test's first message */
    const char *running;        /* a test started and never finished */
    bool finished;              /* cmocka printed "[==========] N test(s) run." */
    size_t sanitizer_at;        /* first compute-sanitizer finding, or count */
} run_facts;

static bool is_message(const lines *l, const run_facts *f, size_t i);

/* Sets f->report_at and f->report_n to the first emulator report in lines
 * [from, to): the lines after its kind line ("dsm-emu-report: kind=<name>",
 * which sets f->report_kind) up to the next blank line. A "dsm-emu: error:"
 * line without a kind line before it (an emulator that prints none) is a
 * report of no known kind. */
static void find_report(const lines *l, size_t from, size_t to, run_facts *f)
{
    for (size_t i = from; i < to; ++i) {
        if (starts_with(l->line[i], EMU_KIND) && i + 1 < l->count) {
            f->report_kind = l->line[i] + strlen(EMU_KIND);
            ++i;
        } else if (!starts_with(l->line[i], EMU_REPORT)) {
            continue;
        }
        f->report_at = i;
        f->report_n = 0;
        while (i + f->report_n < l->count && !is_blank(l->line[i + f->report_n]))
            ++f->report_n;
        return;
    }
}

static run_facts read_facts(const lines *l)
{
    run_facts f = {.report_at = l->count, .sanitizer_at = l->count};
    const char *current = NULL;
    size_t current_from = 0, running_from = 0;
    for (size_t i = 0; i < l->count; ++i) {
        const char *s = l->line[i];
        if (f.seed == NULL && starts_with(s, "seed "))
            f.seed = s;
        if (f.sanitizer_at == l->count && starts_with(s, SANITIZER) &&
            strstr(s, "COMPUTE-SANITIZER") == NULL && strstr(s, "ERROR SUMMARY: 0 errors") == NULL &&
            !is_blank(s + strlen(SANITIZER)))
            f.sanitizer_at = i;
        if (starts_with(s, CMOCKA_DONE) && strstr(s, " test(s) run.") != NULL)
            f.finished = true;
        if (starts_with(s, CMOCKA_RUN)) {
            current = s + strlen(CMOCKA_RUN);
            current_from = i + 1;
            f.running = current;
            running_from = current_from;
        } else if (starts_with(s, CMOCKA_OK) || starts_with(s, CMOCKA_FAILED) ||
                   starts_with(s, CMOCKA_SKIPPED)) {
            if (f.failed_test != NULL && f.test_to == 0 && current == f.failed_test)
                f.test_to = i;
            f.running = NULL;
        } else if (starts_with(s, CMOCKA_ERROR) && f.failed_test == NULL) {
            f.failed_test = current != NULL ? current : "(outside any test)";
            f.test_from = current_from;
            const char *msg = s + strlen(CMOCKA_ERROR);
            if (starts_with(msg, EXCEPTION))
                f.exception = msg + strlen(EXCEPTION);
            else if (starts_with(msg, CMOCKA_LINE))
                f.where = msg + strlen(CMOCKA_LINE);
            else
                f.error = msg;
        } else if (starts_with(s, CMOCKA_LINE) && f.failed_test != NULL && f.where == NULL &&
                   f.test_to == 0) {
            f.where = s + strlen(CMOCKA_LINE);
        }
    }
    if (f.failed_test != NULL && f.test_to == 0)
        f.test_to = l->count;
    /* The emulator report that belongs to the failure: printed by the failed
     * test, or by the test still running at a crash or timeout; the first one
     * of the log when it has no cmocka tests at all. (A passing test may
     * provoke a report on purpose: that one is not the learner's problem.) */
    if (f.failed_test != NULL)
        find_report(l, f.test_from, f.test_to, &f);
    else if (f.running != NULL)
        find_report(l, running_from, l->count, &f);
    else if (current == NULL)
        find_report(l, 0, l->count, &f);
    for (size_t i = f.test_from; f.failed_test != NULL && i < f.test_to && f.message == NULL; ++i)
        if (is_message(l, &f, i))
            f.message = l->line[i];
    if (f.message == NULL)
        f.message = f.error;
    return f;
}

/* "file:line" from cmocka's "file:line: error: Failure!". */
static char *location(const char *where)
{
    char *s = xstrdup(where);
    char *cut = strstr(s, ": error: Failure!");
    if (cut != NULL)
        *cut = '\0';
    return s;
}

/* True when line i is something the failed test printed: not cmocka's
 * frame, not the emulator's report (shown on its own), not the seed. */
static bool is_message(const lines *l, const run_facts *f, size_t i)
{
    const char *s = l->line[i];
    if (i >= f->report_at && i < f->report_at + f->report_n)
        return false;
    return !(starts_with(s, EMU_KIND) || starts_with(s, "[  ") || starts_with(s, "[ RUN") || starts_with(s, "seed ") || is_blank(s));
}

/* The failed test's messages: what it printed and cmocka's error. */
static void failed_test_lines(const lines *l, const run_facts *f, strbuf *d)
{
    add_linef(d, "%s failed:", f->failed_test);
    size_t shown = 0;
    for (size_t i = f->test_from; i < f->test_to && shown < MAX_MESSAGE_LINES; ++i) {
        if (!is_message(l, f, i))
            continue;
        add_line(d, "  ", l->line[i]);
        ++shown;
    }
    if (f->error != NULL && shown < MAX_MESSAGE_LINES)
        add_line(d, "  ", f->error);
    if (f->where != NULL) {
        char *at = location(f->where);
        add_line(d, "  at ", at);
        free(at);
    }
}

/* The emulator's report, whole lines: its fix and timeline must not be cut. */
static void report_lines(const lines *l, const run_facts *f, strbuf *d)
{
    for (size_t i = 0; i < f->report_n && i < MAX_REPORT_LINES; ++i)
        sb_printf(d, "%s\n", l->line[f->report_at + i]);
    if (f->report_n > MAX_REPORT_LINES)
        add_line(d, "", "... (the whole report is in the log)");
}

/* The signal number in cmocka's "Segmentation fault(11)", or 0. */
static int exception_signal(const char *exception)
{
    const char *open = strrchr(exception, '(');
    return open != NULL ? atoi(open + 1) : 0;
}

/* The hint category of the failure's emulator report (KIND_NONE without
 * one): from its kind line; a report without one is a crash. */
static failure_kind report_of(const run_facts *f)
{
    if (f->report_n == 0)
        return KIND_NONE;
    if (f->report_kind == NULL)
        return KIND_CRASH;
    return report_category(report_kind_from_name(f->report_kind));
}

/* True for the name of a test of a plan (docs/CONVENTIONS.md, "Hints"). */
static bool is_plan_test(const char *name)
{
    return name != NULL && strstr(name, "_plan") != NULL;
}

/* The hint kind of a finished diagnosis. */
static failure_kind kind_of(const result *r, const run_facts *f)
{
    failure_kind report = report_of(f);
    switch (r->outcome) {
    case OUTCOME_PASS:
    case OUTCOME_MISSING: return KIND_NONE;
    case OUTCOME_COMPILE: return KIND_COMPILE;
    case OUTCOME_TIMEOUT: return report == KIND_DEADLOCK || report == KIND_MBARRIER ? report : KIND_TIMEOUT;
    case OUTCOME_CRASH: return report != KIND_NONE ? report : KIND_CRASH;
    case OUTCOME_EMULATOR: return report != KIND_NONE ? report : KIND_CRASH;
    case OUTCOME_ASSERTION:
    case OUTCOME_FAILED:
        if (report != KIND_NONE)
            return report;
        return is_plan_test(f->failed_test) ? KIND_PLAN : KIND_WRONG;
    }
    return KIND_WRONG;
}

static void diagnose_run(const options *o, result *r)
{
    lines l = read_lines(r->run_log);
    run_facts f = read_facts(&l);
    strbuf *d = &r->detail;
    int status = r->wait_status;

    if (r->timed_out) {
        r->outcome = OUTCOME_TIMEOUT;
        r->reason = xasprintf("did not finish in %g s: an infinite loop or a deadlock?", o->timeout);
        add_line(d, "", r->reason);
        if (f.running != NULL)
            add_linef(d, "(%s was running)", f.running);
    } else if (status >= 0 && WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        r->outcome = OUTCOME_CRASH;
        r->reason = xasprintf("crashed: %s (%s)%s%s", signal_name(sig), signal_meaning(sig),
                              f.running ? " in " : "", f.running ? f.running : "");
        add_line(d, "", r->reason);
    } else if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && f.finished && f.running == NULL) {
        r->outcome = OUTCOME_PASS;
        r->reason = xstrdup("passed");
    } else if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        /* Success without cmocka's closing line: the tests never finished. */
        r->outcome = OUTCOME_FAILED;
        r->reason = xasprintf("the test program exited with status 0 before its tests finished%s%s%s",
                              f.running ? " (in " : "", f.running ? f.running : "",
                              f.running ? "): an exit() in the code?" : "");
        add_line(d, "", r->reason);
    } else if (f.exception != NULL) {
        int sig = exception_signal(f.exception);
        r->outcome = OUTCOME_CRASH;
        r->reason = sig > 0 ? xasprintf("crashed: %s (%s) in %s", signal_name(sig), signal_meaning(sig),
                                        f.failed_test)
                            : xasprintf("crashed: %s in %s", f.exception, f.failed_test);
        add_line(d, "", r->reason);
    } else if (f.failed_test != NULL) {
        r->outcome = f.report_n > 0 ? OUTCOME_EMULATOR : OUTCOME_ASSERTION;
        char *at = f.where ? location(f.where) : xstrdup("?");
        if (f.report_n > 0)
            r->reason = xasprintf("%s failed; %s", f.failed_test, l.line[f.report_at]);
        else
            r->reason = xasprintf("%s failed: %s (%s)", f.failed_test, f.message ? f.message : "assertion", at);
        free(at);
        failed_test_lines(&l, &f, d);
    } else {
        r->outcome = f.report_n > 0 ? OUTCOME_EMULATOR : OUTCOME_FAILED;
        int code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r->reason = f.report_n > 0 ? xstrdup(l.line[f.report_at])
                                   : xasprintf("the test program exited with status %d", code);
        if (f.report_n == 0) {
            add_line(d, "", r->reason);
            size_t from = f.sanitizer_at < l.count ? f.sanitizer_at
                          : l.count > MAX_TAIL_LINES ? l.count - MAX_TAIL_LINES : 0;
            for (size_t i = from, shown = 0; i < l.count && shown < MAX_TAIL_LINES; ++i) {
                if (starts_with(l.line[i], EMU_KIND))
                    continue;
                add_line(d, "  ", l.line[i]);
                ++shown;
            }
        }
    }
    if (r->outcome != OUTCOME_PASS) {
        if (f.report_n > 0)
            report_lines(&l, &f, d);
        if (f.seed != NULL)
            add_line(d, "", f.seed);
    }
    r->kind = kind_of(r, &f);
    if (r->outcome != OUTCOME_PASS && f.report_n > 0)
        r->report = xstrdup(f.report_kind != NULL ? f.report_kind : "unknown");
    free_lines(&l);
}

void diagnose(const options *o, result *r)
{
    r->detail = (strbuf){0};
    r->kind = KIND_NONE;
    if (r->missing) {
        r->outcome = OUTCOME_MISSING;
        const char *what = !path_exists(r->edit) ? r->edit : !path_exists(r->source) ? r->source : r->ex->test;
        r->reason = xasprintf("missing file: %s", what);
        add_line(&r->detail, "", r->reason);
        if (!path_exists(r->source) || !path_exists(r->edit))
            add_linef(&r->detail, "(make reset EX=%s restores the skeleton)", r->ex->id);
    } else if (!r->built) {
        r->outcome = OUTCOME_COMPILE;
        char *first = NULL;
        add_line(&r->detail, "", "does not compile:");
        if (path_exists(r->build_log)) {
            compiler_errors(r->build_log, &r->detail, &first);
        } else {
            char *make_log = xasprintf("%s/make.log", o->out_dir);
            compiler_errors(make_log, &r->detail, &first);
            free(make_log);
        }
        r->reason = xasprintf("compile error: %s", first ? first : "(see the build log)");
        r->kind = KIND_COMPILE;
        free(first);
    } else {
        diagnose_run(o, r);
        if (r->outcome != OUTCOME_PASS && path_exists(r->build_log))
            compiler_warnings(r->build_log, o->src_dir, &r->detail);
    }
    r->points = r->outcome == OUTCOME_PASS ? r->ex->points : 0;
}
