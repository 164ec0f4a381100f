/* ini.c: the INI reader declared in ini.h. */
#include "ini.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Trims whitespace at both ends of s, in place; returns the new start. */
static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        ++s;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

/* Cuts a comment: ';' as the first non-blank character, or after whitespace. */
static void strip_comment(char *line)
{
    char *p = line;
    while (isspace((unsigned char)*p))
        ++p;
    if (*p == ';') {
        *line = '\0';
        return;
    }
    for (p = line; *p; ++p) {
        if (*p == ';' && p > line && isspace((unsigned char)p[-1])) {
            *p = '\0';
            return;
        }
    }
}

static void add_section(ini_file *f, const char *name, int line)
{
    f->sections = xrealloc(f->sections, (f->count + 1) * sizeof *f->sections);
    f->sections[f->count++] = (ini_section){xstrdup(name), line, NULL, 0};
}

static void add_entry(ini_section *s, const char *key, const char *value, int line)
{
    s->entries = xrealloc(s->entries, (s->count + 1) * sizeof *s->entries);
    s->entries[s->count++] = (ini_entry){xstrdup(key), xstrdup(value), line};
}

int ini_read(const char *path, ini_file *out, char *err, size_t errlen)
{
    *out = (ini_file){xstrdup(path), NULL, 0};
    char *text = read_file(path, NULL);
    if (text == NULL) {
        snprintf(err, errlen, "%s: cannot read the file", path);
        return -1;
    }
    int lineno = 0;
    int status = 0;
    for (char *line = text, *next; line != NULL && status == 0; line = next) {
        ++lineno;
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        strip_comment(line);
        char *s = trim(line);
        if (*s == '\0')
            continue;
        size_t n = strlen(s);
        if (s[0] == '[' && s[n - 1] == ']') {
            s[n - 1] = '\0';
            add_section(out, trim(s + 1), lineno);
            continue;
        }
        char *eq = strchr(s, '=');
        if (eq == NULL || eq == s) {
            snprintf(err, errlen, "%s:%d: expected [id] or key = value, got \"%s\"", path, lineno, s);
            status = -1;
            break;
        }
        *eq = '\0';
        char *key = trim(s);
        if (out->count == 0) {
            snprintf(err, errlen, "%s:%d: key '%s' before the first [id] section", path, lineno, key);
            status = -1;
            break;
        }
        add_entry(&out->sections[out->count - 1], key, trim(eq + 1), lineno);
    }
    free(text);
    if (status != 0)
        ini_free(out);
    return status;
}

void ini_free(ini_file *f)
{
    for (size_t i = 0; i < f->count; ++i) {
        for (size_t j = 0; j < f->sections[i].count; ++j) {
            free(f->sections[i].entries[j].key);
            free(f->sections[i].entries[j].value);
        }
        free(f->sections[i].entries);
        free(f->sections[i].name);
    }
    free(f->sections);
    free(f->path);
    *f = (ini_file){0};
}
