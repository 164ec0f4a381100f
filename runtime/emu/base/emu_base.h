/* emu_base.h: the emulator's base layer: fibers (base/fiber.h), the address arena, source sites. Calls nothing above. */
#ifndef DSM_EMU_BASE_H
#define DSM_EMU_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fiber.h"

/* A source location in kernel code, as the device API macros pass it. */
typedef struct emu_site {
    const char *file;
    int line;
    void *pc;                   /* a plain access: the instruction, for addr2line (file is NULL) */
} emu_site;

/* ---- site.c ---- */
/* A small number (from 1) that stands for the site; emu_site_of gives it back (0: an empty site). */
uint32_t emu_site_id(const emu_site *s);
emu_site emu_site_of(uint32_t id);

/* ---- arena.c: every shared window and dsm_malloc buffer lies in [emu_arena_lo, +emu_arena_len) ---- */
extern uintptr_t emu_arena_lo;
extern size_t emu_arena_len;
/* `len` bytes (rounded to pages) of the arena, no access yet; NULL when exhausted. */
unsigned char *emu_arena_map(size_t len);
void emu_arena_unmap(unsigned char *p, size_t len);


#endif
