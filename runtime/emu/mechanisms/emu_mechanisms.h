/* emu_mechanisms.h: the emulated PTX mechanisms: mbarrier < async proxy (bulk copies and st.async between
 * CTAs) < bulk copies with global memory; barriers; flags; remote access. Each calls only the ones before it
 * here, the engine, checks/, diagnostics/, state/ and base/. */
#ifndef DSM_EMU_MECHANISMS_H
#define DSM_EMU_MECHANISMS_H

#include "../engine/emu_engine.h"

/* ---- mbarrier.c ---- */
/* The mbarrier at offset `off` of CTA `cta`'s shared memory, or NULL when none was ever used there. */
emu_mbarrier *emu_mbarrier_find(emu_launch *L, uint32_t cta, size_t off);
/* Reports an mbarrier used before mbarrier.init (rank's shared memory at off) and ends the launch. */
_Noreturn void emu_mbarrier_uninitialized(emu_thread *t, uint32_t rank, size_t off);
/* The CTA whose object lies at .shared::cluster address `addr` (its offset in *off) for thread t's operation
 * `what`; reports and ends the launch when the address is in no CTA or its CTA exited. */
emu_cta *emu_peer_target(emu_thread *t, uint32_t addr, size_t *off, const char *what);
/* `bytes` of transactions land on m; the completion releases the issuer's clocks vc. */
void emu_mbarrier_complete_tx(emu_launch *L, emu_mbarrier *m, uint32_t bytes, const uint32_t *vc);
/* The cluster ended: an mbarrier that received more bytes than it expected is reported. */
void emu_mbarriers_check_end(emu_launch *L);
/* Before a deadlock report: a waited-on mbarrier whose byte count cannot reach zero. */
bool emu_mbarriers_check_stuck(emu_launch *L);

/* ---- async_proxy.c (and the entry points cp.async.bulk.shared::cluster, st.async) ---- */
/* A bulk copy (source sc/soff) or st.async (val) issued by t; it completes later, on m. */
void emu_async_issue(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, emu_cta *sc, size_t soff,
                     const void *val, uint32_t bytes, emu_mbarrier *m);
/* A thread waits on mbarrier `mbar`: the operations in flight on it land (in issue order). */
void emu_async_complete_for_mbarrier(emu_launch *L, uint32_t mbar);
/* Completes every operation in flight; whether there was one. */
bool emu_async_complete_all(emu_launch *L);
/* A thread waits on mbarrier `mbar` (emu_hook.mbarrier_wait): the ascending schedule lands its copies now. */
void emu_async_land_on_wait(emu_launch *L, uint32_t mbar);
/* emu_hook.progress: the ascending schedule lands every operation in flight, the others one (desc and
 * interleave the newest, random any); whether one landed. */
bool emu_async_progress(emu_launch *L);
/* Before CTA `cta` exits: a copy into it or out of it that no wait saw complete is a lifetime hazard. */
void emu_async_complete_for_cta(emu_launch *L, uint32_t cta);
/* Thread t's wait on mbarrier `mbar` succeeded: the copies that landed in a completed phase are seen. */
void emu_async_observe(emu_launch *L, emu_thread *t, uint32_t mbar);
/* A copy from global memory `gsrc` into CTA dc (bulk_global.c checked its operands); multicast: one
 * receiver's share of a .multicast::cluster copy (a destination still in flight is reported in its terms). */
void emu_async_issue_from_global(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, const unsigned char *gsrc,
                                 uint32_t bytes, emu_mbarrier *m, int multicast);
/* Generic writes of a bulk copy's shared-memory source need fence.proxy.async first: reported otherwise. */
void emu_async_check_source_fenced(emu_launch *L, emu_thread *t, emu_cta *sc, size_t soff, uint32_t bytes);
/* A write to the source of a copy in flight is reported (emu_bulk_check_smem_plain calls it). */
void emu_async_check_plain(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n, int write,
                           const emu_site *site);

/* ---- bulk_global.c: bulk copies global -> shared (unicast, multicast) and shared -> global ---- */
/* A write to shared memory of CTA `owner`: reported when it rewrites the source of a bulk store to
 * global memory that its thread has not waited for with cp.async.bulk.wait_group.read. */
void emu_bulk_store_check_smem_write(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n,
                                     const emu_site *site);
/* An access of n bytes at `off` of owner's shared memory by t (a write when `write`): reported when it rewrites
 * the source of a bulk store to global memory not yet waited for, or of a copy in flight (emu_async_check_plain). */
void emu_bulk_check_smem_plain(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n, int write,
                               const emu_site *site);
/* CTA `cta` exits: a bulk store still reading its shared memory is a lifetime hazard. */
void emu_bulk_store_cta_exit(emu_launch *L, uint32_t cta);
/* A plain access of global memory: reported when it rewrites the source of a copy in flight, or touches
 * bytes a bulk store is still writing. */
void emu_bulk_check_global_plain(emu_launch *L, emu_thread *t, const void *a, unsigned n, int write,
                                 const emu_site *site);
/* Extra lines for a stuck-mbarrier report when the barrier receives multicast copies. */
void emu_bulk_stuck_hint(emu_launch *L, const emu_mbarrier *m);
/* The cluster ends: forget its bulk stores. */
void emu_bulk_cluster_free(emu_launch *L);

/* ---- barriers.c ---- */
/* Thread t returned from the kernel: it leaves the barriers it would have held up (its CTA's exit, when it is
 * the last, goes through emu_hook.cta_exit). */
void emu_thread_exited(emu_launch *L, emu_thread *t);

/* ---- flags.c ---- */
/* Whether the flag spinning thread t polled last still holds what it read then. */
bool emu_flag_unchanged(emu_launch *L, const emu_thread *t);
/* A volatile 32-bit load (a poll, like ld.relaxed) or store (a release after fence.acq_rel) at a. */
void emu_flag_volatile(emu_thread *t, const void *a, int write, emu_site site);
/* An atomic RMW at a: relaxed, so a release after a fence and an acquire before one. */
void emu_flag_atomic(emu_thread *t, const void *a);

#endif
