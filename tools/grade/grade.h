/* grade.h: what one grading run is asked to do (options) and what it found per exercise (result). */
#ifndef GRADE_GRADE_H
#define GRADE_GRADE_H

#include <stdbool.h>
#include <stddef.h>

#include "course.h"
#include "util.h"

/* What the run must show for every exercise; anything else makes it exit 1. */
typedef enum expectation {
    EXPECT_NOTHING, /* grading a learner's work: exit 0 whatever the score */
    EXPECT_PASS,    /* solutions: full marks */
    EXPECT_FAIL,    /* skeletons: each compiles and fails a test */
} expectation;

typedef struct options {
    const char *course_dir;   /* metadata: *.ini */
    const char *src_dir;      /* sources: exercises/, solutions/, ... */
    const char *build_dir;    /* test binaries */
    const char *out_dir;      /* logs, results.json, hints */
    const char *chapters;     /* CH filter, or NULL */
    const char *ids;          /* EX filter, or NULL */
    const char *backend;      /* "emu" or "gpu": which make rules build the tests */
    const char *make;         /* the make program */
    const char **make_args;   /* extra arguments for make (VAR=value) */
    size_t make_arg_count;
    const char *wrap;         /* a command the tests run under (compute-sanitizer ...), or NULL */
    double timeout;           /* seconds per test binary */
    int jobs;                 /* parallel builds and test runs */
    expectation expect;
    bool color;
} options;

/* How an exercise ended, from best to worst known. */
typedef enum outcome {
    OUTCOME_PASS,
    OUTCOME_MISSING,   /* its source or test file does not exist */
    OUTCOME_COMPILE,   /* the test binary did not build */
    OUTCOME_TIMEOUT,   /* killed at the time limit */
    OUTCOME_CRASH,     /* a signal: in the process, or caught by cmocka */
    OUTCOME_EMULATOR,  /* a test failed and the emulator printed a diagnostic */
    OUTCOME_ASSERTION, /* a cmocka assertion failed */
    OUTCOME_FAILED,    /* the binary exited non-zero for another reason */
} outcome;

typedef struct result {
    const exercise *ex;
    char *source;      /* src_dir/build_file: what is compiled */
    char *edit;        /* src_dir/file: what the learner edits */
    char *unit;        /* DSM_UNIT */
    char *obj_dir;     /* where its objects go */
    char *binary;      /* the test binary */
    char *build_log;   /* compiler output */
    char *run_log;     /* the test binary's stdout and stderr */
    bool missing;
    bool built;
    bool ran;
    bool timed_out;
    int wait_status;
    double seconds;
    outcome outcome;
    failure_kind kind; /* which hint.<kind> fits the failure (KIND_NONE for a pass) */
    const exercise **uses; /* the other exercises whose files its build read (depends.h) */
    size_t use_count;
    char *report;      /* the kind name of the emulator report under the failure ("deadlock"), or NULL */
    int points;        /* earned */
    char *reason;      /* one line, for results.json */
    strbuf detail;     /* lines shown under a failure */
} result;

/* Short stable names of outcomes ("pass", "compile", ...), used in results.json. */
const char *outcome_name(outcome o);

#endif
