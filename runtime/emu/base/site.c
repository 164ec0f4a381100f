/* site.c: source locations interned as small numbers, so that the race shadow keeps one 32-bit word per access instead of a file, a line and a code address. */
#include <stdlib.h>

#include "emu_base.h"

static emu_site *sites;         /* id - 1 -> site */
static uint32_t nsites, cap_sites;
static uint32_t *table;         /* open addressing: 0 empty, else id */
static uint32_t table_size;     /* a power of two, at least twice nsites */

static uint32_t hash_of(const emu_site *s)
{
    uint64_t h = (uint64_t)(uintptr_t)s->file * 0x9E3779B97F4A7C15ull ^ (uint64_t)(uintptr_t)s->pc * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)(uint32_t)s->line * 0x165667B19E3779F9ull;
    return (uint32_t)(h >> 32);
}

static bool same(const emu_site *a, const emu_site *b)
{
    return a->file == b->file && a->line == b->line && a->pc == b->pc;
}

static bool grow(void)
{
    uint32_t size = table_size ? 2 * table_size : 1024;
    uint32_t *t = calloc(size, sizeof *t);
    if (!t)
        return false;
    for (uint32_t id = 1; id <= nsites; id++) {
        uint32_t i = hash_of(&sites[id - 1]) & (size - 1);
        while (t[i])
            i = (i + 1) & (size - 1);
        t[i] = id;
    }
    free(table);
    table = t;
    table_size = size;
    return true;
}

uint32_t emu_site_id(const emu_site *s)
{
    if (2 * (nsites + 1) > table_size && !grow())
        return 0;
    uint32_t i = hash_of(s) & (table_size - 1);
    for (; table[i]; i = (i + 1) & (table_size - 1))
        if (same(&sites[table[i] - 1], s))
            return table[i];
    if (nsites == cap_sites) {
        uint32_t c = cap_sites ? 2 * cap_sites : 256;
        emu_site *n = realloc(sites, c * sizeof *n);
        if (!n)
            return 0;
        sites = n;
        cap_sites = c;
    }
    sites[nsites++] = *s;
    table[i] = nsites;
    return nsites;
}

emu_site emu_site_of(uint32_t id)
{
    emu_site none = {NULL, 0, NULL};
    return id && id <= nsites ? sites[id - 1] : none;
}
