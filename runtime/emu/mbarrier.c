/* mbarrier.c: mbarrier objects (phases, arrival and transaction counts, remote arrive) and the asynchronous pushes that complete them (bulk copy, st.async). */
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"

static emu_mbarrier *find(emu_launch *L, uint32_t cta, size_t off)
{
    for (uint32_t i = 0; i < L->cluster.nmbars; i++)
        if (L->cluster.mbars[i].cta == cta && L->cluster.mbars[i].offset == off)
            return &L->cluster.mbars[i];
    return NULL;
}

static void report_simple(emu_thread *t, dsm_report_kind kind, dsm_error_t err, const char *title,
                          const char *gpu, const char *fix)
{
    emu_launch *L = emu_cur;
    if (!emu_report_begin(kind, err, "%s", title))
        return;
    emu_report_who(L, t);
    emu_report_site("where", t->site);
    emu_report_line("on GPU", "%s", gpu);
    emu_report_line("fix", "%s", fix);
    emu_report_end();
}

static _Noreturn void uninitialized(emu_thread *t, uint32_t rank, size_t off)
{
    char title[160];
    snprintf(title, sizeof title, "mbarrier used before mbarrier.init (rank %u's shared memory, offset 0x%zx)", rank,
             off);
    report_simple(t, DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse, title,
                  "undefined: the barrier word holds garbage; waits hang or pass early",
                  "one thread calls dsm_mbarrier_init, then dsm_fence_mbarrier_init and a barrier "
                  "(a cluster barrier if peers arrive on it) before anyone uses it");
    emu_abort_launch();
}

/* The mbarrier behind a generic pointer into this CTA's shared memory. */
static emu_mbarrier *local_bar(emu_thread *t, uint64_t *bar, bool must_exist)
{
    emu_launch *L = emu_cur;
    emu_cta *c;
    size_t off;
    if (!emu_decode_generic(L, bar, &c, &off) || c != t->cta || off % 8) {
        report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress,
                      "mbarrier operation on an address that is not an 8-byte aligned word of this CTA's shared "
                      "memory",
                      "cudaErrorIllegalAddress (700) or undefined behaviour",
                      "declare the barrier as __shared__ uint64_t (8-byte aligned) in the CTA that waits on it");
        emu_abort_launch();
    }
    emu_mbarrier *m = find(L, c->rank, off);
    if (!m && must_exist)
        uninitialized(t, c->rank, off);
    if (!m) {
        emu_cluster *cl = &L->cluster;
        if (cl->nmbars == cl->cap_mbars) {
            cl->cap_mbars = cl->cap_mbars ? 2 * cl->cap_mbars : 16;
            cl->mbars = realloc(cl->mbars, cl->cap_mbars * sizeof *cl->mbars);
        }
        m = &cl->mbars[cl->nmbars++];
        memset(m, 0, sizeof *m);
        m->cta = c->rank;
        m->offset = (uint32_t)off;
        m->tvc.cta = (int32_t)c->rank;
    }
    return m;
}

static void complete_if_done(emu_launch *L, emu_mbarrier *m)
{
    if (m->pending != 0 || m->tx != 0)
        return;
    m->phase++;
    m->pending = m->expected;
    uint32_t idx = (uint32_t)(m - L->cluster.mbars);
    emu_cta *c = &L->cluster.ctas[m->cta];
    for (uint32_t i = 0; i < c->nthreads; i++) {
        emu_thread *t = &c->threads[i];
        if (t->state == EMU_AT_MBARRIER && t->mbar_idx == idx)
            emu_wake(t);
    }
}

void dsm_emu_mbarrier_init(uint64_t *bar, uint32_t count, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_mbarrier *m = local_bar(t, bar, false);
    m->init = true;
    m->expected = m->pending = count;
    m->phase = 0;
    m->tx = 0;
    m->init_site = t->site;
    memset(bar, 0, sizeof *bar);
}

static void arrive(emu_thread *t, emu_mbarrier *m, uint32_t tx)
{
    emu_launch *L = emu_cur;
    if (m->pending == 0) {
        report_simple(t, DSM_REPORT_MBARRIER_TX_MISMATCH, dsmErrorBarrierMisuse,
                      "more arrivals on an mbarrier phase than the count given to mbarrier.init",
                      "undefined: the arrival count underflows and phases get out of step",
                      "arrive exactly `count` times per phase (the count passed to dsm_mbarrier_init)");
        emu_abort_launch();
    }
    emu_release_to(t, m->vc, &m->tvc);
    m->tx += tx;
    m->pending--;
    complete_if_done(L, m);
}

void emu_mbarrier_complete_tx(emu_launch *L, emu_mbarrier *m, uint32_t bytes, const uint32_t *vc)
{
    for (uint32_t k = 0; k < EMU_MAX_CLUSTER; k++)
        if (vc[k] > m->vc[k])
            m->vc[k] = vc[k];
    m->tx -= bytes;
    complete_if_done(L, m);
}

uint64_t dsm_emu_mbarrier_arrive(uint64_t *bar, uint32_t tx_bytes, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_mbarrier *m = local_bar(t, bar, true);
    uint64_t token = m->phase;
    arrive(t, m, tx_bytes);
    return token;
}

bool dsm_emu_mbarrier_try_wait_parity(uint64_t *bar, uint32_t parity, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    emu_mbarrier *m = local_bar(t, bar, true);
    uint32_t idx = (uint32_t)(m - L->cluster.mbars);
    bool first_try = t->spin_bar != bar || t->spin_parity != parity;
    /* a copy completing on this barrier lands, at the latest, when someone waits for it */
    emu_async_complete_for_mbarrier(L, idx);
    for (;;) {
        m = &L->cluster.mbars[idx];
        if ((m->phase & 1u) != (parity & 1u)) {
            emu_acquire_from(t, m->vc, &m->tvc);
            t->spin_bar = NULL;
            t->wait_site = t->site;
            t->wait_parity = parity;
            t->wait_phase = m->phase;
            t->wait_immediate = first_try;
            return true;
        }
        if (t->spin_bar == bar && t->spin_parity == parity && t->spin_seen_phase == m->phase) {
            /* the second failed try in a row without progress: sleep until the phase completes */
            t->mbar_idx = idx;
            t->mbar_parity = parity;
            emu_block(t, EMU_AT_MBARRIER);
            continue;
        }
        t->spin_bar = bar;
        t->spin_parity = parity;
        t->spin_seen_phase = m->phase;
        emu_yield(t);
        return false;
    }
}

/* Decodes a .shared::cluster address of a peer object; reports and aborts on a bad or dead target. */
static emu_cta *peer_target(emu_thread *t, uint32_t addr, size_t *off, const char *what)
{
    emu_launch *L = emu_cur;
    uint32_t rank;
    if (!emu_decode_shared_addr(L, t, addr, &rank, off) || rank >= L->cluster.ncta ||
        *off >= L->window_bytes) {
        char title[160];
        snprintf(title, sizeof title, "%s: address 0x%08x is not in any CTA of this cluster", what, addr);
        report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title,
                      "cudaErrorIllegalAddress (700)",
                      "map the address with dsm_mapa_shared_cluster(dsm_smem_addr(p), rank)");
        emu_abort_launch();
    }
    emu_cta *c = &L->cluster.ctas[rank];
    if (c->exited) {
        char title[200];
        snprintf(title, sizeof title, "lifetime trap: %s into rank %u after rank %u exited", what, rank, rank);
        report_simple(t, DSM_REPORT_LIFETIME, dsmErrorLaunchFailure, title,
                      "cudaErrorLaunchFailure (719, \"unspecified launch failure\"), often only sometimes",
                      "every CTA must stay alive (reach a final cluster barrier) until its peers stop "
                      "touching its memory");
        emu_abort_launch();
    }
    return c;
}

void dsm_emu_mbarrier_arrive_remote(uint32_t cluster_bar, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    size_t off;
    emu_cta *c = peer_target(t, cluster_bar, &off, "mbarrier.arrive.shared::cluster");
    emu_mbarrier *m = find(L, c->rank, off);
    if (!m || !m->init)
        uninitialized(t, c->rank, off);
    emu_check_cta_started(L, t, c, &t->site);
    if (emu_counts_on)
        emu_count_remote_arrive(t);
    arrive(t, m, 0);
}

/* The destination side of an asynchronous push: checks, copies, completes bytes on the peer's mbarrier. */
static void push(emu_thread *t, uint32_t dst, const void *src, uint32_t bytes, uint32_t cluster_bar,
                 unsigned align, const char *what)
{
    emu_launch *L = emu_cur;
    char title[200];
    if (bytes == 0 || bytes % 16 != 0) {
        if (align == 16 || bytes == 0) {
            snprintf(title, sizeof title, "%s: size %u bytes is not a positive multiple of 16", what, bytes);
            report_simple(t, DSM_REPORT_BULK_SIZE, dsmErrorIllegalAddress, title,
                          "undefined: the copy faults or moves the wrong bytes",
                          "copy whole 16-byte units: round the tile size up to a multiple of 16");
            emu_abort_launch();
        }
    }
    size_t doff;
    emu_cta *dc = peer_target(t, dst, &doff, what);
    emu_cta *sc;
    size_t soff;
    if (!emu_decode_generic(L, src, &sc, &soff) || sc != t->cta) {
        snprintf(title, sizeof title, "%s: the source %p is not in this CTA's shared memory", what, src);
        report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "the source of cp.async.bulk.shared::cluster.shared::cta is this CTA's shared memory");
        emu_abort_launch();
    }
    if (doff % align || soff % align) {
        snprintf(title, sizeof title, "%s: %s address not %u-byte aligned (destination offset 0x%zx, source offset 0x%zx)",
                 what, doff % align ? "destination" : "source", align, doff, soff);
        report_simple(t, DSM_REPORT_BULK_ALIGNMENT, dsmErrorIllegalAddress, title,
                      "cudaErrorMisalignedAddress (716) or undefined behaviour",
                      "align both buffers (__align__(16) on the __shared__ arrays) and use offsets that are "
                      "multiples of 16");
        emu_abort_launch();
    }
    if (dc == t->cta) {
        snprintf(title, sizeof title, "%s: the destination is this CTA's own shared memory", what);
        report_simple(t, DSM_REPORT_BULK_SELF, dsmErrorBarrierMisuse, title,
                      "a wasted round trip through the cluster interconnect, or undefined behaviour",
                      "push into a peer: map the destination with dsm_mapa_shared_cluster(..., peer_rank)");
        emu_abort_launch();
    }
    if (doff + bytes > L->window_bytes || soff + bytes > L->window_bytes) {
        snprintf(title, sizeof title, "%s: %u bytes run past the end of shared memory (%zu bytes allocated)", what,
                 bytes, L->window_bytes);
        report_simple(t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "check offsets and size against the shared-memory layout");
        emu_abort_launch();
    }
    size_t boff;
    emu_cta *bc = peer_target(t, cluster_bar, &boff, what);
    if (bc != dc) {
        snprintf(title, sizeof title, "%s: the mbarrier is in rank %u, the destination in rank %u", what, bc->rank,
                 dc->rank);
        report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title, "undefined behaviour",
                      "the completing mbarrier must live in the destination CTA: map it with the same rank");
        emu_abort_launch();
    }
    emu_mbarrier *m = find(L, bc->rank, boff);
    if (!m || !m->init)
        uninitialized(t, bc->rank, boff);
    emu_check_cta_started(L, t, dc, &t->site);
    emu_async_issue(L, t, dc, doff, sc, soff, NULL, bytes, m);
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
    emu_cta *dc = peer_target(t, dst, &doff, "st.async.shared::cluster");
    if (doff % bytes || doff + bytes > L->window_bytes) {
        report_simple(t, DSM_REPORT_BULK_ALIGNMENT, dsmErrorIllegalAddress,
                      "st.async: destination misaligned or outside the peer's shared memory",
                      "cudaErrorMisalignedAddress (716) / cudaErrorIllegalAddress (700)",
                      "align the destination to the store size");
        emu_abort_launch();
    }
    size_t boff;
    emu_cta *bc = peer_target(t, cluster_bar, &boff, "st.async.shared::cluster");
    emu_mbarrier *m = find(L, bc->rank, boff);
    if (!m || !m->init)
        uninitialized(t, bc->rank, boff);
    if (bc != dc) {
        report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress,
                      "st.async: the mbarrier and the destination are in different CTAs", "undefined behaviour",
                      "map the mbarrier with the destination's rank");
        emu_abort_launch();
    }
    emu_check_cta_started(L, t, dc, &t->site);
    emu_async_issue(L, t, dc, doff, NULL, 0, val, bytes, m);
}

/* Reports the first mbarrier whose transaction count is not back to zero;
 * with `waited_only`, only one that a blocked thread waits on. */
static bool check_tx(emu_launch *L, bool waited_only)
{
    for (uint32_t i = 0; i < L->cluster.nmbars; i++) {
        emu_mbarrier *m = &L->cluster.mbars[i];
        if (!m->init || m->tx == 0)
            continue;
        if (waited_only) {
            bool waited = false;
            emu_cta *c = &L->cluster.ctas[m->cta];
            for (uint32_t k = 0; k < c->nthreads && !waited; k++)
                waited = c->threads[k].state == EMU_AT_MBARRIER && c->threads[k].mbar_idx == i;
            if (!waited)
                continue;
        }
        if (!emu_report_begin(DSM_REPORT_MBARRIER_TX_MISMATCH, dsmErrorBarrierMisuse,
                              "mbarrier transaction count mismatch: %lld bytes %s when the kernel ended",
                              (long long)(m->tx > 0 ? m->tx : -m->tx),
                              m->tx > 0 ? "expected but never delivered" : "delivered beyond what was expected"))
            return true;
        emu_report_line("mbarrier", "rank %u's shared memory, offset 0x%x, phase %u, initialised at:", m->cta,
                        m->offset, m->phase);
        emu_report_site("", m->init_site);
        emu_report_line("on GPU", "a wait on that phase hangs (too few bytes) or a later phase completes early");
        emu_report_line("fix", "the bytes in dsm_mbarrier_arrive_expect_tx must equal the bytes the peers push "
                               "with cp.async.bulk / st.async per phase");
        emu_report_end();
        return true;
    }
    return false;
}

void emu_mbarriers_check_end(emu_launch *L) { check_tx(L, false); }

/* Every thread is blocked and some wait on an mbarrier: names the first such
 * wait, its parity and what its phase still lacks (arrivals, bytes). */
bool emu_mbarriers_check_stuck(emu_launch *L)
{
    /* the root cause first: a wait on a barrier that received bytes nobody announced (a missing
     * expect_tx: its CTA's peers then wait for bytes that never come), then one whose bytes do not
     * add up, then any */
    emu_thread *w = NULL;
    for (int pass = 0; pass < 3 && !w; pass++)
        for (uint32_t r = 0; r < L->cluster.ncta && !w; r++)
            for (uint32_t i = 0; i < L->cluster.ctas[r].nthreads && !w; i++) {
                emu_thread *t = &L->cluster.ctas[r].threads[i];
                int64_t tx = t->state == EMU_AT_MBARRIER ? L->cluster.mbars[t->mbar_idx].tx : 0;
                if (t->state == EMU_AT_MBARRIER && (pass == 2 || (pass == 0 ? tx < 0 : tx != 0)))
                    w = t;
            }
    if (!w)
        return false;
    emu_mbarrier *m = &L->cluster.mbars[w->mbar_idx];
    bool bytes = m->tx != 0;
    if (!emu_report_begin(bytes ? DSM_REPORT_MBARRIER_TX_MISMATCH : DSM_REPORT_DEADLOCK,
                          bytes ? dsmErrorBarrierMisuse : dsmErrorDeadlock,
                          "an mbarrier wait that never completes: threads hang at it"))
        return true;
    emu_report_who(L, w);
    emu_report_site("wait", w->site);
    emu_report_line("mbarrier", "rank %u's shared memory, offset 0x%x, initialised at:", m->cta, m->offset);
    emu_report_site("", m->init_site);
    const char *bytes_state = m->tx > 0 ? "still waits for transaction bytes"
                              : m->tx < 0 ? "received bytes nobody expected"
                                          : "waits for no bytes";
    if (m->pending)
        emu_report_line("state", "%u phases completed; the wait is for parity %u, i.e. phase %u, which still lacks "
                                 "%u of its %u arrivals and %s",
                        m->phase, w->mbar_parity, m->phase, m->pending, m->expected, bytes_state);
    else
        emu_report_line("state", "%u phases completed; the wait is for parity %u, i.e. phase %u, which has all its "
                                 "%u arrivals but %s",
                        m->phase, w->mbar_parity, m->phase, m->expected, bytes_state);
    if (m->tx > 0)
        emu_report_line("pending", "%lld bytes were announced with expect_tx and never arrived (a missing or "
                                   "smaller copy?)", (long long)m->tx);
    else if (m->tx < 0)
        emu_report_line("pending", "%lld bytes arrived from copies or st.async without a matching "
                                   "dsm_mbarrier_arrive_expect_tx in this phase (a missing expect_tx?)",
                        (long long)-m->tx);
    emu_bulk_stuck_hint(L, m);
    emu_report_cta_states(L);
    emu_report_line("on GPU", "the kernel hangs (no error is returned)");
    emu_report_line("fix", "each phase needs its `count` arrivals, one of them dsm_mbarrier_arrive_expect_tx with "
                           "exactly the bytes the copies into it deliver; wait on parity (use & 1) of the phase "
                           "you expect");
    emu_report_end();
    return true;
}
