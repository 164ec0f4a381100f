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

/* The make command, with the build list and the grader's extra arguments. */
static char **make_command(const options *o, const char *list, size_t *n)
{
    char **argv = NULL;
    *n = 0;
    proc_split(o->make, &argv, n);
    proc_push(&argv, n, "--no-print-directory");
    char *var = xasprintf("GRADE_LIST=%s", list);
    proc_push(&argv, n, var);
    free(var);
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

/* Writes the list of exercises to build as make code. */
static char *write_list(const options *o, const result *r, size_t n)
{
    char *path = xasprintf("%s/build.mk", o->out_dir);
    strbuf mk = {0};
    sb_printf(&mk, "# %s: written by tools/grade for one grading run; included by the Makefile, rules in mk/course.mk and mk/gpu.mk.\n", path);
    sb_printf(&mk, "GRADE_BACKEND := %s\nGRADE_BUILD := %s\n", o->backend, o->build_dir);
    sb_printf(&mk, "GRADE_SUPPORT := %s/_support/test_support.o\n", o->build_dir);
    sb_printf(&mk, "$(eval $(call grade_support_%s,$(GRADE_SUPPORT)))\n", o->backend);
    sb_add(&mk, "grade-build:");
    for (size_t i = 0; i < n; ++i)
        if (!r[i].missing)
            sb_printf(&mk, " %s", r[i].binary);
    sb_add(&mk, "\n");
    for (size_t i = 0; i < n; ++i) {
        if (r[i].missing)
            continue;
        /* source, test, DSM_UNIT, object directory, binary, build log */
        sb_printf(&mk, "$(eval $(call grade_exercise_%s,%s,%s,%s,%s,%s,%s))\n", o->backend,
                  r[i].source, r[i].ex->test, r[i].unit, r[i].obj_dir, r[i].binary, r[i].build_log);
    }
    if (!write_file_atomic(path, mk.data, mk.len))
        die("cannot write %s", path);
    free(mk.data);
    return path;
}

double build_all(const options *o, result *r, size_t n)
{
    double start = now_seconds();
    char *logs = xasprintf("%s/logs", o->out_dir);
    if (!mkdir_p(logs) || !mkdir_p(o->build_dir))
        die("cannot create %s or %s", logs, o->build_dir);
    char *list = write_list(o, r, n);
    /* A build log describes this build only: make rewrites the log of each
     * exercise it rebuilds, and a missing log means it did not try. */
    for (size_t i = 0; i < n; ++i)
        unlink(r[i].build_log);
    char *make_log = xasprintf("%s/make.log", o->out_dir);

    size_t argc;
    char **argv = make_command(o, list, &argc);
    char *jobs = xasprintf("-j%d", o->jobs);
    proc_push(&argv, &argc, "-k");
    proc_push(&argv, &argc, jobs);
    proc_push(&argv, &argc, "grade-build");
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
            char **q = make_command(o, list, &argc);
            proc_push(&q, &argc, "-q");
            proc_push(&q, &argc, r[i].binary);
            int fresh = proc_run(q, "/dev/null");
            r[i].built = fresh >= 0 && WIFEXITED(fresh) && WEXITSTATUS(fresh) == 0;
            free_argv(q);
        }
    }
    free(logs);
    free(make_log);
    free(list);
    return now_seconds() - start;
}
