/* device_hopper.h: the device API on a real Hopper GPU: one thin inline-PTX wrapper per instruction (sm_90a). */
#ifndef DSM_DEVICE_HOPPER_H
#define DSM_DEVICE_HOPPER_H

#include "../dsm_types.h"
#include "../dsm_host.h"

/* Exposes a kernel to C host code: DSM_KERNEL(name) returns its host stub,
 * which is what cudaLaunchKernelExC and cudaFuncSetAttribute take. The
 * parameter types are used only by the emulator. */
#define DSM_KERNEL_ENTRY(name, ...) \
    extern "C" dsm_kernel_t name##__dsm_handle(void) { return (const void *)name; }

#define DSM_DEVICE static __device__ __forceinline__

/* ---- identity (special registers) ---- */

/* %cluster_ctarank: this CTA's 1-D rank in its cluster (what mapa takes). */
DSM_DEVICE uint32_t dsm_cluster_ctarank(void) {
    uint32_t r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
/* %cluster_nctarank: number of CTAs in the cluster. */
DSM_DEVICE uint32_t dsm_cluster_nctarank(void) {
    uint32_t r; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
/* %cluster_ctaid: this CTA's 3-D position inside its cluster. */
DSM_DEVICE dsm_dim3 dsm_cluster_ctaid(void) {
    dsm_dim3 d;
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(d.x));
    asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(d.y));
    asm volatile("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(d.z));
    return d; }
/* %cluster_nctaid: the cluster's dimensions in CTAs. */
DSM_DEVICE dsm_dim3 dsm_cluster_nctaid(void) {
    dsm_dim3 d;
    asm volatile("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(d.x));
    asm volatile("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(d.y));
    asm volatile("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(d.z));
    return d; }
/* %clusterid: this cluster's 3-D position in the grid (in clusters). */
DSM_DEVICE dsm_dim3 dsm_clusterid(void) {
    dsm_dim3 d;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(d.x));
    asm volatile("mov.u32 %0, %%clusterid.y;" : "=r"(d.y));
    asm volatile("mov.u32 %0, %%clusterid.z;" : "=r"(d.z));
    return d; }
/* %nclusterid: the grid's dimensions in clusters. */
DSM_DEVICE dsm_dim3 dsm_nclusterid(void) {
    dsm_dim3 d;
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(d.x));
    asm volatile("mov.u32 %0, %%nclusterid.y;" : "=r"(d.y));
    asm volatile("mov.u32 %0, %%nclusterid.z;" : "=r"(d.z));
    return d; }

/* ---- addressing ---- */

/* cvta.to.shared: the 32-bit .shared::cta address of a generic pointer into this CTA's shared memory. */
DSM_DEVICE uint32_t dsm_smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
/* mapa.u64 (generic): the same offset in CTA `rank`'s shared memory, as a generic pointer (map_shared_rank). */
DSM_DEVICE void *dsm_map_shared_rank(const void *p, uint32_t rank) {
    uint64_t r; asm volatile("mapa.u64 %0, %1, %2;" : "=l"(r) : "l"((uint64_t)p), "r"(rank)); return (void *)r; }
/* mapa.shared::cluster.u32: the .shared::cluster address of offset `saddr` in CTA `rank`. */
DSM_DEVICE uint32_t dsm_mapa_shared_cluster(uint32_t saddr, uint32_t rank) {
    uint32_t r; asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(saddr), "r"(rank)); return r; }
/* The dynamic shared memory of this CTA (extern __shared__), 128-byte aligned. */
DSM_DEVICE void *dsm_dynamic_smem(void) {
    extern __shared__ __align__(128) unsigned char dsm_dynamic_smem_[]; return dsm_dynamic_smem_; }

/* ---- remote (and local) shared::cluster loads, stores, atomics ---- */

/* ld.shared::cluster.u32 */
DSM_DEVICE uint32_t dsm_ld_shared_cluster_u32(uint32_t a) {
    uint32_t v; asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(a) : "memory"); return v; }
/* ld.shared::cluster.f32 */
DSM_DEVICE float dsm_ld_shared_cluster_f32(uint32_t a) {
    float v; asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(v) : "r"(a) : "memory"); return v; }
/* ld.shared::cluster.v4.u32: one 16-byte load (address 16-byte aligned). */
DSM_DEVICE uint4 dsm_ld_shared_cluster_v4_u32(uint32_t a) {
    uint4 v; asm volatile("ld.shared::cluster.v4.u32 {%0, %1, %2, %3}, [%4];"
                          : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(a) : "memory"); return v; }
/* st.shared::cluster.u32 */
DSM_DEVICE void dsm_st_shared_cluster_u32(uint32_t a, uint32_t v) {
    asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }
/* st.shared::cluster.f32 */
DSM_DEVICE void dsm_st_shared_cluster_f32(uint32_t a, float v) {
    asm volatile("st.shared::cluster.f32 [%0], %1;" :: "r"(a), "f"(v) : "memory"); }
/* st.shared::cluster.v4.u32: one 16-byte store (address 16-byte aligned). */
DSM_DEVICE void dsm_st_shared_cluster_v4_u32(uint32_t a, uint4 v) {
    asm volatile("st.shared::cluster.v4.u32 [%0], {%1, %2, %3, %4};"
                 :: "r"(a), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) : "memory"); }
/* atom.shared::cluster.add.u32: returns the old value. */
DSM_DEVICE uint32_t dsm_atom_add_shared_cluster_u32(uint32_t a, uint32_t v) {
    uint32_t old; asm volatile("atom.shared::cluster.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(a), "r"(v) : "memory"); return old; }
/* atom.shared::cluster.add.f32: returns the old value. */
DSM_DEVICE float dsm_atom_add_shared_cluster_f32(uint32_t a, float v) {
    float old; asm volatile("atom.shared::cluster.add.f32 %0, [%1], %2;" : "=f"(old) : "r"(a), "f"(v) : "memory"); return old; }
/* atom.shared::cluster.cas.b32: stores v if the word equals cmp; returns the old value. */
DSM_DEVICE uint32_t dsm_atom_cas_shared_cluster_u32(uint32_t a, uint32_t cmp, uint32_t v) {
    uint32_t old; asm volatile("atom.shared::cluster.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "r"(a), "r"(cmp), "r"(v) : "memory"); return old; }
/* red.shared::cluster.add.u32: atomic add, no result. */
DSM_DEVICE void dsm_red_add_shared_cluster_u32(uint32_t a, uint32_t v) {
    asm volatile("red.shared::cluster.add.u32 [%0], %1;" :: "r"(a), "r"(v) : "memory"); }

/* ---- flags: release/acquire loads and stores on a generic address ----
 * For ping-pong and handshake flags: the address may be this CTA's shared
 * memory, a peer's (from dsm_map_shared_rank) or global memory. */

/* ld.acquire.cluster.u32: reads a flag; later accesses of this thread see what its writer released. */
DSM_DEVICE uint32_t dsm_ld_acquire_cluster_u32(const uint32_t *p) {
    uint32_t v; asm volatile("ld.acquire.cluster.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
/* ld.relaxed.cluster.u32: reads a flag without ordering anything (never cached in a register). */
DSM_DEVICE uint32_t dsm_ld_relaxed_cluster_u32(const uint32_t *p) {
    uint32_t v; asm volatile("ld.relaxed.cluster.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
/* st.release.cluster.u32: writes a flag after every earlier access of this thread (publishes them). */
DSM_DEVICE void dsm_st_release_cluster_u32(uint32_t *p, uint32_t v) {
    asm volatile("st.release.cluster.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
/* st.relaxed.cluster.u32: writes a flag without ordering anything. */
DSM_DEVICE void dsm_st_relaxed_cluster_u32(uint32_t *p, uint32_t v) {
    asm volatile("st.relaxed.cluster.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
/* ld.acquire.gpu.u32: a flag in global memory, acquire at GPU scope. */
DSM_DEVICE uint32_t dsm_ld_acquire_gpu_u32(const uint32_t *p) {
    uint32_t v; asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
/* st.release.gpu.u32: a flag in global memory, release at GPU scope. */
DSM_DEVICE void dsm_st_release_gpu_u32(uint32_t *p, uint32_t v) {
    asm volatile("st.release.gpu.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }
/* ld.relaxed.gpu.u32: a flag in global memory, read without ordering anything (never cached in a register). */
DSM_DEVICE uint32_t dsm_ld_relaxed_gpu_u32(const uint32_t *p) {
    uint32_t v; asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); return v; }
/* st.relaxed.gpu.u32: a flag in global memory, written without ordering anything. */
DSM_DEVICE void dsm_st_relaxed_gpu_u32(uint32_t *p, uint32_t v) {
    asm volatile("st.relaxed.gpu.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory"); }

/* ---- cluster barrier and fences ---- */

/* barrier.cluster.arrive.release: publish this thread's writes, do not wait. */
DSM_DEVICE void dsm_barrier_cluster_arrive(void) { asm volatile("barrier.cluster.arrive.release;" ::: "memory"); }
/* barrier.cluster.arrive.relaxed: arrive without ordering anything. */
DSM_DEVICE void dsm_barrier_cluster_arrive_relaxed(void) { asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"); }
/* barrier.cluster.wait.acquire: wait until every non-exited thread of the cluster arrived. */
DSM_DEVICE void dsm_barrier_cluster_wait(void) { asm volatile("barrier.cluster.wait.acquire;" ::: "memory"); }
/* arrive (release) then wait (acquire): cluster.sync(). */
DSM_DEVICE void dsm_cluster_sync(void) { dsm_barrier_cluster_arrive(); dsm_barrier_cluster_wait(); }
/* fence.acq_rel.cluster */
DSM_DEVICE void dsm_fence_acq_rel_cluster(void) { asm volatile("fence.acq_rel.cluster;" ::: "memory"); }
/* fence.acq_rel.gpu. Not what __threadfence() is: nvcc 13.0 compiles __threadfence() to membar.gl,
 * which the PTX ISA defines (sm_70 and later) as a synonym of fence.sc.gpu, the stronger
 * sequentially consistent fence. */
DSM_DEVICE void dsm_fence_acq_rel_gpu(void) { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }
/* fence.proxy.async.shared::cta: make generic-proxy smem writes visible to bulk copies. */
DSM_DEVICE void dsm_fence_proxy_async_shared_cta(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

/* ---- mbarrier ---- */

/* mbarrier.init.shared::cta.b64: `count` arrivals complete a phase. */
DSM_DEVICE void dsm_mbarrier_init(uint64_t *bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(dsm_smem_addr(bar)), "r"(count) : "memory"); }
/* fence.mbarrier_init.release.cluster: make mbarrier inits visible to the cluster. */
DSM_DEVICE void dsm_fence_mbarrier_init(void) { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
/* mbarrier.arrive.shared::cta.b64: one arrival (release); returns the phase token. */
DSM_DEVICE uint64_t dsm_mbarrier_arrive(uint64_t *bar) {
    uint64_t s; asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(dsm_smem_addr(bar)) : "memory"); return s; }
/* mbarrier.arrive.expect_tx.shared::cta.b64: one arrival that also expects `bytes` of transactions. */
DSM_DEVICE uint64_t dsm_mbarrier_arrive_expect_tx(uint64_t *bar, uint32_t bytes) {
    uint64_t s; asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(dsm_smem_addr(bar)), "r"(bytes) : "memory"); return s; }
/* mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64: 1 once the phase with this parity completed. */
DSM_DEVICE bool dsm_mbarrier_try_wait_parity(uint64_t *bar, uint32_t parity) {
    uint32_t ok;
    asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(ok) : "r"(dsm_smem_addr(bar)), "r"(parity) : "memory");
    return ok != 0; }
/* Spins on dsm_mbarrier_try_wait_parity until the phase completes. */
DSM_DEVICE void dsm_mbarrier_wait_parity(uint64_t *bar, uint32_t parity) {
    while (!dsm_mbarrier_try_wait_parity(bar, parity)) { } }
/* mbarrier.arrive.release.cluster.shared::cluster.b64: arrive on a peer's mbarrier (a mapa address). */
DSM_DEVICE void dsm_mbarrier_arrive_remote(uint32_t cluster_bar) {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(cluster_bar) : "memory"); }

/* ---- asynchronous pushes into a peer CTA ---- */

/* cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes: copy `bytes`
 * (multiple of 16, both addresses 16-byte aligned) from this CTA to a peer; the
 * peer's mbarrier (cluster address) receives complete_tx of `bytes`. */
DSM_DEVICE void dsm_cp_async_bulk_shared_cluster(uint32_t dst, const void *src, uint32_t bytes, uint32_t cluster_bar) {
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dst), "r"(dsm_smem_addr(src)), "r"(bytes), "r"(cluster_bar) : "memory"); }
/* st.async.shared::cluster.mbarrier::complete_tx::bytes.u32: a 4-byte remote store that completes 4 bytes on the peer's mbarrier. */
DSM_DEVICE void dsm_st_async_u32(uint32_t dst, uint32_t v, uint32_t cluster_bar) {
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" :: "r"(dst), "r"(v), "r"(cluster_bar) : "memory"); }
/* st.async...v4.b32: a 16-byte remote store that completes 16 bytes on the peer's mbarrier. */
DSM_DEVICE void dsm_st_async_v4_u32(uint32_t dst, uint4 v, uint32_t cluster_bar) {
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];"
                 :: "r"(dst), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w), "r"(cluster_bar) : "memory"); }

/* ---- bulk copies between global and shared memory (chapter 7) ----
 * Rules (PTX ISA, cp.async.bulk): both addresses 16-byte aligned, the size a
 * positive multiple of 16, neither range past the end of its memory. With
 * -DDSM_DEBUG (make ... DEBUG=1) every wrapper checks them and traps with a
 * message; without it, a violation is undefined behaviour, as in PTX. The copy
 * runs in the async proxy: generic writes of its source need a proxy fence
 * first (dsm_fence_proxy_async_shared_cta for shared memory,
 * dsm_fence_proxy_async_global for global memory written in this kernel);
 * its completion (an observed mbarrier phase, a wait_group) carries an
 * implicit proxy fence, so the data can then be read with ordinary loads. */

#if defined(DSM_DEBUG)
/* Traps with a message when a bulk copy breaks the alignment or size rule. */
DSM_DEVICE void dsm__bulk_check(const char *what, const void *dst, const void *src, uint32_t bytes) {
    if (bytes == 0 || (bytes & 15u) || ((uintptr_t)dst & 15u) || ((uintptr_t)src & 15u)) {
        printf("dsm: %s: block (%u,%u,%u) thread %u: dst %p, src %p, %u bytes: addresses must be 16-byte aligned "
               "and the size a positive multiple of 16\n", what, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x,
               dst, src, bytes);
        __trap();
    } }
/* Traps when dst is not in this CTA's shared memory or cta_mask names a CTA outside the cluster. */
DSM_DEVICE void dsm__bulk_check_g2s(const char *what, const void *dst, const uint64_t *bar, uint32_t cta_mask) {
    uint32_t n; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
    if (!__isShared(dst) || !__isShared(bar) || ((uintptr_t)bar & 7u) || cta_mask == 0u || (n < 16u && (cta_mask >> n))) {
        printf("dsm: %s: block (%u,%u,%u) thread %u: dst %p and mbarrier %p must be in this CTA's shared memory "
               "(mbarrier 8-byte aligned); mask 0x%04x must name only ranks below the cluster size %u\n", what,
               blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, dst, bar, cta_mask, n);
        __trap();
    } }
#define DSM__BULK_CHECK(what, d, s, n) dsm__bulk_check((what), (d), (s), (n))
#define DSM__BULK_CHECK_G2S(what, d, b, m) dsm__bulk_check_g2s((what), (d), (b), (m))
#else
#define DSM__BULK_CHECK(what, d, s, n) ((void)0)
#define DSM__BULK_CHECK_G2S(what, d, b, m) ((void)0)
#endif

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes: copy `bytes` from global
 * memory `src` into THIS CTA's shared memory `dst` (a generic pointer); complete_tx of `bytes`
 * on this CTA's mbarrier `bar` when they landed. Someone must arm `bar` for them
 * (dsm_mbarrier_arrive_expect_tx) in the phase they complete. */
DSM_DEVICE void dsm_cp_async_bulk_global_to_shared(void *dst, const void *src, uint32_t bytes, uint64_t *bar) {
    DSM__BULK_CHECK("cp.async.bulk global->shared", dst, src, bytes);
    DSM__BULK_CHECK_G2S("cp.async.bulk global->shared", dst, bar, 1u);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 :: "r"(dsm_smem_addr(dst)), "l"(src), "r"(bytes), "r"(dsm_smem_addr(bar)) : "memory"); }

/* The .multicast::cluster form: one read of `bytes` from global memory lands at the same
 * CTA-relative offset as `dst` in the shared memory of every CTA whose %cluster_ctarank bit is
 * set in `cta_mask` (the issuer need not be one of them), and completes `bytes` on the mbarrier
 * at the offset of `bar` in EACH of those CTAs: each receiver arms its own barrier.
 * sm_90a machine code only: the compute_90 PTX the course also ships (the path a GPU newer
 * than Hopper JIT-compiles, and PTX_ONLY=1) gets one unicast copy per CTA of the mask instead
 * (same bytes, same complete_tx per receiver, but n reads from L2), because ptxas warns that
 * .multicast::cluster outside sm_90a "is expected to have substantially reduced performance
 * on some future architectures". */
DSM_DEVICE void dsm_cp_async_bulk_global_to_shared_multicast(void *dst, const void *src, uint32_t bytes, uint64_t *bar,
                                                             uint16_t cta_mask) {
    DSM__BULK_CHECK("cp.async.bulk global->shared multicast", dst, src, bytes);
    DSM__BULK_CHECK_G2S("cp.async.bulk global->shared multicast", dst, bar, cta_mask);
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;"
                 :: "r"(dsm_smem_addr(dst)), "l"(src), "r"(bytes), "r"(dsm_smem_addr(bar)), "h"(cta_mask) : "memory");
#else
    uint32_t d = dsm_smem_addr(dst), b = dsm_smem_addr(bar);
    for (uint32_t rank = 0; rank < 16u; ++rank)
        if ((cta_mask >> rank) & 1u)
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                         :: "r"(dsm_mapa_shared_cluster(d, rank)), "l"(src), "r"(bytes),
                            "r"(dsm_mapa_shared_cluster(b, rank)) : "memory");
#endif
}

/* cp.async.bulk.global.shared::cta.bulk_group: copy `bytes` from this CTA's shared memory `src`
 * to global memory `dst`, tracked by the issuing thread's bulk async-groups: commit it with
 * dsm_cp_async_bulk_commit_group, then dsm_cp_async_bulk_wait_group_read(N) before rewriting
 * (or leaving) the source, dsm_cp_async_bulk_wait_group(N) before reading the destination. */
DSM_DEVICE void dsm_cp_async_bulk_shared_to_global(void *dst, const void *src, uint32_t bytes) {
    DSM__BULK_CHECK("cp.async.bulk shared->global", dst, src, bytes);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 :: "l"(dst), "r"(dsm_smem_addr(src)), "r"(bytes) : "memory"); }
/* cp.async.bulk.commit_group: the thread's bulk stores issued since the last commit become one group. */
DSM_DEVICE void dsm_cp_async_bulk_commit_group(void) { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
/* cp.async.bulk.wait_group.read N (N a literal): all but the N most recent committed groups of this
 * thread have finished READING their source: the shared memory may be rewritten (or freed). */
#define dsm_cp_async_bulk_wait_group_read(N) asm volatile("cp.async.bulk.wait_group.read %0;" :: "n"(N) : "memory")
/* cp.async.bulk.wait_group N (N a literal): all but the N most recent committed groups of this thread
 * are complete: their writes are visible to this thread (to others after a release of this thread). */
#define dsm_cp_async_bulk_wait_group(N) asm volatile("cp.async.bulk.wait_group %0;" :: "n"(N) : "memory")
/* fence.proxy.async.global: orders this thread's generic-proxy accesses of global memory with
 * async-proxy accesses (a bulk copy reading global data this kernel wrote with ordinary stores). */
DSM_DEVICE void dsm_fence_proxy_async_global(void) { asm volatile("fence.proxy.async.global;" ::: "memory"); }

/* ---- programmatic dependent launch (griddepcontrol, PTX ISA 7.8, sm_90) ---- */

/* griddepcontrol.wait: waits until the grids this one depends on (the kernel
 * before it on the stream, when this one was launched with
 * programmatic_dependent_launch) have completed and their memory is visible.
 * Without such a launch it returns at once. */
DSM_DEVICE void dsm_griddepcontrol_wait(void) { asm volatile("griddepcontrol.wait;" ::: "memory"); }
/* griddepcontrol.launch_dependents: lets the next kernel of the stream (launched
 * with programmatic_dependent_launch) start once every CTA of this grid has
 * called it or exited; it changes nothing about memory ordering. */
DSM_DEVICE void dsm_griddepcontrol_launch_dependents(void) {
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }

/* ---- arithmetic (one instruction each) ---- */

/* ex2.approx.ftz.f32: 2^x, one MUFU.EX2 (about 2 ulp; subnormal results are
 * flushed to zero). exp(x - m) is ex2(x * log2e - m * log2e): one FFMA more. */
DSM_DEVICE float dsm_ex2_approx_f32(float x) {
    float y; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
/* cvt.rn.bf16x2.f32: hi and lo rounded to bf16 (nearest even, NaN stays NaN),
 * packed into one 32-bit word, hi in the upper half. */
DSM_DEVICE uint32_t dsm_cvt_rn_bf16x2_f32(float hi, float lo) {
    uint32_t d; asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "f"(hi), "f"(lo)); return d; }

/* ---- time ---- */

/* %clock64: this SM's cycle counter. */
DSM_DEVICE uint64_t dsm_clock64(void) { return (uint64_t)clock64(); }

#endif
