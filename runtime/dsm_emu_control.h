/* dsm_emu_control.h: host-side controls and reports of the CPU emulator (stubs on the GPU backend), for tests and the grader. */
#ifndef DSM_EMU_CONTROL_H
#define DSM_EMU_CONTROL_H

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

#ifdef __cplusplus
}
#endif

#endif
