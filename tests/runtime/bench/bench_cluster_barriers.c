/* bench_cluster_barriers.c: times the emulator on 2 CTAs x 256 threads through 1000 cluster barriers, one schedule, one core (target: under 1 s). */
#include <stdio.h>
#include <time.h>

#include "dsm_emu_control.h"
#include "dsm_host.h"

DSM_DECLARE_KERNEL(barrier_loop);

int main(void)
{
    float *out;
    int iters = 1000;
    DSM_CHECK(dsm_malloc((void **)&out, 512 * sizeof(float)));
    DSM_CHECK(dsm_emu_set_schedules("asc"));
    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(256, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *args[] = {&out, &iters};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    DSM_CHECK(dsm_launch_sync(&cfg, DSM_KERNEL(barrier_loop), args));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    float h[512];
    DSM_CHECK(dsm_memcpy_to_host(h, out, sizeof h));
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("2 CTAs x 256 threads, %d cluster barriers: %.3f s (target < 1 s); check: %s\n", iters, s,
           h[0] == (float)iters && h[256] == 0.0f ? "ok" : "WRONG");
    return h[0] == (float)iters && h[256] == 0.0f && s < 1.0 ? 0 : 1;
}
