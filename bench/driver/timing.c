/* timing.c: bench_time_launches: CUDA events around each launch on the GPU, the wall clock on the emulator. */
#include <stdlib.h>

#include "bench_internal.h"

#ifdef DSM_BACKEND_CUDA
#include <cuda_runtime_api.h>

typedef struct gpu_events {
    cudaEvent_t start, stop;
} gpu_events;

/* The run's pair of events, created on first use (in the process that owns the device). */
static gpu_events *events_of(bench *b)
{
    if (b->gpu_timing == NULL) {
        gpu_events *e = calloc(1, sizeof *e);
        if (e == NULL || cudaEventCreate(&e->start) != cudaSuccess || cudaEventCreate(&e->stop) != cudaSuccess) {
            free(e);
            return NULL;
        }
        b->gpu_timing = e;
    }
    return b->gpu_timing;
}

/* One launch between two events on the default stream (the stream dsm_launch uses). */
static dsm_error_t timed_launch(bench *b, const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args, double *ms)
{
    gpu_events *e = events_of(b);
    if (e == NULL)
        return dsmErrorUnknown;
    cudaEventRecord(e->start, 0);
    dsm_error_t err = dsm_launch(cfg, kernel, args);
    if (err != dsmSuccess)
        return err;
    cudaEventRecord(e->stop, 0);
    err = dsm_device_synchronize(); /* execution errors come back here, as in CUDA */
    if (err != dsmSuccess)
        return err;
    float f = 0;
    if (cudaEventElapsedTime(&f, e->start, e->stop) != cudaSuccess)
        return dsmErrorUnknown;
    *ms = f;
    return dsmSuccess;
}
#else
/* The emulator runs the kernel to completion inside dsm_launch: the wall clock
 * around it is all there is (and means nothing about a GPU). */
static dsm_error_t timed_launch(bench *b, const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args, double *ms)
{
    (void)b;
    double t0 = bench_now();
    dsm_error_t err = dsm_launch_sync(cfg, kernel, args);
    *ms = 1e3 * (bench_now() - t0);
    return err;
}
#endif

dsm_error_t bench_time_launches(bench *b, const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args,
                                int warmup, int repeats, double *ms)
{
    for (int i = 0; i < warmup; ++i) {
        dsm_error_t err = dsm_launch_sync(cfg, kernel, args);
        if (err != dsmSuccess)
            return err;
    }
    for (int i = 0; i < repeats; ++i) {
        dsm_error_t err = timed_launch(b, cfg, kernel, args, &ms[i]);
        if (err != dsmSuccess)
            return err;
    }
    return dsmSuccess;
}
