/* trap_repro.c: runs seed 000's trap kernel, or its fix, ONCE on a Hopper GPU and prints one CSV line (a 719 poisons the CUDA context, so one launch per process). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"

#define ARRAY_LEN 4096      /* as in examples/ch03/trap.cu and solutions/ch03/fix_trap.cu */

DSM_DECLARE_KERNEL(peer_sum_trap);  /* examples/ch03/trap.cu: no barrier before exit */
DSM_DECLARE_KERNEL(peer_sum);       /* solutions/ch03/fix_trap.cu: the fix */

static const char header[] = "variant,clusters,cluster_size,threads,launch,sync,result";

static int usage(void)
{
    fprintf(stderr, "usage: trap_repro buggy|fixed CLUSTERS CLUSTER_SIZE [THREADS]\n"
                    "       trap_repro --header | --check\n"
                    "prints %s\n", header);
    return 2;
}

/* The value of element i of CTA b's array: small integers, so float sums are exact. */
static float input_value(size_t b, size_t i) { return (float)((b * 7u + i * 13u) % 101u); }

/* Usage above. Exit status 0 when the program ran (whatever the kernel did,
 * the CSV line says it) or when there is no Hopper GPU (it prints "waived:");
 * 2 on a usage error; 1 when host-side setup failed. */
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
    if (argc == 2 && strcmp(argv[1], "--check") == 0) {
        puts("ok: Hopper GPU found");
        return 0;
    }
    if (argc < 4 || (strcmp(argv[1], "buggy") != 0 && strcmp(argv[1], "fixed") != 0))
        return usage();
    int buggy = strcmp(argv[1], "buggy") == 0;
    int clusters = atoi(argv[2]), size = atoi(argv[3]), threads = argc > 4 ? atoi(argv[4]) : 128;
    if (clusters < 1 || size < 2 || size > 16 || threads < 1 || threads > 1024)
        return usage();

    size_t blocks = (size_t)clusters * (size_t)size;
    size_t in_elems = blocks * ARRAY_LEN, out_elems = (size_t)clusters * ARRAY_LEN;
    float *host_in = malloc(in_elems * sizeof(float)), *host_out = malloc(out_elems * sizeof(float));
    if (!host_in || !host_out)
        return 1;
    for (size_t b = 0; b < blocks; ++b)
        for (size_t i = 0; i < ARRAY_LEN; ++i)
            host_in[b * ARRAY_LEN + i] = input_value(b, i);

    dsm_kernel_t kernel = buggy ? DSM_KERNEL(peer_sum_trap) : DSM_KERNEL(peer_sum);
    float *in, *out;
    DSM_CHECK(dsm_malloc((void **)&in, in_elems * sizeof(float)));
    DSM_CHECK(dsm_malloc((void **)&out, out_elems * sizeof(float)));
    DSM_CHECK(dsm_memcpy_to_device(in, host_in, in_elems * sizeof(float)));
    DSM_CHECK(dsm_memset(out, 0, out_elems * sizeof(float)));
    if (size > 8)
        DSM_CHECK(dsm_func_set_non_portable_cluster_size_allowed(kernel, 1));

    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(size, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t launch = dsm_launch(&cfg, kernel, args);
    dsm_error_t sync = launch == dsmSuccess ? dsm_device_synchronize() : launch;

    const char *result = "unchecked";   /* after an execution error the context is gone */
    if (launch == dsmSuccess && sync == dsmSuccess &&
        dsm_memcpy_to_host(host_out, out, out_elems * sizeof(float)) == dsmSuccess) {
        result = "correct";
        for (size_t c = 0; c < (size_t)clusters && strcmp(result, "correct") == 0; ++c)
            for (size_t i = 0; i < ARRAY_LEN; ++i) {
                float acc = host_in[(c * (size_t)size) * ARRAY_LEN + i];
                for (size_t r = 1; r < (size_t)size; ++r)
                    acc += host_in[(c * (size_t)size + r) * ARRAY_LEN + i];
                if (host_out[c * ARRAY_LEN + i] != acc) {
                    result = "wrong";
                    break;
                }
            }
    }
    printf("%s,%d,%d,%d,%s,%s,%s\n", buggy ? "buggy" : "fixed", clusters, size, threads,
           dsm_error_name(launch), dsm_error_name(sync), result);
    free(host_in);
    free(host_out);
    return 0;
}
