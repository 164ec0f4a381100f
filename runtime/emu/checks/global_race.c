/* global_race.c: races in global memory (dsm_malloc buffers), checked like shared memory's: a shadow word per 4 bytes of a buffer, allocated by chunk when a kernel first touches it and forgotten between schedules. */
#include <stdlib.h>
#include <string.h>

#include "emu_checks.h"

#define CHUNK_WORDS 1024u                      /* 4 KB of a buffer per shadow chunk */
#define SHADOW_MAX ((size_t)2 << 30)           /* past 2 GB of shadow, global races are no longer checked */

typedef struct gbuf {
    const unsigned char *start;
    size_t bytes;
    emu_shadow **chunk;
    size_t nchunks;
} gbuf;

static gbuf *bufs;
static size_t nbufs, cap_bufs, last;
static size_t shadow_bytes;

void emu_global_race_reset(bool release)
{
    if (!release) {
        /* the next schedule of the same launch touches the same words: clear rather than fault in anew */
        for (size_t i = 0; i < nbufs; i++)
            for (size_t k = 0; k < bufs[i].nchunks; k++)
                if (bufs[i].chunk[k])
                    memset(bufs[i].chunk[k], 0, CHUNK_WORDS * sizeof(emu_shadow));
        return;
    }
    for (size_t i = 0; i < nbufs; i++) {
        for (size_t k = 0; k < bufs[i].nchunks; k++)
            free(bufs[i].chunk[k]);
        free(bufs[i].chunk);
    }
    free(bufs);
    bufs = NULL;
    nbufs = cap_bufs = last = 0;
    shadow_bytes = 0;
}

static gbuf *buf_of(const unsigned char *start, size_t bytes)
{
    if (last < nbufs && bufs[last].start == start && bufs[last].bytes == bytes)
        return &bufs[last];
    for (size_t i = 0; i < nbufs; i++)
        if (bufs[i].start == start && bufs[i].bytes == bytes) {
            last = i;
            return &bufs[i];
        }
    if (nbufs == cap_bufs) {
        size_t c = cap_bufs ? 2 * cap_bufs : 8;
        gbuf *nb = realloc(bufs, c * sizeof *nb);
        if (!nb)
            return NULL;
        bufs = nb;
        cap_bufs = c;
    }
    gbuf *g = &bufs[nbufs];
    g->start = start;
    g->bytes = bytes;
    g->nchunks = (bytes + 4 * CHUNK_WORDS - 1) / (4 * CHUNK_WORDS);
    g->chunk = calloc(g->nchunks ? g->nchunks : 1, sizeof *g->chunk);
    if (!g->chunk)
        return NULL;
    last = nbufs++;
    return g;
}

bool emu_race_global(emu_launch *L, emu_thread *t, const void *a, unsigned n, int kind, const emu_site *site)
{
    if (emu_ww_pending && !emu_race_settle(L))
        return false;
    const unsigned char *start;
    size_t bytes;
    if (shadow_bytes > SHADOW_MAX || !emu_global_find(a, n, &start, &bytes))
        return true;
    gbuf *g = buf_of(start, bytes);
    if (!g)
        return true;
    size_t off = (size_t)((const unsigned char *)a - start);
    emu_mem mem = {NULL, start, bytes};
    for (size_t w = off / 4; w < (off + n + 3) / 4; w++) {
        emu_shadow **ch = &g->chunk[w / CHUNK_WORDS];
        if (!*ch) {
            *ch = calloc(CHUNK_WORDS, sizeof **ch);
            if (!*ch)
                return true;
            shadow_bytes += CHUNK_WORDS * sizeof **ch;
        }
        if (!emu_race_word(L, t, &mem, &(*ch)[w % CHUNK_WORDS], w, off, n, kind, site))
            return false;
    }
    return true;
}

bool emu_global_unfenced_write(emu_launch *L, const void *a, unsigned n, uint32_t *cta, uint32_t *tid, emu_site *site,
                               size_t *byte_off)
{
    const unsigned char *start;
    size_t bytes;
    if (!emu_global_find(a, n, &start, &bytes))
        return false;
    gbuf *g = buf_of(start, bytes);
    if (!g)
        return false;
    size_t off = (size_t)((const unsigned char *)a - start);
    for (size_t w = off / 4; w < (off + n + 3) / 4; w++) {
        const emu_shadow *ch = g->chunk[w / CHUNK_WORDS];
        if (!ch)
            continue;
        const emu_access *x = &ch[w % CHUNK_WORDS].w;
        /* a generic write of a thread of this cluster (the threads of earlier clusters are gone) */
        if (!(x->flags & ACC_VALID) || (x->flags & ACC_ASYNC) || x->cl != L->cl_seq || x->cta >= L->cluster.ncta)
            continue;
        const emu_thread *wt = &L->cluster.ctas[x->cta].threads[x->tid];
        if ((wt->proxy_fences_global & 0xFu) == (uint32_t)(x->pfence >> 4)) {
            *cta = x->cta;
            *tid = x->tid;
            *site = emu_site_of(x->site);
            *byte_off = w * 4;
            return true;
        }
    }
    return false;
}
