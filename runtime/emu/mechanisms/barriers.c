/* barriers.c: __syncthreads, the cluster barrier (arrive/wait over non-exited threads) and what happens when threads and CTAs exit. */
#include <string.h>

#include "emu_mechanisms.h"

static void report_divergence(emu_launch *L, emu_cta *c, emu_thread *t, const char *what)
{
    if (!emu_report_begin(DSM_REPORT_SYNCTHREADS_DIVERGENCE, dsmErrorBarrierMisuse,
                          "__syncthreads divergence: %s", what))
        return;
    emu_report_who(L, t);
    emu_report_site("where", t->site);
    uint32_t exited = 0, waiting = 0;
    for (uint32_t i = 0; i < c->nthreads; i++) {
        if (c->threads[i].state == EMU_EXITED) exited++;
        if (c->threads[i].state == EMU_AT_SYNCTHREADS) waiting++;
    }
    emu_report_line("threads", "rank %u: %u waiting at __syncthreads, %u exited, %u in all", c->rank, waiting,
                    exited, c->nthreads);
    emu_report_line("on GPU", "undefined behaviour: the CTA may hang or threads may pass the barrier early");
    emu_report_line("fix", "every thread of the block must reach the same __syncthreads: do not return early "
                           "or put the barrier inside a branch that some threads skip");
    emu_report_end();
}

/* Completes a __syncthreads when every live thread of c has arrived, checking
 * that they all wait at the same line and that none exited. */
static void syncthreads_try_complete(emu_launch *L, emu_cta *c)
{
    if (c->live == 0 || c->bar_arrived < c->live)
        return;
    emu_thread *first = NULL;
    for (uint32_t i = 0; i < c->nthreads; i++) {
        emu_thread *t = &c->threads[i];
        if (t->state != EMU_AT_SYNCTHREADS)
            continue;
        if (!first)
            first = t;
        else if (t->site.line != first->site.line || t->site.file != first->site.file) {
            report_divergence(L, c, t, "threads of one block wait at different __syncthreads");
            emu_abort_launch();
        }
    }
    if (c->live < c->nthreads) {
        report_divergence(L, c, first, "some threads of the block exited; the others wait at __syncthreads");
        emu_abort_launch();
    }
    c->bar_arrived = 0;
    c->bar_gen++;
    for (uint32_t i = 0; i < c->nthreads; i++) {
        emu_thread *t = &c->threads[i];
        if (t->state == EMU_AT_SYNCTHREADS) {
            t->bar_gen++;
            t->syncs++;
            emu_wake(t);
        }
    }
}

void dsm_emu_syncthreads(const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    emu_cta *c = t->cta;
    if (emu_counts_on)
        emu_count_sync(t);
    c->bar_arrived++;
    t->state = EMU_AT_SYNCTHREADS;
    syncthreads_try_complete(L, c);
    /* If our own arrival completed the barrier we are queued already. */
    emu_block(t, t->state);
}

/* Completes the current cluster phase: every non-exited thread arrived. The
 * waiters acquire what the arrivals released. */
static void cluster_phase_complete(emu_launch *L)
{
    emu_cluster *cl = &L->cluster;
    uint32_t done = cl->phase;
    emu_publication_phase_done(L, done);
    cl->phase++;
    cl->pending = cl->live_threads;
    memcpy(cl->done_vc, cl->phase_vc, sizeof cl->done_vc);
    memset(cl->phase_vc, 0, sizeof cl->phase_vc);
    for (uint32_t r = 0; r < cl->ncta; r++) {
        emu_cta *c = &cl->ctas[r];
        for (uint32_t i = 0; i < c->nthreads; i++) {
            emu_thread *t = &c->threads[i];
            if (t->state == EMU_AT_CLUSTER_WAIT && t->arrive_phase == done) {
                emu_acquire(c, cl->done_vc);
                c->passed_cluster_barrier = true;
                t->arrived_pending = false;
                t->waits++;
                emu_wake(t);
            }
        }
    }
}

static void report_cluster_misuse(emu_launch *L, emu_thread *t, dsm_report_kind kind, const char *title,
                                  const char *fix)
{
    if (!emu_report_begin(kind, dsmErrorBarrierMisuse, "%s", title))
        return;
    emu_report_who(L, t);
    emu_report_site("where", t->site);
    emu_report_line("on GPU", "undefined behaviour: the barrier's phases get out of step (hangs or early release)");
    emu_report_line("fix", "%s", fix);
    emu_report_end();
}

void dsm_emu_barrier_cluster_arrive(int relaxed, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    emu_cluster *cl = &L->cluster;
    if (t->arrived_pending) {
        report_cluster_misuse(L, t, DSM_REPORT_DOUBLE_ARRIVE,
                              "barrier.cluster.arrive twice without a wait in between",
                              "pair every dsm_barrier_cluster_arrive with one dsm_barrier_cluster_wait before "
                              "the next arrive");
        emu_abort_launch();
    }
    bool releases = !relaxed || t->fenced;
    if (releases) {
        /* release (or fence.acq_rel + arrive.relaxed): what this CTA did so far becomes visible to
         * whoever completes the wait */
        emu_release_to(t, cl->phase_vc, NULL);
        t->fenced = false;
    }
    if (t->init_fence_pending)
        emu_mbarrier_init_arrive(t, cl->phase);
    emu_publication_arrive(t->cta, !releases);
    if (emu_counts_on)
        emu_count_cluster_arrive(t, relaxed);
    t->arrived_pending = true;
    t->arrive_phase = cl->phase;
    t->release_arrives = t->release_arrives << 1 | (releases ? 1u : 0u);
    t->arrivals++;
    cl->pending--;
    if (cl->pending == 0)
        cluster_phase_complete(L);
}

void dsm_emu_barrier_cluster_wait(const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    if (emu_counts_on)
        emu_count_sync(t);
    if (!t->arrived_pending) {
        report_cluster_misuse(L, t, DSM_REPORT_WAIT_WITHOUT_ARRIVE,
                              "barrier.cluster.wait without an arrive before it",
                              "call dsm_barrier_cluster_arrive (or use dsm_cluster_sync) before waiting");
        emu_abort_launch();
    }
    if (t->arrive_phase < L->cluster.phase) {
        /* the phase completed before we got here */
        emu_acquire(t->cta, L->cluster.done_vc);
        t->cta->passed_cluster_barrier = true;
        t->arrived_pending = false;
        t->waits++;
        /* let the schedule, not the last arrival, decide who runs first after the barrier */
        emu_yield(t);
        return;
    }
    emu_block(t, EMU_AT_CLUSTER_WAIT);
}


static void cta_exited(emu_launch *L, emu_cta *c, emu_thread *last)
{
    c->exited = true;
    c->exit_site = last->site;
    c->exit_phase = L->cluster.phase;
    emu_hook.cta_exit(L, c);
    emu_race_check_exit(L, c);
    if (L->section_owner == c)
        L->section_owner = NULL;
    emu_window_retire(c);
}

void emu_thread_exited(emu_launch *L, emu_thread *t)
{
    emu_cta *c = t->cta;
    emu_cluster *cl = &L->cluster;
    if (emu_ww_pending && !emu_race_settle(L))
        emu_abort_launch();
    t->state = EMU_EXITED;
    L->progress++;
    c->live--;
    cl->live_threads--;
    if (!t->arrived_pending || t->arrive_phase < cl->phase) {
        /* it will never arrive in the current phase: stop waiting for it */
        cl->pending--;
    }
    if (c->live == 0)
        cta_exited(L, c, t);
    else if (c->bar_arrived > 0)
        syncthreads_try_complete(L, c);
    if (cl->live_threads > 0 && cl->pending == 0)
        cluster_phase_complete(L);
}
