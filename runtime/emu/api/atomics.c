/* atomics.c: atomicAdd & co. of kernel code on global or shared memory, checked as plain accesses are. */
#include "emu_api.h"

/* Atomics of kernel code (atomicAdd & co., on global or shared memory): fibers never switch inside these, so
 * they are atomic. Each is checked first
 * (emu_atomic_access, plain_access.c: bounds to the byte, races with plain accesses, fences) with the
 * kernel's own code address, as a plain access is. */
static void count_atomic(const void *p)
{
    emu_cta *owner;
    size_t off;
    if (!emu_counts_on || !emu_self_thread)
        return;
    /* atomicAdd on a __shared__ variable (own or mapped) is a shared-memory atomic */
    if (emu_decode_generic(emu_cur, p, &owner, &off))
        emu_count_smem_atom(emu_self_thread, owner);
    else
        emu_count_gmem_atom(emu_self_thread, p);
}
#define CHECK_ATOMIC(p) emu_atomic_access((void *)(p), (unsigned)sizeof *(p), __builtin_return_address(0))
int dsm_emu_atomic_add_i32(int *p, int v) { CHECK_ATOMIC(p); count_atomic(p); int o = *p; *p = (int)((unsigned)o + (unsigned)v); return o; }
unsigned dsm_emu_atomic_add_u32(unsigned *p, unsigned v) { CHECK_ATOMIC(p); count_atomic(p); unsigned o = *p; *p = o + v; return o; }
unsigned long long dsm_emu_atomic_add_u64(unsigned long long *p, unsigned long long v) { CHECK_ATOMIC(p); count_atomic(p); unsigned long long o = *p; *p = o + v; return o; }
float dsm_emu_atomic_add_f32(float *p, float v) { CHECK_ATOMIC(p); count_atomic(p); float o = *p; *p = o + v; return o; }
int dsm_emu_atomic_max_i32(int *p, int v) { CHECK_ATOMIC(p); count_atomic(p); int o = *p; if (v > o) *p = v; return o; }
unsigned dsm_emu_atomic_max_u32(unsigned *p, unsigned v) { CHECK_ATOMIC(p); count_atomic(p); unsigned o = *p; if (v > o) *p = v; return o; }
unsigned dsm_emu_atomic_cas_u32(unsigned *p, unsigned c, unsigned v) { CHECK_ATOMIC(p); count_atomic(p); unsigned o = *p; if (o == c) *p = v; return o; }
