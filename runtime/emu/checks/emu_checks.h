/* emu_checks.h: the emulator's memory model and checks: happens-before clocks, race shadows (shared and
 * global), publication, lifetime, mbarrier init visibility, parity, the mechanism counters.
 * Calls only diagnostics/, state/ and base/. */
#ifndef DSM_EMU_CHECKS_H
#define DSM_EMU_CHECKS_H

#include "../diagnostics/emu_diagnostics.h"

/* ---- race.c ---- */
void emu_release(emu_cta *c, uint32_t *vc_obj);
void emu_acquire(emu_cta *c, const uint32_t *vc_obj);
/* Checks and records an access through the device API to word range [off, off+bytes) of CTA `owner`. */
bool emu_race_access(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned bytes,
                     int kind, const emu_site *site);
/* Settles the write-write conflicts of the last store (same value: harmless); false after a report. */
bool emu_race_settle(emu_launch *L);
extern int emu_ww_pending; /* conflicts waiting for emu_race_settle */
/* The first word of [off, off+bytes) of c last written by a generic store of one of c's threads
 * that did no fence.proxy.async since: false when there is none. */
bool emu_race_unfenced_write(emu_launch *L, emu_cta *c, size_t off, uint32_t bytes, uint32_t *tid,
                             emu_site *site, size_t *word_off);
/* Whether thread x made a releasing cluster arrive (.release, or .relaxed after fence.acq_rel) among its arrives
 * number `from` .. waits-1: what x did before its arrive `from` is then ordered before a thread of its CTA that
 * has completed `waits` cluster waits. */
bool emu_arrive_released(const emu_thread *x, uint32_t from, uint32_t waits);
/* Release by thread t to a sync object (CTA clocks vc, thread clocks tc of t's CTA); acquire from one. */
void emu_release_to(emu_thread *t, uint32_t *vc, emu_tclock *tc);
void emu_acquire_from(emu_thread *t, const uint32_t *vc, const emu_tclock *tc);
void emu_tclock_free(emu_tclock *tc);
/* A remote access needs proof that the peer started: a cluster barrier (or anything acquired from it) first. */
void emu_check_cta_started(emu_launch *L, emu_thread *t, emu_cta *owner, const emu_site *site);
void emu_shadow_free(emu_cta *c);
/* The launch ends: the shadows kept for reuse are freed. */
void emu_shadow_pool_free(void);
/* Checks one word's access against its shadow entry and records it; false after a report. */
bool emu_race_word(emu_launch *L, emu_thread *t, const emu_mem *mem, emu_shadow *s, size_t w, size_t off,
                   unsigned bytes, int kind, const emu_site *site);
/* Whether the last device-API write to word `w` of c came from another CTA. */
bool emu_race_written_by_peer(const emu_cta *c, size_t w);

/* ---- lifetime.c ---- */
/* A CTA exits: every peer's access to its memory (the latest per peer) must happen before the exit. */
void emu_race_check_exit(emu_launch *L, emu_cta *c);
/* Thread t (of another CTA than `owner`) accessed owner's shared memory at `off`: remembered as the
 * latest access of t's CTA, which must happen before owner's exit. */
void emu_lifetime_note(emu_thread *t, emu_cta *owner, size_t off, emu_peer_what what, const emu_site *site);
/* Thread t's wait saw a bulk copy out of `owner`'s memory complete (issued at `copy`). */
void emu_lifetime_note_copy_out(emu_thread *t, emu_cta *owner, size_t off, const emu_site *copy);

/* ---- global_race.c: the race shadow of dsm_malloc buffers ---- */
/* Checks and records a kernel's access of kind `kind` to global bytes [a, a+n), which lie in one buffer;
 * false after a report. */
bool emu_race_global(emu_launch *L, emu_thread *t, const void *a, unsigned n, int kind, const emu_site *site);
/* The first word of global bytes [a, a+n) last written by a generic store (or atomic) of a thread of this cluster
 * that executed no fence.proxy.async.global since: its CTA, thread, site and byte offset in its buffer; false
 * when there is none. */
bool emu_global_unfenced_write(emu_launch *L, const void *a, unsigned n, uint32_t *cta, uint32_t *tid, emu_site *site,
                               size_t *byte_off);
/* Forgets every access (a new schedule starts); with `release`, frees the shadow (the launch ends). */
void emu_global_race_reset(bool release);

/* ---- gpu_order.c: happens-before between clusters of one launch (gpu-scope release/acquire) ---- */
/* A gpu-scope release by thread t to the global word p / an acquire from it. */
void emu_gpu_release(emu_thread *t, const void *p);
void emu_gpu_acquire(emu_thread *t, const void *p);
/* Whether CTA c acquired CTA `rank` of cluster `cl`'s clock `epoch` (or later). */
bool emu_gpu_knows(const emu_cta *c, uint32_t cl, uint32_t rank, uint32_t epoch);
/* CTA `into` acquired from its cluster mate `from`: what `from` knows of earlier clusters comes along. */
void emu_gpu_merge(emu_cta *into, const emu_cta *from);
void emu_gpu_cta_free(emu_cta *c);
/* A new schedule: no release of any cluster is known. */
void emu_gpu_reset(void);

/* ---- publication.c ---- */
void emu_publication_start(emu_launch *L, emu_cta *c);
void emu_publication_free(emu_cta *c);
void emu_publication_arrive(emu_cta *c, bool relaxed);
void emu_publication_phase_done(emu_launch *L, uint32_t phase);
/* 1 + the phase in which the word at `off` was written and not published, or 0. */
uint32_t emu_publication_unpublished(const emu_cta *c, size_t off);

/* ---- mbarrier_init.c ---- */
/* Thread t initialised m: who and when, for the checks below. */
void emu_mbarrier_init_record(emu_thread *t, emu_mbarrier *m);
/* Thread t arrives on the cluster barrier in `phase`: inits it fenced with fence.mbarrier_init are released. */
void emu_mbarrier_init_arrive(emu_thread *t, uint32_t phase);
/* Reports (and ends the launch) when m's init does not happen before thread t's use `what` of it. */
void emu_mbarrier_check_init_visible(emu_launch *L, emu_thread *t, emu_mbarrier *m, const char *what);

/* ---- parity.c ---- */
/* Thread t's wait for `parity` on m just succeeded: a wait satisfied by a phase this thread had already
 * waited for, once the next phase has begun (an arrive, expect_tx or bytes on it) or the thread released anything
 * since, is reported (a stale parity) and ends the launch; otherwise the second wait is legal. */
void emu_parity_check(emu_launch *L, emu_thread *t, emu_mbarrier *m, uint32_t parity);
void emu_parity_free(emu_mbarrier *m);
/* Before a deadlock report: a blocked wait that skipped a phase its thread should have taken is reported
 * as a stale parity; whether a report was made. */
bool emu_parity_report_stuck(emu_launch *L);

/* ---- counters.c: the mechanism counters (dsm_emu_control.h), on in a launch's first schedule ---- */
extern int emu_counts_on;
void emu_counts_launch_start(emu_launch *L);
void emu_counts_schedule_done(void);
void emu_counts_cluster_end(emu_launch *L);
/* n bytes of CTA owner's shared memory read or written by thread t (own or a peer's). */
void emu_count_smem(const emu_thread *t, const emu_cta *owner, unsigned n, int write);
void emu_count_smem_atom(const emu_thread *t, const emu_cta *owner);
/* n bytes of global memory at p read or written by thread t (plain or device-API). */
void emu_count_gmem(const emu_thread *t, const void *p, unsigned n, int write);
void emu_count_gmem_atom(const emu_thread *t, const void *p);
/* A flag access at p: store or load, strong (acquire/release) or relaxed, scope DSM_FLAG_CLUSTER/GPU/SYS. */
void emu_count_flag(const emu_thread *t, const void *p, int store, int strong, int scope);
void emu_count_cluster_arrive(const emu_thread *t, int relaxed);
/* A barrier or wait by t (__syncthreads, cluster wait, mbarrier arrive or wait): its run of loads in flight ends. */
void emu_count_sync(const emu_thread *t);
void emu_count_fence(const emu_thread *t);
void emu_count_remote_arrive(const emu_thread *t);
/* A bulk copy or st.async into a peer: issued by t; landed in dst. */
void emu_count_async_issue(const emu_thread *t, uint32_t bytes);
void emu_count_async_landed(emu_launch *L, const emu_cta *dst, uint32_t bytes);
/* Bulk copies with global memory: global -> shared issued by t (src in global) and landed in dst;
 * shared -> global issued by t (dst in global). */
void emu_count_bulk_g2s_issue(const emu_thread *t, const void *src, uint32_t bytes);
void emu_count_bulk_g2s_landed(emu_launch *L, const emu_cta *dst, uint32_t bytes);
void emu_count_bulk_s2g_issue(const emu_thread *t, const void *dst, uint32_t bytes);


#endif
