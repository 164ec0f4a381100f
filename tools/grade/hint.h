/* hint.h: `make hint EX=id`: the exercise's hints, one more each time. */
#ifndef GRADE_HINT_H
#define GRADE_HINT_H

#include "course.h"

/* Prints the next hint of exercise id that was not shown yet (after the ones
 * already shown, all of them once every one was) and records how many were
 * shown in out_dir/hints/<id>. When the last grading recorded in
 * out_dir/progress failed in a way the exercise has a hint.<kind> for, that
 * hint follows. Returns the exit status (0). */
int hint_command(const course *c, const char *id, const char *out_dir);

#endif
