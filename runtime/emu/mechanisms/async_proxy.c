/* async_proxy.c: bulk copies and st.async complete at their mbarrier, not at issue: the source may not be rewritten and the destination not read until then; generic writes a copy reads need fence.proxy.async first. */
#include <stdlib.h>
#include <string.h>

#include "emu_mechanisms.h"

static bool overlaps(size_t a, size_t an, size_t b, size_t bn) { return a < b + bn && b < a + an; }

void dsm_emu_fence_proxy_async(const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    t->proxy_fences++;
}

/* Generic-proxy writes of the source that no fence.proxy.async of their thread followed. */
static void check_proxy_fence(emu_launch *L, emu_thread *t, emu_cta *sc, size_t soff, uint32_t bytes)
{
    uint32_t tid;
    emu_site wsite;
    size_t woff;
    if (!emu_race_unfenced_write(L, sc, soff, bytes, &tid, &wsite, &woff))
        return;
    if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                         "cp.async.bulk reads data written by ordinary stores with no fence.proxy.async in between")) {
        emu_report_who(L, t);
        emu_report_site("where", t->site);
        emu_report_line("memory", "rank %u's shared memory, offset 0x%zx, the copy's source", sc->rank, woff);
        emu_report_line("written", "by thread %u, with no dsm_fence_proxy_async_shared_cta after it:", tid);
        emu_report_site("", wsite);
        emu_report_line("why", "bulk copies read through the async proxy, which does not see the generic "
                               "proxy's writes in order without a proxy fence");
        emu_report_line("on GPU", "no error: the copy may send stale bytes, rarely and depending on timing");
        emu_report_line("fix", "every thread that wrote the source calls dsm_fence_proxy_async_shared_cta() "
                               "after its writes and before the barrier that lets the copy start");
        emu_report_end();
    }
    emu_abort_launch();
}

/* A copy into memory an earlier copy still fills: the slot was reused before its reader released it.
 * multicast: the new copy is a .multicast::cluster one, whose issuer must wait for every receiver. */
static void check_dst_in_flight(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, uint32_t bytes, int multicast)
{
    emu_cluster *cl = &L->cluster;
    for (uint32_t i = 0; i < cl->nops; i++) {
        emu_async_op *op = &cl->ops[i];
        if (op->done || op->dst_cta != dc->rank || !overlaps(doff, bytes, op->dst_off, op->bytes))
            continue;
        if (emu_report_begin(DSM_REPORT_RACE_WRITE_WRITE, dsmErrorRaceDetected,
                             "%s into rank %u's shared memory while an earlier copy into the same bytes "
                             "is still in flight", multicast ? "a multicast" : "a bulk copy", dc->rank)) {
            emu_report_who(L, t);
            emu_report_site("where", t->site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx (a ring slot %s?)", dc->rank,
                            doff > op->dst_off ? doff : op->dst_off, multicast ? "refilled too early" : "reused");
            if (multicast) {
                emu_report_line("earlier", "copy by rank %u thread %u, not yet completed (rank %u has not waited "
                                           "for it), so rank %u cannot have read it:", op->issuer_cta,
                                op->issuer_tid, dc->rank, dc->rank);
                emu_report_site("", op->site);
                emu_report_line("on GPU", "no error: rank %u reads the newer chunk, or a mix (silent corruption, "
                                          "e.g. inclusionAI/humming#54 and #56)", dc->rank);
                emu_report_line("fix", "a multicast writes into EVERY CTA of its mask, so its issuer may refill a "
                                       "slot only when every receiver released it: the issuer's \"empty\" mbarrier "
                                       "counts the releases of all n receivers (count = n x the arrivals of one), "
                                       "every receiver arrives on the empty barrier of every issuer, and the issuer "
                                       "waits on it (right parity) before each refill");
            } else {
                emu_report_line("earlier", "copy by rank %u thread %u, not yet completed (nobody waited for it), "
                                           "so its reader cannot have read it:", op->issuer_cta, op->issuer_tid);
                emu_report_site("", op->site);
                emu_report_line("on GPU", "no error: the reader gets the newer chunk, or a mix, in place of the "
                                          "older");
                emu_report_line("fix", "reuse a slot only after its reader released it: the reader arrives on an "
                                       "\"empty\" mbarrier of the producer (dsm_mbarrier_arrive_remote) when done, "
                                       "the producer waits on it (right parity) before the next copy into that slot");
            }
            emu_report_end();
        }
        emu_abort_launch();
    }
}

static void issue(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, emu_cta *sc, size_t soff,
                  const unsigned char *gsrc, const void *val, uint32_t bytes, emu_mbarrier *m, int multicast)
{
    emu_cluster *cl = &L->cluster;
    check_dst_in_flight(L, t, dc, doff, bytes, multicast);
    if (sc) {
        check_proxy_fence(L, t, sc, soff, bytes);
        /* the copy reads its source from now until it completes */
        if (!emu_race_access(L, t, sc, soff, bytes, DSM_EMU_LD, &t->site))
            emu_abort_launch();
    }
    /* ... and may write the destination at any moment from now on */
    if (!emu_race_access(L, t, dc, doff, bytes, DSM_EMU_ASYNC_ST, &t->site))
        emu_abort_launch();
    if (cl->nops == cl->cap_ops) {
        cl->cap_ops = cl->cap_ops ? 2 * cl->cap_ops : 16;
        cl->ops = realloc(cl->ops, cl->cap_ops * sizeof *cl->ops);
    }
    emu_async_op *op = &cl->ops[cl->nops++];
    memset(op, 0, sizeof *op);
    op->issuer_cta = t->cta->rank;
    op->issuer_tid = t->tid;
    op->dst_cta = dc->rank;
    op->dst_off = doff;
    op->src_cta = sc ? (int32_t)sc->rank : -1;
    op->src_off = soff;
    op->gsrc = gsrc;
    if (!sc && !gsrc)
        memcpy(op->val, val, bytes);
    op->bytes = bytes;
    op->mbar = (uint32_t)(m - cl->mbars);
    op->site = t->site;
    if (emu_counts_on && !gsrc)   /* a copy from global memory: counted once per instruction (bulk_global.c) */
        emu_count_async_issue(t, bytes);
    /* what the issuer had done by now is what the completion releases */
    emu_release(t->cta, op->vc);
    t->epoch++;
}

void emu_async_issue(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, emu_cta *sc, size_t soff,
                     const void *val, uint32_t bytes, emu_mbarrier *m)
{
    issue(L, t, dc, doff, sc, soff, NULL, val, bytes, m, 0);
}

void emu_async_issue_from_global(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, const unsigned char *gsrc,
                                 uint32_t bytes, emu_mbarrier *m, int multicast)
{
    issue(L, t, dc, doff, NULL, 0, gsrc, NULL, bytes, m, multicast);
}

void emu_async_check_source_fenced(emu_launch *L, emu_thread *t, emu_cta *sc, size_t soff, uint32_t bytes)
{
    check_proxy_fence(L, t, sc, soff, bytes);
}

static void complete(emu_launch *L, emu_async_op *op)
{
    emu_cluster *cl = &L->cluster;
    emu_cta *dc = &cl->ctas[op->dst_cta];
    const unsigned char *from = op->gsrc           ? op->gsrc
                                : op->src_cta >= 0 ? emu_smem_ptr(L, &cl->ctas[op->src_cta], op->src_off)
                                                   : op->val;
    memmove(emu_smem_ptr(L, dc, op->dst_off), from, op->bytes);
    op->done = true;
    op->phase = cl->mbars[op->mbar].phase;
    if (emu_counts_on && op->gsrc)
        emu_count_bulk_g2s_landed(L, dc, op->bytes);
    else if (emu_counts_on)
        emu_count_async_landed(L, dc, op->bytes);
    emu_mbarrier_complete_tx(L, &cl->mbars[op->mbar], op->bytes, op->vc);
}

/* A copy into or out of exiting CTA c that no wait saw complete: on hardware it may still write into or
 * read from c's shared memory after c left. */
static _Noreturn void report_exit_in_flight(emu_cta *c, const emu_async_op *op)
{
    bool out = op->src_cta == (int32_t)c->rank;
    const char *state = op->done ? "that no thread of rank %u waited for" : "still in flight";
    char why[160];
    snprintf(why, sizeof why, state, op->dst_cta);
    bool begun = out ? emu_report_begin(DSM_REPORT_LIFETIME_HAZARD, dsmErrorLaunchFailure,
                                        "lifetime trap: rank %u exited while its own bulk copy to rank %u, %s, "
                                        "could still read its shared memory", c->rank, op->dst_cta, why)
                     : emu_report_begin(DSM_REPORT_LIFETIME_HAZARD, dsmErrorLaunchFailure,
                                        "lifetime trap: rank %u exited while a bulk copy into its shared memory was "
                                        "%s", c->rank, op->done ? "not waited for" : "in flight");
    if (begun) {
        if (out)
            emu_report_line("copy", "issued by rank %u thread %u, %u bytes from offset 0x%zx of its shared memory "
                                    "into rank %u:", op->issuer_cta, op->issuer_tid, op->bytes, op->src_off,
                            op->dst_cta);
        else
            emu_report_line("copy", "issued by rank %u thread %u, %u bytes at offset 0x%zx of rank %u:",
                            op->issuer_cta, op->issuer_tid, op->bytes, op->dst_off, c->rank);
        emu_report_site("", op->site);
        emu_report_line("exit", "rank %u's last thread returned after:", c->rank);
        emu_report_site("", c->exit_site);
        if (out) {
            emu_report_line("why", "a bulk copy reads its source at some time between its issue and the completion "
                                   "of its mbarrier phase, which only the receiver sees (by waiting)");
            emu_report_line("on GPU", "cudaErrorLaunchFailure (719) or garbage in the receiver's copy, whenever "
                                      "rank %u leaves first", c->rank);
            emu_report_line("fix", "the sender may leave only after the receiver waited for the copy and told it "
                                   "so: every CTA passes a cluster barrier (dsm_cluster_sync) after its last wait "
                                   "and before it exits");
        } else {
            emu_report_line("on GPU", "cudaErrorLaunchFailure (719) or a copy into memory that is gone");
            emu_report_line("fix", "the receiver waits on the mbarrier the copy completes before it exits "
                                   "(and every CTA passes a final cluster barrier)");
        }
        emu_report_end();
    }
    emu_abort_launch();
}

/* Whether the CTA that sent op's source (a shared one) knows the copy completed: it acquired the clock of the CTA
 * whose wait saw the completion, as of that wait (a relaxed cluster barrier after the wait carries nothing). */
static bool sender_knows(const emu_launch *L, const emu_async_op *op)
{
    return op->src_cta < 0 || op->obs_cta == op->src_cta || L->cluster.ctas[op->src_cta].vc[op->obs_cta] >= op->obs_epoch;
}

/* Drops the operations that landed, that a wait saw complete and whose sender knows it (keeping issue order). */
static void drop_finished(emu_launch *L)
{
    emu_cluster *cl = &L->cluster;
    uint32_t k = 0;
    for (uint32_t i = 0; i < cl->nops; i++)
        if (!(cl->ops[i].done && cl->ops[i].observed && sender_knows(L, &cl->ops[i])))
            cl->ops[k++] = cl->ops[i];
    cl->nops = k;
}

/* Completes, in issue order, the operations in flight on mbarrier `mbar` (or any: -1) that read from or
 * write into CTA `cta` (or any: -1); whether any completed. With a CTA (it exits), any copy into or out
 * of it that no wait saw complete is reported instead. */
static bool complete_where(emu_launch *L, int mbar, int cta)
{
    emu_cluster *cl = &L->cluster;
    bool any = false;
    for (uint32_t i = 0; i < cl->nops; i++) {
        emu_async_op *op = &cl->ops[i];
        if (op->done && (cta < 0 || op->observed))
            continue;
        if (mbar >= 0 && op->mbar != (uint32_t)mbar)
            continue;
        if (cta >= 0 && op->src_cta != cta && op->dst_cta != (uint32_t)cta)
            continue;
        if (cta >= 0)
            report_exit_in_flight(&cl->ctas[cta], op);
        complete(L, op);
        any = true;
    }
    drop_finished(L);
    return any;
}

void emu_async_complete_for_mbarrier(emu_launch *L, uint32_t mbar) { complete_where(L, (int)mbar, -1); }
bool emu_async_complete_all(emu_launch *L) { return complete_where(L, -1, -1); }

/* The ascending schedule lands every copy on a barrier, in issue order, when a thread waits on it; the others
 * leave the copies in flight until they land one at a time (emu_async_progress), so that a copy issued later
 * (a peer a round ahead) may land before one issued earlier. */
void emu_async_land_on_wait(emu_launch *L, uint32_t mbar)
{
    if (L->sched.kind == EMU_SCHED_ASC)
        emu_async_complete_for_mbarrier(L, mbar);
}

bool emu_async_progress(emu_launch *L)
{
    if (L->sched.kind == EMU_SCHED_ASC)
        return emu_async_complete_all(L);
    emu_cluster *cl = &L->cluster;
    uint32_t pending = 0;
    for (uint32_t i = 0; i < cl->nops; i++)
        pending += !cl->ops[i].done;
    if (!pending)
        return false;
    /* desc and interleave: the newest first; random: any */
    uint32_t k = L->sched.kind == EMU_SCHED_RANDOM ? (uint32_t)(L->land_rng % pending) : pending - 1;
    L->land_rng = L->land_rng * 6364136223846793005ull + 1442695040888963407ull;
    for (uint32_t i = 0; i < cl->nops; i++)
        if (!cl->ops[i].done && k-- == 0) {
            complete(L, &cl->ops[i]);
            break;
        }
    drop_finished(L);
    return true;
}
void emu_async_complete_for_cta(emu_launch *L, uint32_t cta) { complete_where(L, -1, (int)cta); }

void emu_async_observe(emu_launch *L, emu_thread *t, uint32_t mbar)
{
    emu_cluster *cl = &L->cluster;
    uint32_t phase = cl->mbars[mbar].phase;
    for (uint32_t i = 0; i < cl->nops; i++) {
        emu_async_op *op = &cl->ops[i];
        if (op->mbar != mbar || !op->done || op->observed || op->phase >= phase)
            continue;
        op->observed = true;
        op->obs_cta = (int32_t)t->cta->rank;
        op->obs_epoch = t->cta->vc[t->cta->rank];
        /* the sender's memory is free again only once the sender learns of this wait */
        if (op->src_cta >= 0 && op->src_cta != (int32_t)t->cta->rank)
            emu_lifetime_note_copy_out(t, &cl->ctas[op->src_cta], op->src_off, &op->site);
    }
}

void emu_async_check_plain(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n, int write,
                           const emu_site *site)
{
    emu_cluster *cl = &L->cluster;
    if (!write)
        return;
    if (!cl->nops)
        return;
    for (uint32_t i = 0; i < cl->nops; i++) {
        emu_async_op *op = &cl->ops[i];
        /* landed is not enough: its sender knows the copy is over only through the receiver's wait, and only
         * once something the receiver released after that wait reached the sender */
        if (op->src_cta != (int32_t)owner->rank || !overlaps(off, n, op->src_off, op->bytes) ||
            (op->observed && sender_knows(L, op)))
            continue;
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             op->observed ? "the source of a bulk copy is rewritten before its sender knows the copy "
                                            "completed"
                                          : "the source of a bulk copy is rewritten before the copy completed")) {
            emu_report_who(L, t);
            emu_report_site("where", *site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx", owner->rank, off);
            if (op->observed)
                emu_report_line("copy", "issued by rank %u thread %u, %u bytes into rank %u, which waited for it; "
                                        "nothing rank %u released after that wait reached this thread (a relaxed "
                                        "cluster barrier releases nothing):",
                                op->issuer_cta, op->issuer_tid, op->bytes, op->dst_cta, op->obs_cta);
            else
                emu_report_line("copy", "issued by rank %u thread %u, %u bytes into rank %u, still in flight:",
                                op->issuer_cta, op->issuer_tid, op->bytes, op->dst_cta);
            emu_report_site("", op->site);
            emu_report_line("why", "a bulk copy reads its source at some time between its issue and the "
                                   "completion of its mbarrier phase, not at the issue");
            emu_report_line("on GPU", "no error: the receiver may get some of the new bytes instead of the old");
            emu_report_line("fix", "rewrite the source only after the copy completed: after the receiver "
                                   "waited on its mbarrier and told you so (an arrive on an mbarrier of yours, "
                                   "or a cluster barrier)");
            emu_report_end();
        }
        emu_abort_launch();
    }
}

/* ---- the entry points: cp.async.bulk.shared::cluster and st.async into a peer ---- */

/* The destination side of an asynchronous push: checks, copies, completes bytes on the peer's mbarrier. */
static void push(emu_thread *t, uint32_t dst, const void *src, uint32_t bytes, uint32_t cluster_bar,
                 unsigned align, const char *what)
{
    emu_launch *L = emu_cur;
    char title[200];
    if (bytes == 0 || bytes % 16 != 0) {
        if (align == 16 || bytes == 0) {
            snprintf(title, sizeof title, "%s: size %u bytes is not a positive multiple of 16", what, bytes);
            emu_report_simple(t, DSM_REPORT_BULK_SIZE, dsmErrorIllegalAddress, title,
                          "undefined: the copy faults or moves the wrong bytes",
                          "copy whole 16-byte units: round the tile size up to a multiple of 16");
            emu_abort_launch();
        }
    }
    size_t doff;
    emu_cta *dc = emu_peer_target(t, dst, &doff, what);
    emu_cta *sc;
    size_t soff;
    if (!emu_decode_generic(L, src, &sc, &soff) || sc != t->cta) {
        snprintf(title, sizeof title, "%s: the source %p is not in this CTA's shared memory", what, src);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "the source of cp.async.bulk.shared::cluster.shared::cta is this CTA's shared memory");
        emu_abort_launch();
    }
    if (doff % align || soff % align) {
        snprintf(title, sizeof title, "%s: %s address not %u-byte aligned (destination offset 0x%zx, source offset 0x%zx)",
                 what, doff % align ? "destination" : "source", align, doff, soff);
        emu_report_simple(t, DSM_REPORT_BULK_ALIGNMENT, dsmErrorIllegalAddress, title,
                      "cudaErrorMisalignedAddress (716) or undefined behaviour",
                      "align both buffers (__align__(16) on the __shared__ arrays) and use offsets that are "
                      "multiples of 16");
        emu_abort_launch();
    }
    if (dc == t->cta) {
        snprintf(title, sizeof title, "%s: the destination is this CTA's own shared memory", what);
        emu_report_simple(t, DSM_REPORT_BULK_SELF, dsmErrorBarrierMisuse, title,
                      "a wasted round trip through the cluster interconnect, or undefined behaviour",
                      "push into a peer: map the destination with dsm_mapa_shared_cluster(..., peer_rank)");
        emu_abort_launch();
    }
    if (doff + bytes > L->window_bytes || soff + bytes > L->window_bytes) {
        snprintf(title, sizeof title, "%s: %u bytes run past the end of shared memory (%zu bytes allocated)", what,
                 bytes, L->window_bytes);
        emu_report_simple(t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "check offsets and size against the shared-memory layout");
        emu_abort_launch();
    }
    size_t boff;
    emu_cta *bc = emu_peer_target(t, cluster_bar, &boff, what);
    if (bc != dc) {
        snprintf(title, sizeof title, "%s: the mbarrier is in rank %u, the destination in rank %u", what, bc->rank,
                 dc->rank);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title, "undefined behaviour",
                      "the completing mbarrier must live in the destination CTA: map it with the same rank");
        emu_abort_launch();
    }
    emu_mbarrier *m = emu_mbarrier_find(L, bc->rank, boff);
    if (!m || !m->init)
        emu_mbarrier_uninitialized(t, bc->rank, boff);
    emu_mbarrier_check_init_visible(L, t, m, what);
    emu_check_cta_started(L, t, dc, &t->site);
    emu_async_issue(L, t, dc, doff, sc, soff, NULL, bytes, m);
    emu_schedule_point(t);
}

void dsm_emu_cp_async_bulk(uint32_t dst, const void *src, uint32_t bytes, uint32_t cluster_bar, const char *file,
                           int line)
{
    emu_thread *t = emu_me(file, line);
    push(t, dst, src, bytes, cluster_bar, 16, "cp.async.bulk.shared::cluster");
}

void dsm_emu_st_async(uint32_t dst, const void *val, unsigned bytes, uint32_t cluster_bar, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    size_t doff;
    emu_cta *dc = emu_peer_target(t, dst, &doff, "st.async.shared::cluster");
    if (doff % bytes || doff + bytes > L->window_bytes) {
        emu_report_simple(t, DSM_REPORT_BULK_ALIGNMENT, dsmErrorIllegalAddress,
                      "st.async: destination misaligned or outside the peer's shared memory",
                      "cudaErrorMisalignedAddress (716) / cudaErrorIllegalAddress (700)",
                      "align the destination to the store size");
        emu_abort_launch();
    }
    size_t boff;
    emu_cta *bc = emu_peer_target(t, cluster_bar, &boff, "st.async.shared::cluster");
    emu_mbarrier *m = emu_mbarrier_find(L, bc->rank, boff);
    if (!m || !m->init)
        emu_mbarrier_uninitialized(t, bc->rank, boff);
    if (bc != dc) {
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress,
                      "st.async: the mbarrier and the destination are in different CTAs", "undefined behaviour",
                      "map the mbarrier with the destination's rank");
        emu_abort_launch();
    }
    emu_mbarrier_check_init_visible(L, t, m, "st.async");
    emu_check_cta_started(L, t, dc, &t->site);
    emu_async_issue(L, t, dc, doff, NULL, 0, val, bytes, m);
    emu_schedule_point(t);
}
