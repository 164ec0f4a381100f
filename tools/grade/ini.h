/* ini.h: a reader for the course's INI files: [section] headers and key = value lines (the rules of tools/book/ini.lua). */
#ifndef GRADE_INI_H
#define GRADE_INI_H

#include <stddef.h>

typedef struct ini_entry {
    char *key;
    char *value;
    int line;
} ini_entry;

typedef struct ini_section {
    char *name;
    int line;
    ini_entry *entries;
    size_t count;
} ini_section;

typedef struct ini_file {
    char *path;
    ini_section *sections;
    size_t count;
} ini_file;

/* Reads path into *out. Blank lines are skipped; ';' starts a comment at the
 * start of a line or after whitespace; a line is "[name]" or "key = value"
 * (split at the first '=', both sides trimmed); keys may repeat. Returns 0, or
 * -1 with "path:line: why" in err (errlen bytes) on a syntax error or when
 * the file cannot be read. */
int ini_read(const char *path, ini_file *out, char *err, size_t errlen);

/* Frees what ini_read allocated. */
void ini_free(ini_file *f);

#endif
