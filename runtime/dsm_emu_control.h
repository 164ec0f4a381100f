/* dsm_emu_control.h: host-side controls and reports of the CPU emulator (stubs on the GPU backend), for tests and the grader. */
#ifndef DSM_EMU_CONTROL_H
#define DSM_EMU_CONTROL_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "dsm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the emulator found. One report per launch at most: the first problem. */
typedef enum dsm_report_kind {
    DSM_REPORT_NONE = 0,
    DSM_REPORT_LIFETIME,            /* access to a peer's shared memory after the peer exited */
    DSM_REPORT_LIFETIME_HAZARD,     /* peer exited while an access to its memory was unordered with its exit */
    DSM_REPORT_UNPUBLISHED_READ,    /* remote read of data the owner changed in the same barrier phase */
    DSM_REPORT_RACE_WRITE_WRITE,    /* two unordered writes to one word, at least one plain */
    DSM_REPORT_RACE_READ_WRITE,     /* an unordered plain read and write of one word */
    DSM_REPORT_SCHEDULE_DEPENDENT,  /* results differ between schedules */
    DSM_REPORT_UNINITIALIZED_READ,  /* read of shared memory nobody wrote (poison) */
    DSM_REPORT_RANK_OUT_OF_RANGE,   /* mapa / map_shared_rank with rank >= cluster size */
    DSM_REPORT_OUT_OF_BOUNDS,       /* address outside the target CTA's shared memory */
    DSM_REPORT_DOUBLE_ARRIVE,       /* barrier.cluster.arrive twice in one phase */
    DSM_REPORT_WAIT_WITHOUT_ARRIVE, /* barrier.cluster.wait with no arrive before it */
    DSM_REPORT_SYNCTHREADS_DIVERGENCE, /* threads of a CTA at different __syncthreads, or exited */
    DSM_REPORT_DEADLOCK,            /* every live thread blocked */
    DSM_REPORT_BULK_ALIGNMENT,      /* bulk copy address not 16-byte aligned */
    DSM_REPORT_BULK_SIZE,           /* bulk copy size not a positive multiple of 16 */
    DSM_REPORT_BULK_SELF,           /* bulk copy into the issuing CTA's own memory */
    DSM_REPORT_MBARRIER_UNINITIALIZED, /* mbarrier used before mbarrier.init */
    DSM_REPORT_MBARRIER_TX_MISMATCH,   /* more bytes completed than expected, or a phase left pending */
    DSM_REPORT_INVALID_LAUNCH,      /* launch configuration rejected */
    DSM_REPORT_ILLEGAL_ADDRESS,     /* a crash: bad pointer, stack overflow */
    DSM_REPORT_TIMEOUT,             /* a thread ran too long without reaching a barrier */
    DSM_REPORT_MBARRIER_STALE_PARITY, /* an mbarrier wait satisfied by a phase its thread had already waited for */
    DSM_REPORT_KIND_COUNT
} dsm_report_kind;

/* The last launch's report: its kind, the error the launch returned, and the
 * full text that was printed (empty when kind is DSM_REPORT_NONE). */
typedef struct dsm_report {
    dsm_report_kind kind;
    dsm_error_t error;
    const char *text;
} dsm_report;

/* The report of the most recent launch (kind NONE on the GPU backend). */
const dsm_report *dsm_emu_last_report(void);

/* A short stable name for a kind, e.g. "lifetime" (used by tests and the grader). */
const char *dsm_report_kind_name(dsm_report_kind kind);

/* Before every report it prints (the text that starts "dsm-emu: "), the emulator prints on the same stream a
 * line of its own: this prefix, then dsm_report_kind_name(kind), e.g. "dsm-emu-report: kind=deadlock". The
 * grader reads the kind from that line, never from the report's words; tools/capture_diagnostics.sh drops it. */
#define DSM_REPORT_KIND_LINE_PREFIX "dsm-emu-report: kind="

/* Which schedules each launch runs under, comma separated: "asc", "desc",
 * "random:SEED", "interleave" (switch threads at every remote access).
 * Default: "asc,desc,random:1,interleave", or the DSM_EMU_SCHEDULES variable.
 * Returns dsmErrorInvalidValue for an unknown word. No effect on the GPU. */
dsm_error_t dsm_emu_set_schedules(const char *spec);

/* How many cluster-barrier phases the busiest cluster of the most recent
 * launch completed (the largest count over its clusters and schedules): lets a
 * test check that a kernel has no cluster barrier inside a loop. 0 on the GPU. */
uint32_t dsm_emu_last_cluster_barrier_phases(void);

/* Whether reports are also printed to stderr (default 1). */
void dsm_emu_set_verbose(int verbose);

/* How many mbarrier phases (all its mbarriers together) the busiest cluster of
 * the most recent launch completed (the largest count over its clusters and
 * schedules): lets a test check that a kernel signals with mbarriers, e.g. one
 * phase per message. 0 on the GPU. */
uint32_t dsm_emu_last_mbarrier_phases(void);

/* ---- Mechanism counters: what each CTA of the most recent launch did ----
 *
 * For tests that check the lesson, not only the output: that DSMEM bytes
 * really moved, that a CTA read only its own tile of a global buffer, that a
 * flag was stored with release semantics at cluster scope, that every round
 * passed its barrier. The emulator counts every access of kernel code (plain
 * loads and stores through any pointer, the device API, bulk copies,
 * st.async, atomics, flags) in the FIRST schedule of each launch (the
 * schedules differ only in interleaving; a polling loop's load count is the
 * one thing that depends on it). The counts of a launch that was reported
 * stop at the report. On the GPU backend every function below answers false
 * and fills in zeros.
 *
 * Blocks are numbered linearly over the grid:
 * blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z). */

/* Flag accesses are counted by operation, semantics, scope and address space. */
typedef enum dsm_flag_op { DSM_FLAG_LOAD, DSM_FLAG_STORE, DSM_FLAG_OP_COUNT } dsm_flag_op;
/* RELAXED: ld/st.relaxed and volatile accesses; STRONG: ld.acquire or st.release. */
typedef enum dsm_flag_sem { DSM_FLAG_RELAXED, DSM_FLAG_STRONG, DSM_FLAG_SEM_COUNT } dsm_flag_sem;
/* CLUSTER and GPU: the .cluster and .gpu flag functions; SYS: volatile accesses (.relaxed.sys in PTX). */
typedef enum dsm_flag_scope { DSM_FLAG_CLUSTER, DSM_FLAG_GPU, DSM_FLAG_SYS, DSM_FLAG_SCOPE_COUNT } dsm_flag_scope;
/* Where the flag word lives, seen from the accessing CTA. */
typedef enum dsm_flag_space { DSM_FLAG_OWN_SMEM, DSM_FLAG_PEER_SMEM, DSM_FLAG_GLOBAL, DSM_FLAG_SPACE_COUNT } dsm_flag_space;

/* One CTA's counts. Bytes are bytes accessed; "own" is the CTA's own shared
 * memory, "dsmem" a peer's (through a mapped pointer or .shared::cluster). */
typedef struct dsm_emu_counts {
    uint64_t smem_ld_bytes, smem_st_bytes;      /* its own shared memory, plain or device API */
    uint64_t smem_atom_ops;                     /* atomics on its own shared memory */
    uint64_t dsmem_ld_bytes, dsmem_st_bytes;    /* peers' shared memory, plain or device API */
    uint64_t dsmem_atom_ops;                    /* atomics and red on peers' shared memory */
    uint64_t async_out_bytes;                   /* cp.async.bulk and st.async it issued into peers' shared memory */
    uint64_t async_in_bytes;                    /* ... that landed in its shared memory, issued by peers */
    uint64_t bulk_g2s_issued_bytes;             /* bulk copies global -> shared it issued (bytes read from global) */
    uint64_t bulk_g2s_landed_bytes;             /* bytes of such copies that landed in its shared memory
                                                 * (a multicast lands in every CTA of its mask) */
    uint64_t bulk_s2g_bytes;                    /* bulk copies shared -> global it issued */
    uint64_t gmem_ld_bytes, gmem_st_bytes;      /* global memory (dsm_malloc buffers), plain accesses */
    uint64_t gmem_atom_ops;                     /* atomics on global memory */
    /* how many accesses made those bytes (bytes / ops: the access width, e.g. 16 for uint4 loads) */
    uint64_t smem_ld_ops, smem_st_ops, dsmem_ld_ops, dsmem_st_ops, gmem_ld_ops, gmem_st_ops;
    uint32_t cluster_arrives_release;           /* barrier.cluster.arrive (.release), summed over its threads */
    uint32_t cluster_arrives_relaxed;           /* barrier.cluster.arrive.relaxed, summed over its threads */
    uint32_t cluster_waits_min, cluster_waits_max; /* cluster-barrier waits completed, fewest and most of one thread */
    uint32_t syncthreads;                       /* __syncthreads the CTA completed */
    uint32_t mbarrier_phases;                   /* phases completed by the mbarriers in its shared memory */
    uint32_t mbarrier_remote_arrives;           /* remote mbarrier arrives it issued */
    uint32_t fences;                            /* fence.acq_rel (cluster or gpu) and __threadfence, summed */
    uint32_t flags[DSM_FLAG_OP_COUNT][DSM_FLAG_SEM_COUNT][DSM_FLAG_SCOPE_COUNT][DSM_FLAG_SPACE_COUNT];
    /* who moved the bytes: threads that made at least one global or DSMEM access (load, store, atomic, bulk
     * copy, st.async), and the warps with at least one such thread */
    uint32_t threads_active;
    uint32_t warps_active;
    /* loads in flight: over the CTA's threads that loaded at least 16 bytes at once, the longest run of
     * consecutive loads of >= 16 bytes (global or DSMEM) a thread issued with no store, barrier or wait
     * between them; the least and the most of that over those threads (0 when none). A thread that loads
     * a 16-byte unit and stores it before the next load has runs of 1: one load in flight. */
    uint32_t ld_burst_min, ld_burst_max;
} dsm_emu_counts;

/* The counts of block `block` of the most recent launch. False (and zeros)
 * when the block does not exist or no launch ran on the emulator. */
bool dsm_emu_last_counts(uint32_t block, dsm_emu_counts *out);

/* The same summed over every block of the most recent launch (min fields: the
 * least over blocks, max fields: the most; ld_burst_min: the least over the blocks that had such loads). */
bool dsm_emu_last_counts_total(dsm_emu_counts *out);

/* How block `block` used one global buffer (`buffer` is the pointer dsm_malloc
 * returned) in the most recent launch: bytes read and written by plain
 * accesses and bulk copies, atomics, and the byte ranges touched ([lo, hi),
 * lo == hi when none). Lets a test say "block b read only its own tile of in". */
typedef struct dsm_emu_gmem_use {
    uint64_t ld_bytes, st_bytes, atom_ops;
    size_t ld_lo, ld_hi, st_lo, st_hi;
} dsm_emu_gmem_use;
bool dsm_emu_last_gmem_use(uint32_t block, const void *buffer, dsm_emu_gmem_use *out);

#ifdef __cplusplus
}
#endif

#endif
