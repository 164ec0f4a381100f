/* publication.c: which words of a CTA's shared memory were written by plain stores in a phase that only arrive.relaxed closed (published nothing). */
#include <stdlib.h>
#include <string.h>

#include "emu_checks.h"

/* Snapshots are taken at every cluster-phase completion; above this many
 * bytes of shared memory per cluster the check is skipped (it stays cheap). */
#define PUBLICATION_MAX_BYTES (4u << 20)

static bool enabled(const emu_launch *L)
{
    return (size_t)L->window_bytes * L->cluster.ncta <= PUBLICATION_MAX_BYTES;
}

void emu_publication_start(emu_launch *L, emu_cta *c)
{
    if (!enabled(L) || !L->window_bytes)
        return;
    c->snapshot = malloc(L->window_bytes);
    c->unpublished = calloc((L->window_bytes + 3) / 4, sizeof *c->unpublished);
    if (c->snapshot)
        memcpy(c->snapshot, c->window, L->window_bytes);
}

void emu_publication_free(emu_cta *c)
{
    free(c->snapshot);
    free(c->unpublished);
    c->snapshot = NULL;
    c->unpublished = NULL;
}

void emu_publication_arrive(emu_cta *c, bool relaxed)
{
    if (relaxed)
        c->relaxed_arrivals++;
    else
        c->release_arrivals++;
}

/* At the completion of phase `phase`: a CTA none of whose threads arrived with
 * .release has published nothing it wrote in that phase; remember those words.
 * A CTA that released has published everything it wrote so far. */
void emu_publication_phase_done(emu_launch *L, uint32_t phase)
{
    for (uint32_t r = 0; r < L->cluster.ncta; r++) {
        emu_cta *c = &L->cluster.ctas[r];
        if (c->exited || !c->snapshot || !c->unpublished)
            continue;
        bool unpublished = c->release_arrivals == 0 && c->relaxed_arrivals > 0;
        size_t words = L->window_bytes / 4;
        if (!unpublished)
            memset(c->unpublished, 0, words * sizeof *c->unpublished);
        for (size_t w = 0; w < words; w++) {
            const unsigned char *now = emu_smem_ptr(L, c, 4 * w);
            if (memcmp(now, c->snapshot + 4 * w, 4) != 0) {
                if (unpublished && !emu_race_written_by_peer(c, w))
                    c->unpublished[w] = phase + 1;
                memcpy(c->snapshot + 4 * w, now, 4);
            }
        }
        c->release_arrivals = c->relaxed_arrivals = 0;
    }
}

uint32_t emu_publication_unpublished(const emu_cta *c, size_t off)
{
    return c->unpublished ? c->unpublished[off / 4] : 0;
}
