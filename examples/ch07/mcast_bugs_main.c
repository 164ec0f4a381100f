/* mcast_bugs_main.c: runs one of mcast_bugs.cu's buggy multicast rings (named on the command line) once, in one cluster, and says how many words of the six chunks every CTA received wrong. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(mcast_empty_count_one);
DSM_DECLARE_KERNEL(mcast_only_rank0_arms);
DSM_DECLARE_KERNEL(mcast_mask_outside);

#define WORDS (6 * 8 * 4)   /* six 128-byte chunks */

/* Exit status 0 when the launch succeeded and every CTA received the chunks intact, 1 otherwise, 2 for bad usage. */
int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    unsigned n = 4;
    dsm_kernel_t k = !strcmp(which, "empty_count_one")   ? DSM_KERNEL(mcast_empty_count_one)
                     : !strcmp(which, "only_rank0_arms") ? DSM_KERNEL(mcast_only_rank0_arms)
                     : !strcmp(which, "mask_outside")    ? (n = 2, DSM_KERNEL(mcast_mask_outside))
                                                         : NULL;
    if (!k) {
        fprintf(stderr, "usage: %s empty_count_one|only_rank0_arms|mask_outside\n", argv[0]);
        return 2;
    }
    uint32_t host_in[WORDS], *host_out = malloc(n * WORDS * 4);
    for (int i = 0; i < WORDS; ++i)
        host_in[i] = 1000u + (uint32_t)i;
    void *in, *out;
    DSM_CHECK(dsm_malloc(&in, sizeof host_in));
    DSM_CHECK(dsm_malloc(&out, n * WORDS * 4));
    DSM_CHECK(dsm_memcpy_to_device(in, host_in, sizeof host_in));
    DSM_CHECK(dsm_memset(out, 0, n * WORDS * 4));

    dsm_launch_config cfg = {DSM_DIM3(n, 1, 1), DSM_DIM3(64, 1, 1), DSM_DIM3(n, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    DSM_CHECK(dsm_memcpy_to_host(host_out, out, n * WORDS * 4));
    int wrong = 0;
    for (unsigned i = 0; i < n * WORDS; ++i)
        wrong += host_out[i] != host_in[i % WORDS];
    printf("mcast_%s: %s, %d of %u words received wrong\n", which, dsm_error_name(err), wrong, n * WORDS);
    dsm_free(in);
    dsm_free(out);
    free(host_out);
    return err == dsmSuccess && wrong == 0 ? 0 : 1;
}
