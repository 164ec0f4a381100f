/* arena.c: one reserved address range for all device memory (shared windows and dsm_malloc buffers), so that a plain access is recognised as device memory with one comparison; blocks have guard pages. */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_base.h"

#define ARENA_BYTES ((size_t)1 << 38) /* address space only: nothing is committed until used */

uintptr_t emu_arena_lo;
size_t emu_arena_len;
static size_t arena_used;

typedef struct free_block {
    unsigned char *p;
    size_t len;
} free_block;
static free_block *free_list;
static size_t nfree, cap_free;

static size_t page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static int arena_init(void)
{
    if (emu_arena_lo)
        return 0;
    void *p = mmap(NULL, ARENA_BYTES, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    emu_arena_lo = (uintptr_t)p;
    emu_arena_len = ARENA_BYTES;
    return 0;
}

unsigned char *emu_arena_map(size_t len)
{
    if (arena_init() != 0)
        return NULL;
    len = (len + page() - 1) / page() * page();
    for (size_t i = 0; i < nfree; i++)
        if (free_list[i].len == len) {
            unsigned char *p = free_list[i].p;
            free_list[i] = free_list[--nfree];
            return p;
        }
    if (arena_used + len > emu_arena_len)
        return NULL;
    unsigned char *p = (unsigned char *)emu_arena_lo + arena_used;
    arena_used += len;
    return p;
}

void emu_arena_unmap(unsigned char *p, size_t len)
{
    len = (len + page() - 1) / page() * page();
    /* back to no access, its pages given back; kept for reuse by a block of the same size */
    mmap(p, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    if (nfree == cap_free) {
        size_t cap = cap_free ? 2 * cap_free : 64;
        free_block *f = realloc(free_list, cap * sizeof *f);
        if (!f)
            return;
        free_list = f;
        cap_free = cap;
    }
    free_list[nfree++] = (free_block){p, len};
}
