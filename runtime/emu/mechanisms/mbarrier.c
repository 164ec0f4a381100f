/* mbarrier.c: mbarrier objects: phases, arrival and transaction counts, waits, remote arrive, and the end-of-cluster checks of their byte counts. */
#include <stdlib.h>
#include <string.h>

#include "emu_mechanisms.h"

emu_mbarrier *emu_mbarrier_find(emu_launch *L, uint32_t cta, size_t off)
{
    for (uint32_t i = 0; i < L->cluster.nmbars; i++)
        if (L->cluster.mbars[i].cta == cta && L->cluster.mbars[i].offset == off)
            return &L->cluster.mbars[i];
    return NULL;
}

_Noreturn void emu_mbarrier_uninitialized(emu_thread *t, uint32_t rank, size_t off)
{
    char title[160];
    snprintf(title, sizeof title, "mbarrier used before mbarrier.init (rank %u's shared memory, offset 0x%zx)", rank,
             off);
    emu_report_simple(t, DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse, title,
                  "undefined: the barrier word holds garbage; waits hang or pass early",
                  "one thread calls dsm_mbarrier_init, then a barrier before anyone else uses it: "
                  "__syncthreads for its own block; for peers a cluster barrier whose arrive releases the init "
                  "(dsm_cluster_sync; with a relaxed arrive, dsm_fence_mbarrier_init between the init and it)");
    emu_abort_launch();
}

/* The mbarrier behind a generic pointer into this CTA's shared memory. */
static emu_mbarrier *local_bar(emu_thread *t, uint64_t *bar, bool must_exist)
{
    emu_launch *L = emu_cur;
    emu_cta *c;
    size_t off;
    if (!emu_decode_generic(L, bar, &c, &off) || c != t->cta || off % 8) {
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress,
                      "mbarrier operation on an address that is not an 8-byte aligned word of this CTA's shared "
                      "memory",
                      "cudaErrorIllegalAddress (700) or undefined behaviour",
                      "declare the barrier as __shared__ uint64_t (8-byte aligned) in the CTA that waits on it");
        emu_abort_launch();
    }
    emu_mbarrier *m = emu_mbarrier_find(L, c->rank, off);
    if (!m && must_exist)
        emu_mbarrier_uninitialized(t, c->rank, off);
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
    emu_mbarrier_init_record(t, m);
    memset(bar, 0, sizeof *bar);
}

static void arrive(emu_thread *t, emu_mbarrier *m, uint32_t tx)
{
    emu_launch *L = emu_cur;
    if (m->pending == 0) {
        emu_report_simple(t, DSM_REPORT_MBARRIER_TX_MISMATCH, dsmErrorBarrierMisuse,
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
    emu_mbarrier_check_init_visible(emu_cur, t, m, tx_bytes ? "mbarrier.arrive.expect_tx" : "mbarrier.arrive");
    uint64_t token = m->phase;
    if (emu_counts_on)
        emu_count_sync(t);
    arrive(t, m, tx_bytes);
    return token;
}

bool dsm_emu_mbarrier_try_wait_parity(uint64_t *bar, uint32_t parity, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    emu_mbarrier *m = local_bar(t, bar, true);
    emu_mbarrier_check_init_visible(L, t, m, "mbarrier.try_wait");
    if (emu_counts_on)
        emu_count_sync(t);
    uint32_t idx = (uint32_t)(m - L->cluster.mbars);
    bool first_try = t->spin_bar != bar || t->spin_parity != parity;
    /* a copy completing on this barrier lands, at the latest, when someone waits for it */
    emu_hook.mbarrier_wait(L, idx);
    for (;;) {
        m = &L->cluster.mbars[idx];
        if ((m->phase & 1u) != (parity & 1u)) {
            emu_parity_check(L, t, m, parity);
            emu_acquire_from(t, m->vc, &m->tvc);
            emu_hook.mbarrier_waited(L, t, idx);
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
emu_cta *emu_peer_target(emu_thread *t, uint32_t addr, size_t *off, const char *what)
{
    emu_launch *L = emu_cur;
    uint32_t rank;
    if (!emu_decode_shared_addr(L, t, addr, &rank, off) || rank >= L->cluster.ncta ||
        *off >= L->window_bytes) {
        char title[160];
        snprintf(title, sizeof title, "%s: address 0x%08x is not in any CTA of this cluster", what, addr);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title,
                      "cudaErrorIllegalAddress (700)",
                      "map the address with dsm_mapa_shared_cluster(dsm_smem_addr(p), rank)");
        emu_abort_launch();
    }
    emu_cta *c = &L->cluster.ctas[rank];
    if (c->exited) {
        /* names the access and where the peer exited */
        emu_report_dead_peer(t, c, *off, what);
        emu_abort_launch();
    }
    return c;
}

void dsm_emu_mbarrier_arrive_remote(uint32_t cluster_bar, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    size_t off;
    emu_cta *c = emu_peer_target(t, cluster_bar, &off, "mbarrier.arrive.shared::cluster");
    emu_mbarrier *m = emu_mbarrier_find(L, c->rank, off);
    if (!m || !m->init)
        emu_mbarrier_uninitialized(t, c->rank, off);
    emu_mbarrier_check_init_visible(L, t, m, "mbarrier.arrive.shared::cluster");
    emu_check_cta_started(L, t, c, &t->site);
    emu_lifetime_note(t, c, off, EMU_PEER_ARRIVE, &t->site);
    if (emu_counts_on)
        emu_count_remote_arrive(t);
    arrive(t, m, 0);
}

/* Reports the first mbarrier whose transaction count is not back to zero;
 * with `waited_only`, only one that a blocked thread waits on. At the end
 * (not waited_only) only bytes delivered beyond what was expected count: a
 * phase still expecting bytes that never come is harmless once no copy is in
 * flight and no thread waits on it (the PTX ISA requires nothing of it; copies
 * in flight at a CTA's exit are reported there). */
static bool check_tx(emu_launch *L, bool waited_only)
{
    for (uint32_t i = 0; i < L->cluster.nmbars; i++) {
        emu_mbarrier *m = &L->cluster.mbars[i];
        if (!m->init || m->tx == 0 || (!waited_only && m->tx > 0))
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
    if (emu_parity_report_stuck(L))
        return true;
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
    emu_hook.mbarrier_stuck_hint(L, m);
    emu_report_cta_states(L);
    emu_report_line("on GPU", "the kernel hangs (no error is returned)");
    emu_report_line("fix", "each phase needs its `count` arrivals, one of them dsm_mbarrier_arrive_expect_tx with "
                           "exactly the bytes the copies into it deliver; wait on parity (use & 1) of the phase "
                           "you expect");
    emu_report_end();
    return true;
}
