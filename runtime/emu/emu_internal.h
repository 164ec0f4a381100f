/* emu_internal.h: the emulator's internal state (launch, cluster, CTA, thread) shared by its source files. */
#ifndef DSM_EMU_INTERNAL_H
#define DSM_EMU_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "../dsm_emu_control.h"
#include "device_emu.h"
#include "fiber.h"

#define EMU_MAX_CLUSTER 16
#define EMU_SMEM_PER_BLOCK_MAX (227u * 1024u) /* Hopper: 227 KB per block with the opt-in attribute */
#define EMU_SMEM_DEFAULT_DYNAMIC (48u * 1024u)  /* without the attribute */
#define EMU_POISON_WORD 0x7FF5DEADu  /* a quiet NaN as a float, 2146819757 as an int */
#define EMU_SMEM_BASE 0x400u         /* .shared::cta addresses start after 1 KB reserved, as on Hopper */
#define EMU_CLUSTER_TAG_SHIFT 24     /* .shared::cluster address = (rank + 1) << 24 | cta address */

typedef enum emu_thread_state {
    EMU_RUNNABLE,
    EMU_AT_SYNCTHREADS,
    EMU_AT_CLUSTER_WAIT,
    EMU_AT_MBARRIER,
    EMU_SPINNING,               /* polls a flag that nothing changed since its last poll */
    EMU_EXITED
} emu_thread_state;

typedef enum emu_schedule_kind { EMU_SCHED_ASC, EMU_SCHED_DESC, EMU_SCHED_RANDOM, EMU_SCHED_INTERLEAVE } emu_schedule_kind;

typedef struct emu_schedule {
    emu_schedule_kind kind;
    uint64_t seed;
} emu_schedule;

struct emu_cta;

/* Access kinds beyond enum dsm_emu_access: a strong (acquire/relaxed) load, and
 * the write of a bulk copy or st.async (the async proxy). */
#define DSM_EMU_ATOM_LD 3
#define DSM_EMU_ASYNC_ST 4

/* What threads of one CTA know of each other's releases between two CTA-wide
 * synchronisations (mbarrier waits and flags order threads of one CTA):
 * e[tid] = the release epoch of thread tid that is known, valid in barrier
 * generation `gen` of CTA `cta` only. */
typedef struct emu_tclock {
    int32_t cta;
    uint32_t gen, n;
    uint32_t *e;
} emu_tclock;

/* A flag word used with release/acquire (flags.c). */
typedef struct emu_sync_loc {
    int32_t cta;
    size_t off;
    const uint32_t *ptr;
    uint32_t vc[16];
    emu_tclock tvc;
} emu_sync_loc;

/* A source location in kernel code, as the device API macros pass it. */
typedef struct emu_site {
    const char *file;
    int line;
    void *pc;                   /* a plain access: the instruction, for addr2line (file is NULL) */
} emu_site;

/* Race shadow (race.c): the last access of one kind to one 4-byte word. */
enum {
    ACC_VALID = 1,
    ACC_ATOMIC = 2,
    ACC_RMW = 4,   /* a store to the word its thread had just loaded */
    ACC_ASYNC = 8, /* the write of a bulk copy or st.async */
};
typedef struct emu_access {   /* 32 bytes: a shadow word is 64 */
    uint32_t epoch;   /* the accessing CTA's own clock at the access */
    uint32_t gen;     /* the accessing thread's barrier generation */
    uint32_t tepoch;  /* the accessing thread's own release epoch */
    uint32_t syncs;   /* the accessing thread's completed __syncthreads */
    uint32_t cl;      /* the accessing CTA's cluster: its place in the launch's order (emu_launch.cl_seq) */
    uint32_t site;    /* emu_site_id of where it happened */
    uint16_t tid;
    uint16_t waits;   /* the accessing thread's completed cluster waits (modulo 2^16) */
    uint8_t cta, flags;
    uint8_t mask;     /* which bytes of the word */
    uint8_t pfence;   /* the accessing thread's fence.proxy.async count (modulo 256) */
} emu_access;
typedef struct emu_shadow {
    emu_access w, r;
} emu_shadow;

/* ---- site.c ---- */
/* A small number (from 1) that stands for the site; emu_site_of gives it back (0: an empty site). */
uint32_t emu_site_id(const emu_site *s);
emu_site emu_site_of(uint32_t id);

/* Where a checked word lives: a CTA's shared memory, or a dsm_malloc buffer. */
typedef struct emu_mem {
    struct emu_cta *owner;      /* NULL: global memory */
    const unsigned char *gstart;
    size_t gbytes;
} emu_mem;

typedef struct emu_thread {
    struct dsm_emu_thread_view view;
    fiber ctx;
    struct emu_cta *cta;
    uint32_t tid;               /* linear thread index in its CTA */
    emu_thread_state state;
    emu_site site;              /* the last device-API call */
    uint32_t arrivals;          /* barrier.cluster.arrive count */
    uint32_t waits;             /* completed barrier.cluster.wait count */
    bool arrived_pending;       /* arrived and not waited yet */
    uint32_t arrive_phase;      /* the cluster phase of the pending arrival */
    uint32_t bar_gen;           /* CTA-wide synchronisations passed (__syncthreads, cluster waits) */
    uint32_t mbar_idx;          /* the mbarrier it blocks on */
    uint32_t mbar_parity;
    uint64_t *spin_bar;         /* last try_wait that failed, to block on the second */
    uint32_t spin_parity;
    uint32_t spin_seen_phase;
    const void *last_read;      /* the shadow word of its last checked load: a store to the same word */
                                /* next makes a read-modify-write */
    uint32_t epoch;             /* its own release epoch: +1 at every release it makes */
    uint32_t syncs;             /* __syncthreads it completed */
    uint16_t proxy_fences;      /* fence.proxy.async executed (beside what every checked access reads) */
    emu_tclock known;           /* the epochs of CTA mates it acquired */
    /* its last flag poll (flags.c): where, what it saw, and the cluster's progress then */
    uintptr_t poll_key;         /* which poll: its API call's file and line, or a volatile load's pc */
    emu_site poll_site;
    uint64_t poll_epoch;
    int32_t poll_cta;
    size_t poll_off;
    const uint32_t *poll_ptr;
    uint32_t poll_value;
    bool fenced;                /* a fence.acq_rel since its last release: a relaxed store or arrive releases */
    bool init_fence_pending;    /* a fence.mbarrier_init since its last cluster arrive (mbarrier_init.c) */
    bool fenced_gpu;            /* a gpu-scope fence (__threadfence) since its last gpu-scope release */
    const void *relaxed_gptr;   /* the global word of its last relaxed load or atomic (a gpu fence after it
                                 * acquires from it across clusters), or NULL */
    int32_t relaxed_loc;        /* the flag its last relaxed load read (a fence after it acquires), or -1 */
    /* its last mbarrier wait that succeeded (reports of a wrong parity) */
    emu_site wait_site;
    uint32_t wait_parity, wait_phase;
    bool wait_immediate;        /* it passed on the first try */
    uint64_t clock;             /* its own fake %clock64: the same in every schedule */
} emu_thread;

/* What a peer's access to a CTA's shared memory was (lifetime.c). */
typedef enum emu_peer_what {
    EMU_PEER_READ, EMU_PEER_WRITE, EMU_PEER_ATOMIC, EMU_PEER_ARRIVE, EMU_PEER_COPY_IN, EMU_PEER_COPY_OUT
} emu_peer_what;

/* The latest access (highest clock) of one peer CTA to a CTA's shared memory:
 * it must happen before the owner's exit (lifetime.c). */
typedef struct emu_peer_access {
    bool valid;
    bool cta_level;             /* ordered by the peer CTA's clock alone (a copy's completion seen by a wait) */
    uint8_t what;               /* emu_peer_what */
    uint16_t tid;
    uint32_t epoch, tepoch, syncs, waits;
    size_t off;
    emu_site site;              /* the access (a bulk copy: its issue) */
    emu_site via;               /* a bulk copy out of the owner: the wait that saw it complete */
} emu_peer_access;

typedef struct emu_cta {
    uint32_t rank;
    dsm_dim3 block_idx, cluster_ctaid;
    emu_thread *threads;
    uint32_t nthreads, live;
    bool exited;
    emu_site exit_site;
    uint32_t exit_phase;
    /* shared memory: [static | dynamic] in its own mapping, guard pages around */
    unsigned char *map_base;
    size_t map_len;
    unsigned char *window;      /* the CTA's shared memory */
    size_t window_bytes;        /* static (rounded) + dynamic */
    /* __syncthreads */
    uint32_t bar_arrived, bar_gen;
    /* run queue of thread indices */
    uint32_t *queue;
    uint32_t q_head, q_len;
    /* happens-before: what this CTA has acquired of each CTA's releases */
    uint32_t vc[EMU_MAX_CLUSTER];
    /* race shadow for accesses through the device API, one entry per word */
    struct emu_shadow *shadow;
    size_t shadow_words;
    /* publication: plain writes closed only by arrive.relaxed (publication.c) */
    unsigned char *snapshot;    /* the window at the last phase completion */
    uint32_t *unpublished;      /* per word: 1 + the phase of an unpublished write, or 0 */
    uint32_t relaxed_arrivals, release_arrivals;
    bool passed_cluster_barrier; /* a cluster phase completed for its threads: every peer started */
    emu_peer_access peer_last[EMU_MAX_CLUSTER]; /* per peer rank: its latest access to this CTA's memory */
    struct emu_gknow *gk;       /* what it acquired of CTAs of earlier clusters (gpu_order.c) */
    uint32_t ngk, cap_gk;
} emu_cta;

typedef struct emu_mbarrier {
    uint32_t cta, offset;       /* where it lives */
    bool init;
    uint32_t expected, pending, phase;
    int64_t tx;
    uint32_t vc[EMU_MAX_CLUSTER];
    emu_tclock tvc;             /* releases of the owner CTA's threads (orders producer and consumer warps) */
    emu_site init_site;
    struct emu_wait_seen *seen; /* per thread of the owner: the phase its last wait matched (parity.c) */
    /* the mbarrier.init (mbarrier_init.c): its thread and clocks, and how it was released to the cluster */
    uint32_t init_tid, init_epoch, init_tepoch, init_syncs, init_gen;
    bool init_fenced;           /* the initialising thread executed fence.mbarrier_init after it */
    uint32_t init_pub_phase;    /* 1 + the cluster phase a relaxed arrive of that thread released it in, or 0 */
} emu_mbarrier;

/* A bulk copy or st.async in flight (async_proxy.c). */
typedef struct emu_async_op {
    uint32_t issuer_cta, issuer_tid;
    uint32_t dst_cta;
    size_t dst_off;
    int32_t src_cta;            /* -1: st.async, the value is in val */
    size_t src_off;
    unsigned char val[16];
    uint32_t bytes, mbar;
    uint32_t vc[16];            /* the issuer's clocks at the issue: what the completion releases */
    emu_site site;
    bool done;                  /* landed (and its bytes completed on the mbarrier) */
    bool observed;              /* a wait on its mbarrier saw the phase it landed in complete */
    uint32_t phase;             /* the mbarrier phase its bytes counted toward (set when it landed) */
    const unsigned char *gsrc;  /* a copy from global memory (bulk_global.c): its source, or NULL */
    bool multicast;             /* ... issued with .multicast::cluster (one op per CTA of the mask) */
} emu_async_op;

typedef struct emu_cluster {
    dsm_dim3 id;                /* %clusterid */
    emu_cta ctas[EMU_MAX_CLUSTER];
    uint32_t ncta;
    uint32_t phase;             /* completed cluster barrier phases */
    uint32_t pending;           /* live threads not yet arrived in the current phase */
    uint32_t live_threads;
    uint32_t phase_vc[EMU_MAX_CLUSTER]; /* released by arrivals of the current phase */
    uint32_t done_vc[EMU_MAX_CLUSTER];  /* released by the last completed phase */
    emu_mbarrier *mbars;
    uint32_t nmbars, cap_mbars;
    emu_sync_loc *locs;         /* flags used with release/acquire */
    uint32_t nlocs, cap_locs;
    emu_async_op *ops;          /* bulk copies and st.async in flight */
    uint32_t nops, cap_ops;
} emu_cluster;

typedef struct emu_launch {
    const struct dsm_emu_kernel *kernel;
    dsm_launch_config cfg;
    void **args;
    emu_schedule sched;
    uint32_t threads_per_cta;
    size_t static_bytes, static_rounded, window_bytes;
    unsigned char *section;     /* the kernel unit's static __shared__ section (live copy of the running CTA) */
    emu_cta *section_owner;
    emu_cluster cluster;
    fiber_stacks stacks;
    fiber sched_ctx;
    emu_thread *running;
    uint64_t rng;
    sigjmp_buf abort_jmp;
    volatile int aborting;
    uint64_t switches;
    uint64_t progress;          /* device-API calls and writes so far: a poll with no progress since is idle */
    volatile int timeout_pending; /* the watchdog fired while the scheduler ran */
    emu_thread *last_thread;    /* the thread that ran last */
    uint32_t cl_seq;            /* the running cluster's place in the launch (clusters run one after another) */
} emu_launch;

/* The launch being run (NULL outside dsm_launch). */
extern emu_launch *emu_cur;
/* The emulated thread that runs now (NULL in the scheduler). */
extern emu_thread *emu_self_thread;

/* ---- scheduler.c ---- */
dsm_error_t emu_run_cluster(emu_launch *L);
void emu_cluster_free(emu_launch *L);
void emu_block(emu_thread *t, emu_thread_state state);
void emu_wake(emu_thread *t);
void emu_yield(emu_thread *t);
void emu_activate_cta(emu_launch *L, emu_cta *c);
emu_thread *emu_me(const char *file, int line);
/* One report line per CTA: its threads grouped by state and line. */
void emu_report_cta_states(emu_launch *L);

/* ---- arena.c: every shared window and dsm_malloc buffer lies in [emu_arena_lo, +emu_arena_len) ---- */
extern uintptr_t emu_arena_lo;
extern size_t emu_arena_len;
/* `len` bytes (rounded to pages) of the arena, no access yet; NULL when exhausted. */
unsigned char *emu_arena_map(size_t len);
void emu_arena_unmap(unsigned char *p, size_t len);

/* ---- shared_window.c ---- */
int emu_window_alloc(emu_launch *L, emu_cta *c);
void emu_window_free(emu_cta *c);
void emu_window_retire(emu_cta *c);
/* Where offset `off` of CTA c's shared memory lives now (the section for the running CTA's static part). */
unsigned char *emu_smem_ptr(emu_launch *L, emu_cta *c, size_t off);
/* Decodes a generic pointer to (cta, offset); false when it is not shared memory of this cluster. */
bool emu_decode_generic(emu_launch *L, const void *p, emu_cta **cta, size_t *off);
/* Decodes a .shared::cta or .shared::cluster address as seen by thread t. */
bool emu_decode_shared_addr(emu_launch *L, emu_thread *t, uint32_t addr, uint32_t *rank, size_t *off);
uint32_t emu_encode_cluster_addr(uint32_t rank, size_t off);
emu_cta *emu_cta_of_fault(emu_launch *L, const void *addr, bool *in_guard);

/* ---- race.c ---- */
void emu_release(emu_cta *c, uint32_t *vc_obj);
void emu_acquire(emu_cta *c, const uint32_t *vc_obj);
/* Checks and records an access through the device API to word range [off, off+bytes) of CTA `owner`. */
bool emu_race_access(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned bytes,
                     int kind, const emu_site *site);
/* A CTA exits: every peer's access to its memory (the latest per peer) must happen before the exit. */
void emu_race_check_exit(emu_launch *L, emu_cta *c);
/* Settles the write-write conflicts of the last store (same value: harmless); false after a report. */
bool emu_race_settle(emu_launch *L);
extern int emu_ww_pending; /* conflicts waiting for emu_race_settle */
/* The first word of [off, off+bytes) of c last written by a generic store of one of c's threads
 * that did no fence.proxy.async since: false when there is none. */
bool emu_race_unfenced_write(emu_launch *L, emu_cta *c, size_t off, uint32_t bytes, uint32_t *tid,
                             emu_site *site, size_t *word_off);
/* Release by thread t to a sync object (CTA clocks vc, thread clocks tc of t's CTA); acquire from one. */
void emu_release_to(emu_thread *t, uint32_t *vc, emu_tclock *tc);
void emu_acquire_from(emu_thread *t, const uint32_t *vc, const emu_tclock *tc);
void emu_tclock_free(emu_tclock *tc);
/* A remote access needs proof that the peer started: a cluster barrier (or anything acquired from it) first. */
void emu_check_cta_started(emu_launch *L, emu_thread *t, emu_cta *owner, const emu_site *site);
void emu_shadow_free(emu_cta *c);
/* The launch ends: the shadows kept for reuse are freed. */
void emu_shadow_pool_free(void);

/* ---- lifetime.c ---- */
/* Thread t (of another CTA than `owner`) accessed owner's shared memory at `off`: remembered as the
 * latest access of t's CTA, which must happen before owner's exit. */
void emu_lifetime_note(emu_thread *t, emu_cta *owner, size_t off, emu_peer_what what, const emu_site *site);
/* Thread t's wait saw a bulk copy out of `owner`'s memory complete (issued at `copy`). */
void emu_lifetime_note_copy_out(emu_thread *t, emu_cta *owner, size_t off, const emu_site *copy);

/* ---- global_race.c: the race shadow of dsm_malloc buffers ---- */
/* Checks and records a kernel's access of kind `kind` to global bytes [a, a+n), which lie in one buffer;
 * false after a report. */
bool emu_race_global(emu_launch *L, emu_thread *t, const void *a, unsigned n, int kind, const emu_site *site);
/* Forgets every access (a new schedule starts); with `release`, frees the shadow (the launch ends). */
void emu_global_race_reset(bool release);
/* race.c: checks one word's access against its shadow entry and records it; false after a report. */
bool emu_race_word(emu_launch *L, emu_thread *t, const emu_mem *mem, emu_shadow *s, size_t w, size_t off,
                   unsigned bytes, int kind, const emu_site *site);

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
/* Whether the last device-API write to word `w` of c came from another CTA. */
bool emu_race_written_by_peer(const emu_cta *c, size_t w);

/* ---- plain_access.c: the ThreadSanitizer entry points kernel code calls for every plain load and store ---- */
extern uintptr_t emu_section_lo;
extern size_t emu_section_len;
/* The last checked plain access (a timeout that lands inside the emulator names it). */
extern void *emu_last_plain_pc;
/* An atomic RMW of n bytes at a by kernel code (atomicAdd & co.); ret: the kernel's return address. */
void emu_atomic_access(void *a, unsigned n, void *ret);

/* ---- async_proxy.c ---- */
struct emu_mbarrier;
/* A bulk copy (source sc/soff) or st.async (val) issued by t; it completes later, on m. */
void emu_async_issue(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, emu_cta *sc, size_t soff,
                     const void *val, uint32_t bytes, struct emu_mbarrier *m);
void emu_async_complete_for_mbarrier(emu_launch *L, uint32_t mbar);
/* Completes every operation in flight; whether there was one. */
bool emu_async_complete_all(emu_launch *L);
/* Before CTA `cta` exits: a copy into it or out of it that no wait saw complete is a lifetime hazard. */
void emu_async_complete_for_cta(emu_launch *L, uint32_t cta);
/* Thread t's wait on mbarrier `mbar` succeeded: the copies that landed in a completed phase are seen. */
void emu_async_observe(emu_launch *L, emu_thread *t, uint32_t mbar);
/* A copy from global memory `gsrc` into CTA dc (bulk_global.c checked its operands); multicast: one
 * receiver's share of a .multicast::cluster copy (a destination still in flight is reported in its terms). */
void emu_async_issue_from_global(emu_launch *L, emu_thread *t, emu_cta *dc, size_t doff, const unsigned char *gsrc,
                                 uint32_t bytes, struct emu_mbarrier *m, int multicast);
/* Generic writes of a bulk copy's shared-memory source need fence.proxy.async first: reported otherwise. */
void emu_async_check_source_fenced(emu_launch *L, emu_thread *t, emu_cta *sc, size_t soff, uint32_t bytes);
/* A write to the source of a copy in flight is reported. */
void emu_async_check_plain(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n, int write,
                           const emu_site *site);

/* ---- bulk_global.c: bulk copies global -> shared (unicast, multicast) and shared -> global ---- */
/* A write to shared memory of CTA `owner`: reported when it rewrites the source of a bulk store to
 * global memory that its thread has not waited for with cp.async.bulk.wait_group.read. */
void emu_bulk_store_check_smem_write(emu_launch *L, emu_thread *t, emu_cta *owner, size_t off, unsigned n,
                                     const emu_site *site);
/* CTA `cta` exits: a bulk store still reading its shared memory is a lifetime hazard. */
void emu_bulk_store_cta_exit(emu_launch *L, uint32_t cta);
/* A plain access of global memory: reported when it rewrites the source of a copy in flight, or touches
 * bytes a bulk store is still writing. */
void emu_bulk_check_global_plain(emu_launch *L, emu_thread *t, const void *a, unsigned n, int write,
                                 const emu_site *site);
/* Extra lines for a stuck-mbarrier report when the barrier receives multicast copies. */
void emu_bulk_stuck_hint(emu_launch *L, const struct emu_mbarrier *m);
/* The cluster ends: forget its bulk stores. */
void emu_bulk_cluster_free(emu_launch *L);

/* ---- flags.c ---- */
bool emu_flag_unchanged(emu_launch *L, const emu_thread *t);
/* A volatile 32-bit load (a poll, like ld.relaxed) or store (a release after fence.acq_rel) at a. */
void emu_flag_volatile(emu_thread *t, const void *a, int write, emu_site site);
/* An atomic RMW at a: relaxed, so a release after a fence and an acquire before one. */
void emu_flag_atomic(emu_thread *t, const void *a);

/* ---- remote_access.c ---- */
void emu_report_dead_peer(emu_thread *t, emu_cta *owner, size_t off, const char *what);
void emu_report_poison(emu_thread *t, emu_cta *owner, size_t off);

/* ---- barriers.c ---- */
void emu_thread_exited(emu_launch *L, emu_thread *t);

/* ---- mbarrier.c ---- */
/* `bytes` of transactions land on m; the completion releases the issuer's clocks vc. */
void emu_mbarrier_complete_tx(emu_launch *L, emu_mbarrier *m, uint32_t bytes, const uint32_t *vc);
void emu_mbarriers_check_end(emu_launch *L);
/* Before a deadlock report: a waited-on mbarrier whose byte count cannot reach zero. */
bool emu_mbarriers_check_stuck(emu_launch *L);

/* ---- mbarrier_init.c ---- */
/* Thread t initialised m: who and when, for the checks below. */
void emu_mbarrier_init_record(emu_thread *t, emu_mbarrier *m);
/* Thread t arrives on the cluster barrier in `phase`: inits it fenced with fence.mbarrier_init are released. */
void emu_mbarrier_init_arrive(emu_thread *t, uint32_t phase);
/* Reports (and ends the launch) when m's init does not happen before thread t's use `what` of it. */
void emu_mbarrier_check_init_visible(emu_launch *L, emu_thread *t, emu_mbarrier *m, const char *what);

/* ---- parity.c ---- */
/* Thread t's wait for `parity` on m just succeeded: a wait satisfied by a phase this thread had already
 * waited for is reported (a stale parity) and ends the launch. */
void emu_parity_check(emu_launch *L, emu_thread *t, emu_mbarrier *m, uint32_t parity);
void emu_parity_free(emu_mbarrier *m);
/* Before a deadlock report: a blocked wait that skipped a phase its thread should have taken is reported
 * as a stale parity; whether a report was made. */
bool emu_parity_report_stuck(emu_launch *L);

/* ---- report.c ---- */
/* Starts a report (the first of a launch wins; later ones are dropped). Returns
 * false when a report already exists. */
bool emu_report_begin(dsm_report_kind kind, dsm_error_t err, const char *title_fmt, ...)
    __attribute__((format(printf, 3, 4)));
void emu_report_line(const char *label, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emu_report_who(emu_launch *L, emu_thread *t);
void emu_report_site(const char *label, emu_site site);
void emu_report_pc(const char *label, void *pc);
/* Whether a code address lies in the emulator's own sources (runtime/emu/). */
bool emu_pc_in_emulator(void *pc);
/* "file.cu:12" for a site (a plain access's through addr2line). */
const char *emu_site_short(emu_site site, char *buf, size_t n);
/* One event of a report's timeline: what a thread of CTA `cta` did in cluster-barrier interval `interval`. */
typedef struct emu_tl_event {
    int32_t cta;
    uint32_t interval, tid;
    const char *what;
    emu_site site;
} emu_tl_event;
/* Ends a lifetime or race report with a small picture per CTA: its phases, its exit, the events. */
void emu_report_timeline(emu_launch *L, const emu_tl_event *ev, int nev);
void emu_report_end(void);
bool emu_report_pending(void);
dsm_error_t emu_report_error(void);
void emu_report_reset(void);
const char *emu_schedule_name(const emu_schedule *s, char *buf, size_t n);
/* Ends the launch now: the report is made; unwinds to dsm_launch. */
_Noreturn void emu_abort_launch(void);

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

/* ---- fault.c ---- */
enum { EMU_JMP_REPORTED = 1, EMU_JMP_FAULT = 2, EMU_JMP_TIMEOUT = 3 };
void emu_fault_install(void);
void emu_fault_restore(void);
/* Makes the report for a fault or timeout caught by the signal handlers. */
void emu_fault_report(emu_launch *L, int why);
/* The watchdog fired while the scheduler ran: the timeout report for the thread that ran last. */
void emu_timeout_report(emu_launch *L);
void emu_watchdog_start(unsigned seconds);
void emu_watchdog_stop(void);

/* ---- host_emu.c ---- */
void emu_globals_snapshot(unsigned char **out, size_t *total);
void emu_globals_restore(const unsigned char *snap);
bool emu_globals_compare(const unsigned char *a, const unsigned char *b, char *msg, size_t n);
bool emu_globals_find_poison(const unsigned char *before, char *msg, size_t n);
size_t emu_globals_bytes(void);
int emu_kernel_max_dynamic_smem(const struct dsm_emu_kernel *k);

/* 0 after dsm_emu_set_verbose(0): reports are recorded but not printed. */
int emu_report_verbose(void);
int emu_kernel_non_portable(const struct dsm_emu_kernel *k);
dsm_error_t emu_take_pending_error(void);
/* Whether [p, p+n) lies in one dsm_malloc allocation. */
bool emu_is_device(const void *p, size_t n);
/* The dsm_malloc allocation holding all of [p, p+n): its start and exact size; false when none does. */
bool emu_global_find(const void *p, size_t n, const unsigned char **start, size_t *bytes);
/* How many dsm_malloc buffers exist, and buffer i's start and size (for the counters). */
size_t emu_global_count(void);
void emu_global_buffer(size_t i, const unsigned char **start, size_t *bytes);
/* The dsm_malloc buffer nearest below p: its index, start and size; false when there is none. */
bool emu_global_nearest(const void *p, size_t *index, const unsigned char **start, size_t *bytes);

#endif
