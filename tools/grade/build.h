/* build.h: building the exercises' test binaries with make, in parallel, one build log per exercise. */
#ifndef GRADE_BUILD_H
#define GRADE_BUILD_H

#include "grade.h"

/* Fills in the paths of each result (source, binary, logs) from the options
 * and marks those whose source or test file is missing. */
void build_plan(const options *o, result *r, size_t n);

/* Writes out_dir/build.mk (one $(call grade_exercise_<backend>,...) per
 * exercise that is not missing) and runs `make -k -j<jobs> GRADE_LIST=...
 * grade-build` with make's own output in out_dir/make.log; the rules (mk/
 * course.mk, mk/gpu.mk) write each exercise's compiler output to its build
 * log. Sets built on each result whose binary is up to date afterwards.
 * Returns the seconds it took. */
double build_all(const options *o, result *r, size_t n);

#endif
