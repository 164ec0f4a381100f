/* progress.h: what the learner has passed so far, kept across grading runs, as bars per chapter and the next exercise. */
#ifndef GRADE_PROGRESS_H
#define GRADE_PROGRESS_H

#include <stdio.h>

#include "course.h"
#include "grade.h"

/* Records the results of one grading run in out_dir/progress (one line per
 * exercise: id, pass or fail, points, the failure's kind); exercises not graded in this run keep
 * their earlier line. */
void progress_record(const char *out_dir, const result *r, size_t n);

/* The kind of exercise id's failure in its last recorded grading, or KIND_NONE. */
failure_kind progress_last_kind(const char *out_dir, const char *id);

/* Whether exercise id passed its last recorded grading: 1 yes, 0 no, -1 never graded. */
int progress_last_pass(const char *out_dir, const char *id);

/* The state of the whole course from out_dir/progress. */
typedef struct progress {
    size_t passed, graded, total;  /* exercises */
    int points, max;               /* points of the passed ones, of all */
    const exercise *next;          /* the first exercise that does not pass after the furthest one
                                    * that passes (course order, wrapping around), or NULL */
    bool next_graded;              /* whether next failed a run (false: not graded yet) */
} progress;

progress progress_load(const course *full, const char *out_dir);

/* One line: "Course: 9 of 14 exercises pass, 90/140 points. Next: ch02.halo_2d (...)";
 * without the "Next" part when with_next is false. */
void progress_line(FILE *out, const progress *p, const char *src_dir, bool with_next);

/* `make progress`: a bar, points and exercises per chapter, then the line above. */
int progress_command(const course *full, const char *out_dir, const char *src_dir);

#endif
