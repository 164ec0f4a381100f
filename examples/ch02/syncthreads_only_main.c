/* syncthreads_only_main.c: runs the neighbour read that has no cluster barrier before the remote load, on 2 clusters of 2, and prints what the launch returned. */
#include <stdio.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(syncthreads_only);

/* Exit status 0 when the launch succeeded and every CTA got its peer's value, 1 otherwise. */
int main(void)
{
    enum { BLOCKS = 4 };
    uint32_t host_in[BLOCKS] = {11, 22, 33, 44}, host_out[BLOCKS] = {0};
    uint32_t *in, *out;
    DSM_CHECK(dsm_malloc((void **)&in, sizeof host_in));
    DSM_CHECK(dsm_malloc((void **)&out, sizeof host_out));
    DSM_CHECK(dsm_memcpy_to_device(in, host_in, sizeof host_in));
    DSM_CHECK(dsm_memset(out, 0, sizeof host_out));

    dsm_launch_config cfg = {DSM_DIM3(BLOCKS, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(syncthreads_only), args);
    printf("syncthreads_only: %s (%s)\n", dsm_error_name(err), dsm_error_string(err));
    int wrong = 0;
    if (err == dsmSuccess) {
        DSM_CHECK(dsm_memcpy_to_host(host_out, out, sizeof host_out));
        for (int b = 0; b < BLOCKS; ++b)
            wrong += host_out[b] != host_in[b ^ 1];
        printf("syncthreads_only: %d of %d CTAs read a wrong value\n", wrong, BLOCKS);
    }
    dsm_free(in);
    dsm_free(out);
    return err == dsmSuccess && wrong == 0 ? 0 : 1;
}
