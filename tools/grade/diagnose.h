/* diagnose.h: deciding how an exercise ended and what to tell the learner, from its exit and its logs. */
#ifndef GRADE_DIAGNOSE_H
#define GRADE_DIAGNOSE_H

#include "grade.h"

/* Sets r->outcome, r->points, r->reason (one line), r->kind (the hint kind),
 * r->report (the emulator report's kind name) and r->detail (the lines shown
 * under a failure: the first compiler errors; the crash's signal; the time
 * limit; the first failed cmocka test with its messages and line; the first
 * emulator report, the block after its "dsm-emu-report: kind=" line up to a
 * blank line, without that line; the seed; the compiler's first warnings about
 * the learner's files) from the build and run of r. */
void diagnose(const options *o, result *r);

/* "SIGSEGV" for SIGSEGV, "signal N" for unknown ones (a static string). */
const char *signal_name(int sig);

#endif
