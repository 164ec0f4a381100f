/* reset.h: `make reset EX=id`: back to the skeleton, after saving the learner's file. */
#ifndef GRADE_RESET_H
#define GRADE_RESET_H

#include "course.h"

/* Where reset finds and puts things. */
typedef struct reset_paths {
    const char *src_dir;       /* the learner's files (exercises) */
    const char *solutions_dir; /* where skeletons come from (solutions) */
    const char *skeleton_awk;  /* tools/skeleton/skeleton.awk */
    const char *backup_dir;    /* .backup */
} reset_paths;

/* Makes src_dir/<file> of exercise id its skeleton again: generates the
 * skeleton from the solution first; if the learner's file differs from it,
 * copies it to backup_dir/<id>/<timestamp>-<name> (never overwriting a
 * backup) and checks the copy before replacing the file. Nothing is changed
 * when any step fails. Returns the exit status (0 done, 1 failed). */
int reset_command(const course *c, const char *id, const reset_paths *p);

#endif
