/* device_emu.h: the device API on the CPU cluster emulator: CUDA keywords for plain C, and the same function names as the Hopper backend. */
#ifndef DSM_DEVICE_EMU_H
#define DSM_DEVICE_EMU_H

#include <math.h>
#include <string.h>
#include "../dsm_types.h"
#include "../dsm_host.h"

#define DSM_BACKEND_EMU 1

/* ---- CUDA keywords in C ---- */
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ restrict
#define __align__(n) __attribute__((aligned(n)))
/* __launch_bounds__(max_threads[, min_blocks]), written as in CUDA between `__global__ void` and the
 * kernel's name: the emulator records max_threads for the kernel that the unit's next DSM_KERNEL_ENTRY
 * exposes and rejects a launch of it with more threads per CTA, as CUDA does
 * (cudaErrorLaunchOutOfResources). The expansion ends the `void` before it with a declaration, defines a
 * constructor that notes the bound and opens the kernel's own `void` again; DSM_KERNEL_ENTRY's constructor
 * takes the bound (constructor priorities follow __COUNTER__, so they run in the unit's order). */
static unsigned dsm__lb_pending __attribute__((unused));
#define __launch_bounds__(...) DSM__LB(__COUNTER__, __VA_ARGS__, 0)
#define DSM__LB(c, ...) DSM__LB_(c, __VA_ARGS__)
#define DSM__LB_(c, max, ...)                                                                     \
    DSM__CAT(dsm__lb_end_, c)(void);                                                              \
    static void __attribute__((constructor(101 + (c)))) DSM__CAT(dsm__lb_set_, c)(void) {         \
        dsm__lb_pending = (unsigned)(max);                                                        \
    }                                                                                             \
    void

/* A compiler barrier: every emulator call that can switch threads is wrapped
 * in two, so that the compiler keeps no shared-memory value in a register
 * across it (on the GPU the barrier instructions do this). */
#define DSM__CLOBBER() __asm__ __volatile__("" ::: "memory")
#define DSM__SYNC_CALL(call) __extension__({ DSM__CLOBBER(); call; DSM__CLOBBER(); })

/* Static __shared__ variables go to a section of their own per compilation
 * unit (DSM_UNIT, set by the build): the emulator gives every CTA its own copy
 * of it. Dynamic shared memory: dsm_dynamic_smem(). */
#define DSM__CAT_(a, b) a##b
#define DSM__CAT(a, b) DSM__CAT_(a, b)
#define DSM__STR_(x) #x
#define DSM__STR(x) DSM__STR_(x)
#ifdef DSM_UNIT
#define DSM__SECTION DSM__CAT(dsm_shared_, DSM_UNIT)
#else
#define DSM__SECTION dsm_shared
#endif
#define __shared__ static __attribute__((section(DSM__STR(DSM__SECTION)), used))
extern char DSM__CAT(__start_, DSM__SECTION)[] __attribute__((weak, visibility("hidden")));
extern char DSM__CAT(__stop_, DSM__SECTION)[] __attribute__((weak, visibility("hidden")));

/* ---- vector types ---- */
typedef struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; } uint4;
typedef struct __attribute__((aligned(16))) int4 { int x, y, z, w; } int4;
typedef struct __attribute__((aligned(16))) float4 { float x, y, z, w; } float4;
typedef struct __attribute__((aligned(8))) float2 { float x, y; } float2;
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { uint4 v = {x, y, z, w}; return v; }
static inline int4 make_int4(int x, int y, int z, int w) { int4 v = {x, y, z, w}; return v; }
static inline float4 make_float4(float x, float y, float z, float w) { float4 v = {x, y, z, w}; return v; }
static inline float2 make_float2(float x, float y) { float2 v = {x, y}; return v; }

/* ---- the running thread ---- */
struct dsm_emu_thread_view {
    dsm_dim3 thread_idx, block_idx, block_dim, grid_dim;
};
/* Points at the identity of the emulated thread that runs now. */
extern const struct dsm_emu_thread_view *dsm_emu_self;
#define threadIdx (dsm_emu_self->thread_idx)
#define blockIdx (dsm_emu_self->block_idx)
#define blockDim (dsm_emu_self->block_dim)
#define gridDim (dsm_emu_self->grid_dim)
#define warpSize 32

/* ---- kernels ---- */
struct dsm_emu_kernel {
    const char *name;
    void (*entry)(void **args);
    char *shared_begin, *shared_end; /* this unit's static __shared__ section */
    const char *file;
    const unsigned *max_threads;     /* its __launch_bounds__ maximum threads per CTA (0: none) */
};

#define DSM__NARGS(...) DSM__NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define DSM__NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N, ...) N
#define DSM__ARG(t, i) *(t *)a_[i]
#define DSM__UNPACK_1(t0) DSM__ARG(t0, 0)
#define DSM__UNPACK_2(t0, t1) DSM__UNPACK_1(t0), DSM__ARG(t1, 1)
#define DSM__UNPACK_3(t0, t1, t2) DSM__UNPACK_2(t0, t1), DSM__ARG(t2, 2)
#define DSM__UNPACK_4(t0, t1, t2, t3) DSM__UNPACK_3(t0, t1, t2), DSM__ARG(t3, 3)
#define DSM__UNPACK_5(t0, t1, t2, t3, t4) DSM__UNPACK_4(t0, t1, t2, t3), DSM__ARG(t4, 4)
#define DSM__UNPACK_6(t0, t1, t2, t3, t4, t5) DSM__UNPACK_5(t0, t1, t2, t3, t4), DSM__ARG(t5, 5)
#define DSM__UNPACK_7(t0, t1, t2, t3, t4, t5, t6) DSM__UNPACK_6(t0, t1, t2, t3, t4, t5), DSM__ARG(t6, 6)
#define DSM__UNPACK_8(t0, t1, t2, t3, t4, t5, t6, t7) DSM__UNPACK_7(t0, t1, t2, t3, t4, t5, t6), DSM__ARG(t7, 7)
#define DSM__UNPACK_9(t0, t1, t2, t3, t4, t5, t6, t7, t8) DSM__UNPACK_8(t0, t1, t2, t3, t4, t5, t6, t7), DSM__ARG(t8, 8)
#define DSM__UNPACK_10(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9) DSM__UNPACK_9(t0, t1, t2, t3, t4, t5, t6, t7, t8), DSM__ARG(t9, 9)
#define DSM__UNPACK_11(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10) DSM__UNPACK_10(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9), DSM__ARG(t10, 10)
#define DSM__UNPACK_12(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11) DSM__UNPACK_11(t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10), DSM__ARG(t11, 11)

/* Exposes a kernel to host code. List the parameter types in order (at least
 * one, at most 12): DSM_KERNEL_ENTRY(ring_shift, float *, int). The emulator
 * calls the kernel with the launch's argument array unpacked by these types. */
#define DSM_KERNEL_ENTRY(name, ...) DSM__KERNEL_ENTRY(__COUNTER__, name, __VA_ARGS__)
#define DSM__KERNEL_ENTRY(c, name, ...)                                                   \
    static void name##__dsm_entry(void **a_) {                                            \
        name(DSM__CAT(DSM__UNPACK_, DSM__NARGS(__VA_ARGS__))(__VA_ARGS__));               \
    }                                                                                     \
    static unsigned name##__dsm_max_threads;                                              \
    static void __attribute__((constructor(101 + (c)))) name##__dsm_bounds(void) {        \
        name##__dsm_max_threads = dsm__lb_pending;                                        \
        dsm__lb_pending = 0;                                                              \
    }                                                                                     \
    dsm_kernel_t name##__dsm_handle(void);                                                \
    dsm_kernel_t name##__dsm_handle(void) {                                               \
        static const struct dsm_emu_kernel k_ = {#name, name##__dsm_entry,                \
                                                 DSM__CAT(__start_, DSM__SECTION),        \
                                                 DSM__CAT(__stop_, DSM__SECTION), __FILE__, \
                                                 &name##__dsm_max_threads};               \
        return &k_;                                                                       \
    }

/* ---- the emulator's entry points (file and line say where the kernel called) ---- */
uint32_t dsm_emu_cluster_ctarank(void);
uint32_t dsm_emu_cluster_nctarank(void);
dsm_dim3 dsm_emu_cluster_ctaid(void);
dsm_dim3 dsm_emu_cluster_nctaid(void);
dsm_dim3 dsm_emu_clusterid(void);
dsm_dim3 dsm_emu_nclusterid(void);
uint32_t dsm_emu_smem_addr(const void *p, const char *file, int line);
void *dsm_emu_map_shared_rank(const void *p, uint32_t rank, const char *file, int line);
uint32_t dsm_emu_mapa_shared_cluster(uint32_t saddr, uint32_t rank, const char *file, int line);
void *dsm_emu_dynamic_smem(void);

enum dsm_emu_access { DSM_EMU_LD, DSM_EMU_ST, DSM_EMU_ATOM };
/* One access of `bytes` at a .shared::cluster address; `val` is read from / written to. */
void dsm_emu_access(enum dsm_emu_access kind, uint32_t addr, void *val, unsigned bytes,
                    const char *file, int line);
uint32_t dsm_emu_atom_u32(int op, uint32_t addr, uint32_t a, uint32_t b, const char *file, int line);
float dsm_emu_atom_add_f32(uint32_t addr, float v, const char *file, int line);

void dsm_emu_syncthreads(const char *file, int line);
void dsm_emu_barrier_cluster_arrive(int relaxed, const char *file, int line);
void dsm_emu_barrier_cluster_wait(const char *file, int line);
void dsm_emu_fence(const char *file, int line);

void dsm_emu_mbarrier_init(uint64_t *bar, uint32_t count, const char *file, int line);
uint64_t dsm_emu_mbarrier_arrive(uint64_t *bar, uint32_t tx_bytes, const char *file, int line);
bool dsm_emu_mbarrier_try_wait_parity(uint64_t *bar, uint32_t parity, const char *file, int line);
void dsm_emu_mbarrier_arrive_remote(uint32_t cluster_bar, const char *file, int line);
void dsm_emu_cp_async_bulk(uint32_t dst, const void *src, uint32_t bytes, uint32_t cluster_bar,
                           const char *file, int line);
void dsm_emu_st_async(uint32_t dst, const void *val, unsigned bytes, uint32_t cluster_bar,
                      const char *file, int line);
uint64_t dsm_emu_clock64(void);

int dsm_emu_atomic_add_i32(int *p, int v);
unsigned dsm_emu_atomic_add_u32(unsigned *p, unsigned v);
unsigned long long dsm_emu_atomic_add_u64(unsigned long long *p, unsigned long long v);
float dsm_emu_atomic_add_f32(float *p, float v);
int dsm_emu_atomic_max_i32(int *p, int v);
unsigned dsm_emu_atomic_max_u32(unsigned *p, unsigned v);
unsigned dsm_emu_atomic_cas_u32(unsigned *p, unsigned cmp, unsigned v);

/* ---- the device API (same names as hopper/device_hopper.h) ---- */
#define DSM__HERE __FILE__, __LINE__

#define dsm_cluster_ctarank() dsm_emu_cluster_ctarank()
#define dsm_cluster_nctarank() dsm_emu_cluster_nctarank()
#define dsm_cluster_ctaid() dsm_emu_cluster_ctaid()
#define dsm_cluster_nctaid() dsm_emu_cluster_nctaid()
#define dsm_clusterid() dsm_emu_clusterid()
#define dsm_nclusterid() dsm_emu_nclusterid()

#define dsm_smem_addr(p) dsm_emu_smem_addr((p), DSM__HERE)
#define dsm_map_shared_rank(p, rank) dsm_emu_map_shared_rank((p), (rank), DSM__HERE)
#define dsm_mapa_shared_cluster(a, rank) dsm_emu_mapa_shared_cluster((a), (rank), DSM__HERE)
#define dsm_dynamic_smem() dsm_emu_dynamic_smem()

static inline uint32_t dsm__ld_u32(uint32_t a, const char *f, int l) { uint32_t v; DSM__SYNC_CALL(dsm_emu_access(DSM_EMU_LD, a, &v, 4, f, l)); return v; }
static inline float dsm__ld_f32(uint32_t a, const char *f, int l) { float v; DSM__SYNC_CALL(dsm_emu_access(DSM_EMU_LD, a, &v, 4, f, l)); return v; }
static inline uint4 dsm__ld_v4(uint32_t a, const char *f, int l) { uint4 v; DSM__SYNC_CALL(dsm_emu_access(DSM_EMU_LD, a, &v, 16, f, l)); return v; }
static inline void dsm__st_u32(uint32_t a, uint32_t v, const char *f, int l) { DSM__SYNC_CALL(dsm_emu_access(DSM_EMU_ST, a, &v, 4, f, l)); }
static inline void dsm__st_f32(uint32_t a, float v, const char *f, int l) { DSM__SYNC_CALL(dsm_emu_access(DSM_EMU_ST, a, &v, 4, f, l)); }
static inline void dsm__st_v4(uint32_t a, uint4 v, const char *f, int l) { DSM__SYNC_CALL(dsm_emu_access(DSM_EMU_ST, a, &v, 16, f, l)); }
static inline uint32_t dsm__atom(int op, uint32_t a, uint32_t x, uint32_t y, const char *f, int l) { uint32_t r; DSM__SYNC_CALL(r = dsm_emu_atom_u32(op, a, x, y, f, l)); return r; }
static inline float dsm__atom_f32(uint32_t a, float v, const char *f, int l) { float r; DSM__SYNC_CALL(r = dsm_emu_atom_add_f32(a, v, f, l)); return r; }

#define DSM_EMU_ATOM_ADD 0
#define DSM_EMU_ATOM_CAS 1
#define dsm_ld_shared_cluster_u32(a) dsm__ld_u32((a), DSM__HERE)
#define dsm_ld_shared_cluster_f32(a) dsm__ld_f32((a), DSM__HERE)
#define dsm_ld_shared_cluster_v4_u32(a) dsm__ld_v4((a), DSM__HERE)
#define dsm_st_shared_cluster_u32(a, v) dsm__st_u32((a), (v), DSM__HERE)
#define dsm_st_shared_cluster_f32(a, v) dsm__st_f32((a), (v), DSM__HERE)
#define dsm_st_shared_cluster_v4_u32(a, v) dsm__st_v4((a), (v), DSM__HERE)
#define dsm_atom_add_shared_cluster_u32(a, v) dsm__atom(DSM_EMU_ATOM_ADD, (a), (v), 0, DSM__HERE)
#define dsm_atom_cas_shared_cluster_u32(a, c, v) dsm__atom(DSM_EMU_ATOM_CAS, (a), (c), (v), DSM__HERE)
#define dsm_atom_add_shared_cluster_f32(a, v) dsm__atom_f32((a), (v), DSM__HERE)
#define dsm_red_add_shared_cluster_u32(a, v) ((void)dsm__atom(DSM_EMU_ATOM_ADD, (a), (v), 0, DSM__HERE))

#define __syncthreads() DSM__SYNC_CALL(dsm_emu_syncthreads(DSM__HERE))
/* Called right after dsm_emu_fence by the gpu-scope fences: the fence also orders across clusters. (Every
 * fence goes through dsm_emu_fence first, which tests may wrap to see the fences a kernel makes.) */
void dsm_emu_fence_gpu_scope(void);
#define __threadfence() DSM__SYNC_CALL((dsm_emu_fence(DSM__HERE), dsm_emu_fence_gpu_scope()))
#define dsm_barrier_cluster_arrive() DSM__SYNC_CALL(dsm_emu_barrier_cluster_arrive(0, DSM__HERE))
#define dsm_barrier_cluster_arrive_relaxed() DSM__SYNC_CALL(dsm_emu_barrier_cluster_arrive(1, DSM__HERE))
#define dsm_barrier_cluster_wait() DSM__SYNC_CALL(dsm_emu_barrier_cluster_wait(DSM__HERE))
#define dsm_cluster_sync() __extension__({ dsm_barrier_cluster_arrive(); dsm_barrier_cluster_wait(); })
#define dsm_fence_acq_rel_cluster() DSM__SYNC_CALL(dsm_emu_fence(DSM__HERE))
void dsm_emu_fence_proxy_async(const char *file, int line);
#define dsm_fence_proxy_async_shared_cta() DSM__SYNC_CALL(dsm_emu_fence_proxy_async(DSM__HERE))
#define dsm_fence_acq_rel_gpu() DSM__SYNC_CALL((dsm_emu_fence(DSM__HERE), dsm_emu_fence_gpu_scope()))

/* Flags: release/acquire and relaxed 32-bit loads and stores on a generic address. */
uint32_t dsm_emu_flag_load(const uint32_t *p, int acquire, int gpu_scope, const char *file, int line);
void dsm_emu_flag_store(uint32_t *p, uint32_t v, int release, int gpu_scope, const char *file, int line);
static inline uint32_t dsm__flag_ld(const uint32_t *p, int acq, int gpu, const char *f, int l) { uint32_t r; DSM__SYNC_CALL(r = dsm_emu_flag_load(p, acq, gpu, f, l)); return r; }
static inline void dsm__flag_st(uint32_t *p, uint32_t v, int rel, int gpu, const char *f, int l) { DSM__SYNC_CALL(dsm_emu_flag_store(p, v, rel, gpu, f, l)); }
#define dsm_ld_acquire_cluster_u32(p) dsm__flag_ld((p), 1, 0, DSM__HERE)
#define dsm_ld_relaxed_cluster_u32(p) dsm__flag_ld((p), 0, 0, DSM__HERE)
#define dsm_st_release_cluster_u32(p, v) dsm__flag_st((p), (v), 1, 0, DSM__HERE)
#define dsm_st_relaxed_cluster_u32(p, v) dsm__flag_st((p), (v), 0, 0, DSM__HERE)
#define dsm_ld_acquire_gpu_u32(p) dsm__flag_ld((p), 1, 1, DSM__HERE)
#define dsm_st_release_gpu_u32(p, v) dsm__flag_st((p), (v), 1, 1, DSM__HERE)
#define dsm_ld_relaxed_gpu_u32(p) dsm__flag_ld((p), 0, 1, DSM__HERE)
#define dsm_st_relaxed_gpu_u32(p, v) dsm__flag_st((p), (v), 0, 1, DSM__HERE)

#define dsm_mbarrier_init(bar, count) DSM__SYNC_CALL(dsm_emu_mbarrier_init((bar), (count), DSM__HERE))
void dsm_emu_fence_mbarrier_init(const char *file, int line);
#define dsm_fence_mbarrier_init() DSM__SYNC_CALL(dsm_emu_fence_mbarrier_init(DSM__HERE))
static inline uint64_t dsm__mbar_arrive(uint64_t *b, uint32_t tx, const char *f, int l) { uint64_t r; DSM__SYNC_CALL(r = dsm_emu_mbarrier_arrive(b, tx, f, l)); return r; }
static inline bool dsm__mbar_try_wait(uint64_t *b, uint32_t p, const char *f, int l) { bool r; DSM__SYNC_CALL(r = dsm_emu_mbarrier_try_wait_parity(b, p, f, l)); return r; }
#define dsm_mbarrier_arrive(bar) dsm__mbar_arrive((bar), 0, DSM__HERE)
#define dsm_mbarrier_arrive_expect_tx(bar, bytes) dsm__mbar_arrive((bar), (bytes), DSM__HERE)
#define dsm_mbarrier_try_wait_parity(bar, parity) dsm__mbar_try_wait((bar), (parity), DSM__HERE)
#define dsm_mbarrier_wait_parity(bar, parity) do { } while (!dsm__mbar_try_wait((bar), (parity), DSM__HERE))
#define dsm_mbarrier_arrive_remote(cbar) DSM__SYNC_CALL(dsm_emu_mbarrier_arrive_remote((cbar), DSM__HERE))

#define dsm_cp_async_bulk_shared_cluster(dst, src, bytes, cbar) \
    DSM__SYNC_CALL(dsm_emu_cp_async_bulk((dst), (src), (bytes), (cbar), DSM__HERE))
static inline void dsm__st_async_u32(uint32_t d, uint32_t v, uint32_t b, const char *f, int l) { DSM__SYNC_CALL(dsm_emu_st_async(d, &v, 4, b, f, l)); }
static inline void dsm__st_async_v4(uint32_t d, uint4 v, uint32_t b, const char *f, int l) { DSM__SYNC_CALL(dsm_emu_st_async(d, &v, 16, b, f, l)); }
#define dsm_st_async_u32(dst, v, cbar) dsm__st_async_u32((dst), (v), (cbar), DSM__HERE)
#define dsm_st_async_v4_u32(dst, v, cbar) dsm__st_async_v4((dst), (v), (cbar), DSM__HERE)

/* Bulk copies between global and shared memory (emu/bulk_global.c). */
void dsm_emu_bulk_g2s(void *dst, const void *src, uint32_t bytes, uint64_t *bar, uint32_t mask, int multicast,
                      const char *file, int line);
void dsm_emu_bulk_s2g(void *dst, const void *src, uint32_t bytes, const char *file, int line);
void dsm_emu_bulk_commit_group(const char *file, int line);
void dsm_emu_bulk_wait_group(uint32_t n, int read, const char *file, int line);
void dsm_emu_fence_proxy_async_global(const char *file, int line);
#define dsm_cp_async_bulk_global_to_shared(dst, src, bytes, bar) \
    DSM__SYNC_CALL(dsm_emu_bulk_g2s((dst), (src), (bytes), (bar), 0u, 0, DSM__HERE))
#define dsm_cp_async_bulk_global_to_shared_multicast(dst, src, bytes, bar, mask) \
    DSM__SYNC_CALL(dsm_emu_bulk_g2s((dst), (src), (bytes), (bar), (uint32_t)(uint16_t)(mask), 1, DSM__HERE))
#define dsm_cp_async_bulk_shared_to_global(dst, src, bytes) DSM__SYNC_CALL(dsm_emu_bulk_s2g((dst), (src), (bytes), DSM__HERE))
#define dsm_cp_async_bulk_commit_group() DSM__SYNC_CALL(dsm_emu_bulk_commit_group(DSM__HERE))
#define dsm_cp_async_bulk_wait_group_read(N) DSM__SYNC_CALL(dsm_emu_bulk_wait_group((N), 1, DSM__HERE))
#define dsm_cp_async_bulk_wait_group(N) DSM__SYNC_CALL(dsm_emu_bulk_wait_group((N), 0, DSM__HERE))
#define dsm_fence_proxy_async_global() DSM__SYNC_CALL(dsm_emu_fence_proxy_async_global(DSM__HERE))

/* ex2.approx.ftz.f32 and cvt.rn.bf16x2.f32 (device_hopper.h): 2^x, and two
 * floats rounded to bf16 (nearest even, NaN stays NaN), hi in the upper half;
 * the emulator rounds exactly as the instruction does. */
static inline float dsm_ex2_approx_f32(float x) { return exp2f(x); }
static inline uint32_t dsm__bf16_rn(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x007FFFFFu) != 0)
        return (u >> 16) | 0x0040u;
    return (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
}
static inline uint32_t dsm_cvt_rn_bf16x2_f32(float hi, float lo) { return dsm__bf16_rn(hi) << 16 | dsm__bf16_rn(lo); }

#define dsm_clock64() dsm_emu_clock64()
#define clock64() dsm_emu_clock64()

/* Global-memory atomics (CUDA built-ins) for the types this course uses. */
#define atomicAdd(p, v) _Generic((p), \
    int *: dsm_emu_atomic_add_i32, \
    unsigned *: dsm_emu_atomic_add_u32, \
    unsigned long long *: dsm_emu_atomic_add_u64, \
    float *: dsm_emu_atomic_add_f32)((p), (v))
#define atomicMax(p, v) _Generic((p), int *: dsm_emu_atomic_max_i32, unsigned *: dsm_emu_atomic_max_u32)((p), (v))
#define atomicCAS(p, c, v) dsm_emu_atomic_cas_u32((unsigned *)(p), (c), (v))

#endif
