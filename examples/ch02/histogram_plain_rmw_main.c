/* histogram_plain_rmw_main.c: runs the non-atomic distributed histogram once (2 clusters of 4, 32 bins) and prints what the launch returned and how many counts arrived. */
#include <stdio.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(cluster_histogram_plain);

/* Exit status 0 when the launch succeeded and no count was lost, 1 otherwise. */
int main(void)
{
    enum { N = 4096, CLUSTER = 4, BINS_PER_BLOCK = 8, NBINS = CLUSTER * BINS_PER_BLOCK };
    static int host_in[N];
    uint32_t host_bins[NBINS];
    unsigned x = 12345u;                        /* a fixed LCG: the same input every run */
    for (int i = 0; i < N; ++i) {
        x = x * 1664525u + 1013904223u;
        host_in[i] = (int)((x >> 8) % NBINS);
    }
    int *in;
    uint32_t *bins;
    DSM_CHECK(dsm_malloc((void **)&in, sizeof host_in));
    DSM_CHECK(dsm_malloc((void **)&bins, sizeof host_bins));
    DSM_CHECK(dsm_memcpy_to_device(in, host_in, sizeof host_in));
    DSM_CHECK(dsm_memset(bins, 0, sizeof host_bins));

    int bpb = BINS_PER_BLOCK, n = N;
    dsm_launch_config cfg = {DSM_DIM3(2 * CLUSTER, 1, 1), DSM_DIM3(128, 1, 1), DSM_DIM3(CLUSTER, 1, 1),
                             BINS_PER_BLOCK * sizeof(uint32_t)};
    void *args[] = {&bins, &bpb, &in, &n};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(cluster_histogram_plain), args);
    printf("histogram_plain_rmw: %s (%s)\n", dsm_error_name(err), dsm_error_string(err));
    long counted = -1;
    if (err == dsmSuccess) {
        DSM_CHECK(dsm_memcpy_to_host(host_bins, bins, sizeof host_bins));
        counted = 0;
        for (int b = 0; b < NBINS; ++b)
            counted += host_bins[b];
        printf("histogram_plain_rmw: counted %ld of %d inputs\n", counted, N);
    }
    dsm_free(in);
    dsm_free(bins);
    return counted == N ? 0 : 1;
}
