/* course.c: loading, checking and selecting the exercises of course/chNN.ini. */
#include "course.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ini.h"
#include "util.h"

/* Each kind's name and the kind whose hint it falls back to (the order of docs/CONVENTIONS.md, "Hints"). */
static const struct { const char *name; failure_kind fallback; } KINDS[] = {
    [KIND_COMPILE] = {"compile", KIND_NONE},
    [KIND_WRONG] = {"wrong", KIND_NONE},
    [KIND_PLAN] = {"plan", KIND_WRONG},
    [KIND_LAUNCH] = {"launch", KIND_CRASH},
    [KIND_LIFETIME] = {"lifetime", KIND_NONE},
    [KIND_UNPUBLISHED] = {"unpublished", KIND_RACE},
    [KIND_RACE] = {"race", KIND_NONE},
    [KIND_DEADLOCK] = {"deadlock", KIND_TIMEOUT},
    [KIND_MBARRIER] = {"mbarrier", KIND_DEADLOCK},
    [KIND_BULK] = {"bulk", KIND_CRASH},
    [KIND_TIMEOUT] = {"timeout", KIND_NONE},
    [KIND_CRASH] = {"crash", KIND_NONE},
};
_Static_assert(sizeof KINDS / sizeof KINDS[0] == KIND_COUNT, "every failure_kind needs a name and a fallback");

const char *failure_kind_name(failure_kind k)
{
    return k >= 0 && k < KIND_COUNT ? KINDS[k].name : "none";
}

failure_kind failure_kind_fallback(failure_kind k)
{
    return k >= 0 && k < KIND_COUNT ? KINDS[k].fallback : KIND_NONE;
}

failure_kind failure_kind_from_name(const char *name)
{
    for (int k = 0; k < KIND_COUNT; ++k)
        if (KINDS[k].name != NULL && strcmp(name, KINDS[k].name) == 0)
            return (failure_kind)k;
    return KIND_NONE;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.ini files of dir, sorted, as paths; their count in *n. */
static char **ini_paths(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        die("cannot open the course directory %s", dir);
    char **paths = NULL;
    *n = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        size_t len = strlen(ent->d_name);
        if (len < 5 || strcmp(ent->d_name + len - 4, ".ini") != 0 || ent->d_name[0] == '.')
            continue;
        paths = xrealloc(paths, (*n + 1) * sizeof *paths);
        paths[(*n)++] = xasprintf("%s/%s", dir, ent->d_name);
    }
    closedir(d);
    if (*n > 0)
        qsort(paths, *n, sizeof *paths, compare_names);
    return paths;
}

/* True for ids like ch02.ring_shift. */
static bool valid_id(const char *id)
{
    if (!(starts_with(id, "ch") && isdigit((unsigned char)id[2]) && isdigit((unsigned char)id[3]) &&
          id[4] == '.' && id[5] != '\0'))
        return false;
    for (const char *p = id + 5; *p; ++p)
        if (!(islower((unsigned char)*p) || isdigit((unsigned char)*p) || *p == '_'))
            return false;
    return true;
}

/* A whole non-negative number, or -1 when s is not one. */
static int whole_number(const char *s)
{
    if (*s == '\0' || strlen(s) > 6)
        return -1;
    for (const char *p = s; *p; ++p)
        if (!isdigit((unsigned char)*p))
            return -1;
    return atoi(s);
}

/* The chapter a file named chNN.ini is for, or -1 for other names. */
static int chapter_of_file(const char *path)
{
    const char *base = path_basename(path);
    if (strlen(base) == 8 && starts_with(base, "ch") && isdigit((unsigned char)base[2]) &&
        isdigit((unsigned char)base[3]) && strcmp(base + 4, ".ini") == 0)
        return atoi(base + 2);
    return -1;
}

/* Sets *slot to value unless the key was seen before in this section. */
static void set_once(char **slot, const ini_entry *en, const char *where, strbuf *problems)
{
    if (*slot != NULL) {
        sb_printf(problems, "%s key '%s' repeated (line %d)\n", where, en->key, en->line);
        return;
    }
    *slot = xstrdup(en->value);
}

/* Turns one section into an exercise; appends what is wrong to problems. */
static exercise from_section(const ini_file *f, const ini_section *s, strbuf *problems)
{
    exercise e = {.id = xstrdup(s->name), .chapter = -1, .points = -1};
    char *where = xasprintf("%s:%d: [%s]", f->path, s->line, s->name);
    char *chapter = NULL, *points = NULL;
    int file_chapter = chapter_of_file(f->path);

    for (size_t i = 0; i < s->count; ++i) {
        const ini_entry *en = &s->entries[i];
        if (strcmp(en->key, "hint") == 0) {
            e.hints = xrealloc(e.hints, (e.hint_count + 1) * sizeof *e.hints);
            e.hints[e.hint_count++] = xstrdup(en->value);
        } else if (starts_with(en->key, "hint.")) {
            failure_kind k = failure_kind_from_name(en->key + 5);
            if (k == KIND_NONE) {
                sb_printf(problems, "%s key '%s' (line %d): the kinds are", where, en->key, en->line);
                for (int j = 0; j < KIND_COUNT; ++j)
                    sb_printf(problems, "%s %s", j ? "," : "", failure_kind_name((failure_kind)j));
                sb_add(problems, "\n");
            } else
                set_once(&e.kind_hints[k], en, where, problems);
        } else if (strcmp(en->key, "chapter") == 0) {
            set_once(&chapter, en, where, problems);
        } else if (strcmp(en->key, "points") == 0) {
            set_once(&points, en, where, problems);
        } else if (strcmp(en->key, "file") == 0) {
            set_once(&e.file, en, where, problems);
        } else if (strcmp(en->key, "test") == 0) {
            set_once(&e.test, en, where, problems);
        } else if (strcmp(en->key, "title") == 0) {
            set_once(&e.title, en, where, problems);
        } else {
            /* Keys the grader does not use (task, ...) belong to the book;
             * they may not repeat either. */
            for (size_t j = 0; j < i; ++j)
                if (strcmp(s->entries[j].key, en->key) == 0)
                    sb_printf(problems, "%s key '%s' repeated (line %d)\n", where, en->key, en->line);
        }
    }

    if (!valid_id(s->name))
        sb_printf(problems, "%s id must look like chNN.snake_name\n", where);
    else if (file_chapter >= 0 && atoi(s->name + 2) != file_chapter)
        sb_printf(problems, "%s belongs in ch%.2s.ini\n", where, s->name + 2);
    if (chapter == NULL || *chapter == '\0')
        sb_printf(problems, "%s has no 'chapter'\n", where);
    else if ((e.chapter = whole_number(chapter)) < 0 ||
             (valid_id(s->name) && e.chapter != atoi(s->name + 2)))
        sb_printf(problems, "%s says chapter = %s, its id says %d\n", where, chapter, atoi(s->name + 2));
    if (points == NULL || *points == '\0')
        sb_printf(problems, "%s has no 'points'\n", where);
    else if ((e.points = whole_number(points)) < 0)
        sb_printf(problems, "%s points must be a whole number, got '%s'\n", where, points);
    if (e.file == NULL || *e.file == '\0') {
        sb_printf(problems, "%s has no 'file'\n", where);
    } else {
        size_t n = strlen(e.file);
        if (n > 2 && strcmp(e.file + n - 2, ".h") == 0) /* a header: built through its kernel */
            e.build_file = xasprintf("%.*s.cu", (int)(n - 2), e.file);
        else if ((n > 3 && strcmp(e.file + n - 3, ".cu") == 0) || (n > 2 && strcmp(e.file + n - 2, ".c") == 0))
            e.build_file = xstrdup(e.file);
        else
            sb_printf(problems, "%s file must be a kernel (.cu), host C (.c) or a header (.h) "
                      "built through the .cu of the same name: '%s'\n", where, e.file);
    }
    if (e.test == NULL || *e.test == '\0')
        sb_printf(problems, "%s has no 'test'\n", where);
    if (valid_id(s->name)) { /* the names make's rules derive from the binary's path (mk/course.mk) */
        const char *name = s->name + 5;
        char *stem = xasprintf("ch%.2s/%s.", s->name + 2, name);
        char *test_end = xasprintf("/ch%.2s/test_%s.c", s->name + 2, name);
        if (e.file != NULL && *e.file != '\0' && !starts_with(e.file, stem))
            sb_printf(problems, "%s file must be %scu, %sc or %sh, not '%s'\n", where, stem, stem, stem, e.file);
        size_t tn = e.test != NULL ? strlen(e.test) : 0, en = strlen(test_end);
        if (tn > 0 && (tn <= en || strcmp(e.test + tn - en, test_end) != 0))
            sb_printf(problems, "%s test must be <tests>%s (e.g. tests%s), not '%s'\n", where, test_end, test_end, e.test);
        free(stem);
        free(test_end);
    }
    if (e.title == NULL || *e.title == '\0')
        sb_printf(problems, "%s has no 'title'\n", where);
    if (e.hint_count == 0)
        sb_printf(problems, "%s has no 'hint' (give at least one)\n", where);
    free(chapter);
    free(points);
    free(where);
    return e;
}

void course_load(const char *dir, course *c)
{
    *c = (course){0};
    size_t n;
    char **paths = ini_paths(dir, &n);
    strbuf problems = {0};
    for (size_t i = 0; i < n; ++i) {
        ini_file f;
        char err[1024];
        if (ini_read(paths[i], &f, err, sizeof err) != 0) {
            sb_printf(&problems, "%s\n", err);
            continue;
        }
        for (size_t k = 0; k < f.count; ++k) {
            exercise e = from_section(&f, &f.sections[k], &problems);
            const exercise *twin = course_find(c, e.id);
            if (twin != NULL)
                sb_printf(&problems, "%s:%d: [%s] appears twice\n", f.path, f.sections[k].line, e.id);
            c->items = xrealloc(c->items, (c->count + 1) * sizeof *c->items);
            c->items[c->count++] = e;
        }
        ini_free(&f);
        free(paths[i]);
    }
    free(paths);
    if (problems.len > 0) {
        fprintf(stderr, "%s", problems.data);
        die("the course metadata in %s/ has problems (listed above); see docs/CONVENTIONS.md", dir);
    }
}

/* True when word is in the comma-separated list (after normalising both). */
static bool in_list(const char *list, const char *word, bool chapters)
{
    char *copy = xstrdup(list);
    bool found = false;
    for (char *save = NULL, *item = strtok_r(copy, ", ", &save); item && !found;
         item = strtok_r(NULL, ", ", &save)) {
        if (chapters) {
            const char *digits = starts_with(item, "ch") ? item + 2 : item;
            found = whole_number(digits) >= 0 && whole_number(digits) == atoi(word);
        } else {
            found = strcmp(item, word) == 0;
        }
    }
    free(copy);
    return found;
}

/* Dies when an item of list selects no exercise of c. */
static void check_list(const course *c, const char *list, bool chapters)
{
    char *copy = xstrdup(list);
    for (char *save = NULL, *item = strtok_r(copy, ", ", &save); item;
         item = strtok_r(NULL, ", ", &save)) {
        bool used = false;
        for (size_t i = 0; i < c->count && !used; ++i) {
            char chapter[16];
            snprintf(chapter, sizeof chapter, "%d", c->items[i].chapter);
            used = chapters ? in_list(item, chapter, true) : strcmp(item, c->items[i].id) == 0;
        }
        if (!used) {
            fprintf(stderr, "grade: no %s '%s'. The exercises are:\n", chapters ? "chapter" : "exercise", item);
            for (size_t i = 0; i < c->count; ++i)
                fprintf(stderr, "  %-28s %s\n", c->items[i].id, c->items[i].title);
            exit(2);
        }
    }
    free(copy);
}

void course_select(course *c, const char *chapters, const char *ids)
{
    bool by_chapter = chapters != NULL && *chapters != '\0';
    bool by_id = ids != NULL && *ids != '\0';
    if (by_chapter)
        check_list(c, chapters, true);
    if (by_id)
        check_list(c, ids, false);
    size_t kept = 0;
    for (size_t i = 0; i < c->count; ++i) {
        char chapter[16];
        snprintf(chapter, sizeof chapter, "%d", c->items[i].chapter);
        bool keep = (!by_chapter || in_list(chapters, chapter, true)) &&
                    (!by_id || in_list(ids, c->items[i].id, false));
        if (keep)
            c->items[kept++] = c->items[i];
    }
    c->count = kept;
}

const exercise *course_find(const course *c, const char *id)
{
    for (size_t i = 0; i < c->count; ++i)
        if (strcmp(c->items[i].id, id) == 0)
            return &c->items[i];
    return NULL;
}

char *exercise_unit(const exercise *e)
{
    char *unit = xstrdup(e->id);
    for (char *p = unit; *p; ++p)
        if (*p == '.')
            *p = '_';
    return unit;
}

const char *exercise_kind_hint(const exercise *e, failure_kind k)
{
    /* The fallbacks end at KIND_NONE; KIND_COUNT steps bound a chain even if someone writes a cycle. */
    for (int steps = 0; k >= 0 && k < KIND_COUNT && steps < KIND_COUNT; ++steps, k = failure_kind_fallback(k))
        if (e->kind_hints[k] != NULL)
            return e->kind_hints[k];
    return NULL;
}

const char *exercise_hint_for(const exercise *e, failure_kind k)
{
    const char *h = exercise_kind_hint(e, k);
    return h != NULL ? h : e->hints[0];
}

bool exercise_is_kernel(const exercise *e)
{
    size_t n = strlen(e->build_file);
    return n > 3 && strcmp(e->build_file + n - 3, ".cu") == 0;
}
