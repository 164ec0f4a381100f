/* race.c: happens-before between CTAs (vector clocks) and threads (barrier generations); race checks of every access to shared memory and to global memory (dsm_malloc buffers, global_race.c keeps their shadow). */
#include <stdlib.h>
#include <string.h>

#include "emu_checks.h"

void emu_release(emu_cta *c, uint32_t *vc_obj)
{
    for (uint32_t k = 0; k < EMU_MAX_CLUSTER; k++)
        if (c->vc[k] > vc_obj[k])
            vc_obj[k] = c->vc[k];
    c->vc[c->rank]++;
}

void emu_acquire(emu_cta *c, const uint32_t *vc_obj)
{
    for (uint32_t k = 0; k < EMU_MAX_CLUSTER; k++)
        if (k != c->rank && vc_obj[k] > c->vc[k]) {
            c->vc[k] = vc_obj[k];
            /* what that mate acquired from earlier clusters comes along (a little early, never late) */
            if (emu_cur && k < emu_cur->cluster.ncta && emu_cur->cluster.ctas[k].ngk)
                emu_gpu_merge(c, &emu_cur->cluster.ctas[k]);
        }
}

void emu_tclock_free(emu_tclock *tc)
{
    free(tc->e);
    memset(tc, 0, sizeof *tc);
}

/* Makes tc an empty clock of CTA `cta`'s n threads for generation gen. */
static void tclock_reset(emu_tclock *tc, int32_t cta, uint32_t gen, uint32_t n)
{
    if (tc->n < n) {
        free(tc->e);
        tc->e = calloc(n, sizeof *tc->e);
        tc->n = tc->e ? n : 0;
    } else if (tc->e)
        memset(tc->e, 0, tc->n * sizeof *tc->e);
    tc->cta = cta;
    tc->gen = gen;
}

static bool tclock_valid(const emu_tclock *tc, int32_t cta, uint32_t gen)
{
    return tc->e && tc->cta == cta && tc->gen == gen;
}

static void tclock_join(emu_tclock *dst, const emu_tclock *src)
{
    uint32_t n = dst->n < src->n ? dst->n : src->n;
    for (uint32_t i = 0; i < n; i++)
        if (src->e[i] > dst->e[i])
            dst->e[i] = src->e[i];
}

void emu_release_to(emu_thread *t, uint32_t *vc, emu_tclock *tc)
{
    emu_cta *c = t->cta;
    int32_t rank = (int32_t)c->rank;
    if (tc) {
        /* only the threads of the CTA the clock belongs to (an mbarrier's, a
         * shared flag's; a global flag's: the first to release) take part */
        if (tc->cta < 0 || (tc->cta == rank && (!tc->e || tc->gen < t->bar_gen)))
            tclock_reset(tc, rank, t->bar_gen, c->nthreads);
        if (tclock_valid(tc, rank, t->bar_gen)) {
            if (tclock_valid(&t->known, rank, t->bar_gen))
                tclock_join(tc, &t->known);
            if (t->epoch > tc->e[t->tid])
                tc->e[t->tid] = t->epoch;
        }
    }
    t->epoch++;
    emu_release(c, vc);
}

void emu_acquire_from(emu_thread *t, const uint32_t *vc, const emu_tclock *tc)
{
    emu_cta *c = t->cta;
    int32_t rank = (int32_t)c->rank;
    emu_acquire(c, vc);
    if (!tc || !tclock_valid(tc, rank, t->bar_gen))
        return;
    if (!tclock_valid(&t->known, rank, t->bar_gen))
        tclock_reset(&t->known, rank, t->bar_gen, c->nthreads);
    if (t->known.e)
        tclock_join(&t->known, tc);
}

bool emu_arrive_released(const emu_thread *x, uint32_t from, uint32_t waits)
{
    uint32_t to = waits < x->arrivals ? waits : x->arrivals; /* arrives [from, to) */
    if (to <= from)
        return false;
    uint32_t newest = x->arrivals - to, oldest = x->arrivals - 1 - from; /* bit positions, 0 = the last arrive */
    if (oldest >= 64)
        return true; /* beyond the history kept: taken as ordered (a race may be missed, none is invented) */
    uint64_t bits = (oldest == 63 ? ~0ull : (1ull << (oldest + 1)) - 1) & ~((1ull << newest) - 1);
    return (x->release_arrives & bits) != 0;
}

/* Whether access p happens before what thread t does now. */
static bool ordered(const emu_access *p, const emu_thread *t)
{
    if (p->cl != emu_cur->cl_seq) /* another cluster of this launch: only gpu-scope release/acquire orders it */
        return emu_gpu_knows(t->cta, p->cl, p->cta, p->epoch);
    if (p->cta == t->cta->rank) {
        /* the same thread, or a __syncthreads both passed since */
        if (p->tid == t->tid || t->syncs > p->syncs)
            return true;
        /* a cluster barrier: a release arrive of p's thread after p, in a phase whose wait t completed */
        const emu_thread *x = &t->cta->threads[p->tid];
        if (emu_arrive_released(x, p->arrivals, t->waits))
            return true;
        /* an mbarrier wait or a flag acquired this thread's release of p */
        return tclock_valid(&t->known, (int32_t)p->cta, t->bar_gen) && t->known.e[p->tid] >= p->tepoch;
    }
    if (t->cta->vc[p->cta] < p->epoch)
        return false;
    /* Publication belongs to the thread that made the access: one that has
     * released nothing since (no release arrive, mbarrier arrive, flag, copy)
     * and passed no __syncthreads (after which a CTA mate may release for it)
     * has published nothing, whatever its CTA mates released. */
    const emu_thread *x = &emu_cur->cluster.ctas[p->cta].threads[p->tid];
    return !(x->epoch == p->tepoch && x->syncs == p->syncs);
}

void emu_check_cta_started(emu_launch *L, emu_thread *t, emu_cta *owner, const emu_site *site)
{
    /* Anything acquired from the owner (a cluster barrier, an mbarrier it
     * arrived on, a flag it released) proves it runs. */
    if (owner == t->cta || t->cta->vc[owner->rank] > 0 || t->cta->passed_cluster_barrier || emu_report_pending())
        return;
    if (emu_report_begin(DSM_REPORT_LIFETIME, dsmErrorLaunchFailure,
                         "access to rank %u's shared memory before rank %u is known to have started",
                         owner->rank, owner->rank)) {
        emu_report_who(L, t);
        emu_report_site("where", *site);
        emu_report_line("why", "the CTAs of a cluster are co-scheduled, but a peer may not have started running "
                               "(its shared memory not set up) when this thread does; nothing this thread did "
                               "so far depends on rank %u", owner->rank);
        emu_report_line("on GPU", "usually works, sometimes reads garbage or fails with cudaErrorLaunchFailure "
                                  "(719); the CUDA Programming Guide requires a cluster barrier first");
        emu_report_line("fix", "every CTA passes a cluster barrier (dsm_cluster_sync) after setting up its shared "
                               "memory and before the first access to a peer's");
        emu_report_end();
    }
    emu_abort_launch();
}

bool emu_race_written_by_peer(const emu_cta *c, size_t w)
{
    return c->shadow && (c->shadow[w].w.flags & ACC_VALID) && c->shadow[w].w.cta != c->rank;
}

int emu_ww_pending;

/* Shadows of finished CTAs, kept for the next cluster of the launch: clearing one is cheaper than
 * faulting in fresh pages (every cluster of a launch has the same shared-memory size). */
#define SHADOW_POOL 16
static emu_shadow *pool[SHADOW_POOL];
static size_t pool_words[SHADOW_POOL];

void emu_shadow_free(emu_cta *c)
{
    emu_ww_pending = 0;
    if (!c->shadow)
        return;
    for (int i = 0; i < SHADOW_POOL; i++)
        if (!pool[i]) {
            pool[i] = c->shadow;
            pool_words[i] = c->shadow_words;
            c->shadow = NULL;
            return;
        }
    free(c->shadow);
    c->shadow = NULL;
}

void emu_shadow_pool_free(void)
{
    for (int i = 0; i < SHADOW_POOL; i++) {
        free(pool[i]);
        pool[i] = NULL;
    }
}

static emu_shadow *shadow_alloc(size_t words)
{
    for (int i = 0; i < SHADOW_POOL; i++)
        if (pool[i] && pool_words[i] == words) {
            emu_shadow *s = pool[i];
            pool[i] = NULL;
            memset(s, 0, words * sizeof *s);
            return s;
        }
    return calloc(words, sizeof(emu_shadow));
}

static const char *access_word(int kind)
{
    return kind == DSM_EMU_LD ? "read" : kind == DSM_EMU_ST ? "write" : kind == DSM_EMU_ASYNC_ST ? "bulk-copy write" : "atomic";
}

/* The cluster waits the thread of access p had completed (kept modulo 2^16: t's count tells the rest). */
static uint32_t prior_waits(const emu_access *p, const emu_thread *t)
{
    int32_t delta = (int16_t)(uint16_t)(p->waits - (uint16_t)t->waits); /* the count nearest to t's */
    return delta < 0 && (uint32_t)-delta > t->waits ? 0 : (uint32_t)((int64_t)t->waits + delta);
}

/* The bytes of word w of mem as they are now. */
static const unsigned char *word_ptr(emu_launch *L, const emu_mem *mem, size_t w)
{
    return mem->owner ? emu_smem_ptr(L, mem->owner, 4 * w) : mem->gstart + 4 * w;
}

static void race_timeline(emu_launch *L, emu_thread *t, const emu_access *prior, bool prior_is_write, int kind,
                          emu_site site)
{
    if (prior->cl != L->cl_seq)
        return; /* the timeline draws this cluster only */
    emu_tl_event ev[2] = {
        {prior->cta, prior_waits(prior, t), prior->tid, prior_is_write ? "earlier write" : "earlier read",
         emu_site_of(prior->site)},
        {(int32_t)t->cta->rank, t->waits, t->tid, kind == DSM_EMU_LD ? "this read" : "this write", site},
    };
    emu_report_timeline(L, ev, 2);
}

/* "rank 1 thread 3", or for an access of another cluster of the launch, its blockIdx and cluster. */
static const char *who_of(emu_launch *L, const emu_access *p, char *buf, size_t n)
{
    if (p->cl == L->cl_seq) {
        snprintf(buf, n, "rank %u thread %u", p->cta, p->tid);
        return buf;
    }
    /* clusters run x fastest, then y, then z (launch.c); ranks likewise inside a cluster */
    dsm_dim3 cd = L->cfg.cluster, g = L->cfg.grid;
    uint32_t nx = g.x / cd.x, ny = g.y / cd.y;
    uint32_t cx = p->cl % nx, cy = p->cl / nx % ny, cz = p->cl / nx / ny;
    uint32_t rx = p->cta % cd.x, ry = p->cta / cd.x % cd.y, rz = p->cta / cd.x / cd.y;
    snprintf(buf, n, "blockIdx (%u,%u,%u) thread %u, of cluster (%u,%u,%u) (an earlier cluster of this launch)",
             cx * cd.x + rx, cy * cd.y + ry, cz * cd.z + rz, p->tid, cx, cy, cz);
    return buf;
}

/* The "memory" line of a race report. */
static void report_memory(const emu_mem *mem, size_t off)
{
    if (mem->owner) {
        emu_report_line("memory", "rank %u's shared memory, offset 0x%zx", mem->owner->rank, off);
        return;
    }
    for (size_t i = 0; i < emu_global_count(); i++) {
        const unsigned char *start;
        size_t bytes;
        emu_global_buffer(i, &start, &bytes);
        if (start == mem->gstart) {
            emu_report_line("memory", "global memory: device buffer %zu (%zu bytes at %p, from dsm_malloc), byte "
                                      "offset %zu (word %zu)", i, bytes, (const void *)start, off, off / 4);
            return;
        }
    }
}

/* The async proxy's two races: a copy into memory a reader may still be
 * reading (a ring slot reused too early), and a read before the copy landed. */
static bool report_async_race(emu_launch *L, emu_thread *t, const emu_mem *mem, size_t off, int kind,
                              const emu_access *prior, bool prior_is_write, emu_site site)
{
    emu_cta *owner = mem->owner;
    if (!owner)
        return false;
    if (kind == DSM_EMU_ASYNC_ST && !prior_is_write) {
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             "a bulk copy overwrites rank %u's shared memory while rank %u thread %u may still be "
                             "reading it", owner->rank, prior->cta, prior->tid)) {
            emu_report_who(L, t);
            emu_report_site("where", site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx (a ring slot?)", owner->rank, off);
            emu_report_line("reader", "rank %u thread %u read it here, and nothing it did since tells this "
                                      "thread it is done:", prior->cta, prior->tid);
            emu_report_site("", emu_site_of(prior->site));
            emu_report_line("on GPU", "no error: the reader sometimes sees the next chunk's bytes in place of the "
                                      "one it was reading");
            emu_report_line("fix", "reuse a slot only after its reader released it: the reader arrives on an "
                                   "\"empty\" mbarrier of the producer (dsm_mbarrier_arrive_remote) when done, the "
                                   "producer waits on it (right parity) before the next copy into that slot");
            race_timeline(L, t, prior, false, DSM_EMU_ST, site);
            emu_report_end();
        }
        return true;
    }
    if (kind == DSM_EMU_LD && prior_is_write && (prior->flags & ACC_ASYNC)) {
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             "read of rank %u's shared memory before the bulk copy into it completed", owner->rank)) {
            emu_report_who(L, t);
            emu_report_site("where", site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx", owner->rank, off);
            emu_report_line("copy", "issued by rank %u thread %u; it completes on an mbarrier this thread has not "
                                    "waited for (in the right phase):", prior->cta, prior->tid);
            emu_report_site("", emu_site_of(prior->site));
            if (t->wait_site.file) {
                char w[256];
                emu_report_line("last wait", "%s, parity %u: %s", emu_site_short(t->wait_site, w, sizeof w),
                                t->wait_parity,
                                t->wait_immediate ? "it returned at once, the phase of that parity had completed "
                                                    "already (a wrong parity waits for an old phase)"
                                                  : "it completed, but not with this copy's bytes");
            }
            emu_report_line("on GPU", "no error: the read returns old bytes or a mix of old and new");
            emu_report_line("fix", "arm the mbarrier with dsm_mbarrier_arrive_expect_tx(bar, bytes) for every copy, "
                                   "then wait for its phase: parity (round & 1) for the round-th use of the "
                                   "barrier, before reading");
            race_timeline(L, t, prior, true, kind, site);
            emu_report_end();
        }
        return true;
    }
    return false;
}

/* rmw: the store of the pair went to the word its thread had just loaded. */
static void report_race(emu_launch *L, emu_thread *t, const emu_mem *mem, size_t off, int kind,
                        const emu_access *prior, bool prior_is_write, bool rmw, emu_site site)
{
    emu_cta *owner = mem->owner;
    bool ww = prior_is_write && kind != DSM_EMU_LD;
    if (report_async_race(L, t, mem, off, kind, prior, prior_is_write, site))
        return;
    bool same_cluster = prior->cl == L->cl_seq;
    /* A read of a peer's write that a cluster barrier would have ordered had the writer released it. */
    bool unpublished = prior_is_write && kind == DSM_EMU_LD && same_cluster && prior->cta != t->cta->rank &&
                       t->waits > prior_waits(prior, t);
    dsm_report_kind rk = unpublished ? DSM_REPORT_UNPUBLISHED_READ
                         : ww        ? DSM_REPORT_RACE_WRITE_WRITE
                                     : DSM_REPORT_RACE_READ_WRITE;
    char where[64];
    if (owner)
        snprintf(where, sizeof where, "rank %u's shared memory", owner->rank);
    else
        snprintf(where, sizeof where, "global memory");
    bool begun = unpublished
                     ? emu_report_begin(rk, dsmErrorRaceDetected, "read of %s that rank %u wrote but never published",
                                        where, prior->cta)
                     : emu_report_begin(rk, dsmErrorRaceDetected,
                                        "data race on %s: unordered %s and %s of the same word", where,
                                        prior_is_write ? "write" : "read", access_word(kind));
    if (!begun)
        return;
    char who[160];
    emu_report_who(L, t);
    emu_report_site("where", site);
    report_memory(mem, off);
    emu_report_line(unpublished ? "written" : "earlier", "%s by %s, not ordered before this access:",
                    prior_is_write ? "a write" : "a read", who_of(L, prior, who, sizeof who));
    emu_report_site("", emu_site_of(prior->site));
    if (unpublished) {
        emu_report_line("why", "a cluster barrier lies between the write and this read, but the writing thread "
                               "did not publish the write: it arrived with barrier.cluster.arrive.relaxed (which "
                               "orders nothing), or wrote after its arrive");
        emu_report_line("on GPU", "no error: the read may return the old value");
        emu_report_line("fix", "the writers arrive with .release (dsm_barrier_cluster_arrive, the default) after "
                               "their writes, and the readers wait with .acquire (dsm_barrier_cluster_wait)");
        race_timeline(L, t, prior, prior_is_write, kind, site);
        emu_report_end();
        return;
    }
    if (!same_cluster)
        emu_report_line("why", "the clusters of a launch run in any order and at the same time; between "
                               "clusters only a gpu-scope release and acquire orders accesses (cluster barriers "
                               "and mbarriers order one cluster only)");
    bool same_thread_kind = rmw || (prior_is_write && kind != DSM_EMU_LD);
    if (rmw)
        emu_report_line("note", "a plain read followed by a plain write of the same word from several threads "
                                "is a read-modify-write race: two threads read the same old value and one "
                                "update is lost");
    emu_report_line("on GPU", "no error: silently wrong results, different from run to run");
    if (!owner && !same_cluster)
        emu_report_line("fix", same_thread_kind
                                   ? "give each block its own words of the buffer, or update shared counters with "
                                     "atomics (atomicAdd)"
                                   : "give each block its own words of the buffer; a block may read what another "
                                     "cluster wrote only after a gpu-scope release/acquire pair "
                                     "(dsm_st_release_gpu_u32 after the writes, dsm_ld_acquire_gpu_u32 before the "
                                     "reads)");
    else if (same_thread_kind)
        emu_report_line("fix", owner ? "use an atomic (dsm_atom_add_shared_cluster_u32 / "
                                       "dsm_red_add_shared_cluster_u32) for updates several threads make, or order "
                                       "the accesses with a barrier (__syncthreads within a CTA, a cluster barrier "
                                       "across CTAs)"
                                     : "use an atomic (atomicAdd) for updates several threads make, or order the "
                                       "accesses with a barrier (__syncthreads within a CTA, a cluster barrier "
                                       "across CTAs)");
    else if (!prior_is_write)
        emu_report_line("fix", "the write reuses memory another thread may still be reading: put a barrier "
                               "between the last read and the new write (__syncthreads within a CTA, a cluster "
                               "barrier or an mbarrier the reader arrives on across CTAs); the reader signals "
                               "when it is done, the writer waits for it");
    else if (prior->cta == t->cta->rank)
        emu_report_line("fix", "order the write before the read: __syncthreads between them (every thread of the "
                               "block), or for a producer and its consumers an mbarrier the writer arrives on and "
                               "the readers wait for");
    else if (owner)
        emu_report_line("fix", "order the write before the read: the writer publishes it (a cluster barrier "
                               "arrive.release, an mbarrier arrive, or dsm_st_release_cluster_u32 on a flag) and "
                               "the reader waits for that (cluster barrier wait, mbarrier wait, "
                               "dsm_ld_acquire_cluster_u32) before reading");
    else
        emu_report_line("fix", "if the read should see this write, the writer publishes it (a cluster barrier, an "
                               "mbarrier arrive, a release flag) and the reader waits for that before reading; if "
                               "the write is already the next round's, the writer must first wait until the reader "
                               "is done with the slot (a cluster barrier after the reads, or two slots used in "
                               "turn)");
    race_timeline(L, t, prior, prior_is_write, kind, site);
    emu_report_end();
}

/* Two unordered writes of one word are a race unless both wrote the same value
 * (every thread storing blockIdx.x into one variable is common and harmless).
 * The store's value is known only after it happened: the check waits for the
 * next call into the emulator (emu_race_settle). */
typedef struct ww_pending {
    emu_mem mem;
    size_t word;
    uint32_t before;
    emu_access prior;
    emu_thread *t;
    int kind;
    emu_site site;
} ww_pending;
static ww_pending pending[64];

bool emu_race_unfenced_write(emu_launch *L, emu_cta *c, size_t off, uint32_t bytes, uint32_t *tid,
                             emu_site *site, size_t *word_off)
{
    (void)L;
    if (!c->shadow)
        return false;
    for (size_t w = off / 4; w < (off + bytes + 3) / 4; w++) {
        const emu_access *a = &c->shadow[w].w;
        if (!(a->flags & ACC_VALID) || (a->flags & ACC_ASYNC) || a->cta != c->rank)
            continue;
        if ((c->threads[a->tid].proxy_fences & 0xFu) == (a->pfence & 0xFu)) {
            *tid = a->tid;
            *site = emu_site_of(a->site);
            *word_off = w * 4;
            return true;
        }
    }
    return false;
}

bool emu_race_settle(emu_launch *L)
{
    for (int i = 0; i < emu_ww_pending; i++) {
        ww_pending *p = &pending[i];
        uint32_t now;
        memcpy(&now, word_ptr(L, &p->mem, p->word), 4);
        if (now != p->before && !(p->mem.owner && p->mem.owner->exited)) {
            emu_ww_pending = 0;
            report_race(L, p->t, &p->mem, 4 * p->word, p->kind, &p->prior, true, (p->prior.flags & ACC_RMW) != 0,
                        p->site);
            return false;
        }
    }
    emu_ww_pending = 0;
    return true;
}

bool emu_race_word(emu_launch *L, emu_thread *t, const emu_mem *mem, emu_shadow *s, size_t w, size_t off,
                   unsigned bytes, int kind, const emu_site *site)
{
    bool atomic = kind == DSM_EMU_ATOM || kind == DSM_EMU_ATOM_LD;
    bool async = kind == DSM_EMU_ASYNC_ST;
    emu_access now = {t->cta->vc[t->cta->rank], t->arrivals, t->epoch, t->syncs, L->cl_seq, emu_site_id(site),
                      (uint16_t)t->tid, (uint16_t)t->waits, (uint8_t)t->cta->rank,
                      (uint8_t)(ACC_VALID | (atomic ? ACC_ATOMIC : 0) | (async ? ACC_ASYNC : 0)), 0xF,
                      (uint8_t)((t->proxy_fences & 0xFu) | (t->proxy_fences_global & 0xFu) << 4)};
    if (kind == DSM_EMU_ATOM_LD)
        kind = DSM_EMU_LD;
    if (async)
        kind = DSM_EMU_ST;
    /* the bytes of this word the access touches (1- and 2-byte accesses share words) */
    size_t lo = w * 4 > off ? w * 4 : off, hi = w * 4 + 4 < off + bytes ? w * 4 + 4 : off + bytes;
    now.mask = (uint8_t)(((1u << (hi - lo)) - 1u) << (lo - w * 4));
    if ((s->w.flags & ACC_VALID) && (s->w.mask & now.mask) && !(atomic && (s->w.flags & ACC_ATOMIC)) &&
        !ordered(&s->w, t)) {
        if (kind == DSM_EMU_ST && !async && !(s->w.flags & ACC_ASYNC) &&
            emu_ww_pending < (int)(sizeof pending / sizeof pending[0])) {
            ww_pending *p = &pending[emu_ww_pending++];
            p->mem = *mem;
            p->word = w;
            memcpy(&p->before, word_ptr(L, mem, w), 4);
            p->prior = s->w;
            p->t = t;
            p->kind = kind;
            p->site = *site;
        } else {
            report_race(L, t, mem, w * 4, kind, &s->w, true, (s->w.flags & ACC_RMW) != 0, *site);
            return false;
        }
    }
    if (kind != DSM_EMU_LD && (s->r.flags & ACC_VALID) && (s->r.mask & now.mask) &&
        !(atomic && (s->r.flags & ACC_ATOMIC)) && !ordered(&s->r, t)) {
        report_race(L, t, mem, w * 4, async ? DSM_EMU_ASYNC_ST : kind, &s->r, false, t->last_read == s, *site);
        return false;
    }
    if (kind == DSM_EMU_LD) {
        s->r = now;
        t->last_read = s;
    } else {
        s->w = now;
        if (kind == DSM_EMU_ST && t->last_read == s)
            s->w.flags |= ACC_RMW;
    }
    return true;
}

bool emu_race_access(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned bytes, int kind,
                     const emu_site *site)
{
    if (emu_ww_pending && !emu_race_settle(L))
        return false;
    if (owner != t->cta)
        emu_lifetime_note(t, owner, off,
                          kind == DSM_EMU_LD ? EMU_PEER_READ : kind == DSM_EMU_ST ? EMU_PEER_WRITE
                          : kind == DSM_EMU_ASYNC_ST ? EMU_PEER_COPY_IN : EMU_PEER_ATOMIC, site);
    if (!owner->shadow) {
        size_t words = (L->window_bytes + 3) / 4;
        owner->shadow = shadow_alloc(words ? words : 1);
        owner->shadow_words = words ? words : 1;
        if (!owner->shadow)
            return true;
    }
    emu_mem mem = {owner, NULL, 0};
    for (size_t w = off / 4; w < (off + bytes + 3) / 4; w++)
        if (!emu_race_word(L, t, &mem, &owner->shadow[w], w, off, bytes, kind, site))
            return false;
    return true;
}
