/* fault.c: turns crashes and runaway threads inside kernels into reports (SIGSEGV on a dead peer's memory is the lifetime trap). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>

#include "emu_engine.h"

/* What the signal handler saw; the report is made after unwinding, outside it. */
static struct {
    int sig;
    void *addr, *pc;
    int write; /* 1 write, 0 read, -1 unknown */
    emu_thread *thread;
} fault;

static void *pc_of(void *uctx, int *write)
{
    ucontext_t *uc = uctx;
    *write = -1;
#if defined(__x86_64__)
    *write = (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
    return (void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (void *)uc->uc_mcontext.pc;
#else
    (void)uc;
    return NULL;
#endif
}

static void on_signal(int sig, siginfo_t *si, void *uctx)
{
    emu_launch *L = emu_cur;
    if (sig == SIGALRM && L && !L->aborting && !emu_self_thread) {
        /* between threads, in the scheduler: it ends the launch at its next step */
        L->timeout_pending = 1;
        return;
    }
    if (!L || !emu_self_thread || L->aborting) {
        if (sig == SIGALRM)
            return;
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    fault.sig = sig;
    fault.addr = si ? si->si_addr : NULL;
    fault.pc = pc_of(uctx, &fault.write);
    fault.thread = emu_self_thread;
    L->aborting = 1;
    siglongjmp(L->abort_jmp, sig == SIGALRM ? EMU_JMP_TIMEOUT : EMU_JMP_FAULT);
}

static const int caught[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM};
static struct sigaction saved[sizeof caught / sizeof caught[0]];

/* Installs the handlers for the duration of one launch (test frameworks such
 * as cmocka install their own between tests; emu_fault_restore puts them back). */
void emu_fault_install(void)
{
    static unsigned char altstack[1 << 16];
    static int have_altstack;
    if (!have_altstack) {
        stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
        sigaltstack(&ss, NULL);
        have_altstack = 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaction(caught[i], &sa, &saved[i]);
}

void emu_fault_restore(void)
{
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++)
        sigaction(caught[i], &saved[i], NULL);
}

void emu_watchdog_start(unsigned seconds)
{
    /* repeating: should one expiry be missed, the next one comes a quarter second later */
    struct itimerval it = {{0, 250000}, {(time_t)seconds, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
}

void emu_watchdog_stop(void)
{
    struct itimerval it = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &it, NULL);
}

static void fault_lifetime(emu_launch *L, emu_thread *t, emu_cta *owner)
{
    const char *rw = fault.write == 1 ? "write" : fault.write == 0 ? "read" : "access";
    if (!emu_report_begin(DSM_REPORT_LIFETIME, dsmErrorLaunchFailure,
                          "lifetime trap: %s of rank %u's shared memory after rank %u exited", rw, owner->rank,
                          owner->rank))
        return;
    emu_report_who(L, t);
    emu_report_pc("where", fault.pc);
    emu_report_line("memory", "rank %u's shared memory, offset 0x%zx, through a plain pointer", owner->rank,
                    (size_t)((unsigned char *)fault.addr - owner->window));
    emu_report_dead_peer_tail(owner);
    emu_site here = {NULL, 0, fault.pc};
    emu_tl_event ev = {(int32_t)t->cta->rank, t->waits, t->tid, "this access", here};
    emu_report_timeline(L, &ev, 1);
    emu_report_end();
}

void emu_timeout_report(emu_launch *L)
{
    memset(&fault, 0, sizeof fault);
    fault.sig = SIGALRM;
    fault.thread = L->last_thread;
    emu_fault_report(L, EMU_JMP_TIMEOUT);
}

void emu_fault_report(emu_launch *L, int why)
{
    emu_thread *t = fault.thread;
    if (why == EMU_JMP_TIMEOUT) {
        if (!emu_report_begin(DSM_REPORT_TIMEOUT, dsmErrorLaunchTimeout,
                              "the kernel ran past the time limit: an endless loop?"))
            return;
        if (!t) {
            emu_report_line("where", "between threads (every thread kept yielding: a poll loop?)");
        } else {
            emu_report_who(L, t);
            /* the kernel's line: where the signal landed, unless that was inside the emulator */
            if (fault.pc && !emu_pc_in_emulator(fault.pc))
                emu_report_pc("where", fault.pc);
            else if (emu_last_plain_pc && L->last_thread == t)
                emu_report_pc("where", emu_last_plain_pc);
            else if (t->site.file)
                emu_report_site("where", t->site);
            if (t->site.file)
                emu_report_site("last call", t->site);
        }
        emu_report_line("on GPU", "the kernel hangs, or the watchdog ends it (cudaErrorLaunchTimeout, 702)");
        emu_report_line("fix", "check loop conditions and spin loops (a flag nobody sets, a try_wait on the "
                               "wrong parity); the limit is DSM_EMU_TIMEOUT seconds");
        emu_report_end();
        return;
    }
    bool guard = false;
    emu_cta *owner = emu_cta_of_fault(L, fault.addr, &guard);
    if (owner && owner->exited && !guard) {
        fault_lifetime(L, t, owner);
        return;
    }
    if (owner && guard) {
        if (!emu_report_begin(DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress,
                              "access just outside rank %u's shared memory (%zu bytes allocated)", owner->rank,
                              L->window_bytes))
            return;
        emu_report_who(L, t);
        emu_report_pc("where", fault.pc);
        emu_report_line("on GPU", "cudaErrorIllegalAddress (700) or a silent access to another variable");
        emu_report_line("fix", "check the index against the size of the shared array");
        emu_report_end();
        return;
    }
    bool stack = fiber_stacks_is_guard(&L->stacks, fault.addr);
    const char *what = fault.sig == SIGFPE ? "arithmetic fault (integer division by zero?)"
                       : fault.sig == SIGILL ? "illegal instruction"
                       : stack ? "stack overflow in a kernel thread (a large local array? deep recursion?)"
                               : "invalid memory access";
    if (!emu_report_begin(DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, "%s at address %p", what, fault.addr))
        return;
    emu_report_who(L, t);
    emu_report_pc("where", fault.pc);
    emu_report_line("on GPU", "cudaErrorIllegalAddress (700): an out-of-range index or a pointer the kernel "
                              "may not use (host memory, freed memory, NULL)");
    emu_report_line("fix", "check indices against buffer sizes; global memory must come from dsm_malloc");
    emu_report_end();
}
