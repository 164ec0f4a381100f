/* emu_state.h: the emulator's state layer: the launch, cluster, CTA and thread structs, the current launch and
 * thread, the device-memory registry, kernel attributes and the shared windows. Calls only base/. */
#ifndef DSM_EMU_STATE_H
#define DSM_EMU_STATE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "../../dsm_emu_control.h"
#include "../device_emu.h"
#include "../base/emu_base.h"

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


/* Race shadow (race.c): the last access of one kind to one 4-byte word. */
enum {
    ACC_VALID = 1,
    ACC_ATOMIC = 2,
    ACC_RMW = 4,   /* a store to the word its thread had just loaded */
    ACC_ASYNC = 8, /* the write of a bulk copy or st.async */
};
typedef struct emu_access {   /* 32 bytes: a shadow word is 64 */
    uint32_t epoch;   /* the accessing CTA's own clock at the access */
    uint32_t arrivals; /* the accessing thread's cluster arrives so far (its next arrive's index) */
    uint32_t tepoch;  /* the accessing thread's own release epoch */
    uint32_t syncs;   /* the accessing thread's completed __syncthreads */
    uint32_t cl;      /* the accessing CTA's cluster: its place in the launch's order (emu_launch.cl_seq) */
    uint32_t site;    /* emu_site_id of where it happened */
    uint16_t tid;
    uint16_t waits;   /* the accessing thread's completed cluster waits (modulo 2^16) */
    uint8_t cta, flags;
    uint8_t mask;     /* which bytes of the word */
    uint8_t pfence;   /* the accessing thread's fence.proxy.async counts, modulo 16: .shared::cta (low 4 bits), .global */
} emu_access;
typedef struct emu_shadow {
    emu_access w, r;
} emu_shadow;


/* Where a checked word lives: a CTA's shared memory, or a dsm_malloc buffer. */
typedef struct emu_mem {
    struct emu_cta *owner;      /* NULL: global memory */
    const unsigned char *gstart;
    size_t gbytes;
} emu_mem;

typedef struct emu_thread {
    /* who it is and where it runs (state/, engine/) */
    struct dsm_emu_thread_view view;
    fiber ctx;
    struct emu_cta *cta;
    uint32_t tid;               /* linear thread index in its CTA */
    emu_thread_state state;
    emu_site site;              /* the last device-API call */
    /* __syncthreads and the cluster barrier (mechanisms/barriers.c) */
    uint32_t arrivals;          /* barrier.cluster.arrive count */
    uint32_t waits;             /* completed barrier.cluster.wait count */
    bool arrived_pending;       /* arrived and not waited yet */
    uint32_t arrive_phase;      /* the cluster phase of the pending arrival */
    uint64_t release_arrives;   /* bit k: whether its arrive number arrivals-1-k released (not .relaxed alone) */
    uint32_t bar_gen;           /* __syncthreads generations passed (the validity of the thread clocks below) */
    uint32_t syncs;             /* __syncthreads it completed */
    /* mbarrier waits (mechanisms/mbarrier.c); its last one that succeeded (checks/parity.c reports) */
    uint32_t mbar_idx;          /* the mbarrier it blocks on */
    uint32_t mbar_parity;
    uint64_t *spin_bar;         /* last try_wait that failed, to block on the second */
    uint32_t spin_parity;
    uint32_t spin_seen_phase;
    emu_site wait_site;
    uint32_t wait_parity, wait_phase;
    bool wait_immediate;        /* it passed on the first try */
    /* happens-before and race shadows (checks/race.c) */
    const void *last_read;      /* the shadow word of its last checked load: a store to the same word */
                                /* next makes a read-modify-write */
    uint32_t epoch;             /* its own release epoch: +1 at every release it makes */
    uint16_t proxy_fences;      /* fence.proxy.async.shared::cta executed (beside what every checked access reads) */
    uint16_t proxy_fences_global; /* fence.proxy.async.global executed */
    emu_tclock known;           /* the epochs of CTA mates it acquired */
    /* fences (mechanisms/flags.c, checks/mbarrier_init.c, checks/gpu_order.c) */
    bool fenced;                /* a fence.acq_rel since its last release: a relaxed store or arrive releases */
    bool init_fence_pending;    /* a fence.mbarrier_init since its last cluster arrive (mbarrier_init.c) */
    bool fenced_gpu;            /* a gpu-scope fence (__threadfence) since its last gpu-scope release */
    const void *relaxed_gptr;   /* the global word of its last relaxed load or atomic (a gpu fence after it
                                 * acquires from it across clusters), or NULL */
    int32_t relaxed_loc;        /* the flag its last relaxed load read (a fence after it acquires), or -1 */
    /* its last flag poll (mechanisms/flags.c): where, what it saw, and the cluster's progress then */
    uintptr_t poll_key;         /* which poll: its API call's file and line, or a volatile load's pc */
    emu_site poll_site;
    uint64_t poll_epoch;
    int32_t poll_cta;
    size_t poll_off;
    const uint32_t *poll_ptr;
    uint32_t poll_value;
    /* %clock64 (api/registers.c) */
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
    uint32_t init_tid, init_epoch, init_tepoch, init_syncs, init_gen, init_arrivals;
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
    int32_t obs_cta;            /* ... the CTA of the first such wait, and that CTA's clock then: the sender may */
    uint32_t obs_epoch;         /* reuse the source once it acquired that clock (or later) */
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
    uint64_t land_rng;          /* a random schedule's choices of which copy in flight lands when */
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


/* ---- current.c: the running launch and thread ---- */
/* The running thread (a device-API call at file:line): its site is noted and the launch's progress counts it.
 * Outside a kernel: a message and abort(). */
emu_thread *emu_me(const char *file, int line);
/* The kernel unit's static __shared__ section while a launch runs (plain accesses there are device accesses). */
extern uintptr_t emu_section_lo;
extern size_t emu_section_len;
/* The last checked plain access (a timeout that lands inside the emulator names it). */
extern void *emu_last_plain_pc;

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


/* ---- device_memory.c: the dsm_malloc registry (every check of global memory consults it) ---- */
/* Records buffer p of `bytes` bytes, backed by arena block [map, map+map_len); false when out of memory. */
bool emu_device_register(unsigned char *p, size_t bytes, unsigned char *map, size_t map_len);
/* Forgets buffer p (its arena block is unmapped); false when p is not a buffer's start. */
bool emu_device_unregister(void *p);
/* Whether [p, p+n) lies in one dsm_malloc allocation. */
bool emu_is_device(const void *p, size_t n);
/* The dsm_malloc allocation holding all of [p, p+n): its start and exact size; false when none does. */
bool emu_global_find(const void *p, size_t n, const unsigned char **start, size_t *bytes);
/* How many dsm_malloc buffers exist, and buffer i's start and size (for the counters). */
size_t emu_global_count(void);
void emu_global_buffer(size_t i, const unsigned char **start, size_t *bytes);
/* The dsm_malloc buffer nearest below p: its index, start and size; false when there is none. */
bool emu_global_nearest(const void *p, size_t *index, const unsigned char **start, size_t *bytes);
/* The contents of every buffer: a snapshot (malloc'd), put back, compared (false: equal; else msg says
 * where), searched for the shared-memory poison that was not there `before`. */
void emu_globals_snapshot(unsigned char **out, size_t *total);
void emu_globals_restore(const unsigned char *snap);
bool emu_globals_compare(const unsigned char *a, const unsigned char *b, char *msg, size_t n);
bool emu_globals_find_poison(const unsigned char *before, char *msg, size_t n);
size_t emu_globals_bytes(void);

/* ---- kernel_attrs.c: what dsm_func_set_* recorded per kernel ---- */
/* The dynamic shared memory limit (48 KB unless raised) and the non-portable cluster size permission of k. */
int emu_kernel_max_dynamic_smem(const struct dsm_emu_kernel *k);
int emu_kernel_non_portable(const struct dsm_emu_kernel *k);
/* Sets them; false when the table is full. */
bool emu_kernel_set_max_dynamic_smem(const struct dsm_emu_kernel *k, int bytes);
bool emu_kernel_set_non_portable(const struct dsm_emu_kernel *k, int allowed);

#endif
