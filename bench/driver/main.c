/* main.c: `make bench`'s driver: runs each family in a process of its own, then writes summary.json, report.md and machine.txt into the run folder. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_internal.h"
#include "dsm_emu_control.h"

static const char USAGE[] =
    "usage: bench_driver [options] [FAMILY...]   run the families (all by default), write a run folder\n"
    "       bench_driver --list                  the families of this build, in run order\n"
    "       bench_driver --compare A B [--tolerance PCT] [--all]  two runs' summary.json: the headline numbers\n"
    "                         must agree within PCT (3 %%), every number with --all; all are printed\n"
    "       bench_driver --audit RUN [--expect-failed K1,K2]  no row of a kernel that failed a check carries\n"
    "                         a number (and K1, K2 ... are among the failed kernels)\n"
    "options:\n"
    "  --quick            the short run (QUICK=1: under 30 s on an H200)\n"
    "  --out-root DIR     make the run folder DIR/<gpu>-<date> and point DIR/latest at it (build/bench)\n"
    "  --out DIR          use exactly DIR as the run folder\n"
    "  --src NAME         which source tree the kernels came from (recorded in the report)\n"
    "  --reference FILE   the committed H200 run's summary.json, set beside this run in the report\n"
    "  --ncu DIR          what bench/driver/ncu.sh left there: every family run imports its counters\n"
    "  --ncu-plan         print the families' Nsight Compute profiles, one per line, for ncu.sh\n"
    "  --timeout SEC      time limit of one family (600)\n"
    "exit status: 0 all checks passed, 1 a check failed, 2 usage, 3 no GPU this build can use\n";

typedef struct options {
    int quick, list;
    const char *out_root, *out, *src, *reference, *ncu;
    int timeout;
    const char **families;
    int family_count;
} options;

/* What a child process hands back to the driver, then its numbers, report and failure text. */
typedef struct child_header {
    int rc, failures, number_count;
    size_t report_len, failure_len, failed_kernels_len;
    bench_machine machine;
} child_header;

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

/* The device probe, run in a child like the families: the driver process itself
 * never touches CUDA, so every child starts with a clean device (a sticky
 * error or a crash in one family cannot spoil the next). */
static int probe_device(bench *b)
{
    const char *why = "";
    if (machine_describe_device(&b->machine, &why) != 0) {
        text_printf(&b->failure_log, "%s", why ? why : "no reason given");
        return 3;
    }
    return 0;
}

/* Runs fn(b) in a child process with a time limit; merges what it produced into
 * b (numbers, report, failures, and the machine for the probe). Returns fn's
 * result, or -1 when the child crashed or ran out of time (then *how says why). */
static int run_in_child(bench *b, int (*fn)(bench *), int timeout, char *how, size_t how_size)
{
    int fds[2];
    how[0] = '\0';
    if (pipe(fds) != 0) {
        snprintf(how, how_size, "pipe failed: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(how, how_size, "fork failed: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        bench mine = *b; /* the child's own buffers: only what it adds goes back */
        memset(&mine.report, 0, sizeof mine.report);
        memset(&mine.failure_log, 0, sizeof mine.failure_log);
        memset(&mine.failed_kernels, 0, sizeof mine.failed_kernels);
        mine.csvs = NULL;
        mine.number_count = 0;
        mine.failures = 0;
        if (b->dry && getenv("DSM_EMU_SCHEDULES") == NULL)
            dsm_emu_set_schedules("asc"); /* one schedule: the dry run checks results, the grader hunts races */
        alarm((unsigned)timeout);
        int rc = fn(&mine);
        bench_finish_family(&mine); /* no number of a kernel that failed a check survives the family */
        fflush(NULL);
        child_header h = {rc, mine.failures, mine.number_count, mine.report.len, mine.failure_log.len,
                          mine.failed_kernels.len, mine.machine};
        int bad = write_all(fds[1], &h, sizeof h) ||
                  write_all(fds[1], mine.numbers, (size_t)mine.number_count * sizeof mine.numbers[0]) ||
                  write_all(fds[1], mine.report.s, mine.report.len) ||
                  write_all(fds[1], mine.failure_log.s, mine.failure_log.len) ||
                  write_all(fds[1], mine.failed_kernels.s, mine.failed_kernels.len);
        _exit(bad ? 125 : 0);
    }
    close(fds[1]);
    child_header h;
    int got = read_all(fds[0], &h, sizeof h) == 0;
    if (got) {
        static bench_number numbers[BENCH_MAX_NUMBERS];
        char *report = malloc(h.report_len + 1), *failures = malloc(h.failure_len + 1);
        char *kernels = malloc(h.failed_kernels_len + 1);
        got = h.number_count >= 0 && h.number_count <= BENCH_MAX_NUMBERS && report && failures && kernels &&
              read_all(fds[0], numbers, (size_t)h.number_count * sizeof numbers[0]) == 0 &&
              read_all(fds[0], report, h.report_len) == 0 && read_all(fds[0], failures, h.failure_len) == 0 &&
              read_all(fds[0], kernels, h.failed_kernels_len) == 0;
        if (got) {
            /* Keys are checked again here: two families may not set the same one. */
            for (int i = 0; i < h.number_count; ++i) {
                const char *why = NULL;
                if (b->number_count >= BENCH_MAX_NUMBERS ||
                    summary_key_clashes(b->numbers, b->number_count, numbers[i].key, &why)) {
                    bench_fail(b, "summary key \"%s\" refused: %s", numbers[i].key, why ? why : "too many numbers");
                    continue;
                }
                b->numbers[b->number_count++] = numbers[i];
            }
            text_append(&b->report, report, h.report_len);
            text_append(&b->failure_log, failures, h.failure_len);
            /* the kernels that failed, each once: " a b " */
            kernels[h.failed_kernels_len] = '\0';
            char *save = NULL;
            for (char *k = strtok_r(kernels, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
                char word[160];
                snprintf(word, sizeof word, " %s ", k);
                if (b->failed_kernels.s == NULL || strstr(b->failed_kernels.s, word) == NULL)
                    text_printf(&b->failed_kernels, "%s%s ", b->failed_kernels.len ? "" : " ", k);
            }
            b->failures += h.failures;
            b->machine = h.machine;
        }
        free(report);
        free(failures);
        free(kernels);
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGALRM)
            snprintf(how, how_size, "ran out of time (%d s) and was stopped", timeout);
        else
            snprintf(how, how_size, "crashed (%s)", strsignal(sig));
        return -1;
    }
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(how, how_size, "exited with status %d before reporting (a DSM_CHECK or exit() in the family?)",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return h.rc;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const char *names[256];
    o->out_root = "build/bench";
    o->src = "solutions";
    o->timeout = 600;
    o->families = names;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (strcmp(a, "--quick") == 0)
            o->quick = 1;
        else if (strcmp(a, "--list") == 0)
            o->list = 1;
        else if (strcmp(a, "--out-root") == 0 && more)
            o->out_root = argv[++i];
        else if (strcmp(a, "--out") == 0 && more)
            o->out = argv[++i];
        else if (strcmp(a, "--src") == 0 && more)
            o->src = argv[++i];
        else if (strcmp(a, "--reference") == 0 && more)
            o->reference = argv[++i];
        else if (strcmp(a, "--ncu") == 0 && more)
            o->ncu = argv[++i];
        else if (strcmp(a, "--timeout") == 0 && more)
            o->timeout = atoi(argv[++i]);
        else if (a[0] == '-' || o->family_count >= 256)
            return -1;
        else
            names[o->family_count++] = a;
    }
    return o->timeout > 0 ? 0 : -1;
}

static int selected(const options *o, const char *name)
{
    if (o->family_count == 0)
        return 1;
    for (int i = 0; i < o->family_count; ++i)
        if (strcmp(o->families[i], name) == 0)
            return 1;
    return 0;
}

/* build/bench/nvidia-h200-20261201-0622 (or emulator-dry-run-...): a new folder every run. */
static int make_run_dir(const options *o, const bench *b, char *dir, size_t size)
{
    if (o->out) {
        snprintf(dir, size, "%s", o->out);
        return mkdir(dir, 0777) == 0 || errno == EEXIST ? 0 : -1;
    }
    char slug[96] = "", stamp[32];
    if (b->dry) {
        snprintf(slug, sizeof slug, "emulator-dry-run");
    } else {
        size_t n = 0;
        for (const char *p = b->machine.gpu; *p && n + 1 < sizeof slug; ++p) {
            char c = (char)((*p >= 'A' && *p <= 'Z') ? *p - 'A' + 'a' : *p);
            int keep = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (keep)
                slug[n++] = c;
            else if (n > 0 && slug[n - 1] != '-')
                slug[n++] = '-';
        }
        while (n > 0 && slug[n - 1] == '-')
            --n;
        slug[n] = '\0';
    }
    time_t now = time(NULL);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", gmtime(&now));
    mkdir(o->out_root, 0777);
    for (int k = 1; k < 100; ++k) {
        if (k == 1)
            snprintf(dir, size, "%s/%s-%s", o->out_root, slug[0] ? slug : "gpu", stamp);
        else
            snprintf(dir, size, "%s/%s-%s-%d", o->out_root, slug[0] ? slug : "gpu", stamp, k);
        if (mkdir(dir, 0777) == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    return -1;
}

/* out_root/latest -> the run folder, for make bench-commit and scripts. */
static void point_latest(const char *out_root, const char *dir)
{
    char link[1024];
    snprintf(link, sizeof link, "%s/latest", out_root);
    unlink(link);
    if (symlink(dir + strlen(out_root) + 1, link) != 0)
        perror(link);
}

static void write_report(const char *path, const bench *b, const options *o, const text *sections,
                         const text *headline, double seconds, int families_run)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return;
    }
    const bench_machine *m = &b->machine;
    fprintf(f, "# make bench: %s, %s\n\n", m->gpu, m->date);
    if (b->dry)
        fprintf(f, "**Dry run on the CPU cluster emulator.** Every family ran with tiny sizes and every kernel's "
                   "result was checked, but nothing was measured: the times and rates below are the emulator's "
                   "and mean nothing about a GPU.\n\n");
    fprintf(f, "| | |\n|---|---|\n| GPU | %s (compute capability %s, %d SMs) |\n| driver | %s |\n", m->gpu,
            m->compute_cap, m->sm_count, m->driver);
    fprintf(f, "| SM clock | %.0f MHz (cudaDevAttrClockRate); nvidia-smi: %.0f MHz max, %.0f MHz highest seen "
               "after a family |\n",
            m->sm_clock_mhz, m->smi_max_clock_mhz, m->smi_clock_mhz);
    fprintf(f, "| shared memory | %zu bytes per SM, %zu per block (opt-in) |\n", m->smem_per_sm,
            m->smem_per_block_optin);
    fprintf(f, "| date | %s |\n| commit | %s |\n| kernels from | %s/ |\n| run | %s%s, %d families, %.1f s |\n",
            m->date, m->commit, o->src, b->dry ? "dry run" : (b->quick ? "QUICK=1" : "full"),
            o->ncu ? " with NCU=1" : "", families_run, seconds);
    fprintf(f, "| failed checks | %d |\n\n", b->failures);
    if (b->failures)
        fprintf(f, "**Failed checks** (a failed check is never a number):\n\n```\n%s```\n\n", b->failure_log.s);
    if (headline->s)
        fputs(headline->s, f);
    if (sections->s)
        fputs(sections->s, f);
    fclose(f);
}

/* The run's last lines: every kernel that failed a check, with its exercise and file, so that
 * `make bench SRC=exercises` ends with what is left to do; also failed_kernels.txt in the run folder. */
static void print_failed_kernels(const bench *b, const options *o, const char *dir)
{
    if (b->failed_kernels.s == NULL)
        return;
    char path[1200], list[4096], *save = NULL;
    snprintf(path, sizeof path, "%s/failed_kernels.txt", dir);
    FILE *f = fopen(path, "w");
    printf("bench: no number of these kernels is in this run, because a check of theirs failed%s:\n",
           strcmp(o->src, "solutions") == 0 ? "" : " (unfinished?)");
    snprintf(list, sizeof list, "%s", b->failed_kernels.s);
    for (char *k = strtok_r(list, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
        const bench_kernel_entry *e = bench_kernel_find(k);
        if (e && e->exercise[0])
            printf("  %-24s exercise %-20s %s/%s\n", k, e->exercise, o->src, e->file);
        else
            printf("  %-24s %-29s %s/%s\n", k, "(given code, not an exercise)", o->src, e ? e->file : "?");
        if (f)
            fprintf(f, "%s %s %s\n", k, e && e->exercise[0] ? e->exercise : "-", e ? e->file : "-");
    }
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--ncu-plan") == 0) {
        ncu_print_plan(stdout);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "--summary-get") == 0)
        return summary_print_value(argv[2], argv[3]);   /* scripts read summary.json through this, never by hand */
    if (argc >= 4 && strcmp(argv[1], "--compare") == 0) {
        double tol = 3.0;
        int all = 0;
        for (int i = 4; i < argc; ++i) {
            if (strcmp(argv[i], "--tolerance") == 0 && i + 1 < argc)
                tol = atof(argv[++i]);
            else if (strcmp(argv[i], "--all") == 0)
                all = 1;
            else {
                fputs(USAGE, stderr);
                return 2;
            }
        }
        return compare_runs(argv[2], argv[3], tol, all);
    }
    if (argc >= 3 && strcmp(argv[1], "--audit") == 0) {
        const char *expect = NULL;
        if (argc == 5 && strcmp(argv[3], "--expect-failed") == 0)
            expect = argv[4];
        else if (argc != 3) {
            fputs(USAGE, stderr);
            return 2;
        }
        return audit_run(argv[2], expect);
    }
    options o = {0};
    if (parse_options(argc, argv, &o) != 0) {
        fputs(USAGE, stderr);
        return 2;
    }
    if (o.list) {
        for (int i = 0; i < bench_family_count; ++i)
            printf("%s\n", bench_family_table[i].name);
        return 0;
    }
    for (int i = 0; i < o.family_count; ++i) {
        int known = 0;
        for (int k = 0; k < bench_family_count; ++k)
            known |= strcmp(bench_family_table[k].name, o.families[i]) == 0;
        if (!known) {
            fprintf(stderr, "bench: no family %s in this build (--list shows them)\n", o.families[i]);
            return 2;
        }
    }

    static bench b;
    double t_start = bench_now();
    b.dry = strcmp(dsm_backend_name(), "emulator") == 0;
    b.quick = o.quick;
    b.started = bench_now();
    machine_describe_host(&b.machine);
    char how[256];
    if (run_in_child(&b, probe_device, 120, how, sizeof how) != 0) {
        printf("bench: no GPU this build can use: %s\n", b.failure_log.s ? b.failure_log.s : how);
        return 3;
    }
    text_free(&b.failure_log);

    char dir[1024];
    if (make_run_dir(&o, &b, dir, sizeof dir) != 0) {
        fprintf(stderr, "bench: cannot create the run folder %s: %s\n", dir, strerror(errno));
        return 2;
    }
    b.run_dir = dir;
    printf("bench: %s on %s (%s, SM clock %.0f MHz), kernels from %s/, into %s\n",
           b.dry ? "dry run (tiny sizes, nothing measured)" : (b.quick ? "quick run" : "full run"), b.machine.gpu,
           b.machine.driver, b.machine.sm_clock_mhz, o.src, dir);
    fflush(stdout);

    text sections = {0}, families_json = {0};
    text_printf(&families_json, "{");
    int run = 0;
    for (int i = 0; i < bench_family_count; ++i) {
        const bench_family_entry *fam = &bench_family_table[i];
        if (!selected(&o, fam->name))
            continue;
        ++run;
        b.family = fam->name;
        b.started = bench_now();
        fprintf(stderr, "bench: %s\n", fam->name);
        int before = b.failures;
        size_t report_before = b.report.len;
        int rc = run_in_child(&b, fam->run, o.timeout, how, sizeof how);
        double took = bench_now() - b.started;
        if (rc != 0 && b.failures == before) /* a failure the family did not name itself */
            bench_fail(&b, "%s", how[0] ? how : "the family returned non-zero without naming a failed check");
        else if (rc == -1)
            bench_fail(&b, "%s", how);
        const char *status = b.failures == before ? "ok" : "FAILED";
        fprintf(stderr, "bench: %s %s (%.1f s, %d failed checks)\n", fam->name, status, took, b.failures - before);
        text_printf(&families_json, "%s\n    \"%s\": \"%s (%.1f s)\"", run > 1 ? "," : "", fam->name, status, took);
        if (b.report.len == report_before)
            text_printf(&b.report, "## %s\n\nThe family wrote no report section.\n\n", fam->name);
        if (b.failures != before)
            text_printf(&b.report, "*%s: %d failed checks (see the top of this report).*\n\n", fam->name,
                        b.failures - before);
        if (!b.dry) { /* the clock the GPU ran at, read while it is still up */
            double mhz = machine_smi_clock_mhz("clocks.sm");
            if (mhz > b.machine.smi_clock_mhz)
                b.machine.smi_clock_mhz = mhz;
        }
    }
    b.family = "ncu";
    if (o.ncu) {
        ncu_import(&b, o.ncu, o.families, o.family_count);   /* FAMILY=...: ncu.sh profiled those alone */
        csv_write_all(&b, ""); /* its tables (ncu.csv, ncu_ch07.csv), written once */
    }
    text_append(&sections, b.report.s ? b.report.s : "", b.report.len);
    text_printf(&families_json, "\n  }");

    char path[1200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return 1;
    }
    summary_write_json(f, &b.machine, b.numbers, b.number_count, b.failures, &b.failure_log, b.failed_kernels.s,
                       families_json.s, b.dry);
    fclose(f);
    text headline = {0};
    report_headline(&headline, b.numbers, b.number_count, o.reference);
    snprintf(path, sizeof path, "%s/report.md", dir);
    double seconds = bench_now() - t_start;
    write_report(path, &b, &o, &sections, &headline, seconds, run);
    snprintf(path, sizeof path, "%s/machine.txt", dir);
    machine_write_info(&b.machine, path);
    if (!o.out)
        point_latest(o.out_root, dir);

    for (int i = 0; i < b.number_count; ++i) {
        const bench_number *n = &b.numbers[i];
        if (n->text[0])
            printf("  %-50s %14s\n", n->key, n->text);
        else if (isfinite(n->value))
            printf("  %-50s %14.6g\n", n->key, n->value);
        else
            printf("  %-50s %14s  (%s)\n", n->key, "failed", n->why);
    }
    printf("bench: %d families, %d failed checks, %.1f s%s; wrote %s (report.md, summary.json, CSVs)\n", run,
           b.failures, seconds, b.dry ? " (dry run: checks only, no measurement)" : "", dir);
    print_failed_kernels(&b, &o, dir);
    /* The time limits of issue 11 (3 min, 30 s with QUICK=1), for a whole run on a GPU. */
    double limit = b.quick ? 30.0 : 180.0;
    if (!b.dry && o.family_count == 0 && !o.ncu && seconds > limit)
        printf("bench: this run took %.0f s, over its %.0f s target: a family needs smaller sweeps\n", seconds, limit);
    return b.failures ? 1 : 0;
}
