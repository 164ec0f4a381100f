/* progress.c: the learner's progress across grading runs (see progress.h). */
#include "progress.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define BAR_WIDTH 20

/* One recorded exercise. */
typedef struct record {
    char *id;
    bool pass;
    int points;
    failure_kind kind; /* of the last failure */
} record;

typedef struct records {
    record *item;
    size_t count;
} records;

static char *progress_path(const char *out_dir)
{
    return xasprintf("%s/progress", out_dir);
}

/* Reads out_dir/progress: lines "id pass|fail points [kind]"; anything else is skipped. */
static records read_records(const char *out_dir)
{
    records rs = {0};
    char *path = progress_path(out_dir);
    char *text = read_file(path, NULL);
    free(path);
    for (char *save = NULL, *line = text ? strtok_r(text, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        char id[128], status[16], kind[32] = "none";
        int points;
        if (sscanf(line, "%127s %15s %d %31s", id, status, &points, kind) < 3)
            continue;
        rs.item = xrealloc(rs.item, (rs.count + 1) * sizeof *rs.item);
        rs.item[rs.count++] = (record){xstrdup(id), strcmp(status, "pass") == 0, points, failure_kind_from_name(kind)};
    }
    free(text);
    return rs;
}

static record *find_record(records *rs, const char *id)
{
    for (size_t i = 0; i < rs->count; ++i)
        if (strcmp(rs->item[i].id, id) == 0)
            return &rs->item[i];
    return NULL;
}

static void free_records(records *rs)
{
    for (size_t i = 0; i < rs->count; ++i)
        free(rs->item[i].id);
    free(rs->item);
}

void progress_record(const char *out_dir, const result *r, size_t n)
{
    records rs = read_records(out_dir);
    for (size_t i = 0; i < n; ++i) {
        record *old = find_record(&rs, r[i].ex->id);
        if (old == NULL) {
            rs.item = xrealloc(rs.item, (rs.count + 1) * sizeof *rs.item);
            old = &rs.item[rs.count++];
            old->id = xstrdup(r[i].ex->id);
        }
        old->pass = r[i].outcome == OUTCOME_PASS;
        old->points = r[i].points;
        old->kind = r[i].kind;
    }
    strbuf text = {0};
    sb_add(&text, "# make grade's results so far (make progress shows them); one line per exercise\n");
    for (size_t i = 0; i < rs.count; ++i)
        sb_printf(&text, "%s %s %d %s\n", rs.item[i].id, rs.item[i].pass ? "pass" : "fail", rs.item[i].points,
                  failure_kind_name(rs.item[i].kind));
    char *path = progress_path(out_dir);
    if (!mkdir_p(out_dir) || !write_file_atomic(path, text.data, text.len))
        fprintf(stderr, "grade: cannot record the progress in %s\n", path);
    free(path);
    free(text.data);
    free_records(&rs);
}

failure_kind progress_last_kind(const char *out_dir, const char *id)
{
    records rs = read_records(out_dir);
    const record *rec = find_record(&rs, id);
    failure_kind k = rec != NULL && !rec->pass ? rec->kind : KIND_NONE;
    free_records(&rs);
    return k;
}

int progress_last_pass(const char *out_dir, const char *id)
{
    records rs = read_records(out_dir);
    const record *rec = find_record(&rs, id);
    int state = rec == NULL ? -1 : rec->pass;
    free_records(&rs);
    return state;
}

progress progress_load(const course *full, const char *out_dir)
{
    records rs = read_records(out_dir);
    progress p = {.total = full->count};
    size_t furthest = 0; /* one past the last exercise, in course order, that passes */
    for (size_t i = 0; i < full->count; ++i) {
        const exercise *e = &full->items[i];
        record *rec = find_record(&rs, e->id);
        p.max += e->points;
        p.graded += rec != NULL;
        if (rec != NULL && rec->pass) {
            ++p.passed;
            p.points += e->points;
            furthest = i + 1;
        }
    }
    /* Next: the first exercise after the furthest one that passes, so that a
     * learner who skipped ahead goes on from there (not back to the first
     * exercise of the course); past the end, the first one left behind. */
    for (size_t k = 0; k < full->count && p.next == NULL; ++k) {
        size_t i = (furthest + k) % full->count;
        const record *rec = find_record(&rs, full->items[i].id);
        if (rec == NULL || !rec->pass) {
            p.next = &full->items[i];
            p.next_graded = rec != NULL;
        }
    }
    free_records(&rs);
    return p;
}

void progress_line(FILE *out, const progress *p, const char *src_dir, bool with_next)
{
    fprintf(out, "Course: %zu of %zu exercises pass, %d/%d points.", p->passed, p->total, p->points, p->max);
    if (!with_next)
        fprintf(out, "\n");
    else if (p->next == NULL)
        fprintf(out, " Every exercise of the course passes.\n");
    else
        fprintf(out, " Next: %s (%s/%s, %s): make grade EX=%s\n", p->next->id, src_dir, p->next->file,
                p->next_graded ? "fails" : "not graded yet", p->next->id);
}

int progress_command(const course *full, const char *out_dir, const char *src_dir)
{
    records rs = read_records(out_dir);
    for (size_t i = 0; i < full->count; ++i) {
        int chapter = full->items[i].chapter;
        if (i > 0 && full->items[i - 1].chapter == chapter)
            continue;
        int got = 0, of = 0, n = 0, passed = 0;
        for (size_t j = i; j < full->count && full->items[j].chapter == chapter; ++j) {
            const record *rec = find_record(&rs, full->items[j].id);
            of += full->items[j].points;
            ++n;
            if (rec != NULL && rec->pass) {
                got += full->items[j].points;
                ++passed;
            }
        }
        int filled = of > 0 ? got * BAR_WIDTH / of : 0;
        printf("ch%02d [", chapter);
        for (int k = 0; k < BAR_WIDTH; ++k)
            putchar(k < filled ? '#' : '.');
        printf("] %3d/%-3d points, %d of %d exercises\n", got, of, passed, n);
        for (size_t j = i; j < full->count && full->items[j].chapter == chapter; ++j) {
            const record *rec = find_record(&rs, full->items[j].id);
            printf("     %-4s %s\n", rec == NULL ? "-" : rec->pass ? "pass" : "fail", full->items[j].id);
        }
    }
    free_records(&rs);
    progress p = progress_load(full, out_dir);
    progress_line(stdout, &p, src_dir, true);
    if (p.graded < p.total)
        printf("(\"-\": not graded yet; make grade grades them all)\n");
    return 0;
}
