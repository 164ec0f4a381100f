/* plain_access.c: every plain load and store of kernel code, checked like a device-API access. Kernel units are compiled with -fsanitize=thread and linked without the ThreadSanitizer runtime: the compiler's calls to __tsan_read4(addr) and friends land here. */
#include <string.h>

#include "emu_api.h"

static void report_plain(emu_launch *L, emu_thread *t, dsm_report_kind kind, dsm_error_t err, emu_site site,
                         const char *title, const char *memory, const char *gpu, const char *fix)
{
    if (!emu_report_begin(kind, err, "%s", title))
        return;
    emu_report_who(L, t);
    emu_report_site("where", site);
    if (memory)
        emu_report_line("memory", "%s", memory);
    emu_report_line("on GPU", "%s", gpu);
    emu_report_line("fix", "%s", fix);
    emu_report_end();
}

static __attribute__((noinline, cold)) _Noreturn void plain_lifetime(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, int write,
                                     emu_site site)
{
    if (emu_report_begin(DSM_REPORT_LIFETIME, dsmErrorLaunchFailure,
                         "lifetime trap: %s of rank %u's shared memory after rank %u exited",
                         write ? "write" : "read", owner->rank, owner->rank)) {
        emu_report_who(L, t);
        emu_report_site("where", site);
        emu_report_line("memory", "rank %u's shared memory, offset 0x%zx, through a plain pointer", owner->rank, off);
        emu_report_line("exited", "rank %u exited in phase %u; its last thread returned after:", owner->rank,
                        owner->exit_phase);
        emu_report_site("", owner->exit_site);
        emu_report_line("on GPU", "cudaErrorLaunchFailure (719, \"unspecified launch failure\"), often only "
                                  "sometimes: it depends on which CTA finishes first");
        emu_report_line("fix", "keep rank %u alive: every CTA must reach a cluster barrier (dsm_cluster_sync) "
                               "after the last remote access and before it exits", owner->rank);
        emu_tl_event ev = {(int32_t)t->cta->rank, t->waits, t->tid, write ? "this write" : "this read", site};
        emu_report_timeline(L, &ev, 1);
        emu_report_end();
    }
    emu_abort_launch();
}

/* Access kinds of the hooks: plain, or volatile (ld.volatile / st.volatile are
 * strong relaxed accesses in the PTX memory model: they do not race with each
 * other, a volatile load is a poll and fences around them release and acquire). */
enum { PLAIN_READ = 0, PLAIN_WRITE = 1, VOLATILE_READ = 2, VOLATILE_WRITE = 3, ATOMIC_RMW = 5 };

/* The race checker's kind of an access of the hooks. */
static inline int kind_of(int how)
{
    return how == PLAIN_READ ? DSM_EMU_LD : how == PLAIN_WRITE ? DSM_EMU_ST
         : how == VOLATILE_READ ? DSM_EMU_ATOM_LD : DSM_EMU_ATOM;
}

/* Out of the hot path (its buffers would widen every checked access's stack frame). */
static __attribute__((noinline, cold, noreturn)) void shared_out_of_bounds(emu_launch *L, emu_thread *t,
                                                                          emu_cta *owner, size_t off, unsigned n,
                                                                          int write, emu_site site)
{
    char mem[256];
    snprintf(mem, sizeof mem, "rank %u's shared memory, offset 0x%zx + %u bytes, %zu bytes allocated", owner->rank,
             off, n, L->window_bytes);
    report_plain(L, t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, site,
                 write ? "write past the end of shared memory" : "read past the end of shared memory", mem,
                 "cudaErrorIllegalAddress (700) or a silent access to another variable",
                 "check the index against the size of the shared array (a peer has the same layout)");
    emu_abort_launch();
}

static __attribute__((noinline, cold, noreturn)) void uninitialised(emu_thread *t, emu_cta *owner, size_t w,
                                                                   emu_site site)
{
    t->site = site;
    emu_report_poison(t, owner, w);
    emu_abort_launch();
}

static inline __attribute__((always_inline)) void shared_access(emu_launch *L, emu_thread *t, emu_cta *owner,
                                                                size_t off, unsigned n, int how,
                                                                const emu_site *site)
{
    int write = how & 1;
    int kind = kind_of(how);
    if (owner->exited)
        plain_lifetime(L, t, owner, off, write, *site);
    if (off + n > L->window_bytes)
        shared_out_of_bounds(L, t, owner, off, n, write, *site);
    if (owner != t->cta)
        emu_check_cta_started(L, t, owner, site);
    emu_bulk_check_smem_plain(L, t, owner, off, n, write, site);
    if (!emu_race_access(L, t, owner, off, n, kind, site))
        emu_abort_launch();
    if (emu_counts_on && how != ATOMIC_RMW) /* atomicAdd & co. count themselves */
        emu_count_smem(t, owner, n, write);
    if (write && how != ATOMIC_RMW)
        return;
    /* uninitialised: a word nothing wrote still holds the poison */
    for (size_t w = off / 4 * 4; w < off + n; w += 4) {
        uint32_t v;
        memcpy(&v, emu_smem_ptr(L, owner, w), 4);
        if (v == EMU_POISON_WORD)
            uninitialised(t, owner, w, *site);
    }
}

/* An access outside every device buffer: the report (out of the hot path). */
static __attribute__((noinline, cold, noreturn)) void global_out_of_bounds(emu_launch *L, emu_thread *t,
                                                                          const unsigned char *a, unsigned n,
                                                                          int how, emu_site site)
{
    char title[160], mem[256];
    int write = how & 1;
    const char *what = how == ATOMIC_RMW ? "atomic" : write ? "write" : "read";
    bool guard = false;
    emu_cta *c = emu_cta_of_fault(L, a, &guard);
    if (c && c->exited)
        plain_lifetime(L, t, c, (size_t)(a - c->window), write, site);
    if (c) {
        snprintf(title, sizeof title, "%s just outside rank %u's shared memory", what, c->rank);
        snprintf(mem, sizeof mem, "%td bytes from the start of its %zu bytes", a - c->window, L->window_bytes);
        report_plain(L, t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, site, title, mem,
                     "cudaErrorIllegalAddress (700) or a silent access to another variable",
                     "check the index against the size of the shared array");
        emu_abort_launch();
    }
    size_t idx = 0, bytes = 0;
    const unsigned char *start = NULL;
    if (emu_global_nearest(a, &idx, &start, &bytes)) {
        snprintf(title, sizeof title, "%s outside a device buffer (global memory)", what);
        size_t past = (size_t)(a - start) + n - bytes;
        snprintf(mem, sizeof mem, "%u bytes at byte %td of device buffer %zu, which has %zu bytes (%zu of them past "
                 "its end)", n, a - start, idx, bytes, past < n ? past : n);
    } else {
        snprintf(title, sizeof title, "%s of device memory that is not (or no longer) allocated", what);
        snprintf(mem, sizeof mem, "address %p", (const void *)a);
    }
    report_plain(L, t, DSM_REPORT_OUT_OF_BOUNDS, dsmErrorIllegalAddress, site, title, mem,
                 "cudaErrorIllegalAddress (700), or a silent read/write of another buffer",
                 "check the index against the buffer's size (the grid may have more threads than elements)");
    emu_abort_launch();
}

/* The slow path: `a` lies in the arena or in the static shared section. */
static __attribute__((noinline)) void plain_access(void *a, unsigned n, int how, void *ret)
{
    int write = how & 1;
    emu_thread *t = emu_self_thread;
    emu_launch *L = emu_cur;
    if (!t || !L || L->aborting)
        return;
    emu_site site = {NULL, 0, (char *)ret - 1};
    if (emu_ww_pending && !emu_race_settle(L))
        emu_abort_launch();
    emu_last_plain_pc = site.pc;
    if (write)
        L->progress++;
    emu_cta *c;
    size_t off;
    if (emu_decode_generic(L, a, &c, &off))
        shared_access(L, t, c, off, n, how, &site);
    else if (!emu_is_device(a, n)) /* the exact size of each buffer: a byte past its end is outside */
        global_out_of_bounds(L, t, a, n, how, site);
    else {
        emu_bulk_check_global_plain(L, t, a, n, write, &site);
        if (emu_counts_on && how != ATOMIC_RMW)
            emu_count_gmem(t, a, n, write);
        if (!emu_race_global(L, t, a, n, kind_of(how), &site))
            emu_abort_launch();
    }
    if ((how == VOLATILE_READ || how == VOLATILE_WRITE) && n == 4 && (uintptr_t)a % 4 == 0)
        emu_flag_volatile(t, a, write, site);
}


static inline int device_address(const void *a)
{
    uintptr_t x = (uintptr_t)a;
    return x - emu_arena_lo < emu_arena_len || x - emu_section_lo < emu_section_len;
}

#define DSM__HOOK(name, n, w)                                             \
    void name(void *a);                                                   \
    void name(void *a)                                                    \
    {                                                                     \
        if (device_address(a))                                            \
            plain_access(a, n, w, __builtin_return_address(0));           \
    }
#define DSM__HOOKS(n)                                                     \
    DSM__HOOK(__tsan_read##n, n, 0)                                       \
    DSM__HOOK(__tsan_write##n, n, 1)                                      \
    DSM__HOOK(__tsan_unaligned_read##n, n, 0)                             \
    DSM__HOOK(__tsan_unaligned_write##n, n, 1)                            \
    DSM__HOOK(__tsan_volatile_read##n, n, VOLATILE_READ)                  \
    DSM__HOOK(__tsan_volatile_write##n, n, VOLATILE_WRITE)
DSM__HOOKS(1)
DSM__HOOKS(2)
DSM__HOOKS(4)
DSM__HOOKS(8)
DSM__HOOKS(16)

void __tsan_read_range(void *a, unsigned long n);
void __tsan_read_range(void *a, unsigned long n)
{
    if (device_address(a) && n)
        plain_access(a, (unsigned)n, 0, __builtin_return_address(0));
}
void __tsan_write_range(void *a, unsigned long n);
void __tsan_write_range(void *a, unsigned long n)
{
    if (device_address(a) && n)
        plain_access(a, (unsigned)n, 1, __builtin_return_address(0));
}

/* Function entry and exit (not instrumented: the build passes
 * --param=tsan-instrument-func-entry-exit=0), the module constructor's call, and
 * what a build without --param=tsan-distinguish-volatile=1 would not call. */
void __tsan_func_entry(void *pc);
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void);
void __tsan_func_exit(void) {}
void __tsan_init(void);
void __tsan_init(void) {}

/* Global and shared atomics of kernel code (atomicAdd & co.): bounds, races (an atomic races with plain
 * accesses, not with atomics) and, next to a fence, release and acquire. */
void emu_atomic_access(void *a, unsigned n, void *ret)
{
    emu_thread *t = emu_self_thread;
    if (!t || !device_address(a))
        return;
    plain_access(a, n, ATOMIC_RMW, ret);
    emu_flag_atomic(t, a);
}
