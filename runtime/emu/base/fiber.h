/* fiber.h: cooperative user-space threads (fibers) on one OS thread: every emulated CUDA thread is one. */
#ifndef DSM_EMU_FIBER_H
#define DSM_EMU_FIBER_H

#include <stddef.h>

/* A saved execution context: the stack pointer of a suspended fiber. */
typedef struct fiber {
    void *sp;
    void *stack_lo;     /* lowest usable address of its stack (above the guard page) */
    size_t stack_size;
} fiber;

/* A pool of equally sized stacks, each with a guard page below it, in one
 * mapping; memory is touched only as the stacks grow. */
typedef struct fiber_stacks {
    unsigned char *base;
    size_t stride, count, size;
} fiber_stacks;

/* Reserves `count` stacks of `size` bytes (rounded up to pages). Returns 0, or
 * -1 when the mapping fails. */
int fiber_stacks_init(fiber_stacks *s, size_t count, size_t size);

/* Releases the pool. */
void fiber_stacks_free(fiber_stacks *s);

/* Tells the kernel the stacks' contents are no longer needed (keeps the mapping). */
void fiber_stacks_discard(fiber_stacks *s);

/* Prepares f to run entry(arg) on stack number i of s the first time it is
 * switched to. entry must never return: it switches away for good instead. */
void fiber_make(fiber *f, fiber_stacks *s, size_t i, void (*entry)(void *), void *arg);

/* Saves the running context into `from` and resumes `to`. */
void fiber_switch(fiber *from, fiber *to);

/* Whether addr lies in a guard page of the pool (a stack overflow). */
int fiber_stacks_is_guard(const fiber_stacks *s, const void *addr);

#endif
