/* watchdog.cu: kernels that never end (cluster barriers in an endless loop, a compute loop) and their finite twins, for the emulator's time limit. */
#include "dsm.h"

/* Every thread passes cluster barriers until `stop` iterations, or forever when stop < 0
 * (the loop's bound is read from memory so the compiler cannot see it is endless). */
__global__ void barrier_forever(int *out, const int *stop)
{
    int n = 0;
    for (int i = 0; stop[0] < 0 || i < stop[0]; i++) {
        dsm_cluster_sync();
        n++;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = n;
}
DSM_KERNEL_ENTRY(barrier_forever, int *, const int *)

/* Thread 0 of each CTA counts up to `stop`, or forever when stop < 0, with no
 * device-API call in the loop (a loop condition that never turns false). */
__global__ void spin_forever(int *out, const int *stop)
{
    if (threadIdx.x == 0) {
        int n = 0;
        while (stop[0] < 0 || n < stop[0])
            out[blockIdx.x] = ++n;
    }
}
DSM_KERNEL_ENTRY(spin_forever, int *, const int *)
