/* report.c: the emulator's diagnostics: one readable report per launch, naming kernel, cluster, CTA, thread, phase and line. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emu_diagnostics.h"

#define REPORT_CAP 8192

static char report_text[REPORT_CAP];
static size_t report_len;
static dsm_report last_report = {DSM_REPORT_NONE, dsmSuccess, ""};
static int verbose = 1;

static const char *const kind_names[DSM_REPORT_KIND_COUNT] = {
    [DSM_REPORT_NONE] = "none",
    [DSM_REPORT_LIFETIME] = "lifetime",
    [DSM_REPORT_LIFETIME_HAZARD] = "lifetime_hazard",
    [DSM_REPORT_UNPUBLISHED_READ] = "unpublished_read",
    [DSM_REPORT_RACE_WRITE_WRITE] = "race_write_write",
    [DSM_REPORT_RACE_READ_WRITE] = "race_read_write",
    [DSM_REPORT_SCHEDULE_DEPENDENT] = "schedule_dependent",
    [DSM_REPORT_UNINITIALIZED_READ] = "uninitialized_read",
    [DSM_REPORT_RANK_OUT_OF_RANGE] = "rank_out_of_range",
    [DSM_REPORT_OUT_OF_BOUNDS] = "out_of_bounds",
    [DSM_REPORT_DOUBLE_ARRIVE] = "double_arrive",
    [DSM_REPORT_WAIT_WITHOUT_ARRIVE] = "wait_without_arrive",
    [DSM_REPORT_SYNCTHREADS_DIVERGENCE] = "syncthreads_divergence",
    [DSM_REPORT_DEADLOCK] = "deadlock",
    [DSM_REPORT_BULK_ALIGNMENT] = "bulk_alignment",
    [DSM_REPORT_BULK_SIZE] = "bulk_size",
    [DSM_REPORT_BULK_SELF] = "bulk_self",
    [DSM_REPORT_MBARRIER_UNINITIALIZED] = "mbarrier_uninitialized",
    [DSM_REPORT_MBARRIER_TX_MISMATCH] = "mbarrier_tx_mismatch",
    [DSM_REPORT_INVALID_LAUNCH] = "invalid_launch",
    [DSM_REPORT_ILLEGAL_ADDRESS] = "illegal_address",
    [DSM_REPORT_TIMEOUT] = "timeout",
    [DSM_REPORT_MBARRIER_STALE_PARITY] = "mbarrier_stale_parity",
};

const char *dsm_report_kind_name(dsm_report_kind kind)
{
    if ((unsigned)kind >= DSM_REPORT_KIND_COUNT)
        return "unknown";
    return kind_names[kind];
}

const dsm_report *dsm_emu_last_report(void) { return &last_report; }

void dsm_emu_set_verbose(int v) { verbose = v; }

int emu_report_verbose(void) { return verbose; }

static void append(const char *fmt, va_list ap)
{
    if (report_len >= REPORT_CAP - 1)
        return;
    int n = vsnprintf(report_text + report_len, REPORT_CAP - report_len, fmt, ap);
    if (n > 0)
        report_len += (size_t)n < REPORT_CAP - report_len ? (size_t)n : REPORT_CAP - 1 - report_len;
}

static void appendf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    append(fmt, ap);
    va_end(ap);
}

bool emu_report_pending(void) { return last_report.kind != DSM_REPORT_NONE; }
dsm_error_t emu_report_error(void) { return last_report.error; }

/* The title (first line) and kernel of the last report printed, so that a
 * report repeated by launch after launch (a test looping over shapes) is
 * printed once, not a dozen times; a launch without a report forgets it. */
static char printed_title[256];
static const void *printed_kernel;
static bool repeat_noted;

void emu_report_reset(void)
{
    if (last_report.kind == DSM_REPORT_NONE)
        printed_title[0] = '\0'; /* the launch before was clean */
    report_len = 0;
    report_text[0] = '\0';
    last_report.kind = DSM_REPORT_NONE;
    last_report.error = dsmSuccess;
    last_report.text = report_text;
}

bool emu_report_begin(dsm_report_kind kind, dsm_error_t err, const char *title_fmt, ...)
{
    if (last_report.kind != DSM_REPORT_NONE)
        return false;
    last_report.kind = kind;
    last_report.error = err;
    last_report.text = report_text;
    report_len = 0;
    appendf("dsm-emu: error: ");
    va_list ap;
    va_start(ap, title_fmt);
    append(title_fmt, ap);
    va_end(ap);
    appendf("\n");
    if (emu_cur)
        appendf("  %-9s %s (%s)\n", "kernel", emu_cur->kernel->name, emu_cur->kernel->file);
    return true;
}

void emu_report_line(const char *label, const char *fmt, ...)
{
    appendf("  %-9s ", label);
    va_list ap;
    va_start(ap, fmt);
    append(fmt, ap);
    va_end(ap);
    appendf("\n");
}

/* The text of line `line` of `file`, trimmed, or NULL. */
static const char *source_line(const char *file, int line, char *buf, size_t n)
{
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f)
        return NULL;
    int cur = 1;
    const char *res = NULL;
    while (fgets(buf, (int)n, f)) {
        if (cur == line) {
            char *s = buf;
            while (*s == ' ' || *s == '\t')
                s++;
            s[strcspn(s, "\r\n")] = '\0';
            res = s;
            break;
        }
        if (strchr(buf, '\n'))
            cur++;
    }
    fclose(f);
    return res;
}

void emu_report_site(const char *label, emu_site site)
{
    char buf[256];
    if (!site.file && site.pc) {
        emu_report_pc(label, site.pc);
        return;
    }
    if (!site.file) {
        emu_report_line(label, "(before its first device-API call: the thread returned early)");
        return;
    }
    const char *code = source_line(site.file, site.line, buf, sizeof buf);
    if (code && *code)
        emu_report_line(label, "%s:%d: %s", site.file, site.line, code);
    else
        emu_report_line(label, "%s:%d", site.file, site.line);
}

/* file:line of a code address through addr2line (path relative to the current directory); false when unknown. */
static bool resolve_pc(void *pc, char *file, size_t n, int *line)
{
    Dl_info info;
    char cmd[1024], out[512];
    if (!pc || !dladdr(pc, &info) || !info.dli_fname)
        return false;
    /* addr2line wants the offset inside the object for position-independent files. */
    uintptr_t off = (uintptr_t)pc - (uintptr_t)info.dli_fbase;
    const char *obj = info.dli_fname;
    char exe[512];
    if (!strchr(obj, '/') || obj[0] == '\0') {
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k > 0) {
            exe[k] = '\0';
            obj = exe;
        }
    }
    snprintf(cmd, sizeof cmd, "addr2line -e '%s' 0x%lx 2>/dev/null", obj, (unsigned long)off);
    FILE *p = popen(cmd, "r");
    bool ok = false;
    if (p) {
        if (fgets(out, sizeof out, p)) {
            out[strcspn(out, "\r\n")] = '\0';
            char *colon = strrchr(out, ':');
            if (colon && out[0] != '?') {
                *colon = '\0';
                *line = atoi(colon + 1);
                const char *f = out;
                char cwd[512];
                if (getcwd(cwd, sizeof cwd)) {
                    size_t cl = strlen(cwd);
                    if (strncmp(out, cwd, cl) == 0 && out[cl] == '/')
                        f = out + cl + 1;
                }
                snprintf(file, n, "%s", f);
                ok = *line > 0;
            }
        }
        pclose(p);
    }
    return ok;
}

bool emu_pc_in_emulator(void *pc)
{
    char file[512];
    int line = 0;
    if (!resolve_pc(pc, file, sizeof file, &line))
        return true; /* no line: not the kernel's code (built with -g) */
    return strstr(file, "runtime/emu/") != NULL;
}

void emu_report_pc(const char *label, void *pc)
{
    char file[512];
    int line = 0;
    Dl_info info;
    if (resolve_pc(pc, file, sizeof file, &line)) {
        emu_site s = {file, line, NULL};
        emu_report_site(label, s);
    } else if (pc && dladdr(pc, &info) && info.dli_fname)
        emu_report_line(label, "pc %p in %s (build with -g for a source line)", pc, info.dli_fname);
    else
        emu_report_line(label, "(unknown, pc %p)", pc);
}

const char *emu_site_short(emu_site site, char *buf, size_t n)
{
    char file[512];
    int line = 0;
    if (site.file)
        snprintf(file, sizeof file, "%s", site.file), line = site.line;
    else if (!resolve_pc(site.pc, file, sizeof file, &line)) {
        snprintf(buf, n, "?");
        return buf;
    }
    const char *base = strrchr(file, '/');
    snprintf(buf, n, "%s:%d", base ? base + 1 : file, line);
    return buf;
}

void emu_report_timeline(emu_launch *L, const emu_tl_event *ev, int nev)
{
    if (!L)
        return;
    emu_report_line("timeline", "this run, per CTA, by cluster-barrier phase (\"|\" = the barrier completing):");
    /* long kernels: start one phase before the first event or exit */
    uint32_t first = L->cluster.phase;
    for (int i = 0; i < nev; i++)
        if (ev[i].interval < first)
            first = ev[i].interval;
    for (uint32_t r = 0; r < L->cluster.ncta; r++)
        if (L->cluster.ctas[r].exited && L->cluster.ctas[r].exit_phase < first)
            first = L->cluster.ctas[r].exit_phase;
    first = first > 1 ? first - 1 : 0;
    /* ... and end one phase after the last one, then jump to the current phase */
    uint32_t stop = first;
    for (int i = 0; i < nev; i++)
        if (ev[i].interval > stop)
            stop = ev[i].interval;
    for (uint32_t r = 0; r < L->cluster.ncta; r++)
        if (L->cluster.ctas[r].exited && L->cluster.ctas[r].exit_phase > stop)
            stop = L->cluster.ctas[r].exit_phase;
    stop++;
    for (uint32_t r = 0; r < L->cluster.ncta; r++) {
        emu_cta *c = &L->cluster.ctas[r];
        uint32_t last = c->exited ? c->exit_phase : L->cluster.phase;
        char line[1024], where[256];
        size_t len = 0;
        line[0] = '\0';
        if (first > 0)
            len += (size_t)snprintf(line + len, sizeof line - len, "... | ");
        for (uint32_t k = first; k <= last && len < sizeof line - 300; k++) {
            if (k > stop && k < last) {
                len += (size_t)snprintf(line + len, sizeof line - len, " | ...");
                k = last;
            }
            len += (size_t)snprintf(line + len, sizeof line - len, "%sphase %u", k > first ? " | " : "", k);
            for (int i = 0; i < nev && len < sizeof line - 200; i++)
                if (ev[i].cta == (int32_t)r && ev[i].interval == k)
                    len += (size_t)snprintf(line + len, sizeof line - len, " [%s, thread %u, %s]", ev[i].what,
                                            ev[i].tid, emu_site_short(ev[i].site, where, sizeof where));
        }
        if (c->exited && len < sizeof line - 200)
            len += (size_t)snprintf(line + len, sizeof line - len, " [exit, %s]",
                                    emu_site_short(c->exit_site, where, sizeof where));
        else if (len < sizeof line - 40)
            len += (size_t)snprintf(line + len, sizeof line - len, " (running)");
        char label[24];   /* "  rank " and any uint32_t */
        snprintf(label, sizeof label, "  rank %u", r);
        emu_report_line(label, "%s", line);
    }
}

void emu_report_who(emu_launch *L, emu_thread *t)
{
    if (!L || !t)
        return;
    emu_cta *c = t->cta;
    emu_report_line("who", "cluster (%u,%u,%u), rank %u = blockIdx (%u,%u,%u), thread %u = threadIdx (%u,%u,%u)",
                    L->cluster.id.x, L->cluster.id.y, L->cluster.id.z, c->rank, c->block_idx.x,
                    c->block_idx.y, c->block_idx.z, t->tid, t->view.thread_idx.x, t->view.thread_idx.y,
                    t->view.thread_idx.z);
    emu_report_line("phase", "cluster barrier phase %u (this thread has completed %u cluster waits)",
                    L->cluster.phase, t->waits);
}

const char *emu_schedule_name(const emu_schedule *s, char *buf, size_t n)
{
    switch (s->kind) {
    case EMU_SCHED_ASC: snprintf(buf, n, "asc (CTAs run ahead in ascending rank order)"); break;
    case EMU_SCHED_DESC: snprintf(buf, n, "desc (CTAs run ahead in descending rank order)"); break;
    case EMU_SCHED_RANDOM: snprintf(buf, n, "random:%llu", (unsigned long long)s->seed); break;
    case EMU_SCHED_INTERLEAVE: snprintf(buf, n, "interleave (threads switch at every remote access)"); break;
    }
    return buf;
}

/* The machine-readable line printed before every report (the grader reads the kind from it, never from words). */
static void print_kind_line(void)
{
    fprintf(stderr, "%s%s\n", DSM_REPORT_KIND_LINE_PREFIX, dsm_report_kind_name(last_report.kind));
}

void emu_report_print(void)
{
    print_kind_line();
    fputs(report_text, stderr);
    fputs("\n", stderr);
    fflush(stderr);
}

void emu_report_end(void)
{
    if (emu_cur) {
        char b[96];
        emu_report_line("schedule", "%s", emu_schedule_name(&emu_cur->sched, b, sizeof b));
    }
    appendf("\n");
    if (verbose) {
        size_t title = strcspn(report_text, "\n");
        const void *kernel = emu_cur ? (const void *)emu_cur->kernel : NULL;
        if (kernel == printed_kernel && title == strlen(printed_title) &&
            strncmp(report_text, printed_title, title) == 0) {
            if (!repeat_noted) {
                print_kind_line();
                fprintf(stderr, "dsm-emu: the same report again%s%s (not printed again while it repeats)\n\n",
                        emu_cur ? " for kernel " : "", emu_cur ? emu_cur->kernel->name : "");
            }
            repeat_noted = true;
        } else {
            print_kind_line();
            fputs(report_text, stderr);
            snprintf(printed_title, sizeof printed_title, "%.*s", (int)title, report_text);
            printed_kernel = kernel;
            repeat_noted = false;
        }
        fflush(stderr);
    }
}

_Noreturn void emu_abort_launch(void)
{
    emu_launch *L = emu_cur;
    L->aborting = 1;
    siglongjmp(L->abort_jmp, EMU_JMP_REPORTED);
}

void emu_report_simple(emu_thread *t, dsm_report_kind kind, dsm_error_t err, const char *title, const char *gpu,
                       const char *fix)
{
    if (!emu_report_begin(kind, err, "%s", title))
        return;
    emu_report_who(emu_cur, t);
    emu_report_site("where", t->site);
    emu_report_line("on GPU", "%s", gpu);
    emu_report_line("fix", "%s", fix);
    emu_report_end();
}
