/* watch.h: `make watch`: grade the exercise being edited each time one of its files is saved (like rustlings' watch mode). */
#ifndef GRADE_WATCH_H
#define GRADE_WATCH_H

#include "course.h"

/* Grades the next exercise to do (progress.h), or with a selection (c, a
 * part of the course full chosen by EX or CH) the first chosen one that does
 * not pass yet; then waits for a change to the files under src_dir of any
 * exercise of c (its file and the files of the same stem beside it) and
 * grades that exercise, again and again. Waits with inotifywait
 * (inotify-tools) when it is installed, else polls twice a second. Each
 * grading is this program run again with argv's options and --exercise ID.
 * Stops after max_runs gradings (0: never). Returns the exit status. */
int watch_command(const course *full, const course *c, int argc, char **argv, const char *src_dir,
                  const char *out_dir, int max_runs);

#endif
