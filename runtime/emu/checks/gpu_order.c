/* gpu_order.c: happens-before between the clusters of one launch: they run one after another here but at the same time on a GPU, and only a gpu-scope release/acquire (st.release.gpu / ld.acquire.gpu, or __threadfence around relaxed flags, volatile accesses and atomics) orders them. */
#include <stdlib.h>
#include <string.h>

#include "emu_checks.h"

/* What is known of one CTA of an earlier cluster: its clock `epoch` (or later). */
typedef struct emu_gknow {
    uint32_t cl, rank, epoch;
} emu_gknow;

/* A global word that received gpu-scope releases, and what they carried. */
typedef struct gloc {
    const void *p;
    emu_gknow *k;
    uint32_t n, cap;
} gloc;

static gloc *locs;
static size_t nlocs, cap_locs;

/* Raises (cl, rank) to at least epoch in the list *k; false when out of memory. */
static bool join(emu_gknow **k, uint32_t *n, uint32_t *cap, uint32_t cl, uint32_t rank, uint32_t epoch)
{
    for (uint32_t i = 0; i < *n; i++)
        if ((*k)[i].cl == cl && (*k)[i].rank == rank) {
            if ((*k)[i].epoch < epoch)
                (*k)[i].epoch = epoch;
            return true;
        }
    if (*n == *cap) {
        uint32_t c = *cap ? 2 * *cap : 8;
        emu_gknow *nk = realloc(*k, c * sizeof *nk);
        if (!nk)
            return false;
        *k = nk;
        *cap = c;
    }
    (*k)[(*n)++] = (emu_gknow){cl, rank, epoch};
    return true;
}

static gloc *find(const void *p, bool create)
{
    for (size_t i = nlocs; i-- > 0;)
        if (locs[i].p == p)
            return &locs[i];
    if (!create)
        return NULL;
    if (nlocs == cap_locs) {
        size_t c = cap_locs ? 2 * cap_locs : 16;
        gloc *nl = realloc(locs, c * sizeof *nl);
        if (!nl)
            return NULL;
        locs = nl;
        cap_locs = c;
    }
    gloc *g = &locs[nlocs++];
    memset(g, 0, sizeof *g);
    g->p = p;
    return g;
}

void emu_gpu_release(emu_thread *t, const void *p)
{
    emu_launch *L = emu_cur;
    emu_cta *c = t->cta;
    gloc *g = find(p, true);
    if (!g)
        return;
    /* what this CTA knows of its own cluster (its clock now covers everything it did so far;
     * the caller's cluster-level release then advances it) and of earlier clusters */
    for (uint32_t r = 0; r < L->cluster.ncta; r++)
        if (c->vc[r])
            join(&g->k, &g->n, &g->cap, L->cl_seq, r, c->vc[r]);
    for (uint32_t i = 0; i < c->ngk; i++)
        join(&g->k, &g->n, &g->cap, c->gk[i].cl, c->gk[i].rank, c->gk[i].epoch);
}

void emu_gpu_acquire(emu_thread *t, const void *p)
{
    gloc *g = find(p, false);
    if (!g)
        return;
    emu_cta *c = t->cta;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->k[i].cl != emu_cur->cl_seq) /* its own cluster's part travels with the cluster-level clocks */
            join(&c->gk, &c->ngk, &c->cap_gk, g->k[i].cl, g->k[i].rank, g->k[i].epoch);
}

void emu_gpu_merge(emu_cta *into, const emu_cta *from)
{
    for (uint32_t i = 0; i < from->ngk; i++)
        join(&into->gk, &into->ngk, &into->cap_gk, from->gk[i].cl, from->gk[i].rank, from->gk[i].epoch);
}

bool emu_gpu_knows(const emu_cta *c, uint32_t cl, uint32_t rank, uint32_t epoch)
{
    for (uint32_t i = 0; i < c->ngk; i++)
        if (c->gk[i].cl == cl && c->gk[i].rank == rank)
            return c->gk[i].epoch >= epoch;
    return false;
}

void emu_gpu_cta_free(emu_cta *c)
{
    free(c->gk);
    c->gk = NULL;
    c->ngk = c->cap_gk = 0;
}

void emu_gpu_reset(void)
{
    for (size_t i = 0; i < nlocs; i++)
        free(locs[i].k);
    free(locs);
    locs = NULL;
    nlocs = cap_locs = 0;
}
