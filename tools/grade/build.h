/* build.h: building the exercises' test binaries with make, in parallel, one build log per exercise. */
#ifndef GRADE_BUILD_H
#define GRADE_BUILD_H

#include "grade.h"

/* Fills in the paths of each result (source, binary, logs) from the options
 * and marks those whose source or test file is missing. */
void build_plan(const options *o, result *r, size_t n);

/* Runs `make -k -j<jobs> GRADE_BACKEND=... GRADE_SRC=... GRADE_BUILD=...
 * GRADE_OUT=... GRADE_TESTS=... <binary>...` (the binaries of the exercises
 * that are not missing; make's own output in out_dir/make.log); mk/course.mk's
 * static pattern rules derive each exercise's source, test and DSM_UNIT from
 * its binary's path and write its compiler output to its build log. Sets built
 * on each result whose binary is up to date afterwards. Returns the seconds
 * it took. */
double build_all(const options *o, result *r, size_t n);

#endif
