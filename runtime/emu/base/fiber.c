/* fiber.c: stacks and context switching for the emulator's fibers (assembly switch on x86-64/AArch64, ucontext elsewhere). */
#include "fiber.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

int fiber_stacks_init(fiber_stacks *s, size_t count, size_t size)
{
    size_t pg = page_size();
    size = (size + pg - 1) / pg * pg;
    s->size = size;
    s->stride = size + pg; /* one guard page below each stack */
    s->count = count;
    s->base = mmap(NULL, s->stride * count, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s->base == MAP_FAILED) {
        s->base = NULL;
        return -1;
    }
    /* Guard pages: one mprotect per stack would split the mapping into
     * 2 * count pieces; that is within the kernel's default map limit for the
     * 16 x 1024 threads of the largest cluster. */
    for (size_t i = 0; i < count; i++)
        mprotect(s->base + i * s->stride, pg, PROT_NONE);
    return 0;
}

void fiber_stacks_free(fiber_stacks *s)
{
    if (s->base)
        munmap(s->base, s->stride * s->count);
    memset(s, 0, sizeof *s);
}

void fiber_stacks_discard(fiber_stacks *s)
{
    size_t pg = page_size();
    for (size_t i = 0; i < s->count; i++)
        madvise(s->base + i * s->stride + pg, s->size, MADV_DONTNEED);
}

int fiber_stacks_is_guard(const fiber_stacks *s, const void *addr)
{
    const unsigned char *a = addr;
    if (!s->base || a < s->base || a >= s->base + s->stride * s->count)
        return 0;
    return (size_t)(a - s->base) % s->stride < page_size();
}

#if defined(__x86_64__) || defined(__aarch64__)

void dsm_fiber_switch_asm(void **save_sp, void *new_sp);
void dsm_fiber_start_asm(void);

void fiber_make(fiber *f, fiber_stacks *s, size_t i, void (*entry)(void *), void *arg)
{
    unsigned char *lo = s->base + i * s->stride + page_size();
    uintptr_t top = ((uintptr_t)(lo + s->size)) & ~(uintptr_t)15;
    f->stack_lo = lo;
    f->stack_size = s->size;
#if defined(__x86_64__)
    uint64_t *sp = (uint64_t *)(top - 8 * 8);
    uint32_t mxcsr_fpucw[2] = {0x1F80, 0x037F};
    memcpy(&sp[0], mxcsr_fpucw, 8);
    sp[1] = 0;                        /* r15 */
    sp[2] = 0;                        /* r14 */
    sp[3] = (uint64_t)(uintptr_t)arg; /* r13 */
    sp[4] = (uint64_t)(uintptr_t)entry; /* r12 */
    sp[5] = 0;                        /* rbx */
    sp[6] = 0;                        /* rbp */
    sp[7] = (uint64_t)(uintptr_t)dsm_fiber_start_asm;
#else
    uint64_t *sp = (uint64_t *)(top - 176);
    memset(sp, 0, 176);
    sp[0] = (uint64_t)(uintptr_t)entry;               /* x19 */
    sp[1] = (uint64_t)(uintptr_t)arg;                 /* x20 */
    sp[11] = (uint64_t)(uintptr_t)dsm_fiber_start_asm; /* x30 */
#endif
    f->sp = sp;
}

void fiber_switch(fiber *from, fiber *to) { dsm_fiber_switch_asm(&from->sp, to->sp); }

#else /* portable fallback */

#include <stdlib.h>
#include <ucontext.h>

void fiber_make(fiber *f, fiber_stacks *s, size_t i, void (*entry)(void *), void *arg)
{
    ucontext_t *uc = f->sp ? f->sp : malloc(sizeof *uc);
    getcontext(uc);
    uc->uc_stack.ss_sp = s->base + i * s->stride + page_size();
    uc->uc_stack.ss_size = s->size;
    uc->uc_link = NULL;
    makecontext(uc, (void (*)(void))entry, 1, arg);
    f->sp = uc;
    f->stack_lo = uc->uc_stack.ss_sp;
    f->stack_size = s->size;
}

void fiber_switch(fiber *from, fiber *to)
{
    if (!from->sp)
        from->sp = malloc(sizeof(ucontext_t));
    swapcontext(from->sp, to->sp);
}

#endif
