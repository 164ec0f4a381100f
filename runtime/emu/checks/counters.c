/* counters.c: the mechanism counters of dsm_emu_control.h: what each CTA of a launch did (bytes through its own shared memory, peers' shared memory, bulk copies and global memory, barriers, mbarrier phases, flags by semantics), counted in the launch's first schedule. */
#include <stdlib.h>
#include <string.h>

#include "emu_checks.h"

int emu_counts_on;

/* The launch being counted (or the last one counted). */
static dsm_emu_counts *counts;
static dsm_emu_gmem_use *uses;           /* [block][buffer] */
static const unsigned char **bufs;      /* the dsm_malloc buffers at the launch's start */
static size_t *buf_bytes;
static uint32_t nblocks, nbufs;
static bool have_counts;

/* Per thread of the running cluster: whether it touched global memory or DSMEM, whether it made a load of
 * >= 16 bytes, the run of such loads it is in and its longest run. Folded into its CTA's counts at the
 * cluster's end. */
typedef struct thread_activity {
    bool active, wide;
    uint32_t run, best;
} thread_activity;
static thread_activity *acts;
static uint32_t nacts;

static thread_activity *act_of(const emu_thread *t)
{
    uint32_t n = emu_cur->cluster.ncta * emu_cur->threads_per_cta;
    if (n > nacts) {
        free(acts);
        acts = calloc(n, sizeof *acts);
        nacts = acts ? n : 0;
    }
    return acts ? &acts[t->cta->rank * emu_cur->threads_per_cta + t->tid] : NULL;
}

/* A global or DSMEM access by t: a load of n bytes, or (load = 0) a store, atomic or copy. */
static void moved(const emu_thread *t, int load, unsigned n)
{
    thread_activity *a = act_of(t);
    if (!a)
        return;
    a->active = true;
    if (!load)
        a->run = 0;
    else if (n >= 16) {
        a->wide = true;
        if (++a->run > a->best)
            a->best = a->run;
    }
}

void emu_count_sync(const emu_thread *t)
{
    thread_activity *a = act_of(t);
    if (a)
        a->run = 0;
}

/* CTA c's threads' activity, into its counts. */
static void fold_activity(const emu_launch *L, const emu_cta *c, dsm_emu_counts *k)
{
    uint32_t base = c->rank * L->threads_per_cta, warps = 0, lo = UINT32_MAX, hi = 0, threads = 0;
    bool warp_active = false;
    if (!acts || base + c->nthreads > nacts)
        return;
    for (uint32_t i = 0; i < c->nthreads; i++) {
        const thread_activity *a = &acts[base + i];
        if (i % 32 == 0)
            warp_active = false;
        if (a->active) {
            threads++;
            if (!warp_active)
                warps++;
            warp_active = true;
        }
        if (a->wide) {
            lo = a->best < lo ? a->best : lo;
            hi = a->best > hi ? a->best : hi;
        }
    }
    k->threads_active = threads;
    k->warps_active = warps;
    k->ld_burst_min = hi ? lo : 0;
    k->ld_burst_max = hi;
}

static uint32_t block_of(const emu_launch *L, const emu_cta *c)
{
    const dsm_dim3 g = L->cfg.grid, b = c->block_idx;
    return b.x + g.x * (b.y + g.y * b.z);
}

static dsm_emu_counts *of(const emu_thread *t) { return &counts[block_of(emu_cur, t->cta)]; }

void emu_counts_launch_start(emu_launch *L)
{
    free(counts);
    free(uses);
    free(bufs);
    free(buf_bytes);
    counts = NULL;
    uses = NULL;
    bufs = NULL;
    buf_bytes = NULL;
    const dsm_dim3 g = L->cfg.grid;
    nblocks = g.x * g.y * g.z;
    nbufs = (uint32_t)emu_global_count();
    counts = calloc(nblocks, sizeof *counts);
    uses = calloc((size_t)nblocks * (nbufs ? nbufs : 1), sizeof *uses);
    bufs = calloc(nbufs ? nbufs : 1, sizeof *bufs);
    buf_bytes = calloc(nbufs ? nbufs : 1, sizeof *buf_bytes);
    for (uint32_t i = 0; i < nbufs; i++)
        emu_global_buffer(i, &bufs[i], &buf_bytes[i]);
    for (uint32_t b = 0; b < nblocks; b++)
        counts[b].cluster_waits_min = UINT32_MAX;
    have_counts = counts && uses && bufs && buf_bytes;
    emu_counts_on = have_counts;
}

void emu_counts_schedule_done(void) { emu_counts_on = 0; }

/* What the cluster's threads and mbarriers hold at its end (or at a report). */
void emu_counts_cluster_end(emu_launch *L)
{
    if (!emu_counts_on)
        return;
    emu_cluster *cl = &L->cluster;
    for (uint32_t r = 0; r < cl->ncta; r++) {
        emu_cta *c = &cl->ctas[r];
        if (!c->threads)
            continue;
        dsm_emu_counts *k = &counts[block_of(L, c)];
        uint32_t lo = UINT32_MAX, hi = 0, syncs = 0;
        for (uint32_t i = 0; i < c->nthreads; i++) {
            uint32_t w = c->threads[i].waits;
            lo = w < lo ? w : lo;
            hi = w > hi ? w : hi;
            syncs = c->threads[i].syncs > syncs ? c->threads[i].syncs : syncs;
        }
        k->cluster_waits_min = lo;
        k->cluster_waits_max = hi;
        k->syncthreads = syncs;
        fold_activity(L, c, k);
    }
    if (acts)
        memset(acts, 0, nacts * sizeof *acts);
    for (uint32_t i = 0; i < cl->nmbars; i++) {
        const emu_mbarrier *m = &cl->mbars[i];
        if (m->cta < cl->ncta)
            counts[block_of(L, &cl->ctas[m->cta])].mbarrier_phases += m->phase;
    }
}

/* The buffer holding [p, p+n): its index and the offset of p; false when none. */
static bool find_buf(const void *p, size_t n, uint32_t *idx, size_t *off)
{
    static uint32_t last;
    const unsigned char *a = p;
    if (last < nbufs && a >= bufs[last] && a + n <= bufs[last] + buf_bytes[last]) {
        *idx = last;
        *off = (size_t)(a - bufs[last]);
        return true;
    }
    for (uint32_t i = 0; i < nbufs; i++)
        if (a >= bufs[i] && a + n <= bufs[i] + buf_bytes[i]) {
            last = *idx = i;
            *off = (size_t)(a - bufs[i]);
            return true;
        }
    return false;
}

static void widen(size_t *lo, size_t *hi, size_t a, size_t b)
{
    if (*lo == *hi) {
        *lo = a;
        *hi = b;
        return;
    }
    *lo = a < *lo ? a : *lo;
    *hi = b > *hi ? b : *hi;
}

/* `n` bytes of global memory at p read (write = 0), written (1) or updated atomically (2) by block `block`. */
static void gmem_use(uint32_t block, const void *p, size_t n, int write)
{
    uint32_t i;
    size_t off;
    if (!find_buf(p, n, &i, &off))
        return;
    dsm_emu_gmem_use *u = &uses[(size_t)block * nbufs + i];
    if (write == 2)
        u->atom_ops++;
    else if (write) {
        u->st_bytes += n;
        widen(&u->st_lo, &u->st_hi, off, off + n);
    } else {
        u->ld_bytes += n;
        widen(&u->ld_lo, &u->ld_hi, off, off + n);
    }
}

void emu_count_smem(const emu_thread *t, const emu_cta *owner, unsigned n, int write)
{
    dsm_emu_counts *k = of(t);
    if (owner != t->cta)
        moved(t, !write, n);
    else if (write)
        emu_count_sync(t); /* a store ends a run of loads in flight, whatever memory it writes */
    if (owner == t->cta) {
        if (write) {
            k->smem_st_bytes += n;
            k->smem_st_ops++;
        } else {
            k->smem_ld_bytes += n;
            k->smem_ld_ops++;
        }
    } else if (write) {
        k->dsmem_st_bytes += n;
        k->dsmem_st_ops++;
    } else {
        k->dsmem_ld_bytes += n;
        k->dsmem_ld_ops++;
    }
}

void emu_count_smem_atom(const emu_thread *t, const emu_cta *owner)
{
    dsm_emu_counts *k = of(t);
    if (owner != t->cta)
        moved(t, 0, 0);
    else
        emu_count_sync(t);
    if (owner == t->cta)
        k->smem_atom_ops++;
    else
        k->dsmem_atom_ops++;
}

void emu_count_gmem(const emu_thread *t, const void *p, unsigned n, int write)
{
    dsm_emu_counts *k = of(t);
    moved(t, !write, n);
    if (write) {
        k->gmem_st_bytes += n;
        k->gmem_st_ops++;
    } else {
        k->gmem_ld_bytes += n;
        k->gmem_ld_ops++;
    }
    gmem_use(block_of(emu_cur, t->cta), p, n, write);
}

void emu_count_gmem_atom(const emu_thread *t, const void *p)
{
    moved(t, 0, 0);
    of(t)->gmem_atom_ops++;
    gmem_use(block_of(emu_cur, t->cta), p, 4, 2);
}

void emu_count_flag(const emu_thread *t, const void *p, int store, int strong, int scope)
{
    emu_cta *c;
    size_t off;
    int space = DSM_FLAG_GLOBAL;
    if (emu_decode_generic(emu_cur, p, &c, &off))
        space = c == t->cta ? DSM_FLAG_OWN_SMEM : DSM_FLAG_PEER_SMEM;
    of(t)->flags[store ? DSM_FLAG_STORE : DSM_FLAG_LOAD][strong ? DSM_FLAG_STRONG : DSM_FLAG_RELAXED][scope][space]++;
    if (store || strong) /* a flag store, or an acquire (a wait for a flag) */
        emu_count_sync(t);
}

void emu_count_cluster_arrive(const emu_thread *t, int relaxed)
{
    emu_count_sync(t);
    if (relaxed)
        of(t)->cluster_arrives_relaxed++;
    else
        of(t)->cluster_arrives_release++;
}

void emu_count_fence(const emu_thread *t) { of(t)->fences++; }

void emu_count_remote_arrive(const emu_thread *t)
{
    emu_count_sync(t);
    of(t)->mbarrier_remote_arrives++;
}

void emu_count_async_issue(const emu_thread *t, uint32_t bytes)
{
    moved(t, 0, 0);
    of(t)->async_out_bytes += bytes;
}

void emu_count_async_landed(emu_launch *L, const emu_cta *dst, uint32_t bytes)
{
    counts[block_of(L, dst)].async_in_bytes += bytes;
}

void emu_count_bulk_g2s_issue(const emu_thread *t, const void *src, uint32_t bytes)
{
    moved(t, 0, 0);
    of(t)->bulk_g2s_issued_bytes += bytes;
    gmem_use(block_of(emu_cur, t->cta), src, bytes, 0);
}

void emu_count_bulk_g2s_landed(emu_launch *L, const emu_cta *dst, uint32_t bytes)
{
    counts[block_of(L, dst)].bulk_g2s_landed_bytes += bytes;
}

void emu_count_bulk_s2g_issue(const emu_thread *t, const void *dst, uint32_t bytes)
{
    moved(t, 0, 0);
    of(t)->bulk_s2g_bytes += bytes;
    gmem_use(block_of(emu_cur, t->cta), dst, bytes, 1);
}

/* ---- the host API (dsm_emu_control.h) ---- */

bool dsm_emu_last_counts(uint32_t block, dsm_emu_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!have_counts || block >= nblocks)
        return false;
    *out = counts[block];
    if (out->cluster_waits_min == UINT32_MAX)
        out->cluster_waits_min = 0; /* the block never ran (a report ended the launch first) */
    return true;
}

bool dsm_emu_last_counts_total(dsm_emu_counts *out)
{
    memset(out, 0, sizeof *out);
    if (!have_counts || nblocks == 0)
        return false;
    out->cluster_waits_min = UINT32_MAX;
    for (uint32_t b = 0; b < nblocks; b++) {
        dsm_emu_counts k;
        dsm_emu_last_counts(b, &k);
#define ADD(f) out->f += k.f
        ADD(smem_ld_bytes); ADD(smem_st_bytes); ADD(smem_atom_ops);
        ADD(dsmem_ld_bytes); ADD(dsmem_st_bytes); ADD(dsmem_atom_ops);
        ADD(async_out_bytes); ADD(async_in_bytes);
        ADD(bulk_g2s_issued_bytes); ADD(bulk_g2s_landed_bytes); ADD(bulk_s2g_bytes);
        ADD(gmem_ld_bytes); ADD(gmem_st_bytes); ADD(gmem_atom_ops);
        ADD(smem_ld_ops); ADD(smem_st_ops); ADD(dsmem_ld_ops); ADD(dsmem_st_ops); ADD(gmem_ld_ops); ADD(gmem_st_ops);
        ADD(cluster_arrives_release); ADD(cluster_arrives_relaxed);
        ADD(syncthreads); ADD(mbarrier_phases); ADD(mbarrier_remote_arrives); ADD(fences);
        ADD(threads_active); ADD(warps_active);
#undef ADD
        if (k.ld_burst_max && (!out->ld_burst_max || k.ld_burst_min < out->ld_burst_min))
            out->ld_burst_min = k.ld_burst_min;
        out->ld_burst_max = k.ld_burst_max > out->ld_burst_max ? k.ld_burst_max : out->ld_burst_max;
        out->cluster_waits_min = k.cluster_waits_min < out->cluster_waits_min ? k.cluster_waits_min
                                                                              : out->cluster_waits_min;
        out->cluster_waits_max = k.cluster_waits_max > out->cluster_waits_max ? k.cluster_waits_max
                                                                              : out->cluster_waits_max;
        uint32_t *of32 = &out->flags[0][0][0][0];
        const uint32_t *kf32 = &k.flags[0][0][0][0];
        for (size_t i = 0; i < sizeof out->flags / sizeof out->flags[0][0][0][0]; i++)
            of32[i] += kf32[i];
    }
    return true;
}

bool dsm_emu_last_gmem_use(uint32_t block, const void *buffer, dsm_emu_gmem_use *out)
{
    memset(out, 0, sizeof *out);
    if (!have_counts || block >= nblocks)
        return false;
    for (uint32_t i = 0; i < nbufs; i++)
        if (bufs[i] == buffer) {
            *out = uses[(size_t)block * nbufs + i];
            return true;
        }
    return false;
}
