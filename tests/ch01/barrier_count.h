/* barrier_count.h: include in ONE test file whose kernel is built with barrier_probe.h: counts the kernel's cluster-barrier arrivals on the emulator, so that a test can check the barriers a task prescribes. */
#ifndef CH01_BARRIER_COUNT_H
#define CH01_BARRIER_COUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "dsm_emu_control.h"

#ifndef DSM_BACKEND_CUDA
/* The emulator's own arrive (runtime/emu/device_emu.h). */
void dsm_emu_barrier_cluster_arrive(int relaxed, const char *file, int line);

static uint64_t probe_arrivals;

/* Called by the kernel in place of the emulator's arrive (barrier_probe.h). */
void probe_cluster_arrive(int relaxed, const char *file, int line);
void probe_cluster_arrive(int relaxed, const char *file, int line)
{
    ++probe_arrivals; /* every emulated thread runs on this one OS thread */
    dsm_emu_barrier_cluster_arrive(relaxed, file, line);
}
#endif

/* Runs launch(ctx) once, under the single schedule "asc", and returns the
 * number of cluster-barrier arrivals it made (all threads of all CTAs), or
 * UINT64_MAX on a GPU, where nothing is counted. Restores the default schedules. */
static inline uint64_t count_cluster_arrivals(void (*launch)(void *ctx), void *ctx)
{
#ifndef DSM_BACKEND_CUDA
    dsm_emu_set_schedules("asc");
    probe_arrivals = 0;
    launch(ctx);
    uint64_t n = probe_arrivals;
    const char *env = getenv("DSM_EMU_SCHEDULES");
    if (env == NULL || dsm_emu_set_schedules(env) != dsmSuccess)
        dsm_emu_set_schedules(NULL); /* the default */
    return n;
#else
    (void)launch;
    (void)ctx;
    return UINT64_MAX;
#endif
}

#endif
