/* build.c: the build list for make and the parallel build of the test binaries (see build.h). */
#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"

/* path without its extension, newly allocated. */
static char *strip_extension(const char *path)
{
    char *s = xstrdup(path);
    char *dot = strrchr(s, '.');
    if (dot != NULL && strchr(dot, '/') == NULL)
        *dot = '\0';
    return s;
}

void build_plan(const options *o, result *r, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        const exercise *e = r[i].ex;
        char *stem = strip_extension(e->file);
        char *test_stem = strip_extension(path_basename(e->test));
        r[i].source = xasprintf("%s/%s", o->src_dir, e->build_file);
        r[i].edit = xasprintf("%s/%s", o->src_dir, e->file);
        r[i].unit = exercise_unit(e);
        r[i].obj_dir = xasprintf("%s/%s", o->build_dir, stem);
        r[i].binary = xasprintf("%s/%s", r[i].obj_dir, test_stem);
        r[i].build_log = xasprintf("%s/logs/%s.build.log", o->out_dir, e->id);
        r[i].run_log = xasprintf("%s/logs/%s.log", o->out_dir, e->id);
        r[i].missing = !path_exists(r[i].source) || !path_exists(r[i].edit) || !path_exists(e->test);
        free(stem);
        free(test_stem);
    }
}

/* The tests' root of this run: what the exercises' test paths have before
 * "/chNN/test_<name>.c" (course_load checks that shape), e.g. "tests". Dies
 * when two exercises disagree: make builds them all with one root. */
static char *tests_root(const result *r, size_t n)
{
    char *root = NULL;
    for (size_t i = 0; i < n; ++i) {
        const char *t = r[i].ex->test;
        char *dir = path_dirname(t);   /* tests/ch02 */
        char *top = path_dirname(dir); /* tests */
        free(dir);
        if (root == NULL)
            root = top;
        else if (strcmp(root, top) != 0)
            die("the tests of one grading run must share a root: %s is not under %s/", t, root);
        else
            free(top);
    }
    return root != NULL ? root : xstrdup("tests");
}

/* make with the variables of mk/course.mk's grading rules and the grader's extra arguments. */
static char **make_command(const options *o, const char *tests, size_t *n)
{
    char **argv = NULL;
    *n = 0;
    proc_split(o->make, &argv, n);
    proc_push(&argv, n, "--no-print-directory");
    const char *vars[][2] = {{"GRADE_BACKEND", o->backend}, {"GRADE_SRC", o->src_dir}, {"GRADE_BUILD", o->build_dir},
                             {"GRADE_OUT", o->out_dir},     {"GRADE_TESTS", tests}};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
        char *var = xasprintf("%s=%s", vars[i][0], vars[i][1]);
        proc_push(&argv, n, var);
        free(var);
    }
    for (size_t i = 0; i < o->make_arg_count; ++i)
        proc_push(&argv, n, o->make_args[i]);
    return argv;
}

static void free_argv(char **argv)
{
    for (char **p = argv; *p; ++p)
        free(*p);
    free(argv);
}

double build_all(const options *o, result *r, size_t n)
{
    double start = now_seconds();
    char *logs = xasprintf("%s/logs", o->out_dir);
    if (!mkdir_p(logs) || !mkdir_p(o->build_dir))
        die("cannot create %s or %s", logs, o->build_dir);
    char *tests = tests_root(r, n);
    /* A build log describes this build only: make rewrites the log of each
     * exercise it rebuilds, and a missing log means it did not try. */
    for (size_t i = 0; i < n; ++i)
        unlink(r[i].build_log);
    char *make_log = xasprintf("%s/make.log", o->out_dir);

    size_t argc;
    char **argv = make_command(o, tests, &argc);
    char *jobs = xasprintf("-j%d", o->jobs);
    proc_push(&argv, &argc, "-k");
    proc_push(&argv, &argc, jobs);
    size_t goals = 0;
    for (size_t i = 0; i < n; ++i)
        if (!r[i].missing) {
            proc_push(&argv, &argc, r[i].binary);
            ++goals;
        }
    if (goals == 0) { /* nothing to build: make with no goal would build its default */
        free_argv(argv);
        free(jobs);
        free(tests);
        free(logs);
        free(make_log);
        return now_seconds() - start;
    }
    int status = proc_run(argv, make_log);
    free_argv(argv);
    free(jobs);

    for (size_t i = 0; i < n; ++i) {
        if (r[i].missing)
            continue;
        r[i].built = path_exists(r[i].binary);
        /* After a failed make, a binary can be left from an earlier build when
         * make did not even try to rebuild it (a prerequisite failed): ask. */
        if (status != 0 && r[i].built) {
            char **q = make_command(o, tests, &argc);
            proc_push(&q, &argc, "-q");
            proc_push(&q, &argc, r[i].binary);
            int fresh = proc_run(q, "/dev/null");
            r[i].built = fresh >= 0 && WIFEXITED(fresh) && WEXITSTATUS(fresh) == 0;
            free_argv(q);
        }
    }
    free(logs);
    free(make_log);
    free(tests);
    return now_seconds() - start;
}
