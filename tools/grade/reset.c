/* reset.c: restoring an exercise's skeleton without ever losing the learner's work (see reset.h). */
#include "reset.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

/* The skeleton of solution (as tools/skeleton/generate.sh makes it), or NULL
 * with a message printed. */
static char *make_skeleton(const char *solution, const char *awk_script, size_t *len)
{
    char *text = read_file(solution, len);
    if (text == NULL) {
        fprintf(stderr, "grade: cannot read the solution %s\n", solution);
        return NULL;
    }
    if (strstr(text, "BEGIN SOLUTION") == NULL)
        return text; /* a helper without markers is its own skeleton */
    free(text);

    char *tmp = xasprintf("/tmp/dsm-skeleton.%ld", (long)getpid());
    char *argv[] = {"awk", "-f", (char *)awk_script, (char *)solution, NULL};
    int status = proc_run(argv, tmp);
    text = read_file(tmp, len);
    unlink(tmp);
    free(tmp);
    if (status != 0 || text == NULL) {
        fprintf(stderr, "grade: the skeleton generator failed on %s:\n%s", solution, text ? text : "");
        free(text);
        return NULL;
    }
    return text;
}

/* Copies text to a new file under dir named <timestamp>-<name>; returns its path or NULL. */
static char *save_backup(const char *dir, const char *name, const char *text, size_t len)
{
    if (!mkdir_p(dir))
        return NULL;
    char stamp[32];
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
    for (int n = 0; n < 100; ++n) {
        char *path = n == 0 ? xasprintf("%s/%s-%s", dir, stamp, name)
                            : xasprintf("%s/%s-%d-%s", dir, stamp, n, name);
        FILE *f = fopen(path, "wx"); /* never replace an older backup */
        if (f == NULL && errno == EEXIST) {
            free(path);
            continue;
        }
        bool ok = f != NULL && fwrite(text, 1, len, f) == len;
        if (f != NULL && fclose(f) != 0)
            ok = false;
        size_t back_len = 0;
        char *back = ok ? read_file(path, &back_len) : NULL;
        ok = back != NULL && back_len == len && memcmp(back, text, len) == 0;
        free(back);
        if (ok)
            return path;
        free(path);
        return NULL;
    }
    return NULL;
}

/* Restores one file of exercise e (relative to the solution and source
 * folders) to its skeleton, saving the learner's version first. Returns 0 on
 * success (also when there was nothing to do). */
static int reset_file(const exercise *e, const char *rel, const reset_paths *p)
{
    char *solution = xasprintf("%s/%s", p->solutions_dir, rel);
    char *target = xasprintf("%s/%s", p->src_dir, rel);
    size_t skel_len = 0, mine_len = 0;
    char *skeleton = make_skeleton(solution, p->skeleton_awk, &skel_len);
    if (skeleton == NULL)
        return 1;

    char *mine = read_file(target, &mine_len);
    if (mine != NULL && mine_len == skel_len && memcmp(mine, skeleton, skel_len) == 0) {
        printf("%s is already the skeleton of %s: nothing to do.\n", target, e->id);
        return 0;
    }
    if (mine != NULL) {
        char *dir = xasprintf("%s/%s", p->backup_dir, e->id);
        char *saved = save_backup(dir, path_basename(target), mine, mine_len);
        if (saved == NULL) {
            fprintf(stderr, "grade: could not save your %s under %s/; nothing was changed.\n", target, dir);
            return 1;
        }
        printf("Saved your version of %s as %s\n", target, saved);
        free(saved);
        free(dir);
    }
    char *parent = path_dirname(target);
    if (!mkdir_p(parent) || !write_file_atomic(target, skeleton, skel_len)) {
        fprintf(stderr, "grade: could not write %s\n", target);
        return 1;
    }
    printf("Restored %s to the skeleton of %s.\n", target, e->id);
    free(parent);
    free(mine);
    free(skeleton);
    free(target);
    free(solution);
    return 0;
}

int reset_command(const course *c, const char *id, const reset_paths *p)
{
    const exercise *e = course_find(c, id);
    if (e == NULL)
        die("no exercise '%s' (make grade lists them)", id);
    int rc = reset_file(e, e->file, p);
    if (rc != 0)
        return rc;
    /* An exercise is its file and the files beside it with the same name
     * stem (ch02/linear_rank.cu and ch02/linear_rank.h): restore those too. */
    char *rel_dir = path_dirname(e->file);
    const char *base = path_basename(e->file);
    size_t stem = strcspn(base, ".");
    char *sol_dir = xasprintf("%s/%s", p->solutions_dir, rel_dir);
    DIR *d = opendir(sol_dir);
    for (struct dirent *ent; d != NULL && rc == 0 && (ent = readdir(d)) != NULL;) {
        const char *n = ent->d_name;
        if (strcmp(n, base) == 0 || strncmp(n, base, stem) != 0 || n[stem] != '.')
            continue;
        char *rel = xasprintf("%s/%s", rel_dir, n);
        rc = reset_file(e, rel, p);
        free(rel);
    }
    if (d != NULL)
        closedir(d);
    free(sol_dir);
    free(rel_dir);
    return rc;
}
