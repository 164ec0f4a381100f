/* mechanism.h: checks that an exercise used the mechanism it teaches, from the emulator's counters of the last launch (dsm_emu_control.h): DSMEM bytes moved, global bytes read, barriers passed; each failure names the block, what was counted and the seed. */
#ifndef TEST_SUPPORT_MECHANISM_H
#define TEST_SUPPORT_MECHANISM_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "dsm_emu_control.h"
#include "support/test_support.h"

/* Fails the running test with a message (printf arguments) and the seed. */
#define MECH_FAIL(...)                                                                            \
    do {                                                                                          \
        print_error(__VA_ARGS__);                                                                 \
        print_error(" (repeat with DSM_SEED=%" PRIu32 ")\n", test_seed());                        \
        fail();                                                                                   \
    } while (0)

/* The counts of block `block` of the last launch; fails the test when the
 * emulator has none (call only when test_on_emulator()). */
static inline dsm_emu_counts mech_counts(uint32_t block)
{
    dsm_emu_counts c;
    if (!dsm_emu_last_counts(block, &c))
        MECH_FAIL("the emulator has no counts for block %" PRIu32 " of the last launch", block);
    return c;
}

/* The counts of the last launch summed over its blocks. */
static inline dsm_emu_counts mech_total(void)
{
    dsm_emu_counts c;
    if (!dsm_emu_last_counts_total(&c))
        MECH_FAIL("the emulator has no counts for the last launch");
    return c;
}

/* How block `block` of the last launch used the global buffer `buffer` (a dsm_malloc pointer). */
static inline dsm_emu_gmem_use mech_gmem(uint32_t block, const void *buffer)
{
    dsm_emu_gmem_use u;
    if (!dsm_emu_last_gmem_use(block, buffer, &u))
        MECH_FAIL("the emulator has no global-memory counts for block %" PRIu32, block);
    return u;
}

/* Fails unless block `block` read nothing of `buffer` outside the bytes [lo, hi):
 * "each CTA reads only its own tile of in". `what` names the buffer. */
static inline void mech_reads_only(uint32_t block, const void *buffer, const char *what, size_t lo, size_t hi)
{
    dsm_emu_gmem_use u = mech_gmem(block, buffer);
    if (u.ld_bytes > 0 && (u.ld_lo < lo || u.ld_hi > hi))
        MECH_FAIL("block %" PRIu32 " read bytes [%zu, %zu) of %s, but may read only [%zu, %zu): "
                  "the data it needs from other CTAs must come from their shared memory",
                  block, u.ld_lo, u.ld_hi, what, lo, hi);
}

/* Fails unless block `block` wrote nothing of `buffer` outside the bytes [lo, hi). */
static inline void mech_writes_only(uint32_t block, const void *buffer, const char *what, size_t lo, size_t hi)
{
    dsm_emu_gmem_use u = mech_gmem(block, buffer);
    if (u.st_bytes > 0 && (u.st_lo < lo || u.st_hi > hi))
        MECH_FAIL("block %" PRIu32 " wrote bytes [%zu, %zu) of %s, but may write only [%zu, %zu)", block,
                  u.st_lo, u.st_hi, what, lo, hi);
}

/* Fails unless every thread of block `block` completed exactly `waits` cluster-barrier waits. */
static inline void mech_cluster_waits(uint32_t block, uint32_t waits, const char *why)
{
    dsm_emu_counts c = mech_counts(block);
    if (c.cluster_waits_min != waits || c.cluster_waits_max != waits)
        MECH_FAIL("the threads of block %" PRIu32 " passed between %" PRIu32 " and %" PRIu32
                  " cluster barriers; every thread must pass exactly %" PRIu32 " (%s)",
                  block, c.cluster_waits_min, c.cluster_waits_max, waits, why);
}

#endif
