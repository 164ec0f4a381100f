/* hint.c: showing hints one at a time and remembering how many were shown (see hint.h). */
#include "hint.h"

#include <stdio.h>
#include <stdlib.h>

#include "progress.h"
#include "util.h"

int hint_command(const course *c, const char *id, const char *out_dir)
{
    const exercise *e = course_find(c, id);
    if (e == NULL)
        die("no exercise '%s' (make grade lists them)", id);
    char *dir = xasprintf("%s/hints", out_dir);
    char *path = xasprintf("%s/%s", dir, id);
    char *saved = read_file(path, NULL);
    size_t shown = saved != NULL ? (size_t)strtoul(saved, NULL, 10) : 0;
    free(saved);
    size_t n = e->hint_count;

    printf("%s: %s\n", e->id, e->title);
    if (shown < n) {
        for (size_t i = 0; i < shown; ++i)
            printf("  hint %zu of %zu: %s\n", i + 1, n, e->hints[i]);
        printf("> hint %zu of %zu: %s\n", shown + 1, n, e->hints[shown]);
        ++shown;
        if (shown < n)
            printf("(make hint EX=%s again for the next one)\n", e->id);
        else
            printf("(that was the last hint)\n");
    } else {
        for (size_t i = 0; i < n; ++i)
            printf("  hint %zu of %zu: %s\n", i + 1, n, e->hints[i]);
        printf("(no more hints: the book's appendix has the full solution)\n");
    }
    /* The hint for the way the last `make grade` failed, when the exercise has one. */
    failure_kind k = progress_last_kind(out_dir, id);
    const char *kh = k != KIND_NONE ? exercise_kind_hint(e, k) : NULL;
    if (kh != NULL)
        printf("for your last grade's failure (%s): %s\n", failure_kind_name(k), kh);
    char count[32];
    int len = snprintf(count, sizeof count, "%zu\n", shown);
    if (!mkdir_p(dir) || !write_file_atomic(path, count, (size_t)len))
        fprintf(stderr, "grade: cannot record the hint count in %s\n", path);
    free(path);
    free(dir);
    return 0;
}
