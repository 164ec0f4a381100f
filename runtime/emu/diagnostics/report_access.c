/* report_access.c: the reports several mechanisms make about one access: a dead peer's memory (the lifetime trap) and a read of the poison. */
#include "emu_diagnostics.h"

void emu_report_dead_peer_tail(const emu_cta *owner)
{
    emu_report_line("exited", "rank %u exited in phase %u; its last thread returned after:", owner->rank,
                    owner->exit_phase);
    emu_report_site("", owner->exit_site);
    emu_report_line("on GPU", "cudaErrorLaunchFailure (719, \"unspecified launch failure\"), often only "
                              "sometimes: it depends on which CTA finishes first");
    emu_report_line("fix", "keep rank %u alive: every CTA must reach a cluster barrier (dsm_cluster_sync) after "
                           "the last remote access and before it exits", owner->rank);
}

void emu_report_dead_peer(emu_thread *t, emu_cta *owner, size_t off, const char *what)
{
    emu_launch *L = emu_cur;
    if (!emu_report_begin(DSM_REPORT_LIFETIME, dsmErrorLaunchFailure,
                          "lifetime trap: %s of rank %u's shared memory after rank %u exited", what, owner->rank,
                          owner->rank))
        return;
    emu_report_who(L, t);
    emu_report_site("where", t->site);
    emu_report_line("memory", "rank %u's shared memory, offset 0x%zx", owner->rank, off);
    emu_report_dead_peer_tail(owner);
    emu_tl_event ev = {(int32_t)t->cta->rank, t->waits, t->tid, "this access", t->site};
    emu_report_timeline(L, &ev, 1);
    emu_report_end();
}

void emu_report_poison(emu_thread *t, emu_cta *owner, size_t off)
{
    emu_launch *L = emu_cur;
    bool remote = owner != t->cta;
    bool begun = remote ? emu_report_begin(DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected,
                                           "read of rank %u's shared memory before rank %u wrote and published it",
                                           owner->rank, owner->rank)
                        : emu_report_begin(DSM_REPORT_UNINITIALIZED_READ, dsmErrorUninitializedRead,
                                           "read of uninitialised shared memory (rank %u wrote nothing there)",
                                           owner->rank);
    if (!begun)
        return;
    emu_report_who(L, t);
    emu_report_site("where", t->site);
    emu_report_line("memory", "rank %u's shared memory, offset 0x%zx, still holds the poison 0x%08X", owner->rank,
                    off, EMU_POISON_WORD);
    if (remote) {
        emu_report_line("on GPU", "no error: the read returns whatever was there (old or garbage data)");
        emu_report_line("fix", "the owner writes, then every CTA passes a cluster barrier (arrive.release + "
                               "wait.acquire, e.g. dsm_cluster_sync) before any peer reads");
    } else {
        if (t->wait_site.file && t->wait_immediate) {
            char w[256];
            emu_report_line("last wait", "this thread's last mbarrier wait (%s, parity %u) returned at once: its "
                                         "phase had completed before; a wrong parity does not wait for the data",
                            emu_site_short(t->wait_site, w, sizeof w), t->wait_parity);
        }
        emu_report_line("on GPU", "no error: the read returns garbage");
        emu_report_line("fix", "write the data first (or wait for the copy that fills it), then __syncthreads "
                               "(or the mbarrier wait), then read it");
    }
    emu_report_end();
}
