/* shared_window.c: each CTA's shared memory as its own mapping (poisoned at start, made inaccessible at exit) and the address forms that reach it. */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_state.h"

static size_t page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* Maps CTA c's shared memory with a guard page on each side, the window
 * ending as close to the upper guard as 128-byte alignment allows, so that a
 * plain pointer running past the allocation faults. Poisons it. */
int emu_window_alloc(emu_launch *L, emu_cta *c)
{
    size_t pg = page();
    size_t bytes = L->window_bytes ? L->window_bytes : 128;
    size_t body = (bytes + 127 + pg - 1) / pg * pg;
    c->map_len = body + 2 * pg;
    c->map_base = emu_arena_map(c->map_len);
    if (!c->map_base)
        return -1;
    if (mprotect(c->map_base + pg, body, PROT_READ | PROT_WRITE) != 0)
        return -1;
    unsigned char *end = c->map_base + pg + body;
    c->window = (unsigned char *)((uintptr_t)(end - bytes) & ~(uintptr_t)127);
    c->window_bytes = L->window_bytes;
    uint32_t w = EMU_POISON_WORD;
    for (size_t i = 0; i + 4 <= bytes; i += 4)
        memcpy(c->window + i, &w, 4);
    return 0;
}

/* Makes a finished CTA's memory inaccessible: any later access faults. */
void emu_window_retire(emu_cta *c)
{
    if (c->map_base)
        mprotect(c->map_base, c->map_len, PROT_NONE);
}

void emu_window_free(emu_cta *c)
{
    if (c->map_base)
        emu_arena_unmap(c->map_base, c->map_len);
    c->map_base = NULL;
    c->window = NULL;
}

unsigned char *emu_smem_ptr(emu_launch *L, emu_cta *c, size_t off)
{
    if (off < L->static_bytes && L->section_owner == c)
        return L->section + off;
    return c->window + off;
}

bool emu_decode_generic(emu_launch *L, const void *p, emu_cta **cta, size_t *off)
{
    const unsigned char *a = p;
    emu_thread *t = emu_self_thread;
    if (L->static_bytes && a >= L->section && a < L->section + L->static_bytes && L->section_owner) {
        *cta = L->section_owner;
        *off = (size_t)(a - L->section);
        return true;
    }
    for (uint32_t r = 0; r < L->cluster.ncta; r++) {
        emu_cta *c = &L->cluster.ctas[r];
        if (c->window && a >= c->window && a < c->window + L->window_bytes) {
            *cta = c;
            *off = (size_t)(a - c->window);
            return true;
        }
    }
    (void)t;
    return false;
}

uint32_t emu_encode_cluster_addr(uint32_t rank, size_t off)
{
    return ((rank + 1u) << EMU_CLUSTER_TAG_SHIFT) | (uint32_t)(EMU_SMEM_BASE + off);
}

bool emu_decode_shared_addr(emu_launch *L, emu_thread *t, uint32_t addr, uint32_t *rank, size_t *off)
{
    uint32_t tag = addr >> EMU_CLUSTER_TAG_SHIFT;
    uint32_t cta_addr = addr & ((1u << EMU_CLUSTER_TAG_SHIFT) - 1u);
    *rank = tag ? tag - 1u : t->cta->rank;
    if (cta_addr < EMU_SMEM_BASE)
        return false;
    *off = cta_addr - EMU_SMEM_BASE;
    (void)L;
    return true;
}

emu_cta *emu_cta_of_fault(emu_launch *L, const void *addr, bool *in_guard)
{
    const unsigned char *a = addr;
    for (uint32_t r = 0; r < L->cluster.ncta; r++) {
        emu_cta *c = &L->cluster.ctas[r];
        if (c->map_base && a >= c->map_base && a < c->map_base + c->map_len) {
            *in_guard = !(a >= c->window && a < c->window + L->window_bytes);
            return c;
        }
    }
    return NULL;
}
