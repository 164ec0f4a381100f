/* main.c: the grader's command line: grade (build, run, explain, score), hint and reset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "course.h"
#include "depends.h"
#include "diagnose.h"
#include "grade.h"
#include "hint.h"
#include "progress.h"
#include "report.h"
#include "report_category.h"
#include "reset.h"
#include "run.h"
#include "util.h"
#include "watch.h"

static const char USAGE[] =
    "usage: grade [options]              build and run the exercises' tests, print the score\n"
    "       grade hint ID [options]      show the next hint of exercise ID\n"
    "       grade reset ID [options]     restore exercise ID's skeleton (saving your file first)\n"
    "       grade watch [options]        grade the exercise you edit each time you save it\n"
    "       grade progress [options]     what passes so far, per chapter, and what to do next\n"
    "       grade ini [--course DIR]     the course as TSV, one exercise a line: id, chapter, file,\n"
    "                                    build file, test, points, title (for make and shell scripts)\n"
    "       grade kinds                  each emulator report kind and its hint category, as TSV\n"
    "options:\n"
    "  --course DIR      metadata files DIR/*.ini (course)\n"
    "  --src DIR         the sources graded (exercises)\n"
    "  --build DIR       where the test binaries go (build/emu/<name of --src>)\n"
    "  --out DIR         logs, results.json, hint counts (build/grade)\n"
    "  --chapter LIST    only these chapters: 3 or 03 or ch03, comma separated\n"
    "  --exercise LIST   only these exercise ids, comma separated\n"
    "  --backend NAME    emu (the CPU emulator) or gpu (nvcc and a Hopper GPU)\n"
    "  --timeout SEC     time limit per test binary ($GRADE_TIMEOUT or 60)\n"
    "  --jobs N          builds and tests at a time (the number of CPUs)\n"
    "  --make CMD        the make program (make)\n"
    "  --make-arg ARG    pass ARG (VAR=value) to make; repeatable\n"
    "  --wrap CMD        run each test under CMD (compute-sanitizer --tool memcheck)\n"
    "  --expect WHAT     pass: exit 1 unless every exercise passes;\n"
    "                    fail: exit 1 unless every exercise compiles and fails\n"
    "  --solutions DIR   reset: where skeletons come from (solutions)\n"
    "  --skeleton FILE   reset: the generator (tools/skeleton/skeleton.awk)\n"
    "  --backup DIR      reset: where your files are saved (.backup)\n"
    "  --watch-runs N    watch: stop after N gradings (for tests; default: until Ctrl-C)\n";

typedef struct command_line {
    options o;
    const char *verb; /* NULL (grade), "hint", "reset", "watch", "progress", "ini" or "kinds" */
    const char *id;
    reset_paths reset;
    int watch_runs;   /* 0: until interrupted */
} command_line;

static double positive_number(const char *name, const char *s)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0' || v <= 0)
        die("%s wants a positive number, not '%s'", name, s);
    return v;
}

static command_line parse(int argc, char **argv)
{
    const char *timeout = getenv("GRADE_TIMEOUT");
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    command_line c = {
        .o = {.course_dir = "course", .src_dir = "exercises", .out_dir = "build/grade",
              .backend = "emu", .make = "make",
              .timeout = timeout && *timeout ? positive_number("GRADE_TIMEOUT", timeout) : 60,
              .jobs = cpus > 0 ? (int)cpus : 2},
        .reset = {.solutions_dir = "solutions", .skeleton_awk = "tools/skeleton/skeleton.awk",
                  .backup_dir = ".backup"},
    };
    int i = 1;
    if (i < argc && (strcmp(argv[i], "hint") == 0 || strcmp(argv[i], "reset") == 0)) {
        c.verb = argv[i++];
        if (i >= argc || argv[i][0] == '-' || argv[i][0] == '\0')
            die("%s needs an exercise id: make %s EX=chNN.name", c.verb, c.verb);
        c.id = argv[i++];
    } else if (i < argc && (strcmp(argv[i], "watch") == 0 || strcmp(argv[i], "progress") == 0 ||
                            strcmp(argv[i], "ini") == 0 || strcmp(argv[i], "kinds") == 0)) {
        c.verb = argv[i++];
    }
    for (; i < argc; ++i) {
        const char *opt = argv[i];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            fputs(USAGE, stdout);
            exit(0);
        }
        if (i + 1 >= argc)
            die("unknown option or missing value: %s\n%s", opt, USAGE);
        const char *v = argv[++i];
        if (strcmp(opt, "--course") == 0) c.o.course_dir = v;
        else if (strcmp(opt, "--src") == 0) c.o.src_dir = v;
        else if (strcmp(opt, "--build") == 0) c.o.build_dir = v;
        else if (strcmp(opt, "--out") == 0) c.o.out_dir = v;
        else if (strcmp(opt, "--chapter") == 0) c.o.chapters = v;
        else if (strcmp(opt, "--exercise") == 0) c.o.ids = v;
        else if (strcmp(opt, "--backend") == 0) c.o.backend = v;
        else if (strcmp(opt, "--timeout") == 0) c.o.timeout = positive_number(opt, v);
        else if (strcmp(opt, "--jobs") == 0) c.o.jobs = (int)positive_number(opt, v);
        else if (strcmp(opt, "--make") == 0) c.o.make = v;
        else if (strcmp(opt, "--wrap") == 0) c.o.wrap = *v ? v : NULL;
        else if (strcmp(opt, "--solutions") == 0) c.reset.solutions_dir = v;
        else if (strcmp(opt, "--skeleton") == 0) c.reset.skeleton_awk = v;
        else if (strcmp(opt, "--backup") == 0) c.reset.backup_dir = v;
        else if (strcmp(opt, "--watch-runs") == 0) c.watch_runs = (int)positive_number(opt, v);
        else if (strcmp(opt, "--make-arg") == 0) {
            c.o.make_args = xrealloc(c.o.make_args, (c.o.make_arg_count + 1) * sizeof *c.o.make_args);
            c.o.make_args[c.o.make_arg_count++] = v;
        } else if (strcmp(opt, "--expect") == 0) {
            if (strcmp(v, "pass") == 0) c.o.expect = EXPECT_PASS;
            else if (strcmp(v, "fail") == 0) c.o.expect = EXPECT_FAIL;
            else die("--expect wants pass or fail, not '%s'", v);
        } else {
            die("unknown option %s\n%s", opt, USAGE);
        }
    }
    if (strcmp(c.o.backend, "emu") != 0 && strcmp(c.o.backend, "gpu") != 0)
        die("--backend wants emu or gpu, not '%s'", c.o.backend);
    if (c.o.build_dir == NULL)
        c.o.build_dir = xasprintf("build/%s/%s", c.o.backend, path_basename(c.o.src_dir));
    c.reset.src_dir = c.o.src_dir;
    const char *no_color = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    c.o.color = isatty(1) && (no_color == NULL || *no_color == '\0') &&
                (term == NULL || strcmp(term, "dumb") != 0);
    return c;
}

/* The state shared with run_all's callback: print results in course order. */
typedef struct printer {
    const options *o;
    result *r;
    size_t n;
    bool *finished;
    size_t next;
    int id_width;
} printer;

static void on_done(result *r, size_t index, void *ctx)
{
    printer *p = ctx;
    diagnose(p->o, r);
    p->finished[index] = true;
    while (p->next < p->n && p->finished[p->next]) {
        result *next = &p->r[p->next++];
        if (next->outcome != OUTCOME_PASS)
            depends_note(p->o, next, p->r, p->n, p->finished);
        report_exercise(p->o, next, p->id_width);
    }
}

/* Checks the run against --expect; prints what breaks it. Returns the exit status. */
static int check_expectation(const options *o, const result *r, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
        bool pass = r[i].outcome == OUTCOME_PASS;
        if (o->expect == EXPECT_PASS && !pass) {
            printf("expected to pass: %s (%s)\n", r[i].ex->id, outcome_name(r[i].outcome));
            ++bad;
        } else if (o->expect == EXPECT_FAIL && (pass || r[i].outcome == OUTCOME_COMPILE ||
                                                 r[i].outcome == OUTCOME_MISSING)) {
            printf("expected to compile and fail: %s %s\n", r[i].ex->id,
                   pass ? "passes its tests (is the skeleton already solved?)" : "does not compile");
            ++bad;
        }
    }
    if (o->expect != EXPECT_NOTHING)
        printf("%s: %zu of %zu exercises as expected (%s).\n", bad ? "FAILED" : "OK", n - (size_t)bad, n,
               o->expect == EXPECT_PASS ? "every one passes" : "every one compiles and fails");
    return bad ? 1 : 0;
}

/* The environment of the test binaries. A kernel that never ends must be
 * caught by the emulator's watchdog, whose report names its line, and not by
 * this grader's limit, which can only say "did not finish": the watchdog gets
 * a third of the limit (unless DSM_EMU_TIMEOUT is set), and a binary stops at
 * its first failed test (DSM_TEST_FAIL_FAST, tests/support), so one hang costs
 * one watchdog period and nothing after it runs into the limit. */
static void test_environment(const options *o)
{
    char seconds[32];
    int watchdog = (int)(o->timeout / 3);
    snprintf(seconds, sizeof seconds, "%d", watchdog > 0 ? watchdog : 1);
    const char *set = getenv("DSM_EMU_TIMEOUT");
    if (set == NULL || *set == '\0')
        setenv("DSM_EMU_TIMEOUT", seconds, 1);
    setenv("DSM_TEST_FAIL_FAST", "1", 0);
}

static int grade(const options *o, course *c, const course *full)
{
    size_t n = c->count;
    result *r = calloc(n ? n : 1, sizeof *r);
    bool *finished = calloc(n ? n : 1, sizeof *finished);
    if (r == NULL || finished == NULL)
        die("out of memory");
    int id_width = 0;
    for (size_t i = 0; i < n; ++i) {
        r[i].ex = &c->items[i];
        int len = (int)strlen(c->items[i].id);
        id_width = len > id_width ? len : id_width;
    }
    report_begin(o, n);
    if (n > 0) {
        build_plan(o, r, n);
        printf("Building the test binaries (make -j%d)...", o->jobs);
        fflush(stdout);
        double seconds = build_all(o, r, n);
        printf(" %.1f s\n", seconds);
        for (size_t i = 0; i < n; ++i)
            depends_find(full, o, &r[i]);
        printer p = {o, r, n, finished, 0, id_width};
        test_environment(o);
        run_all(o, r, n, on_done, &p);
    }
    report_scores(r, n);
    report_json(o, r, n);
    const result *first_failure = NULL;
    for (size_t i = 0; i < n && first_failure == NULL; ++i)
        if (r[i].outcome != OUTCOME_PASS)
            first_failure = &r[i];
    if (o->expect == EXPECT_NOTHING && n > 0) {
        /* The learner's run: remember it, and say where the whole course stands. */
        progress_record(o->out_dir, r, n);
        progress p = progress_load(full, o->out_dir);
        if (first_failure != NULL)
            printf("Next: fix %s, then make grade EX=%s (make hint EX=%s for more hints).\n",
                   first_failure->edit, first_failure->ex->id, first_failure->ex->id);
        else if (n < full->count)
            printf("%s exercise%s graded here pass%s.\n", n == 1 ? "The" : "All", n == 1 ? "" : "s",
                   n == 1 ? "es" : "");
        progress_line(stdout, &p, o->src_dir, first_failure == NULL); /* one "Next" at a time */
    }
    return check_expectation(o, r, n);
}

/* `grade ini`: the course's exercises as TSV (the one reader of the course ini files for make and the shell). */
static int ini_command(const course *c)
{
    for (size_t i = 0; i < c->count; ++i) {
        const exercise *e = &c->items[i];
        printf("%s\t%d\t%s\t%s\t%s\t%d\t%s\n", e->id, e->chapter, e->file, e->build_file, e->test, e->points,
               e->title);
    }
    return 0;
}

int main(int argc, char **argv)
{
    command_line c = parse(argc, argv);
    if (c.verb != NULL && strcmp(c.verb, "kinds") == 0)
        return report_kinds_command();
    course crs;
    course_load(c.o.course_dir, &crs);
    if (c.verb != NULL && strcmp(c.verb, "ini") == 0)
        return ini_command(&crs);
    if (c.verb != NULL && strcmp(c.verb, "hint") == 0)
        return hint_command(&crs, c.id, c.o.out_dir);
    if (c.verb != NULL && strcmp(c.verb, "reset") == 0)
        return reset_command(&crs, c.id, &c.reset);
    if (c.verb != NULL && strcmp(c.verb, "progress") == 0)
        return progress_command(&crs, c.o.out_dir, c.o.src_dir);
    course full;
    course_load(c.o.course_dir, &full);
    course_select(&crs, c.o.chapters, c.o.ids);
    if (c.verb != NULL)
        return watch_command(&full, &crs, argc, argv, c.o.src_dir, c.o.out_dir, c.watch_runs);
    return grade(&c.o, &crs, &full);
}
