/* pingpong_run.h: runs one of chapter 5's buggy ping-pong kernels for 3 round trips in one cluster of 2 CTAs and prints the tokens each CTA received. */
#ifndef CH05_PINGPONG_RUN_H
#define CH05_PINGPONG_RUN_H

#include <stdio.h>
#include "dsm_host.h"

/* Launches kernel; returns main's status: 0 when the launch succeeded and every token is right, 1 otherwise. */
static int pingpong_run(const char *name, dsm_kernel_t kernel)
{
    enum { ROUNDS = 3 };
    uint32_t first = 100, rounds = ROUNDS, trace[2 * ROUNDS];
    uint32_t *d_first, *d_trace, *d_last;
    unsigned long long *d_cycles;
    DSM_CHECK(dsm_malloc((void **)&d_first, sizeof first));
    DSM_CHECK(dsm_malloc((void **)&d_trace, sizeof trace));
    DSM_CHECK(dsm_malloc((void **)&d_last, 2 * sizeof(uint32_t)));
    DSM_CHECK(dsm_malloc((void **)&d_cycles, 2 * sizeof *d_cycles));
    DSM_CHECK(dsm_memcpy_to_device(d_first, &first, sizeof first));
    DSM_CHECK(dsm_memset(d_trace, 0, sizeof trace));

    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *args[] = {&d_first, &rounds, &d_trace, &d_last, &d_cycles};
    dsm_error_t err = dsm_launch_sync(&cfg, kernel, args);
    int right = err == dsmSuccess;
    if (err == dsmSuccess) {
        DSM_CHECK(dsm_memcpy_to_host(trace, d_trace, sizeof trace));
        for (uint32_t r = 0; r < 2; ++r) {
            printf("rank %u received:", r);
            for (uint32_t i = 0; i < ROUNDS; ++i) {
                uint32_t want = first + 2 * i + (1 - r);
                printf(" %u%s", trace[r * ROUNDS + i], trace[r * ROUNDS + i] == want ? "" : " (wrong)");
                right &= trace[r * ROUNDS + i] == want;
            }
            printf("\n");
        }
    }
    printf("%s: %s (%s)\n", name, dsm_error_name(err), dsm_error_string(err));
    return right ? 0 : 1;
}

#endif
