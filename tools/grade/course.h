/* course.h: the exercises of the course, read from the metadata files course/chNN.ini. */
#ifndef GRADE_COURSE_H
#define GRADE_COURSE_H

#include <stdbool.h>
#include <stddef.h>

/* The kinds of failure an exercise can carry a hint for (`hint.<kind> = ...`),
 * also called hint categories. An emulator report's kind (dsm_report_kind)
 * maps to one of them (report_category.c); docs/CONVENTIONS.md, "Hints". */
typedef enum failure_kind {
    KIND_COMPILE,     /* the test binary did not build */
    KIND_WRONG,       /* a test's assertion failed: a wrong value */
    KIND_PLAN,        /* an assertion of a test of a plan failed (its name has "_plan") */
    KIND_LAUNCH,      /* emulator: a launch configuration rejected (too many resources, a bad cluster shape) */
    KIND_LIFETIME,    /* emulator: a CTA's shared memory used after (or unordered with) its exit */
    KIND_UNPUBLISHED, /* emulator: a read of data not yet written and published */
    KIND_RACE,        /* emulator: unordered conflicting accesses, or schedule-dependent results */
    KIND_DEADLOCK,    /* emulator: every thread blocked, or a cluster barrier or __syncthreads misused */
    KIND_MBARRIER,    /* emulator: an mbarrier misused (not initialised, bytes not as expected, a stale phase) */
    KIND_BULK,        /* emulator: a bulk copy's address, size or destination not allowed */
    KIND_TIMEOUT,     /* the time limit */
    KIND_CRASH,       /* a signal, a bad address, a rank out of range */
    KIND_COUNT,
    KIND_NONE = -1    /* passed, or a file is missing */
} failure_kind;

/* "compile", "wrong", ... for a kind (the ini's spelling); "none" for KIND_NONE. */
const char *failure_kind_name(failure_kind k);

/* The kind spelled name, or KIND_NONE. */
failure_kind failure_kind_from_name(const char *name);

/* The kind whose hint a failure of kind k gets when the exercise has no
 * hint.<k> (plan -> wrong, launch -> crash, mbarrier -> deadlock, ...), or
 * KIND_NONE: then the exercise's first hint. */
failure_kind failure_kind_fallback(failure_kind k);

/* One exercise, as its [chNN.name] section describes it. */
typedef struct exercise {
    char *id;          /* "ch02.ring_shift" */
    int chapter;       /* 2 */
    char *file;        /* what the learner edits: "ch02/ring_shift.cu", relative to exercises/ and solutions/ */
    char *build_file;  /* what is compiled: file, or for a header ch02/x.h the kernel ch02/x.cu beside it */
    char *test;        /* "tests/ch02/test_ring_shift.c", relative to the repository */
    int points;
    char *title;
    char **hints;      /* at least one */
    size_t hint_count;
    char *kind_hints[KIND_COUNT]; /* hint.<kind>, or NULL */
} exercise;

typedef struct course {
    exercise *items;
    size_t count;
} course;

/* Loads every *.ini file of dir, in name order, exercises in file order.
 * Checks each exercise against docs/CONVENTIONS.md (id chNN.snake_name in
 * chNN.ini, chapter, file (.cu, .c, or a .h compiled through the .cu of the
 * same stem), test, points, title, one hint or more; hint.<kind> only for the
 * kinds above; only hint repeats; ids unique) and dies listing every problem found. */
void course_load(const char *dir, course *c);

/* Keeps the exercises whose chapter is in chapters ("3", "03", "ch03", comma
 * separated) and whose id is in ids (comma separated); NULL or "" keeps all.
 * Dies naming the known ids when an id or chapter matches nothing. */
void course_select(course *c, const char *chapters, const char *ids);

/* The exercise with this id, or NULL. */
const exercise *course_find(const course *c, const char *id);

/* The exercise's DSM_UNIT: its id with '.' replaced by '_', newly allocated. */
char *exercise_unit(const exercise *e);

/* The hint.<kind> for a failure of kind k: hint.<k> when the exercise has
 * one, else that of k's fallback, and so on; NULL when none of them is there. */
const char *exercise_kind_hint(const exercise *e, failure_kind k);

/* The hint shown under a failure of kind k: exercise_kind_hint, else the exercise's first hint. */
const char *exercise_hint_for(const exercise *e, failure_kind k);

/* True for a kernel (build_file .cu), false for host-only C (.c). */
bool exercise_is_kernel(const exercise *e);

#endif
