/* early_return_main.c: runs the ring shift with an early return on 6 tiles in clusters of 4 (so the last two CTAs have no tile) and prints what the launch returned. */
#include <stdio.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(ring_shift_early_return);

/* Exit status 0 when the launch succeeded, 1 when it returned an error. */
int main(void)
{
    enum { NTILES = 6, CLUSTER = 4, BLOCKS = 8, TILE = 64 };
    size_t bytes = sizeof(float) * BLOCKS * TILE;
    float *in, *out;
    DSM_CHECK(dsm_malloc((void **)&in, bytes));
    DSM_CHECK(dsm_malloc((void **)&out, bytes));
    DSM_CHECK(dsm_memset(in, 0, bytes));
    DSM_CHECK(dsm_memset(out, 0, bytes));

    int ntiles = NTILES, tile = TILE;
    dsm_launch_config cfg = {DSM_DIM3(BLOCKS, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(CLUSTER, 1, 1),
                             TILE * sizeof(float)};
    void *args[] = {&in, &out, &ntiles, &tile};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(ring_shift_early_return), args);
    printf("early_return: %s (%s)\n", dsm_error_name(err), dsm_error_string(err));
    dsm_free(in);
    dsm_free(out);
    return err == dsmSuccess ? 0 : 1;
}
