/* flags.c: release/acquire and relaxed loads and stores of 32-bit flags (ld.acquire / st.release, cluster and gpu scope); a polling load yields, and a poll nothing can change is a livelock. */
#include <stdlib.h>
#include <string.h>

#include "emu_mechanisms.h"

/* A flag word: shared memory of a CTA (cta >= 0, offset) or global memory (ptr). */
typedef struct flag_loc {
    int32_t cta;
    size_t off;
    const uint32_t *ptr;
} flag_loc;

static emu_sync_loc *sync_loc(emu_launch *L, const flag_loc *f)
{
    emu_cluster *cl = &L->cluster;
    for (uint32_t i = 0; i < cl->nlocs; i++) {
        emu_sync_loc *s = &cl->locs[i];
        if (s->cta == f->cta && s->off == f->off && s->ptr == f->ptr)
            return s;
    }
    if (cl->nlocs == cl->cap_locs) {
        cl->cap_locs = cl->cap_locs ? 2 * cl->cap_locs : 16;
        cl->locs = realloc(cl->locs, cl->cap_locs * sizeof *cl->locs);
    }
    emu_sync_loc *s = &cl->locs[cl->nlocs++];
    memset(s, 0, sizeof *s);
    s->cta = f->cta;
    s->off = f->off;
    s->ptr = f->ptr;
    s->tvc.cta = f->cta;
    return s;
}

static _Noreturn void bad_flag(emu_thread *t, const void *p, const char *what, const char *why, const char *fix)
{
    emu_launch *L = emu_cur;
    if (emu_report_begin(DSM_REPORT_ILLEGAL_ADDRESS, dsmErrorIllegalAddress, "%s: %p %s", what, p, why)) {
        emu_report_who(L, t);
        emu_report_site("where", t->site);
        emu_report_line("on GPU", "cudaErrorIllegalAddress (700) or cudaErrorMisalignedAddress (716)");
        emu_report_line("fix", "%s", fix);
        emu_report_end();
    }
    emu_abort_launch();
}

/* Decodes and checks the flag's address; the owner of shared memory must be alive. */
static flag_loc locate(emu_thread *t, const uint32_t *p, bool gpu_scope, const char *what)
{
    emu_launch *L = emu_cur;
    flag_loc f = {-1, 0, NULL};
    emu_cta *c;
    if ((uintptr_t)p % 4)
        bad_flag(t, p, what, "is not 4-byte aligned", "flags are aligned 32-bit words");
    if (emu_decode_generic(L, p, &c, &f.off)) {
        if (gpu_scope)
            bad_flag(t, p, what, "is shared memory, this is a global-memory (.gpu) flag",
                     "use dsm_ld_acquire_cluster_u32 / dsm_st_release_cluster_u32 for flags in shared memory");
        f.cta = (int32_t)c->rank;
        if (f.off + 4 > L->window_bytes)
            bad_flag(t, p, what, "runs past the end of shared memory", "check the flag's index");
        return f;
    }
    emu_cta *dead = emu_cta_of_fault(L, p, &(bool){false});
    if (dead && dead->exited) {
        emu_report_dead_peer(t, dead, (size_t)((const unsigned char *)p - dead->window), what);
        emu_abort_launch();
    }
    if (!emu_is_device(p, 4))
        bad_flag(t, p, what, "is neither shared memory of this cluster nor global memory from dsm_malloc",
                 "a flag lives in __shared__ memory (this CTA's, or a peer's through dsm_map_shared_rank) or in "
                 "a dsm_malloc buffer");
    f.ptr = p;
    return f;
}

static uint32_t *flag_ptr(emu_launch *L, const flag_loc *f)
{
    if (f->cta >= 0)
        return (uint32_t *)(void *)emu_smem_ptr(L, &L->cluster.ctas[f->cta], f->off);
    return (uint32_t *)f->ptr;
}

/* A strong access to the flag word: checked against plain accesses (strong ones do not race each other). */
static void check_access(emu_launch *L, emu_thread *t, const flag_loc *f, int kind)
{
    if (f->cta < 0) {
        if (!emu_race_global(L, t, f->ptr, 4, kind, &t->site))
            emu_abort_launch();
        return;
    }
    emu_cta *owner = &L->cluster.ctas[f->cta];
    if (owner != t->cta)
        emu_check_cta_started(L, t, owner, &t->site);
    if (!emu_race_access(L, t, owner, f->off, 4, kind, &t->site))
        emu_abort_launch();
}

void dsm_emu_fence(const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    /* fence.acq_rel: a relaxed load before it acquires, a relaxed store or arrive after it releases */
    if (t->relaxed_loc >= 0 && (uint32_t)t->relaxed_loc < L->cluster.nlocs) {
        emu_sync_loc *s = &L->cluster.locs[t->relaxed_loc];
        emu_acquire_from(t, s->vc, &s->tvc);
        t->relaxed_loc = -1;
    }
    t->fenced = true;
    if (emu_counts_on)
        emu_count_fence(t);
}

void dsm_emu_fence_gpu_scope(void)
{
    emu_thread *t = emu_self_thread;
    if (!t)
        return;
    /* at gpu scope the same pairs order accesses across clusters too */
    if (t->relaxed_gptr) {
        emu_gpu_acquire(t, t->relaxed_gptr);
        t->relaxed_gptr = NULL;
    }
    t->fenced_gpu = true;
}

/* Thread t releases at gpu scope through the global word p (st.release.gpu, or a gpu fence and then a
 * relaxed store, volatile store or atomic): an acquire of p in a later cluster sees what t's CTA knew. */
static void gpu_release(emu_thread *t, const flag_loc *f, bool release)
{
    if (f->cta >= 0 || !(release || t->fenced_gpu))
        return;
    emu_gpu_release(t, f->ptr);
    t->fenced_gpu = false;
    /* what this thread does from now on comes after the release */
    t->cta->vc[t->cta->rank]++;
    t->epoch++;
}

void emu_flag_atomic(emu_thread *t, const void *a)
{
    emu_launch *L = emu_cur;
    emu_cta *c;
    flag_loc f = {-1, 0, NULL};
    if (emu_decode_generic(L, a, &c, &f.off))
        f.cta = (int32_t)c->rank;
    else
        f.ptr = a;
    /* a relaxed read-modify-write: after a fence a release, before a fence an acquire */
    gpu_release(t, &f, false);
    if (t->fenced) {
        emu_sync_loc *s = sync_loc(L, &f);
        emu_release_to(t, s->vc, &s->tvc);
        t->fenced = false;
    }
    if (f.cta < 0)
        t->relaxed_gptr = a;
    for (uint32_t i = 0; i < L->cluster.nlocs; i++) /* only a word something released to has anything to give */
        if (L->cluster.locs[i].cta == f.cta && L->cluster.locs[i].off == f.off && L->cluster.locs[i].ptr == f.ptr) {
            t->relaxed_loc = (int32_t)i;
            break;
        }
}

/* Whether the flag's word still holds what thread t saw at its last poll. */
bool emu_flag_unchanged(emu_launch *L, const emu_thread *t)
{
    flag_loc f = {t->poll_cta, t->poll_off, t->poll_ptr};
    if (f.cta >= 0 && L->cluster.ctas[f.cta].exited)
        return false;
    return *flag_ptr(L, &f) == t->poll_value;
}

/* Polling: let others run first. A poll that follows one where nothing in the
 * cluster changed since sleeps until nothing else can run (then the scheduler
 * wakes it, or reports the livelock). */
static void poll_turn(emu_launch *L, emu_thread *t, const flag_loc *f, uintptr_t key, emu_site site)
{
    t->poll_site = site;
    if (t->poll_key == key && t->poll_epoch == L->progress && t->poll_cta == f->cta && t->poll_off == f->off &&
        t->poll_ptr == f->ptr)
        emu_block(t, EMU_SPINNING);
    else
        emu_yield(t);
}

/* Remembers what this poll saw, for the next one. */
static void poll_seen(emu_launch *L, emu_thread *t, const flag_loc *f, uintptr_t key, emu_site site, uint32_t v)
{
    t->poll_key = key;
    t->poll_site = site;
    t->poll_epoch = L->progress;
    t->poll_cta = f->cta;
    t->poll_off = f->off;
    t->poll_ptr = f->ptr;
    t->poll_value = v;
}

uint32_t dsm_emu_flag_load(const uint32_t *p, int acquire, int gpu_scope, const char *file, int line)
{
    emu_thread *t = emu_self_thread;
    emu_launch *L = emu_cur;
    const char *what = gpu_scope ? (acquire ? "ld.acquire.gpu" : "ld.relaxed.gpu")
                                 : acquire ? "ld.acquire.cluster" : "ld.relaxed.cluster";
    if (!t)
        (void)emu_me(file, line);
    t->site.file = file;
    t->site.line = line;
    flag_loc f = locate(t, p, gpu_scope != 0, what);
    emu_site here = {file, line, NULL};
    poll_turn(L, t, &f, (uintptr_t)file * 31u + (uintptr_t)line, here);
    t->site.file = file;
    t->site.line = line;
    f = locate(t, p, gpu_scope != 0, what); /* the owner may have exited meanwhile */
    check_access(L, t, &f, DSM_EMU_ATOM_LD);
    uint32_t v = *flag_ptr(L, &f);
    if (f.cta >= 0 && v == EMU_POISON_WORD) {
        emu_report_poison(t, &L->cluster.ctas[f.cta], f.off);
        emu_abort_launch();
    }
    if (emu_counts_on)
        emu_count_flag(t, p, 0, acquire, gpu_scope ? DSM_FLAG_GPU : DSM_FLAG_CLUSTER);
    emu_sync_loc *s = sync_loc(L, &f);
    if (acquire)
        emu_acquire_from(t, s->vc, &s->tvc);
    else
        t->relaxed_loc = (int32_t)(s - L->cluster.locs); /* a fence after it makes it an acquire */
    if (gpu_scope && acquire)
        emu_gpu_acquire(t, p);
    else if (gpu_scope)
        t->relaxed_gptr = p;
    poll_seen(L, t, &f, (uintptr_t)file * 31u + (uintptr_t)line, here, v);
    return v;
}

void emu_flag_volatile(emu_thread *t, const void *a, int write, emu_site site)
{
    emu_launch *L = emu_cur;
    emu_cta *c;
    flag_loc f = {-1, 0, NULL};
    if (emu_counts_on)
        emu_count_flag(t, a, write, 0, DSM_FLAG_SYS);
    if (emu_decode_generic(L, a, &c, &f.off))
        f.cta = (int32_t)c->rank;
    else
        f.ptr = a;
    if (write) {
        gpu_release(t, &f, false);
        if (t->fenced) { /* fence.acq_rel, then a relaxed store: a release */
            emu_sync_loc *s = sync_loc(L, &f);
            emu_release_to(t, s->vc, &s->tvc);
            t->fenced = false;
        }
        return;
    }
    uintptr_t key = (uintptr_t)site.pc;
    poll_turn(L, t, &f, key, site);
    if (f.cta >= 0 && L->cluster.ctas[f.cta].exited)
        return; /* the load itself faults: the lifetime report */
    emu_sync_loc *s = sync_loc(L, &f);
    t->relaxed_loc = (int32_t)(s - L->cluster.locs); /* a fence after it makes it an acquire */
    if (f.cta < 0)
        t->relaxed_gptr = a;
    poll_seen(L, t, &f, key, site, *flag_ptr(L, &f));
}

void dsm_emu_flag_store(uint32_t *p, uint32_t v, int release, int gpu_scope, const char *file, int line)
{
    emu_thread *t = emu_me(file, line);
    emu_launch *L = emu_cur;
    const char *what = gpu_scope ? (release ? "st.release.gpu" : "st.relaxed.gpu")
                                 : release ? "st.release.cluster" : "st.relaxed.cluster";
    flag_loc f = locate(t, p, gpu_scope != 0, what);
    check_access(L, t, &f, DSM_EMU_ATOM);
    if (emu_counts_on)
        emu_count_flag(t, p, 1, release, gpu_scope ? DSM_FLAG_GPU : DSM_FLAG_CLUSTER);
    if (gpu_scope)
        gpu_release(t, &f, release != 0);
    /* fence.acq_rel then a relaxed store is a release too */
    if (release || t->fenced) {
        emu_sync_loc *s = sync_loc(L, &f);
        emu_release_to(t, s->vc, &s->tvc);
        t->fenced = false;
    }
    *flag_ptr(L, &f) = v;
}
