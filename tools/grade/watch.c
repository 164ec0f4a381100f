/* watch.c: re-grading the exercise whose files change (see watch.h). */
#include "watch.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "proc.h"
#include "util.h"

/* A fingerprint of an exercise's files (times and sizes): it changes when one is saved. */
static uint64_t fingerprint(const exercise *e, const char *src_dir)
{
    char *path = xasprintf("%s/%s", src_dir, e->file);
    char *dir = path_dirname(path);
    const char *base = path_basename(path);
    const char *dot = strrchr(base, '.');
    size_t stem = dot != NULL ? (size_t)(dot - base) + 1 : strlen(base); /* "linear_rank." */
    uint64_t f = 1469598103934665603ull;
    DIR *d = opendir(dir);
    struct dirent *ent;
    while (d != NULL && (ent = readdir(d)) != NULL) {
        if (strncmp(ent->d_name, base, stem) != 0)
            continue;
        char *file = xasprintf("%s/%s", dir, ent->d_name);
        struct stat st;
        if (stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
            uint64_t v = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
            f = (f ^ v ^ ((uint64_t)st.st_size << 40) ^ (uint64_t)st.st_ino) * 1099511628211ull;
        }
        free(file);
    }
    if (d != NULL)
        closedir(d);
    free(dir);
    free(path);
    return f;
}

/* True when a program is found in PATH. */
static bool in_path(const char *program)
{
    const char *path = getenv("PATH");
    char *copy = xstrdup(path ? path : "/usr/bin:/bin");
    bool found = false;
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char *p = xasprintf("%s/%s", dir, program);
        found = access(p, X_OK) == 0;
        free(p);
    }
    free(copy);
    return found;
}

/* Waits a little, or until inotifywait sees a file written under src_dir. */
static void wait_a_little(const char *src_dir, bool inotify)
{
    if (inotify) {
        char *argv[] = {"inotifywait", "-qq", "-r", "-t", "2", "-e", "close_write", "-e", "moved_to",
                        "-e", "create", (char *)src_dir, NULL};
        if (proc_run(argv, "/dev/null") >= 0)
            return;
    }
    struct timespec pause = {0, 500 * 1000 * 1000};
    nanosleep(&pause, NULL);
}

/* Runs this program again as `grade <options> --exercise id`; its output goes to ours. */
static void grade_one(int argc, char **argv, const char *id)
{
    char **args = NULL;
    size_t n = 0;
    proc_push(&args, &n, argv[0]);
    for (int i = 2; i < argc; ++i) { /* argv[1] is "watch" */
        if (strcmp(argv[i], "--watch-runs") == 0 || strcmp(argv[i], "--exercise") == 0 ||
            strcmp(argv[i], "--chapter") == 0) {
            ++i;
            continue;
        }
        proc_push(&args, &n, argv[i]);
    }
    proc_push(&args, &n, "--exercise");
    proc_push(&args, &n, id);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(args[0], args);
        fprintf(stderr, "grade: cannot run %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    for (size_t i = 0; i < n; ++i)
        free(args[i]);
    free(args);
}

/* The exercise to grade first: with a selection (EX, CH), its first exercise
 * that does not pass yet (else its first); without, the course's next one. */
static const exercise *first_to_grade(const course *full, const course *c, const char *out_dir)
{
    if (c->count == full->count)
        return progress_load(full, out_dir).next;
    course selected = *c;
    progress p = progress_load(&selected, out_dir);
    return p.next != NULL ? p.next : c->count > 0 ? &c->items[0] : NULL;
}

int watch_command(const course *full, const course *c, int argc, char **argv, const char *src_dir,
                  const char *out_dir, int max_runs)
{
    bool inotify = in_path("inotifywait");
    uint64_t *seen = xmalloc((c->count ? c->count : 1) * sizeof *seen);
    for (size_t i = 0; i < c->count; ++i)
        seen[i] = fingerprint(&c->items[i], src_dir);
    printf("Watching %s/%s (%s): save an exercise's file and it is graded again. Ctrl-C stops.\n", src_dir,
           c->count == full->count ? "" : c->count == 1 ? c->items[0].file : " (the exercises chosen)",
           inotify ? "inotifywait" : "checking twice a second; inotify-tools would wake up at once");
    int runs = 0;
    const exercise *first = first_to_grade(full, c, out_dir);
    if (first != NULL) {
        printf("\n== %s: %s ==\n", first->id,
               c->count == full->count ? "the next exercise to do" : "the exercise chosen");
        grade_one(argc, argv, first->id);
        ++runs;
    } else {
        printf("Every exercise of the course passes; waiting for changes.\n");
    }
    while (max_runs == 0 || runs < max_runs) {
        wait_a_little(src_dir, inotify);
        for (size_t i = 0; i < c->count; ++i) {
            uint64_t now = fingerprint(&c->items[i], src_dir);
            if (now == seen[i])
                continue;
            /* An editor may write in several steps: let it finish. */
            struct timespec settle = {0, 200 * 1000 * 1000};
            nanosleep(&settle, NULL);
            seen[i] = fingerprint(&c->items[i], src_dir);
            printf("\n== %s: %s/%s changed ==\n", c->items[i].id, src_dir, c->items[i].file);
            grade_one(argc, argv, c->items[i].id);
            ++runs;
            break;
        }
    }
    free(seen);
    return 0;
}
