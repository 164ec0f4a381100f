/* emu_diagnostics.h: the emulator's diagnostics layer: reports (what a learner reads) and ending a launch
 * after one. Calls only state/ and base/. */
#ifndef DSM_EMU_DIAGNOSTICS_H
#define DSM_EMU_DIAGNOSTICS_H

#include "../state/emu_state.h"

/* ---- report.c ---- */
/* Starts a report (the first of a launch wins; later ones are dropped). Returns
 * false when a report already exists. */
bool emu_report_begin(dsm_report_kind kind, dsm_error_t err, const char *title_fmt, ...)
    __attribute__((format(printf, 3, 4)));
void emu_report_line(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emu_report_who(emu_launch *L, emu_thread *t);
void emu_report_site(const char *label, emu_site site);
void emu_report_pc(const char *label, void *pc);
/* Whether a code address lies in the emulator's own sources (runtime/emu/). */
bool emu_pc_in_emulator(void *pc);
/* "file.cu:12" for a site (a plain access's through addr2line). */
const char *emu_site_short(emu_site site, char *buf, size_t n);
/* One event of a report's timeline: what a thread of CTA `cta` did in cluster-barrier interval `interval`. */
typedef struct emu_tl_event {
    int32_t cta;
    uint32_t interval, tid;
    const char *what;
    emu_site site;
} emu_tl_event;
/* Ends a lifetime or race report with a small picture per CTA: its phases, its exit, the events. */
void emu_report_timeline(emu_launch *L, const emu_tl_event *ev, int nev);
void emu_report_end(void);
/* Prints the report now, without a schedule line, with its kind line first (an invalid launch: nothing ran). */
void emu_report_print(void);
/* A report with who, where, the GPU's behaviour and the fix, nothing else. */
void emu_report_simple(emu_thread *t, dsm_report_kind kind, dsm_error_t err, const char *title, const char *gpu,
                       const char *fix);
bool emu_report_pending(void);
dsm_error_t emu_report_error(void);
void emu_report_reset(void);
const char *emu_schedule_name(const emu_schedule *s, char *buf, size_t n);
/* Ends the launch now: the report is made; unwinds to dsm_launch. */
/* Ends the launch now: the report is made; unwinds to dsm_launch (sigsetjmp in api/launch.c). */
_Noreturn void emu_abort_launch(void);
/* How a launch's run unwinds to dsm_launch: after a report, a caught fault, a timeout. */
enum { EMU_JMP_REPORTED = 1, EMU_JMP_FAULT = 2, EMU_JMP_TIMEOUT = 3 };
/* 0 after dsm_emu_set_verbose(0): reports are recorded but not printed. */
int emu_report_verbose(void);

/* ---- report_states.c ---- */
/* One report line per CTA: its threads grouped by state and line. */
void emu_report_cta_states(emu_launch *L);

/* ---- report_access.c: reports shared by several mechanisms ---- */
/* The lines every lifetime-trap report ends with, whatever made the access: when and where owner
 * exited, what the GPU does, the fix. */
void emu_report_dead_peer_tail(const emu_cta *owner);
/* Thread t accessed (`what`) shared memory of CTA `owner` after owner exited: the lifetime trap. */
void emu_report_dead_peer(emu_thread *t, emu_cta *owner, size_t off, const char *what);
/* Thread t read the poison at `off` of owner's shared memory: unpublished (a peer's) or uninitialised (its own). */
void emu_report_poison(emu_thread *t, emu_cta *owner, size_t off);

#endif
