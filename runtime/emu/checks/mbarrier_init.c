/* mbarrier_init.c: an mbarrier may be used only by threads its mbarrier.init happens before; fence.mbarrier_init.release.cluster is a release restricted to the thread's prior inits, which a following relaxed cluster arrive carries to the threads that wait on that phase (PTX ISA, membar/fence). */
#include "emu_checks.h"

void emu_mbarrier_init_record(emu_thread *t, emu_mbarrier *m)
{
    emu_cta *c = t->cta;
    m->init_tid = t->tid;
    m->init_epoch = c->vc[c->rank];
    m->init_tepoch = t->epoch;
    m->init_syncs = t->syncs;
    m->init_gen = t->bar_gen;
    m->init_arrivals = t->arrivals;
    m->init_fenced = false;
    m->init_pub_phase = 0;
    emu_parity_free(m); /* a new barrier: no thread has waited on it */
}

void dsm_emu_fence_mbarrier_init(const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_cluster *cl = &emu_cur->cluster;
    /* only this thread's earlier inits are ordered: no data, no other thread's init */
    for (uint32_t i = 0; i < cl->nmbars; i++) {
        emu_mbarrier *m = &cl->mbars[i];
        if (m->init && m->cta == t->cta->rank && m->init_tid == t->tid && !m->init_fenced) {
            m->init_fenced = true;
            t->init_fence_pending = true;
        }
    }
}

void emu_mbarrier_init_arrive(emu_thread *t, uint32_t phase)
{
    emu_cluster *cl = &emu_cur->cluster;
    t->init_fence_pending = false;
    for (uint32_t i = 0; i < cl->nmbars; i++) {
        emu_mbarrier *m = &cl->mbars[i];
        if (m->init && m->cta == t->cta->rank && m->init_tid == t->tid && m->init_fenced && !m->init_pub_phase)
            m->init_pub_phase = phase + 1;
    }
}

/* Whether m's init happens before what thread t does now. */
static bool init_visible(emu_launch *L, const emu_thread *t, const emu_mbarrier *m)
{
    const emu_cta *c = t->cta;
    /* fence.mbarrier_init + barrier.cluster.arrive.relaxed in phase P: released to whoever waited on P */
    if (m->init_pub_phase && t->waits >= m->init_pub_phase)
        return true;
    if (c->rank == m->cta) {
        /* the same thread, a __syncthreads since, or a release cluster arrive after it that t waited for */
        if (t->tid == m->init_tid || t->syncs > m->init_syncs ||
            emu_arrive_released(&c->threads[m->init_tid], m->init_arrivals, t->waits))
            return true;
        /* an mbarrier wait or a flag acquired the initialising thread's release */
        return t->bar_gen == m->init_gen && t->known.e && t->known.cta == (int32_t)c->rank &&
               t->known.gen == t->bar_gen && t->known.e[m->init_tid] >= m->init_tepoch;
    }
    /* any full release of the initialising thread (a .release cluster arrive, a flag) that t's CTA acquired */
    const emu_thread *x = &L->cluster.ctas[m->cta].threads[m->init_tid];
    return c->vc[m->cta] >= m->init_epoch && !(x->epoch == m->init_tepoch && x->syncs == m->init_syncs);
}

void emu_mbarrier_check_init_visible(emu_launch *L, emu_thread *t, emu_mbarrier *m, const char *what)
{
    if (init_visible(L, t, m))
        return;
    bool remote = t->cta->rank != m->cta;
    const emu_thread *x = &L->cluster.ctas[m->cta].threads[m->init_tid];
    if (emu_report_begin(DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse,
                         "%s on an mbarrier whose mbarrier.init is not known to have happened before it", what)) {
        emu_report_who(L, t);
        emu_report_site("where", t->site);
        emu_report_line("mbarrier", "rank %u's shared memory, offset 0x%x, initialised by its thread %u at:", m->cta,
                        m->offset, m->init_tid);
        emu_report_site("", m->init_site);
        if (!remote)
            emu_report_line("why", "nothing orders the init before this use: no __syncthreads (or barrier) between "
                                   "the initialising thread and this one");
        else if (x->arrivals > 0 && !m->init_fenced && x->epoch == m->init_tepoch)
            emu_report_line("why", "rank %u's thread %u arrived on the cluster barrier with .relaxed after the init "
                                   "and without fence.mbarrier_init: a relaxed arrive releases nothing, so the init "
                                   "may not be visible when this %s reaches the barrier", m->cta, m->init_tid, what);
        else
            emu_report_line("why", "no cluster barrier (or other release and acquire) lies between rank %u's init "
                                   "and this use", m->cta);
        emu_report_line("on GPU", "undefined: the operation may reach a barrier word that is not initialised yet; "
                                  "arrivals or bytes are lost, waits hang or pass early");
        emu_report_line("fix", remote ? "the owner initialises, then releases the init to the cluster before any peer "
                                        "uses it: a cluster barrier with the default .release arrive "
                                        "(dsm_cluster_sync) does it; with dsm_barrier_cluster_arrive_relaxed, call "
                                        "dsm_fence_mbarrier_init() between the init and the arrive"
                                      : "one thread initialises, then __syncthreads() before the other threads of the "
                                        "block use the barrier");
        emu_report_end();
    }
    emu_abort_launch();
}
