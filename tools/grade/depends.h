/* depends.h: the other exercises whose files an exercise's code includes, and saying under a failure which of them fail. */
#ifndef GRADE_DEPENDS_H
#define GRADE_DEPENDS_H

#include <stdbool.h>

#include "grade.h"

/* Sets r->uses to the ids of the exercises of full, other than r's own,
 * whose file (o->src_dir/<file>) the compiler read to build r: the
 * dependency files make's rules write beside the binary (kernel.d, test.d).
 * (from its last build that got that far). Nothing when they are absent. */
void depends_find(const course *full, const options *o, result *r);

/* Appends a line "depends on <id> (<file>), which fails: ..." to r->detail
 * for each exercise r uses that failed in this run (all[0..n), those whose
 * finished flag is set) or, when this run did not grade it, at its last
 * grading recorded in o->out_dir/progress. */
void depends_note(const options *o, result *r, const result *all, size_t n, const bool *finished);

#endif
