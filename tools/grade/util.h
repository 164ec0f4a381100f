/* util.h: small helpers of the grader: checked allocation, growable strings, files, paths and time. */
#ifndef GRADE_UTIL_H
#define GRADE_UTIL_H

#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>

/* A growable, always NUL-terminated string. Zero-initialise before use. */
typedef struct strbuf {
    char *data;
    size_t len, cap;
} strbuf;

/* Prints "grade: <message>" to stderr and exits with status 2 (a problem of
 * the course or the command line, not of the learner's code). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* malloc/realloc/strdup that die instead of returning NULL. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* A newly allocated string formatted as by printf. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* xasprintf with a va_list (the caller still owns ap and ends it). */
char *xvasprintf(const char *fmt, va_list ap);

/* Appends to sb. */
void sb_add(strbuf *sb, const char *s);
void sb_addn(strbuf *sb, const char *s, size_t n);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The whole file as a NUL-terminated string (*len its length, when len is not
 * NULL), or NULL when it cannot be read. */
char *read_file(const char *path, size_t *len);

/* Writes text to path through a temporary file renamed into place; false on error. */
bool write_file_atomic(const char *path, const char *text, size_t len);

/* Creates dir and its missing parents; false on error (errno set). */
bool mkdir_p(const char *dir);

/* True when path names an existing file (or directory). */
bool path_exists(const char *path);

/* The directory part of path ("." when it has none), newly allocated. */
char *path_dirname(const char *path);

/* The last component of path, pointing into path. */
const char *path_basename(const char *path);

/* Seconds on a monotonic clock. */
double now_seconds(void);

/* True when s starts with prefix. */
bool starts_with(const char *s, const char *prefix);

#endif
