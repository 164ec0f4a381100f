/* device_memory.c: the registry of dsm_malloc buffers, which every check of global memory consults, and their contents as a whole (to compare schedules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu_state.h"

typedef struct allocation {
    unsigned char *p;
    size_t bytes;
    unsigned char *map;  /* its arena block: pages for the buffer, then a guard page */
    size_t map_len;
} allocation;

static allocation *allocs;
static size_t nallocs, cap_allocs;

bool emu_device_register(unsigned char *p, size_t bytes, unsigned char *map, size_t map_len)
{
    if (nallocs == cap_allocs) {
        size_t cap = cap_allocs ? 2 * cap_allocs : 16;
        allocation *a = realloc(allocs, cap * sizeof *a);
        if (!a)
            return false;
        allocs = a;
        cap_allocs = cap;
    }
    allocs[nallocs++] = (allocation){p, bytes, map, map_len};
    return true;
}

bool emu_device_unregister(void *p)
{
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].p == p) {
            emu_arena_unmap(allocs[i].map, allocs[i].map_len);
            allocs[i] = allocs[--nallocs];
            return true;
        }
    return false;
}

bool emu_is_device(const void *p, size_t n)
{
    /* every plain global access of a kernel asks: start with the buffer that answered last */
    static size_t last;
    const unsigned char *a = p;
    if (last < nallocs && a >= allocs[last].p && a + n <= allocs[last].p + allocs[last].bytes)
        return true;
    for (size_t i = 0; i < nallocs; i++)
        if (a >= allocs[i].p && a + n <= allocs[i].p + allocs[i].bytes) {
            last = i;
            return true;
        }
    return false;
}

bool emu_global_find(const void *p, size_t n, const unsigned char **start, size_t *bytes)
{
    static size_t last;
    const unsigned char *a = p;
    for (size_t k = 0; k <= nallocs; k++) {
        size_t i = k == 0 ? last : k - 1; /* the buffer that answered last first */
        if (i < nallocs && a >= allocs[i].p && a + n <= allocs[i].p + allocs[i].bytes) {
            last = i;
            *start = allocs[i].p;
            *bytes = allocs[i].bytes;
            return true;
        }
    }
    return false;
}

size_t emu_global_count(void) { return nallocs; }

void emu_global_buffer(size_t i, const unsigned char **start, size_t *bytes)
{
    *start = allocs[i].p;
    *bytes = allocs[i].bytes;
}

bool emu_global_nearest(const void *p, size_t *index, const unsigned char **start, size_t *bytes)
{
    const unsigned char *a = p, *best = NULL;
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].p <= a && (!best || allocs[i].p > best)) {
            best = allocs[i].p;
            *index = i;
            *start = best;
            *bytes = allocs[i].bytes;
        }
    return best != NULL;
}

size_t emu_globals_bytes(void)
{
    size_t t = 0;
    for (size_t i = 0; i < nallocs; i++)
        t += allocs[i].bytes;
    return t;
}

void emu_globals_snapshot(unsigned char **out, size_t *total)
{
    size_t t = emu_globals_bytes();
    unsigned char *b = malloc(t ? t : 1);
    size_t o = 0;
    for (size_t i = 0; b && i < nallocs; i++) {
        memcpy(b + o, allocs[i].p, allocs[i].bytes);
        o += allocs[i].bytes;
    }
    *out = b;
    *total = t;
}

void emu_globals_restore(const unsigned char *snap)
{
    size_t o = 0;
    for (size_t i = 0; snap && i < nallocs; i++) {
        memcpy(allocs[i].p, snap + o, allocs[i].bytes);
        o += allocs[i].bytes;
    }
}

bool emu_globals_compare(const unsigned char *a, const unsigned char *b, char *msg, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; a && b && i < nallocs; i++) {
        if (memcmp(a + o, b + o, allocs[i].bytes) != 0) {
            size_t k = 0;
            while (a[o + k] == b[o + k])
                k++;
            size_t w = k / 4 * 4;
            uint32_t x = 0, y = 0;
            memcpy(&x, a + o + w, w + 4 <= allocs[i].bytes ? 4 : 0);
            memcpy(&y, b + o + w, w + 4 <= allocs[i].bytes ? 4 : 0);
            size_t diffs = 0;
            for (size_t j = 0; j + 4 <= allocs[i].bytes; j += 4)
                diffs += memcmp(a + o + j, b + o + j, 4) != 0;
            snprintf(msg, n,
                     "device buffer %zu (%zu bytes at %p): %zu of its 4-byte words differ; the first is word %zu "
                     "(byte %zu): 0x%08X (%d) then 0x%08X (%d)",
                     i, allocs[i].bytes, (void *)allocs[i].p, diffs, w / 4, w, x, (int)x, y, (int)y);
            return true;
        }
        o += allocs[i].bytes;
    }
    return false;
}

bool emu_globals_find_poison(const unsigned char *before, char *msg, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < nallocs; i++) {
        for (size_t j = 0; j + 4 <= allocs[i].bytes; j += 4) {
            uint32_t now, was = 0;
            memcpy(&now, allocs[i].p + j, 4);
            if (before)
                memcpy(&was, before + o + j, 4);
            if (now == EMU_POISON_WORD && was != EMU_POISON_WORD) {
                snprintf(msg, n, "device buffer %zu (%zu bytes at %p), word %zu (byte %zu)", i, allocs[i].bytes,
                         (void *)allocs[i].p, j / 4, j);
                return true;
            }
        }
        o += allocs[i].bytes;
    }
    return false;
}
