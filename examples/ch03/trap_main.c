/* trap_main.c: runs the deep dive's trap kernel once in the deep dive's shape on an H200 (66 clusters of 2 CTAs, 128 threads) and prints what the launch returned. */
#include <stdio.h>
#include "dsm_host.h"

#define ARRAY_LEN 4096

DSM_DECLARE_KERNEL(peer_sum_trap);

/* Exit status 0 when the launch succeeded, 1 when it returned an error. */
int main(void)
{
    enum { CLUSTERS = 66, CLUSTER = 2, BLOCKS = CLUSTERS * CLUSTER };
    size_t in_bytes = sizeof(float) * BLOCKS * ARRAY_LEN, out_bytes = sizeof(float) * CLUSTERS * ARRAY_LEN;
    float *in, *out;
    DSM_CHECK(dsm_malloc((void **)&in, in_bytes));
    DSM_CHECK(dsm_malloc((void **)&out, out_bytes));
    DSM_CHECK(dsm_memset(in, 0, in_bytes));
    DSM_CHECK(dsm_memset(out, 0, out_bytes));

    dsm_launch_config cfg = {DSM_DIM3(BLOCKS, 1, 1), DSM_DIM3(128, 1, 1), DSM_DIM3(CLUSTER, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(peer_sum_trap), args);
    printf("trap: %s (%s), error %d\n", dsm_error_name(err), dsm_error_string(err), (int)err);
    dsm_free(in);
    dsm_free(out);
    return err == dsmSuccess ? 0 : 1;
}
