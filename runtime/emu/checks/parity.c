/* parity.c: stale parity: a wait on an mbarrier that returns because of a phase its thread has already waited for (the same parity twice in a row) while the next phase has begun lets the thread read data that has not landed. */
#include <stdlib.h>

#include "emu_checks.h"

/* What one thread's last successful wait on one mbarrier matched. */
typedef struct emu_wait_seen {
    uint32_t phase1;            /* 1 + the phase that satisfied it, 0: none yet */
    uint32_t epoch;             /* the thread's release epoch then */
    emu_site site;
} emu_wait_seen;

void emu_parity_free(emu_mbarrier *m)
{
    free(m->seen);
    m->seen = NULL;
}

static _Noreturn void report_stale(emu_launch *L, emu_thread *t, emu_mbarrier *m, uint32_t parity, uint32_t matched,
                                   const emu_site *before)
{
    if (emu_report_begin(DSM_REPORT_MBARRIER_STALE_PARITY, dsmErrorBarrierMisuse,
                         "mbarrier wait satisfied by a phase this thread had already waited for: a stale parity")) {
        char w[256];
        emu_report_who(L, t);
        emu_report_site("wait", t->site);
        emu_report_line("mbarrier", "rank %u's shared memory, offset 0x%x, initialised at:", m->cta, m->offset);
        emu_report_site("", m->init_site);
        emu_report_line("phases", "%u phases completed; this wait for parity %u returned because of phase %u, which "
                                  "this thread already waited for (%s); it probably meant phase %u (parity %u)",
                        m->phase, parity, matched, emu_site_short(*before, w, sizeof w), matched + 1,
                        (matched + 1) & 1u);
        emu_report_line("why", "a parity names the most recent phase of that parity: once phase %u completed, a "
                               "wait for parity %u returns at once until phase %u completes, so waiting for the "
                               "same parity twice in a row waits for nothing the second time",
                        matched, parity, matched + 2);
        emu_report_line("on GPU", "no error: the wait returns at once and the thread goes on to read a slot whose "
                                  "bytes have not landed (old or mixed data)");
        emu_report_line("fix", "count the uses of each barrier and wait for parity (use & 1), the use counter "
                               "advancing after every wait: in a ring of S slots the k-th chunk waits on slot k %% S "
                               "for parity (k / S) & 1");
        emu_report_end();
    }
    emu_abort_launch();
}

void emu_parity_check(emu_launch *L, emu_thread *t, emu_mbarrier *m, uint32_t parity)
{
    /* The wait returned because phase m->phase - 1 (the last completed one, of
     * this parity) is complete; with none completed it asked about the phase
     * "before" phase 0, which other checks report (the data it reads). */
    if (m->phase == 0)
        return;
    uint32_t matched = m->phase - 1;
    emu_cta *c = &L->cluster.ctas[m->cta];
    if (!m->seen) {
        m->seen = calloc(c->nthreads, sizeof *m->seen);
        if (!m->seen)
            return;
    }
    emu_wait_seen *s = &m->seen[t->tid];
    /* Waiting again on the phase it already took is legal while nothing began the next one (no arrive, no
     * expect_tx, no bytes landed) and the thread released nothing since (a release tells a producer the
     * phase's data were consumed): the data are still there. Otherwise the wait meant the next phase. */
    bool next_begun = m->pending != m->expected || m->tx != 0 || t->epoch != s->epoch;
    if (s->phase1 == matched + 1 && next_begun)
        report_stale(L, t, m, parity, matched, &s->site);
    s->phase1 = matched + 1;
    s->epoch = t->epoch;
    s->site = t->site;
}

/* Every thread is blocked. A thread stuck waiting for phase k + 2 whose last
 * wait on that mbarrier took phase k, while phase k + 1 completed unseen by
 * it, asked for the same parity twice: that is the parity bug behind the hang. */
bool emu_parity_report_stuck(emu_launch *L)
{
    for (uint32_t r = 0; r < L->cluster.ncta; r++)
        for (uint32_t i = 0; i < L->cluster.ctas[r].nthreads; i++) {
            emu_thread *t = &L->cluster.ctas[r].threads[i];
            if (t->state != EMU_AT_MBARRIER)
                continue;
            emu_mbarrier *m = &L->cluster.mbars[t->mbar_idx];
            if (!m->seen || !m->seen[t->tid].phase1)
                continue;
            uint32_t last = m->seen[t->tid].phase1 - 1;
            if (m->phase < last + 2)
                continue;
            if (!emu_report_begin(DSM_REPORT_MBARRIER_STALE_PARITY, dsmErrorBarrierMisuse,
                                  "an mbarrier wait that skips a phase and never completes: a stale parity"))
                return true;
            char w[256];
            emu_report_who(L, t);
            emu_report_site("wait", t->site);
            emu_report_line("mbarrier", "rank %u's shared memory, offset 0x%x, initialised at:", m->cta, m->offset);
            emu_report_site("", m->init_site);
            emu_report_line("phases", "%u phases completed; this thread's last wait on it took phase %u (%s); phase %u "
                                      "has completed since, but this wait for parity %u asks for phase %u, which "
                                      "nobody will complete; it probably meant phase %u (parity %u)",
                            m->phase, last, emu_site_short(m->seen[t->tid].site, w, sizeof w), last + 1,
                            t->mbar_parity, m->phase, last + 1, (last + 1) & 1u);
            emu_report_line("why", "a parity names the most recent phase of that parity: waiting for the same parity "
                                   "twice in a row either returns at once (the old phase) or, once the next phase has "
                                   "completed too, waits for the one after it");
            emu_report_cta_states(L);
            emu_report_line("on GPU", "the kernel hangs, or (when the wait comes before the phase completes) the wait "
                                      "returns at once and the thread reads data that has not landed");
            emu_report_line("fix", "count the uses of each barrier and wait for parity (use & 1), the use counter "
                                   "advancing after every wait: in a ring of S slots the k-th chunk waits on slot k %% "
                                   "S for parity (k / S) & 1");
            emu_report_end();
            return true;
        }
    return false;
}

