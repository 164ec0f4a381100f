/* report.h: what a grading run prints (one line per exercise, failures explained, scores) and writes (results.json). */
#ifndef GRADE_REPORT_H
#define GRADE_REPORT_H

#include "grade.h"

/* Prints what is graded, where and how: the first line of the run. */
void report_begin(const options *o, size_t n);

/* Prints one exercise: PASS/FAIL, points, id and title; under a failure the
 * detail, the first hint and where the full log is. */
void report_exercise(const options *o, const result *r, int id_width);

/* Prints "Score chNN: X/Y" for each chapter, then "Score: X/Y". */
void report_scores(const result *r, size_t n);

/* Writes out_dir/results.json: the total, each chapter's and each exercise's
 * id, status ("pass"/"fail"), outcome, points, reason, kind (the hint kind),
 * report (the emulator report's kind name, "" without one) and log. */
void report_json(const options *o, const result *r, size_t n);

#endif
