/* proc.c: starting programs with their output sent to a file (see proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

/* The largest file a test may write: enough for any honest log. */
#define MAX_OUTPUT_BYTES (64L << 20)

pid_t proc_start(char *const argv[], const char *out_path, int isolate)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid != 0) {
        if (pid > 0 && isolate)
            setpgid(pid, pid); /* as the child does: whoever runs first */
        return pid;
    }

    /* The child: from here on only exec or _exit. */
    int in = open("/dev/null", O_RDONLY);
    int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0)
        _exit(127);
    dup2(in, 0);
    dup2(out, 1);
    dup2(out, 2);
    close(in);
    close(out);
    if (isolate) {
        setpgid(0, 0);
        /* The grader reads cmocka's standard output format. */
        unsetenv("CMOCKA_MESSAGE_OUTPUT");
        unsetenv("CMOCKA_XML_FILE");
        struct rlimit core = {0, 0};
        setrlimit(RLIMIT_CORE, &core);
        struct rlimit fsize = {MAX_OUTPUT_BYTES, MAX_OUTPUT_BYTES};
        setrlimit(RLIMIT_FSIZE, &fsize);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "grade: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int proc_run(char *const argv[], const char *out_path)
{
    pid_t pid = proc_start(argv, out_path, 0);
    if (pid < 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return status;
}

void proc_push(char ***argv, size_t *n, const char *word)
{
    *argv = xrealloc(*argv, (*n + 2) * sizeof **argv);
    (*argv)[(*n)++] = xstrdup(word);
    (*argv)[*n] = NULL;
}

void proc_split(const char *command, char ***argv, size_t *n)
{
    char *copy = xstrdup(command);
    for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        proc_push(argv, n, w);
    free(copy);
}
