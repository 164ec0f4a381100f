/* remote_access.c: mapa and map_shared_rank, and checked .shared::cluster loads, stores and atomics (ld/st/atom/red on a peer's or the own CTA's shared memory). */
#include <string.h>

#include "emu_mechanisms.h"

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
    (void)owner;
    emu_schedule_point(t);
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
    emu_bulk_check_smem_plain(L, t, owner, off, bytes, kind != DSM_EMU_LD, &t->site);
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
