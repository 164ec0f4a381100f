/* current.c: the running launch and emulated thread, and what a running launch publishes to the device-side entry points. */
#include <stdio.h>
#include <stdlib.h>

#include "emu_state.h"

emu_launch *emu_cur;
emu_thread *emu_self_thread;
const struct dsm_emu_thread_view *dsm_emu_self;

uintptr_t emu_section_lo;
size_t emu_section_len;
void *emu_last_plain_pc;

emu_thread *emu_me(const char *file, int line)
{
    emu_thread *t = emu_self_thread;
    if (!t) {
        fprintf(stderr, "dsm-emu: a device function was called outside a kernel (%s:%d)\n",
                file ? file : "?", line);
        abort();
    }
    t->site.file = file;
    t->site.line = line;
    emu_cur->progress++;
    return t;
}
