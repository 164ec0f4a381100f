/* bulk_global.c: bulk copies between global and shared memory: global -> shared into one CTA or, with .multicast::cluster, into every CTA of a mask (each completing on its own mbarrier), and shared -> global stores tracked by the issuing thread's bulk async-groups. */
#include <stdlib.h>
#include <string.h>

#include "emu_mechanisms.h"

/*
 * The model (PTX ISA, cp.async.bulk and "Async proxy"):
 *   global -> shared  The copy is in flight from its issue until it lands, at the
 *                     latest when someone waits on the mbarrier it completes (the
 *                     async_proxy.c machinery: one emu_async_op per destination CTA,
 *                     so a multicast to n CTAs is n ops that read the same global
 *                     bytes). Its global source must not be written meanwhile; it
 *                     lands at the same CTA-relative offset in every CTA of the mask
 *                     and completes its bytes on the mbarrier at the same offset in
 *                     each of them (complete_tx releases at cluster scope, the wait
 *                     acquires: the receiver sees the bytes after its own wait).
 *   shared -> global  A bulk store belongs to the thread that issued it. Its source
 *                     is read at some time before that thread's
 *                     cp.async.bulk.wait_group.read covers its group (rewriting or
 *                     leaving the source earlier is reported); its global bytes are
 *                     written at some time before cp.async.bulk.wait_group (without
 *                     .read) covers it: touching them earlier is reported. Here the
 *                     bytes move at the first wait that covers the group.
 */

/* A bulk store shared -> global not yet complete. */
typedef struct bulk_store {
    uint32_t cta, tid;
    uint32_t group;             /* 0: not committed yet; else the thread's group number (from 1) */
    size_t src_off;
    unsigned char *gdst;
    uint32_t bytes;
    bool landed;                /* its source was read and its bytes written (a wait_group.read covered it) */
    emu_site site;
} bulk_store;

/* The running cluster's bulk stores, bulk groups per thread, and mbarriers that received multicasts. */
static struct {
    bulk_store *v;
    uint32_t n, cap;
    uint32_t *groups;           /* per thread (rank * threads_per_cta + tid): groups committed */
    size_t ngroups;
    unsigned char *mcast_bar;   /* per mbarrier index: it received a multicast copy */
    size_t nmcast;
} S;

void emu_bulk_cluster_free(emu_launch *L)
{
    (void)L;
    free(S.v);
    free(S.groups);
    free(S.mcast_bar);
    memset(&S, 0, sizeof S);
}

static bool overlaps(uintptr_t a, size_t an, uintptr_t b, size_t bn) { return a < b + bn && b < a + an; }

/* The global source of a copy global -> shared: a generic write to it needs fence.proxy.async.global by its
 * thread first, and every write to it must happen before the issue (the copy reads it from then on). */
static void check_global_source_ordered(emu_launch *L, emu_thread *t, const char *what, const void *src,
                                        uint32_t bytes)
{
    uint32_t wcta, wtid;
    emu_site wsite;
    size_t woff, idx = 0, size = 0;
    const unsigned char *start = NULL;
    if (emu_global_unfenced_write(L, src, bytes, &wcta, &wtid, &wsite, &woff)) {
        (void)emu_global_nearest(src, &idx, &start, &size);
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             "%s reads global memory written by ordinary stores with no fence.proxy.async.global "
                             "in between", what)) {
            emu_report_who(L, t);
            emu_report_site("where", t->site);
            emu_report_line("memory", "buffer %zu, byte %zu, the copy's source", idx, woff);
            emu_report_line("written", "by rank %u thread %u, with no dsm_fence_proxy_async_global after it:", wcta,
                            wtid);
            emu_report_site("", wsite);
            emu_report_line("why", "bulk copies read through the async proxy, which does not see the generic "
                                   "proxy's writes in order without a proxy fence");
            emu_report_line("on GPU", "no error: the copy may load stale bytes, rarely and depending on timing");
            emu_report_line("fix", "every thread that wrote the source calls dsm_fence_proxy_async_global() after "
                                   "its writes and before the barrier or release that lets the copy start");
            emu_report_end();
        }
        emu_abort_launch();
    }
    if (!emu_race_global(L, t, src, bytes, DSM_EMU_LD, &t->site))
        emu_abort_launch();
}

/* Size and alignment, the rules every bulk copy shares. */
static void check_size_align(emu_thread *t, const char *what, uint32_t bytes, const char *dst_name, uintptr_t dst,
                             const char *src_name, uintptr_t src)
{
    char title[240];
    if (bytes == 0 || bytes % 16 != 0) {
        snprintf(title, sizeof title, "%s: size %u bytes is not a positive multiple of 16", what, bytes);
        emu_report_simple(t, DSM_REPORT_BULK_SIZE, dsmErrorIllegalAddress, title,
                      "undefined behaviour: the copy faults, hangs its mbarrier or moves the wrong bytes",
                      "copy whole 16-byte units: make every piece a multiple of 16 bytes (split a chunk into "
                      "pieces of chunk / n only when that is a multiple of 16)");
        emu_abort_launch();
    }
    if (dst % 16 || src % 16) {
        snprintf(title, sizeof title, "%s: %s address not 16-byte aligned (%s 0x%zx, %s 0x%zx)", what,
                 dst % 16 ? dst_name : src_name, dst_name, (size_t)dst, src_name, (size_t)src);
        emu_report_simple(t, DSM_REPORT_BULK_ALIGNMENT, dsmErrorIllegalAddress, title,
                      "cudaErrorMisalignedAddress (716) or undefined behaviour",
                      "start every piece at a multiple of 16 bytes, in global memory (the buffer from dsm_malloc "
                      "is aligned: offsets must be multiples of 16) and in shared memory (__align__(16))");
        emu_abort_launch();
    }
}

/* A global-memory operand: [p, p + bytes) inside one dsm_malloc buffer, and not shared memory. */
static void check_global(emu_launch *L, emu_thread *t, const char *what, const char *name, const void *p,
                         uint32_t bytes)
{
    char title[240];
    emu_cta *c;
    size_t off;
    if (emu_decode_generic(L, p, &c, &off)) {
        snprintf(title, sizeof title, "%s: the %s %p is shared memory (rank %u's), not global memory", what, name, p,
                 c->rank);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "the global side of this copy is a dsm_malloc buffer; between two CTAs' shared memories use "
                      "dsm_cp_async_bulk_shared_cluster");
        emu_abort_launch();
    }
    if (!emu_is_device(p, bytes)) {
        size_t idx = 0, size = 0;
        const unsigned char *start = NULL;
        if (emu_global_nearest(p, &idx, &start, &size))
            snprintf(title, sizeof title, "%s: the %s runs outside a device buffer (%u bytes at byte %td of buffer "
                                          "%zu, which has %zu bytes)", what, name, bytes,
                     (const unsigned char *)p - start, idx, size);
        else
            snprintf(title, sizeof title, "%s: the %s %p is not allocated device memory", what, name, p);
        emu_report_simple(t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, title,
                      "cudaErrorIllegalAddress (700), or a silent copy of another buffer's bytes",
                      "check the piece's offset and size against the buffer (the last chunk of a stream?)");
        emu_abort_launch();
    }
}

/* A bulk store that the copy into [doff, doff + bytes) of CTA dc would overwrite before it read it. */
static void check_store_source_not_overwritten(emu_thread *t, emu_cta *dc, size_t doff, uint32_t bytes)
{
    for (uint32_t i = 0; i < S.n; i++) {
        bulk_store *s = &S.v[i];
        if (s->landed || s->cta != dc->rank || !overlaps(doff, bytes, s->src_off, s->bytes))
            continue;
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             "a bulk copy into rank %u's shared memory overwrites the source of a bulk store to "
                             "global memory that may not have read it yet", dc->rank)) {
            emu_report_who(emu_cur, t);
            emu_report_site("where", t->site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx", dc->rank,
                            doff > s->src_off ? doff : s->src_off);
            emu_report_line("store", "issued by rank %u thread %u, not yet covered by cp.async.bulk.wait_group.read:",
                            s->cta, s->tid);
            emu_report_site("", s->site);
            emu_report_line("on GPU", "no error: global memory may receive some of the new bytes");
            emu_report_line("fix", "the thread that issued the store waits with "
                                   "dsm_cp_async_bulk_wait_group_read before the buffer is refilled");
            emu_report_end();
        }
        emu_abort_launch();
    }
}

void dsm_emu_bulk_g2s(void *dst, const void *src, uint32_t bytes, uint64_t *bar, uint32_t mask, int multicast,
                      const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    emu_cluster *cl = &L->cluster;
    const char *what = multicast ? "cp.async.bulk global->shared .multicast::cluster" : "cp.async.bulk global->shared";
    char title[240];
    emu_cta *c;
    size_t doff, boff;
    if (!emu_decode_generic(L, dst, &c, &doff) || c != t->cta) {
        snprintf(title, sizeof title, "%s: the destination %p is not in this CTA's shared memory", what, dst);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title,
                      "cudaErrorIllegalAddress (700) or undefined behaviour",
                      multicast ? "pass a pointer into YOUR shared memory: the copy lands at the same offset in "
                                  "every CTA of the mask (do not map it with dsm_map_shared_rank)"
                                : "pass a pointer into this CTA's shared memory (a __shared__ array or "
                                  "dsm_dynamic_smem()); to fill a peer's, use the multicast form with its rank");
        emu_abort_launch();
    }
    check_size_align(t, what, bytes, "destination offset", doff, "source", (uintptr_t)src);
    check_global(L, t, what, "source", src, bytes);
    if (doff + bytes > L->window_bytes) {
        snprintf(title, sizeof title, "%s: %u bytes at offset 0x%zx run past the end of shared memory (%zu bytes)",
                 what, bytes, doff, L->window_bytes);
        emu_report_simple(t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "check the destination offset and size against the shared-memory layout");
        emu_abort_launch();
    }
    if (!emu_decode_generic(L, bar, &c, &boff) || c != t->cta || boff % 8) {
        snprintf(title, sizeof title, "%s: the mbarrier %p is not an 8-byte aligned word of this CTA's shared memory",
                 what, (void *)bar);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title,
                      "cudaErrorIllegalAddress (700) or undefined behaviour",
                      multicast ? "pass YOUR mbarrier (a __shared__ uint64_t): the bytes complete on the barrier at "
                                  "the same offset in every CTA of the mask"
                                : "pass this CTA's own mbarrier, a __shared__ uint64_t");
        emu_abort_launch();
    }
    if (!multicast)
        mask = 1u << t->cta->rank;
    if (mask == 0 || (mask >> cl->ncta) != 0) {
        uint32_t bad = cl->ncta;
        while (bad < 31 && !((mask >> bad) & 1u))
            bad++;
        if (mask == 0)
            snprintf(title, sizeof title, "%s: the CTA mask is 0: no CTA receives the copy", what);
        else
            snprintf(title, sizeof title, "%s: mask 0x%04x names rank %u, but the cluster has only %u CTAs", what,
                     mask, bad, cl->ncta);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title,
                      mask == 0 ? "undefined: the bytes go nowhere and the mbarriers that expect them hang"
                                : "an Xid error: the launch fails (cudaErrorIllegalAddress or an illegal instruction), "
                                  "or the copy hangs (NVIDIA/cutlass#3658)",
                      "build the mask from the cluster size: bit r for every rank r < dsm_cluster_nctarank() that "
                      "needs the bytes ((1u << n) - 1 for all of them)");
        emu_abort_launch();
    }
    /* every receiver: alive, known to have started, its mbarrier initialised */
    emu_mbarrier *bars[EMU_MAX_CLUSTER] = {0};
    for (uint32_t r = 0; r < cl->ncta; r++) {
        if (!((mask >> r) & 1u))
            continue;
        emu_cta *dc = &cl->ctas[r];
        if (dc->exited) {
            snprintf(title, sizeof title, "lifetime trap: %s into rank %u after rank %u exited", what, r, r);
            emu_report_simple(t, DSM_REPORT_LIFETIME, dsmErrorLaunchFailure, title,
                          "cudaErrorLaunchFailure (719) or an Xid, often only sometimes",
                          "a CTA of the mask must not exit while copies into it may still be issued: every CTA "
                          "waits for every chunk it receives, and all meet at a final cluster barrier");
            emu_abort_launch();
        }
        emu_check_cta_started(L, t, dc, &t->site);
        emu_mbarrier *m = emu_mbarrier_find(L, r, boff);
        if (!m || !m->init) {
            snprintf(title, sizeof title, "%s: the mbarrier at offset 0x%zx of rank %u is not initialised", what, boff,
                     r);
            emu_report_simple(t, DSM_REPORT_MBARRIER_UNINITIALIZED, dsmErrorBarrierMisuse, title,
                          "undefined: the complete_tx lands on garbage; the receiver's wait hangs or passes early",
                          "every CTA of the mask initialises its own mbarrier at that offset "
                          "(dsm_mbarrier_init, dsm_fence_mbarrier_init) before the cluster barrier that precedes "
                          "the first copy");
            emu_abort_launch();
        }
        emu_mbarrier_check_init_visible(L, t, m, what);
        bars[r] = m;
        check_store_source_not_overwritten(t, dc, doff, bytes);
    }
    check_global_source_ordered(L, t, what, src, bytes);
    if (emu_counts_on)   /* one read of global memory, whatever the mask */
        emu_count_bulk_g2s_issue(t, src, bytes);
    /* one op per receiver: each lands and completes on its own CTA's barrier */
    for (uint32_t r = 0; r < cl->ncta; r++) {
        if (!bars[r])
            continue;
        uint32_t idx = (uint32_t)(bars[r] - cl->mbars);
        emu_async_issue_from_global(L, t, &cl->ctas[r], doff, (const unsigned char *)src, bytes, bars[r], multicast);
        cl->ops[cl->nops - 1].multicast = multicast != 0;
        /* Threads of the issuer's own CTA learn of the copy from this barrier: the completion releases
         * the issuing thread's accesses up to the issue to them, like an arrive would (between CTAs the
         * op's CTA clocks do that). */
        if (r == t->cta->rank)
            emu_release_to(t, bars[r]->vc, &bars[r]->tvc);
        if (multicast) {
            if (idx >= S.nmcast) {
                size_t n = S.nmcast ? 2 * S.nmcast : 16;
                while (n <= idx)
                    n *= 2;
                S.mcast_bar = realloc(S.mcast_bar, n);
                memset(S.mcast_bar + S.nmcast, 0, n - S.nmcast);
                S.nmcast = n;
            }
            S.mcast_bar[idx] = 1;
        }
    }
    emu_schedule_point(t);
}

void emu_bulk_stuck_hint(emu_launch *L, const emu_mbarrier *m)
{
    size_t idx = (size_t)(m - L->cluster.mbars);
    if (idx >= S.nmcast || !S.mcast_bar[idx])
        return;
    emu_report_line("multicast", "this mbarrier receives .multicast::cluster copies: each CTA of the mask arms ITS "
                                 "OWN barrier, once per phase, with expect_tx of every byte all issuers deliver to "
                                 "it in that phase (n issuers x their piece = the whole chunk, not n chunks); a CTA "
                                 "that does not arm its own barrier is left waiting");
}

/* ---- shared -> global ---- */

static uint32_t *groups_of(emu_launch *L, emu_thread *t)
{
    size_t need = (size_t)L->cluster.ncta * L->threads_per_cta;
    if (S.ngroups < need) {
        S.groups = realloc(S.groups, need * sizeof *S.groups);
        memset(S.groups + S.ngroups, 0, (need - S.ngroups) * sizeof *S.groups);
        S.ngroups = need;
    }
    return &S.groups[(size_t)t->cta->rank * L->threads_per_cta + t->tid];
}

void dsm_emu_bulk_s2g(void *dst, const void *src, uint32_t bytes, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    const char *what = "cp.async.bulk shared->global";
    char title[240];
    emu_cta *c;
    size_t soff;
    if (!emu_decode_generic(L, src, &c, &soff) || c != t->cta) {
        snprintf(title, sizeof title, "%s: the source %p is not in this CTA's shared memory", what, src);
        emu_report_simple(t, DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "the source of cp.async.bulk.global.shared::cta is this CTA's own shared memory");
        emu_abort_launch();
    }
    check_size_align(t, what, bytes, "destination", (uintptr_t)dst, "source offset", soff);
    check_global(L, t, what, "destination", dst, bytes);
    if (soff + bytes > L->window_bytes) {
        snprintf(title, sizeof title, "%s: %u bytes at offset 0x%zx run past the end of shared memory (%zu bytes)",
                 what, bytes, soff, L->window_bytes);
        emu_report_simple(t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, title, "cudaErrorIllegalAddress (700)",
                      "check the source offset and size against the shared-memory layout");
        emu_abort_launch();
    }
    emu_async_check_source_fenced(L, t, t->cta, soff, bytes);
    /* the store reads its source from now until a wait_group.read covers it */
    if (!emu_race_access(L, t, t->cta, soff, bytes, DSM_EMU_LD, &t->site))
        emu_abort_launch();
    if (S.n == S.cap) {
        S.cap = S.cap ? 2 * S.cap : 16;
        S.v = realloc(S.v, S.cap * sizeof *S.v);
    }
    if (emu_counts_on)
        emu_count_bulk_s2g_issue(t, dst, bytes);
    bulk_store *s = &S.v[S.n++];
    memset(s, 0, sizeof *s);
    s->cta = t->cta->rank;
    s->tid = t->tid;
    s->src_off = soff;
    s->gdst = dst;
    s->bytes = bytes;
    s->site = t->site;
    L->progress++;
}

void dsm_emu_bulk_commit_group(const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    uint32_t *g = groups_of(emu_cur, t);
    bool any = false;
    for (uint32_t i = 0; i < S.n; i++)
        if (S.v[i].cta == t->cta->rank && S.v[i].tid == t->tid && S.v[i].group == 0) {
            S.v[i].group = *g + 1;
            any = true;
        }
    /* an empty group is legal and counts as a group */
    (void)any;
    ++*g;
}

void dsm_emu_bulk_wait_group(uint32_t n, int read, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    uint32_t committed = *groups_of(L, t);
    uint32_t upto = committed > n ? committed - n : 0;   /* groups 1..upto must be done */
    uint32_t k = 0;
    for (uint32_t i = 0; i < S.n; i++) {
        bulk_store *s = &S.v[i];
        bool mine = s->cta == t->cta->rank && s->tid == t->tid && s->group != 0 && s->group <= upto;
        if (mine && !s->landed) {
            memcpy(s->gdst, emu_smem_ptr(L, t->cta, s->src_off), s->bytes);
            s->landed = true;
        }
        if (mine && !read)
            continue;   /* complete: its writes are visible to this thread */
        S.v[k++] = *s;
    }
    S.n = k;
    L->progress++;
}

void dsm_emu_fence_proxy_async_global(const char *file, int line)
{
    /* the thread's generic writes to global memory so far are seen by the async proxy (a bulk copy's reads) */
    emu_thread *t = emu_me(file, line);
    t->proxy_fences_global++;
}

void emu_bulk_store_check_smem_write(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n,
                                     const emu_site *site)
{
    for (uint32_t i = 0; i < S.n; i++) {
        bulk_store *s = &S.v[i];
        if (s->landed || s->cta != owner->rank || !overlaps(off, n, s->src_off, s->bytes))
            continue;
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             "the source of a bulk store to global memory is rewritten before "
                             "cp.async.bulk.wait_group.read")) {
            emu_report_who(L, t);
            emu_report_site("where", *site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx", owner->rank, off);
            emu_report_line("store", "issued by rank %u thread %u (%s), %u bytes to global memory:", s->cta, s->tid,
                            s->group ? "committed, not yet waited for" : "not even committed", s->bytes);
            emu_report_site("", s->site);
            emu_report_line("why", "a bulk store reads its source at some time before the issuing thread's "
                                   "cp.async.bulk.wait_group.read covers its group, not at the issue");
            emu_report_line("on GPU", "no error: global memory may receive some of the new bytes");
            emu_report_line("fix", "the issuing thread commits the store (dsm_cp_async_bulk_commit_group), waits "
                                   "with dsm_cp_async_bulk_wait_group_read, then lets the others rewrite the buffer "
                                   "(a __syncthreads or an mbarrier after the wait)");
            emu_report_end();
        }
        emu_abort_launch();
    }
}

void emu_bulk_check_smem_plain(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n, int write,
                               const emu_site *site)
{
    if (write)
        emu_bulk_store_check_smem_write(L, t, owner, off, n, site);
    emu_async_check_plain(L, t, owner, off, n, write, site);
}

void emu_bulk_store_cta_exit(emu_launch *L, uint32_t cta)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < S.n; i++) {
        bulk_store *s = &S.v[i];
        if (s->cta != cta) {
            S.v[k++] = *s;
            continue;
        }
        if (s->landed)
            continue;   /* its source was read: the writes finish on their own before the kernel ends */
        emu_cta *c = &L->cluster.ctas[cta];
        if (emu_report_begin(DSM_REPORT_LIFETIME_HAZARD, dsmErrorLaunchFailure,
                             "lifetime trap: rank %u exited while a bulk store from its shared memory to global "
                             "memory may still read it", cta)) {
            emu_report_line("store", "issued by rank %u thread %u, %u bytes from offset 0x%zx, %s:", s->cta, s->tid,
                            s->bytes, s->src_off,
                            s->group ? "committed but never waited for with cp.async.bulk.wait_group.read"
                                     : "never committed (cp.async.bulk.commit_group), so no wait covers it");
            emu_report_site("", s->site);
            emu_report_line("exit", "rank %u's last thread returned after:", c->rank);
            emu_report_site("", c->exit_site);
            emu_report_line("on GPU", "the store may copy shared memory that the next CTA on this SM already "
                                      "reuses: wrong bytes in global memory, rarely");
            emu_report_line("fix", "the issuing thread ends with dsm_cp_async_bulk_commit_group() and "
                                   "dsm_cp_async_bulk_wait_group_read(0) (or wait_group(0)) before it returns");
            emu_report_end();
        }
        emu_abort_launch();
    }
    S.n = k;
}

void emu_bulk_check_global_plain(emu_launch *L, emu_thread *t, const void *a, unsigned n, int write,
                                 const emu_site *site)
{
    emu_cluster *cl = &L->cluster;
    uintptr_t x = (uintptr_t)a;
    if (write)
        for (uint32_t i = 0; i < cl->nops; i++) {
            emu_async_op *op = &cl->ops[i];
            if (op->done || !op->gsrc || !overlaps(x, n, (uintptr_t)op->gsrc, op->bytes))
                continue;
            if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                                 "the global source of a bulk copy is rewritten before the copy completed")) {
                emu_report_who(L, t);
                emu_report_site("where", *site);
                emu_report_line("memory", "global memory, %u bytes at byte %zu of the copy's %u-byte source", n,
                                (size_t)(x - (uintptr_t)op->gsrc), op->bytes);
                emu_report_line("copy", "issued by rank %u thread %u into rank %u%s, still in flight:",
                                op->issuer_cta, op->issuer_tid, op->dst_cta, op->multicast ? " (a multicast)" : "");
                emu_report_site("", op->site);
                emu_report_line("why", "a bulk copy reads its source at some time between its issue and the "
                                       "completion of its mbarrier phase");
                emu_report_line("on GPU", "no error: the receivers may get some of the new bytes");
                emu_report_line("fix", "rewrite the source only after every receiver's mbarrier phase completed "
                                       "and the writer knows it (a cluster barrier, or an mbarrier the receivers "
                                       "arrive on)");
                emu_report_end();
            }
            emu_abort_launch();
        }
    for (uint32_t i = 0; i < S.n; i++) {
        bulk_store *s = &S.v[i];
        if (!overlaps(x, n, (uintptr_t)s->gdst, s->bytes))
            continue;
        bool own = s->cta == t->cta->rank && s->tid == t->tid;
        if (emu_report_begin(DSM_REPORT_RACE_READ_WRITE, dsmErrorRaceDetected,
                             "%s of global memory that a bulk store is still writing", write ? "a write" : "a read")) {
            emu_report_who(L, t);
            emu_report_site("where", *site);
            emu_report_line("memory", "global memory, %u bytes at byte %zu of the store's %u-byte destination", n,
                            (size_t)(x - (uintptr_t)s->gdst), s->bytes);
            emu_report_line("store", "issued by rank %u thread %u%s:", s->cta, s->tid,
                            s->landed ? ", waited for with wait_group.read only (its source was read; its writes "
                                        "may still be on their way)"
                                      : ", not yet waited for");
            emu_report_site("", s->site);
            emu_report_line("on GPU", "no error: the access sees old bytes, or is overwritten later");
            emu_report_line("fix", own ? "wait with dsm_cp_async_bulk_wait_group(0) (not the .read form) before "
                                         "touching the destination"
                                       : "the issuing thread waits with dsm_cp_async_bulk_wait_group (not .read), "
                                         "then releases (a barrier, or a release flag) to the threads that read");
            emu_report_end();
        }
        emu_abort_launch();
    }
}
