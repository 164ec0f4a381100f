/* histogram_race.c: the distributed histogram on a Hopper GPU with a plain remote read-modify-write or with remote atomics; prints one CSV line with the counts lost. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(cluster_histogram_plain);   /* examples/ch02/histogram_plain_rmw.cu */
DSM_DECLARE_KERNEL(cluster_histogram);         /* solutions/ch02/histogram.cu */

static const char header[] =
    "variant,n,clusters,cluster_size,threads,bins,launch,sync,counted,expected,lost,bins_wrong";

static int usage(void)
{
    fprintf(stderr, "usage: histogram_race plain|atomic [N [CLUSTERS [CLUSTER_SIZE [BINS_PER_BLOCK [THREADS]]]]]\n"
                    "       histogram_race --header\n"
                    "defaults: N = 16777216, 66 clusters of 2, 8 bins per CTA, 512 threads\n"
                    "prints %s\n", header);
    return 2;
}

/* Usage above. Exit status 0 when the program ran (the CSV line says what the
 * kernel did) or when there is no Hopper GPU (it prints "waived:"); 2 on a
 * usage error; 1 when host-side setup failed. */
int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--header") == 0) {
        puts(header);
        return 0;
    }
    const char *why = "";
    if (dsm_device_check(&why) != dsmSuccess) {
        printf("waived: no Hopper GPU (%s)\n", why);
        return 0;
    }
    if (argc < 2 || (strcmp(argv[1], "plain") != 0 && strcmp(argv[1], "atomic") != 0))
        return usage();
    int plain = strcmp(argv[1], "plain") == 0;
    int n = argc > 2 ? atoi(argv[2]) : 1 << 24;
    int clusters = argc > 3 ? atoi(argv[3]) : 66;
    int size = argc > 4 ? atoi(argv[4]) : 2;
    int bins_per_block = argc > 5 ? atoi(argv[5]) : 8;
    int threads = argc > 6 ? atoi(argv[6]) : 512;
    if (n < 1 || clusters < 1 || size < 1 || size > 8 || bins_per_block < 1 || threads < 1 || threads > 1024)
        return usage();
    int nbins = size * bins_per_block;

    int *host_in = malloc(sizeof(int) * (size_t)n);
    uint32_t *expected = calloc((size_t)nbins, sizeof(uint32_t));
    uint32_t *host_bins = malloc(sizeof(uint32_t) * (size_t)nbins);
    if (!host_in || !expected || !host_bins)
        return 1;
    uint32_t x = 2463534242u;                   /* xorshift32: the same input every run */
    for (int i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        host_in[i] = (int)(x % (uint32_t)nbins);
        expected[host_in[i]]++;
    }

    int *in;
    uint32_t *bins;
    DSM_CHECK(dsm_malloc((void **)&in, sizeof(int) * (size_t)n));
    DSM_CHECK(dsm_malloc((void **)&bins, sizeof(uint32_t) * (size_t)nbins));
    DSM_CHECK(dsm_memcpy_to_device(in, host_in, sizeof(int) * (size_t)n));
    DSM_CHECK(dsm_memset(bins, 0, sizeof(uint32_t) * (size_t)nbins));

    dsm_launch_config cfg = {DSM_DIM3(clusters * size, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(size, 1, 1),
                             sizeof(uint32_t) * (size_t)bins_per_block};
    void *args[] = {&bins, &bins_per_block, &in, &n};
    dsm_kernel_t kernel = plain ? DSM_KERNEL(cluster_histogram_plain) : DSM_KERNEL(cluster_histogram);
    dsm_error_t launch = dsm_launch(&cfg, kernel, args);
    dsm_error_t sync = launch == dsmSuccess ? dsm_device_synchronize() : launch;

    long long counted = -1, wrong = -1;
    if (launch == dsmSuccess && sync == dsmSuccess &&
        dsm_memcpy_to_host(host_bins, bins, sizeof(uint32_t) * (size_t)nbins) == dsmSuccess) {
        counted = 0;
        wrong = 0;
        for (int b = 0; b < nbins; ++b) {
            counted += host_bins[b];
            wrong += host_bins[b] != expected[b];
        }
    }
    printf("%s,%d,%d,%d,%d,%d,%s,%s,%lld,%d,%lld,%lld\n", plain ? "plain" : "atomic", n, clusters, size, threads,
           nbins, dsm_error_name(launch), dsm_error_name(sync), counted, n, counted < 0 ? -1 : n - counted, wrong);
    free(host_in);
    free(expected);
    free(host_bins);
    return 0;
}
