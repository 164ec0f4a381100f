/* course.h: the exercises of the course, read from the metadata files course/chNN.ini. */
#ifndef GRADE_COURSE_H
#define GRADE_COURSE_H

#include <stdbool.h>
#include <stddef.h>

/* One exercise, as its [chNN.name] section describes it. */
typedef struct exercise {
    char *id;          /* "ch02.ring_shift" */
    int chapter;       /* 2 */
    char *file;        /* "ch02/ring_shift.cu", relative to exercises/ and solutions/ */
    char *test;        /* "tests/ch02/test_ring_shift.c", relative to the repository */
    int points;
    char *title;
    char **hints;      /* at least one */
    size_t hint_count;
} exercise;

typedef struct course {
    exercise *items;
    size_t count;
} course;

/* Loads every *.ini file of dir, in name order, exercises in file order.
 * Checks each exercise against docs/CONVENTIONS.md (id chNN.snake_name in
 * chNN.ini, chapter, file (.cu or .c), test, points, title, one hint or more;
 * only hint repeats; ids unique) and dies listing every problem found. */
void course_load(const char *dir, course *c);

/* Keeps the exercises whose chapter is in chapters ("3", "03", "ch03", comma
 * separated) and whose id is in ids (comma separated); NULL or "" keeps all.
 * Dies naming the known ids when an id or chapter matches nothing. */
void course_select(course *c, const char *chapters, const char *ids);

/* The exercise with this id, or NULL. */
const exercise *course_find(const course *c, const char *id);

/* The exercise's DSM_UNIT: its id with '.' replaced by '_', newly allocated. */
char *exercise_unit(const exercise *e);

/* True for a kernel file (.cu), false for host-only C (.c). */
bool exercise_is_kernel(const exercise *e);

#endif
