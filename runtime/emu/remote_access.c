/* remote_access.c: identity registers, mapa and map_shared_rank, and checked .shared::cluster loads, stores and atomics. */
#include <string.h>

#include "emu_internal.h"

static emu_thread *cur_thread(void) { return emu_self_thread; }

uint32_t dsm_emu_cluster_ctarank(void) { return cur_thread()->cta->rank; }
uint32_t dsm_emu_cluster_nctarank(void) { return emu_cur->cluster.ncta; }
dsm_dim3 dsm_emu_cluster_ctaid(void) { return cur_thread()->cta->cluster_ctaid; }
dsm_dim3 dsm_emu_cluster_nctaid(void) { return emu_cur->cfg.cluster; }
dsm_dim3 dsm_emu_clusterid(void) { return emu_cur->cluster.id; }
dsm_dim3 dsm_emu_nclusterid(void)
{
    dsm_launch_config *c = &emu_cur->cfg;
    return DSM_DIM3(c->grid.x / c->cluster.x, c->grid.y / c->cluster.y, c->grid.z / c->cluster.z);
}

void *dsm_emu_dynamic_smem(void)
{
    emu_thread *t = cur_thread();
    return t->cta->window + emu_cur->static_rounded;
}

/* A fake counter per thread, so that a kernel that writes clock differences
 * writes the same in every schedule (a global counter would differ). */
static uint64_t fake_clock;
uint64_t dsm_emu_clock64(void)
{
    emu_thread *t = emu_self_thread;
    return t ? (t->clock += 8) : (fake_clock += 8);
}

static _Noreturn void bad_pointer(emu_thread *t, const void *p, const char *what)
{
    emu_launch *L = emu_cur;
    if (emu_report_begin(DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress,
                         "%s: %p is not a pointer into this cluster's shared memory", what, p)) {
        emu_report_who(L, t);
        emu_report_site("where", t->site);
        emu_report_line("on GPU", "undefined: a wrong address, often cudaErrorIllegalAddress (700)");
        emu_report_line("fix", "pass the address of a __shared__ variable or of dynamic shared memory "
                               "(dsm_dynamic_smem())");
        emu_report_end();
    }
    emu_abort_launch();
}

static _Noreturn void bad_rank(emu_thread *t, uint32_t rank, const char *what)
{
    emu_launch *L = emu_cur;
    if (emu_report_begin(DSM_REPORT_RANK_OUT_OF_RANGE, dsmErrorIllegalAddress,
                         "%s: rank %u is out of range, the cluster has %u CTAs (ranks 0..%u)", what, rank,
                         L->cluster.ncta, L->cluster.ncta - 1)) {
        emu_report_who(L, t);
        emu_report_site("where", t->site);
        emu_report_line("on GPU", "undefined: an address in no CTA, typically cudaErrorIllegalAddress (700)");
        emu_report_line("fix", "ranks are 0 .. dsm_cluster_nctarank()-1, the 1-D %%cluster_ctarank; wrap "
                               "neighbours with %% dsm_cluster_nctarank()");
        emu_report_end();
    }
    emu_abort_launch();
}

uint32_t dsm_emu_smem_addr(const void *p, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_cta *c;
    size_t off;
    if (!emu_decode_generic(emu_cur, p, &c, &off) || c != t->cta)
        bad_pointer(t, p, "cvta.to.shared (dsm_smem_addr)");
    return EMU_SMEM_BASE + (uint32_t)off;
}

void *dsm_emu_map_shared_rank(const void *p, uint32_t rank, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    emu_cta *c;
    size_t off;
    if (!emu_decode_generic(L, p, &c, &off))
        bad_pointer(t, p, "mapa (dsm_map_shared_rank)");
    if (rank >= L->cluster.ncta)
        bad_rank(t, rank, "mapa (dsm_map_shared_rank)");
    emu_cta *dst = &L->cluster.ctas[rank];
    if (dst == t->cta)
        return emu_smem_ptr(L, dst, off);
    return dst->window + off;
}

uint32_t dsm_emu_mapa_shared_cluster(uint32_t saddr, uint32_t rank, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    uint32_t r;
    size_t off;
    if (!emu_decode_shared_addr(L, t, saddr, &r, &off) || off >= L->window_bytes + 1)
        bad_pointer(t, (void *)(uintptr_t)saddr, "mapa.shared::cluster");
    if (rank >= L->cluster.ncta)
        bad_rank(t, rank, "mapa.shared::cluster");
    return emu_encode_cluster_addr(rank, off);
}

static void report_out_of_bounds(emu_thread *t, uint32_t rank, size_t off, unsigned bytes, const char *what)
{
    emu_launch *L = emu_cur;
    if (!emu_report_begin(DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress,
                          "%s outside rank %u's shared memory: offset 0x%zx + %u bytes, %zu bytes allocated",
                          what, rank, off, bytes, L->window_bytes))
        return;
    emu_report_who(L, t);
    emu_report_site("where", t->site);
    emu_report_line("on GPU", "cudaErrorIllegalAddress (700) or a silent read/write of another variable");
    emu_report_line("fix", "check the index: the peer has the same shared-memory layout as this CTA");
    emu_report_end();
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
    emu_report_line("exited", "rank %u exited in phase %u; its last thread returned after:", owner->rank,
                    owner->exit_phase);
    emu_report_site("", owner->exit_site);
    emu_report_line("on GPU", "cudaErrorLaunchFailure (719, \"unspecified launch failure\"), often only "
                              "sometimes: it depends on which CTA finishes first");
    emu_report_line("fix", "keep rank %u alive: every CTA must reach a cluster barrier (dsm_cluster_sync) after "
                           "the last remote access and before it exits", owner->rank);
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

/* A remote read of a word its owner wrote with plain stores in a phase that it
 * closed with arrive.relaxed only: nothing published the write. */
static void check_published(emu_thread *t, emu_cta *owner, size_t off, unsigned bytes)
{
    if (owner == t->cta)
        return;
    for (size_t o = off; o < off + bytes; o += 4) {
        uint32_t phase = emu_publication_unpublished(owner, o);
        if (!phase)
            continue;
        emu_launch *L = emu_cur;
        if (emu_report_begin(DSM_REPORT_UNPUBLISHED_READ, dsmErrorRaceDetected,
                             "read of rank %u's shared memory that rank %u wrote but never published",
                             owner->rank, owner->rank)) {
            emu_report_who(L, t);
            emu_report_site("where", t->site);
            emu_report_line("memory", "rank %u's shared memory, offset 0x%zx, written in cluster barrier phase %u",
                            owner->rank, o, phase - 1);
            emu_report_line("why", "every thread of rank %u ended that phase with barrier.cluster.arrive.relaxed, "
                                   "which orders nothing: the write may not be visible to this read",
                            owner->rank);
            emu_report_line("on GPU", "no error: the read may return the old value");
            emu_report_line("fix", "the writers arrive with .release (dsm_barrier_cluster_arrive, the default) "
                                   "and the readers wait with .acquire (dsm_barrier_cluster_wait)");
            emu_report_end();
        }
        emu_abort_launch();
    }
}

static emu_cta *target_cta(emu_thread *t, uint32_t addr, size_t *off, unsigned bytes, const char *what)
{
    emu_launch *L = emu_cur;
    uint32_t rank;
    if (!emu_decode_shared_addr(L, t, addr, &rank, off))
        bad_pointer(t, (void *)(uintptr_t)addr, what);
    if (rank >= L->cluster.ncta)
        bad_rank(t, rank, what);
    emu_cta *owner = &L->cluster.ctas[rank];
    if (*off + bytes > L->window_bytes || (*off % bytes) != 0) {
        if ((*off % bytes) != 0 && *off + bytes <= L->window_bytes) {
            if (emu_report_begin(DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress,
                                 "%s: misaligned address (offset 0x%zx is not a multiple of %u)", what, *off, bytes)) {
                emu_report_who(L, t);
                emu_report_site("where", t->site);
                emu_report_line("on GPU", "cudaErrorMisalignedAddress (716)");
                emu_report_end();
            }
        } else
            report_out_of_bounds(t, rank, *off, bytes, what);
        emu_abort_launch();
    }
    if (owner->exited) {
        emu_report_dead_peer(t, owner, *off, what);
        emu_abort_launch();
    }
    return owner;
}

/* Remote accesses give other threads a chance to run first under the interleaving schedules. */
static void maybe_yield(emu_thread *t, emu_cta *owner)
{
    emu_launch *L = emu_cur;
    if (L->sched.kind == EMU_SCHED_INTERLEAVE ||
        (L->sched.kind == EMU_SCHED_RANDOM && (L->switches * 2654435761u + t->tid) % 8 == 0)) {
        (void)owner;
        emu_yield(t);
    }
}

void dsm_emu_access(enum dsm_emu_access kind, uint32_t addr, void *val, unsigned bytes, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    const char *what = kind == DSM_EMU_LD ? "ld.shared::cluster" : "st.shared::cluster";
    size_t off;
    emu_cta *owner = target_cta(t, addr, &off, bytes, what);
    maybe_yield(t, owner);
    /* the owner may have exited while we yielded */
    owner = target_cta(t, addr, &off, bytes, what);
    if (owner != t->cta)
        emu_check_cta_started(L, t, owner, &t->site);
    emu_async_check_plain(L, t, owner, off, bytes, kind != DSM_EMU_LD, &t->site);
    if (!emu_race_access(L, t, owner, off, bytes, kind, &t->site))
        emu_abort_launch();
    if (emu_counts_on)
        emu_count_smem(t, owner, bytes, kind != DSM_EMU_LD);
    unsigned char *p = emu_smem_ptr(L, owner, off);
    if (kind == DSM_EMU_LD) {
        check_published(t, owner, off, bytes);
        memcpy(val, p, bytes);
        for (unsigned i = 0; i < bytes; i += 4) {
            uint32_t w;
            memcpy(&w, (unsigned char *)val + i, 4);
            if (w == EMU_POISON_WORD) {
                emu_report_poison(t, owner, off + i);
                emu_abort_launch();
            }
        }
    } else
        memcpy(p, val, bytes);
}

uint32_t dsm_emu_atom_u32(int op, uint32_t addr, uint32_t a, uint32_t b, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    size_t off;
    emu_cta *owner = target_cta(t, addr, &off, 4, "atom.shared::cluster");
    maybe_yield(t, owner);
    owner = target_cta(t, addr, &off, 4, "atom.shared::cluster");
    if (!emu_race_access(L, t, owner, off, 4, DSM_EMU_ATOM, &t->site))
        emu_abort_launch();
    check_published(t, owner, off, 4);
    if (emu_counts_on)
        emu_count_smem_atom(t, owner);
    unsigned char *p = emu_smem_ptr(L, owner, off);
    uint32_t old;
    memcpy(&old, p, 4);
    if (old == EMU_POISON_WORD) {
        emu_report_poison(t, owner, off);
        emu_abort_launch();
    }
    uint32_t nv = op == DSM_EMU_ATOM_ADD ? old + a : (old == a ? b : old);
    memcpy(p, &nv, 4);
    return old;
}

float dsm_emu_atom_add_f32(uint32_t addr, float v, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    size_t off;
    emu_cta *owner = target_cta(t, addr, &off, 4, "atom.shared::cluster.add.f32");
    maybe_yield(t, owner);
    owner = target_cta(t, addr, &off, 4, "atom.shared::cluster.add.f32");
    if (!emu_race_access(L, t, owner, off, 4, DSM_EMU_ATOM, &t->site))
        emu_abort_launch();
    if (emu_counts_on)
        emu_count_smem_atom(t, owner);
    unsigned char *p = emu_smem_ptr(L, owner, off);
    float old;
    uint32_t w;
    memcpy(&w, p, 4);
    if (w == EMU_POISON_WORD) {
        emu_report_poison(t, owner, off);
        emu_abort_launch();
    }
    memcpy(&old, p, 4);
    float nv = old + v;
    memcpy(p, &nv, 4);
    return old;
}

/* Global-memory atomics: fibers never switch inside these, so they are atomic. */
static void count_atomic(const void *p)
{
    emu_cta *owner;
    size_t off;
    if (!emu_counts_on || !emu_self_thread)
        return;
    /* atomicAdd on a __shared__ variable (own or mapped) is a shared-memory atomic */
    if (emu_decode_generic(emu_cur, p, &owner, &off))
        emu_count_smem_atom(emu_self_thread, owner);
    else
        emu_count_gmem_atom(emu_self_thread, p);
}
int dsm_emu_atomic_add_i32(int *p, int v) { count_atomic(p); int o = *p; *p = (int)((unsigned)o + (unsigned)v); return o; }
unsigned dsm_emu_atomic_add_u32(unsigned *p, unsigned v) { count_atomic(p); unsigned o = *p; *p = o + v; return o; }
unsigned long long dsm_emu_atomic_add_u64(unsigned long long *p, unsigned long long v) { count_atomic(p); unsigned long long o = *p; *p = o + v; return o; }
float dsm_emu_atomic_add_f32(float *p, float v) { count_atomic(p); float o = *p; *p = o + v; return o; }
int dsm_emu_atomic_max_i32(int *p, int v) { count_atomic(p); int o = *p; if (v > o) *p = v; return o; }
unsigned dsm_emu_atomic_max_u32(unsigned *p, unsigned v) { count_atomic(p); unsigned o = *p; if (v > o) *p = v; return o; }
unsigned dsm_emu_atomic_cas_u32(unsigned *p, unsigned c, unsigned v) { count_atomic(p); unsigned o = *p; if (o == c) *p = v; return o; }
