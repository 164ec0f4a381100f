/* emu_engine.h: the emulator's engine: the scheduler (threads as fibers, a deterministic schedule, deadlock
 * detection), faults and the watchdog, and the hook table through which it reaches the mechanisms without
 * calling them. Calls only checks/, diagnostics/, state/ and base/. */
#ifndef DSM_EMU_ENGINE_H
#define DSM_EMU_ENGINE_H

#include "../checks/emu_checks.h"

/* What the engine (and a mechanism that must reach one above it) calls through: api/launch.c fills it
 * before every launch. Every entry is set. */
typedef struct emu_hooks {
    /* Land what the mechanisms hold in flight (all of it, or one operation, as the schedule says): when
     * nothing can run, and between turns in a random schedule; whether anything landed. */
    bool (*progress)(emu_launch *L);
    /* Whether spinning thread t's last flag poll would read what it read then (it stays asleep). */
    bool (*poll_unchanged)(emu_launch *L, const emu_thread *t);
    /* Thread t returned from the kernel. */
    void (*thread_exit)(emu_launch *L, emu_thread *t);
    /* The last thread of CTA c exited: what is still in flight into or out of its memory (before it is retired). */
    void (*cta_exit)(emu_launch *L, emu_cta *c);
    /* Every live thread is blocked: a report more precise than "deadlock"; whether one was made. */
    bool (*explain_stuck)(emu_launch *L);
    /* The cluster ran to its end with no thread left: the last checks. */
    void (*cluster_end)(emu_launch *L);
    /* The cluster's state is freed (after a report too). */
    void (*cluster_free)(emu_launch *L);
    /* A thread starts waiting on mbarrier `mbar` of the cluster (what completes on it lands, at the latest
     * now); a thread's wait on it succeeded. */
    void (*mbarrier_wait)(emu_launch *L, uint32_t mbar);
    void (*mbarrier_waited)(emu_launch *L, emu_thread *t, uint32_t mbar);
    /* Extra lines for a report of mbarrier m stuck with bytes that never come. */
    void (*mbarrier_stuck_hint)(emu_launch *L, const emu_mbarrier *m);
} emu_hooks;
extern emu_hooks emu_hook;

/* ---- scheduler.c ---- */
/* Runs the cluster L->cluster.id to its end under L->sched; a report (or a fault) unwinds to api/launch.c. */
dsm_error_t emu_run_cluster(emu_launch *L);
void emu_cluster_free(emu_launch *L);
/* Thread t stops in `state` (it runs again after emu_wake); makes it runnable; lets the schedule pick. */
void emu_block(emu_thread *t, emu_thread_state state);
void emu_wake(emu_thread *t);
void emu_yield(emu_thread *t);
/* A point where the interleaving schedules (interleave; random, one time in eight) let another thread run:
 * remote accesses, bulk-copy and st.async issue. */
void emu_schedule_point(emu_thread *t);
/* CTA c's static shared memory is the live one in the kernel unit's section. */
void emu_activate_cta(emu_launch *L, emu_cta *c);

/* ---- fault.c ---- */
void emu_fault_install(void);
void emu_fault_restore(void);
/* Makes the report for a fault or timeout caught by the signal handlers. */
void emu_fault_report(emu_launch *L, int why);
/* The watchdog fired while the scheduler ran: the timeout report for the thread that ran last. */
void emu_timeout_report(emu_launch *L);
void emu_watchdog_start(unsigned seconds);
void emu_watchdog_stop(void);

#endif
