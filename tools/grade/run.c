/* run.c: a small process pool that runs test binaries with a time limit (see run.h). */
#include "run.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"

/* The process groups of the running tests, for the Ctrl-C handler. */
#define MAX_JOBS 256
static volatile sig_atomic_t running_groups[MAX_JOBS];

static void kill_running_and_exit(int sig)
{
    for (int i = 0; i < MAX_JOBS; ++i)
        if (running_groups[i] > 0)
            kill(-(pid_t)running_groups[i], SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

typedef struct slot {
    pid_t pid;     /* 0 when free */
    size_t index;  /* which result */
    double started;
} slot;

static void start(const options *o, result *r, slot *s, size_t index)
{
    char **argv = NULL;
    size_t argc = 0;
    if (o->wrap != NULL && *o->wrap != '\0')
        proc_split(o->wrap, &argv, &argc);
    proc_push(&argv, &argc, r->binary);
    s->pid = proc_start(argv, r->run_log, 1);
    s->index = index;
    s->started = now_seconds();
    for (size_t i = 0; i < argc; ++i)
        free(argv[i]);
    free(argv);
    if (s->pid < 0)
        die("cannot start %s", r->binary);
}

void run_all(const options *o, result *r, size_t n, run_done_fn *done, void *ctx)
{
    int jobs = o->jobs < 1 ? 1 : o->jobs > MAX_JOBS ? MAX_JOBS : o->jobs;
    slot *slots = calloc((size_t)jobs, sizeof *slots);
    if (slots == NULL)
        die("out of memory");
    signal(SIGINT, kill_running_and_exit);
    signal(SIGTERM, kill_running_and_exit);
    signal(SIGHUP, kill_running_and_exit);

    for (size_t i = 0; i < n; ++i)
        if (!r[i].built)
            done(&r[i], i, ctx);

    size_t next = 0;
    int busy = 0;
    for (;;) {
        for (int k = 0; k < jobs; ++k) {
            while (next < n && !r[next].built)
                ++next;
            if (slots[k].pid == 0 && next < n) {
                start(o, &r[next], &slots[k], next);
                running_groups[k] = slots[k].pid;
                ++next;
                ++busy;
            }
        }
        if (busy == 0)
            break;

        bool reaped = false;
        for (int k = 0; k < jobs; ++k) {
            if (slots[k].pid == 0)
                continue;
            result *t = &r[slots[k].index];
            int status;
            pid_t got = waitpid(slots[k].pid, &status, WNOHANG);
            if (got == 0) {
                if (now_seconds() - slots[k].started > o->timeout && !t->timed_out) {
                    t->timed_out = true;
                    kill(-slots[k].pid, SIGKILL);
                }
                continue;
            }
            if (got < 0 && errno == EINTR)
                continue;
            /* Whatever the test left behind in its group goes too. */
            kill(-slots[k].pid, SIGKILL);
            running_groups[k] = 0;
            t->ran = true;
            t->wait_status = got < 0 ? -1 : status;
            t->seconds = now_seconds() - slots[k].started;
            slots[k].pid = 0;
            --busy;
            reaped = true;
            done(t, slots[k].index, ctx);
        }
        if (!reaped) {
            struct timespec pause = {0, 5 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    free(slots);
}
