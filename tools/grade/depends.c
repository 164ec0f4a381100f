/* depends.c: an exercise's dependencies on other exercises, from the compiler's dependency files (see depends.h). */
#include "depends.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "util.h"

/* True when the make dependency file at path names file as a prerequisite. */
static bool names_file(const char *path, const char *file)
{
    char *text = read_file(path, NULL);
    if (text == NULL)
        return false;
    bool found = false;
    size_t n = strlen(file);
    for (char *p = text; *p && !found;) {
        while (*p && (isspace((unsigned char)*p) || *p == '\\'))
            ++p;
        char *start = p;
        while (*p && !isspace((unsigned char)*p))
            ++p;
        size_t len = (size_t)(p - start);
        /* "target:" and -MP's "header:" lines end in ':'; a prerequisite does not. */
        found = len == n && strncmp(start, file, n) == 0;
    }
    free(text);
    return found;
}

void depends_find(const course *full, const options *o, result *r)
{
    r->uses = NULL;
    r->use_count = 0;
    char *deps[] = {xasprintf("%s/kernel.d", r->obj_dir), xasprintf("%s/test.d", r->obj_dir)};
    for (size_t i = 0; i < full->count; ++i) {
        const exercise *e = &full->items[i];
        if (strcmp(e->id, r->ex->id) == 0)
            continue;
        char *file = xasprintf("%s/%s", o->src_dir, e->file);
        if (names_file(deps[0], file) || names_file(deps[1], file)) {
            r->uses = xrealloc(r->uses, (r->use_count + 1) * sizeof *r->uses);
            r->uses[r->use_count++] = e;
        }
        free(file);
    }
    free(deps[0]);
    free(deps[1]);
}

void depends_note(const options *o, result *r, const result *all, size_t n, const bool *finished)
{
    for (size_t u = 0; u < r->use_count; ++u) {
        const exercise *e = r->uses[u];
        int state = -1; /* 1 passes, 0 fails, -1 not known */
        bool graded_here = false;
        for (size_t i = 0; i < n; ++i) {
            if (strcmp(all[i].ex->id, e->id) != 0)
                continue;
            graded_here = true;
            if (finished[i])
                state = all[i].outcome == OUTCOME_PASS;
        }
        if (!graded_here)
            state = progress_last_pass(o->out_dir, e->id);
        if (state != 0)
            continue;
        if (graded_here)
            sb_printf(&r->detail, "depends on %s (%s), which fails: fix that exercise first\n", e->id, e->file);
        else
            sb_printf(&r->detail, "depends on %s (%s), which failed when last graded: make grade EX=%s\n", e->id,
                      e->file, e->id);
    }
}
