/* lifetime.c: a CTA's shared memory lives until its exit, so every peer's access to it (loads, stores, atomics, flags, mbarrier arrives, bulk copies in and out) must happen before that exit; checked by happens-before, whatever the schedule showed. */
#include <string.h>

#include "emu_checks.h"

void emu_lifetime_note(emu_thread *t, emu_cta *owner, size_t off, emu_peer_what what, const emu_site *site)
{
    emu_cta *c = t->cta;
    emu_peer_access *a = &owner->peer_last[c->rank];
    /* Clocks only grow: the access with the highest clock of a peer is the one
     * whose ordering before the exit implies the others' (the first one with
     * that clock is kept: no thread of the peer released anything since). */
    uint32_t epoch = c->vc[c->rank];
    if (a->valid && a->epoch >= epoch)
        return;
    a->valid = true;
    a->cta_level = false;
    a->what = (uint8_t)what;
    a->tid = (uint16_t)t->tid;
    a->epoch = epoch;
    a->tepoch = t->epoch;
    a->syncs = t->syncs;
    a->waits = t->waits;
    a->off = off;
    a->site = *site;
    memset(&a->via, 0, sizeof a->via);
}

void emu_lifetime_note_copy_out(emu_thread *t, emu_cta *owner, size_t off, const emu_site *copy)
{
    emu_lifetime_note(t, owner, off, EMU_PEER_COPY_OUT, copy);
    emu_peer_access *a = &owner->peer_last[t->cta->rank];
    if (a->what != EMU_PEER_COPY_OUT || a->site.line != copy->line || a->site.file != copy->file)
        return; /* a later access of that CTA stands for it */
    /* The completion is known to the waiting CTA from the wait on: whichever of
     * its threads then signals the owner carries it. */
    a->cta_level = true;
    a->via = t->site;
}

/* Whether peer access a happened before CTA c's exit: c acquired the peer's
 * clock at the access, and (as for races) the accessing thread itself released
 * something since, or passed a __syncthreads after which a CTA mate could. */
static bool ordered_before_exit(emu_launch *L, const emu_peer_access *a, uint32_t peer, const emu_cta *c)
{
    if (c->vc[peer] < a->epoch)
        return false;
    if (a->cta_level)
        return true;
    const emu_thread *x = &L->cluster.ctas[peer].threads[a->tid];
    return !(x->epoch == a->tepoch && x->syncs == a->syncs);
}

static const char *what_word(emu_peer_what w)
{
    switch (w) {
    case EMU_PEER_READ: return "read of";
    case EMU_PEER_WRITE: return "write of";
    case EMU_PEER_ATOMIC: return "atomic or flag access to";
    case EMU_PEER_ARRIVE: return "remote arrive on an mbarrier in";
    case EMU_PEER_COPY_IN: return "bulk copy (or st.async) into";
    case EMU_PEER_COPY_OUT: return "bulk copy out of";
    }
    return "access to";
}

static void report_hazard(emu_launch *L, emu_cta *c, uint32_t peer, const emu_peer_access *a)
{
    emu_cta *p = &L->cluster.ctas[peer];
    bool copy_out = a->what == EMU_PEER_COPY_OUT;
    bool begun = copy_out ? emu_report_begin(DSM_REPORT_LIFETIME_HAZARD, dsmErrorLaunchFailure,
                                             "lifetime trap: rank %u exited before it knew that its bulk copy to "
                                             "rank %u had finished reading its shared memory", c->rank, peer)
                          : emu_report_begin(DSM_REPORT_LIFETIME_HAZARD, dsmErrorLaunchFailure,
                                             "lifetime trap: rank %u exited while rank %u's %s its shared "
                                             "memory was not ordered before the exit",
                                             c->rank, peer, what_word((emu_peer_what)a->what));
    if (!begun)
        return;
    if (copy_out) {
        emu_report_line("copy", "issued by rank %u, from offset 0x%zx of its shared memory:", c->rank, a->off);
        emu_report_site("", a->site);
        emu_report_line("seen", "rank %u saw it complete at this wait, and nothing rank %u acquired from rank %u "
                                "came after it:", peer, c->rank, peer);
        emu_report_site("", a->via);
    } else {
        emu_report_line("access", "rank %u thread %u, offset 0x%zx of rank %u's shared memory:", peer, a->tid, a->off,
                        c->rank);
        emu_report_site("", a->site);
    }
    emu_report_line("exit", "rank %u's last thread returned after:", c->rank);
    emu_report_site("", c->exit_site);
    emu_report_line("phase", "cluster barrier phase %u; rank %u %s", L->cluster.phase, peer,
                    p->exited ? "has exited too" : "is still running");
    emu_report_line("on GPU", "cudaErrorLaunchFailure (719, \"unspecified launch failure\") whenever rank %u "
                              "finishes first; it depends on timing, so often only sometimes", c->rank);
    if (copy_out)
        emu_report_line("fix", "the sender may leave only after the receiver waited for the copy and told it so: "
                               "every CTA passes a cluster barrier (dsm_cluster_sync) after its last wait and "
                               "before it exits");
    else
        emu_report_line("fix", "keep every CTA alive until its peers are done with its memory: all CTAs reach a "
                               "cluster barrier (dsm_cluster_sync) after the last remote access and before they "
                               "exit");
    static const char *const label[] = {"its read", "its write", "its atomic", "its arrive", "its copy", "the copy"};
    emu_tl_event ev = {(int32_t)peer, a->waits, a->tid, label[a->what], a->site};
    emu_report_timeline(L, &ev, 1);
    emu_report_end();
}

void emu_race_check_exit(emu_launch *L, emu_cta *c)
{
    if (emu_report_pending())
        return;
    for (uint32_t r = 0; r < L->cluster.ncta; r++) {
        const emu_peer_access *a = &c->peer_last[r];
        if (r == c->rank || !a->valid || ordered_before_exit(L, a, r, c))
            continue;
        report_hazard(L, c, r, a);
        return;
    }
}
