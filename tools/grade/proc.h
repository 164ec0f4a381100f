/* proc.h: starting programs with their output sent to a file, and waiting for them. */
#ifndef GRADE_PROC_H
#define GRADE_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* Starts argv[0] (searched in PATH) with stdin from /dev/null and stdout and
 * stderr both written to out_path (truncated first). With isolate set (for
 * tests) it runs in a process group of its own (so that a timeout can kill
 * all it started), without core dumps, and with files limited to 64 MB (a
 * test printing forever gets SIGXFSZ). Returns the pid, or -1. */
pid_t proc_start(char *const argv[], const char *out_path, int isolate);

/* proc_start() without isolation, then waits: the wait status, or
 * -1 when it could not start. */
int proc_run(char *const argv[], const char *out_path);

/* Splits command at spaces and appends its words to the NULL-terminated
 * *argv of *n words (no quoting: for simple command prefixes). */
void proc_split(const char *command, char ***argv, size_t *n);

/* Appends one word to the NULL-terminated *argv of *n words. */
void proc_push(char ***argv, size_t *n, const char *word);

#endif
