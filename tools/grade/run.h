/* run.h: running the test binaries, each in its own process with a time limit, several at a time. */
#ifndef GRADE_RUN_H
#define GRADE_RUN_H

#include "grade.h"

/* Called once per result as its test binary finishes (or is skipped). */
typedef void run_done_fn(result *r, size_t index, void *ctx);

/* Runs the binary of every built result (under o->wrap when set) with its
 * stdout and stderr in run_log, at most o->jobs at a time. A binary still
 * running after o->timeout seconds is killed with its whole process group
 * (timed_out set). Sets ran, wait_status and seconds; calls done for each
 * result in the order they finish, for unbuilt ones first. Ctrl-C kills the
 * running tests before the grader exits. */
void run_all(const options *o, result *r, size_t n, run_done_fn *done, void *ctx);

#endif
