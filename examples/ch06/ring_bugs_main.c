/* ring_bugs_main.c: runs one of ring_bugs.cu's buggy rings (named on the command line) once in a cluster of 2 and says whether rank 1 received the six chunks. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(ring_reuse_early);
DSM_DECLARE_KERNEL(ring_no_expect_tx);
DSM_DECLARE_KERNEL(ring_wrong_parity);

#define WORDS (6 * 16)  /* six 64-byte chunks */

/* Exit status 0 when the launch succeeded and the chunks arrived intact, 1 otherwise, 2 for bad usage. */
int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    dsm_kernel_t k = !strcmp(which, "reuse_early")   ? DSM_KERNEL(ring_reuse_early)
                     : !strcmp(which, "no_expect_tx") ? DSM_KERNEL(ring_no_expect_tx)
                     : !strcmp(which, "wrong_parity") ? DSM_KERNEL(ring_wrong_parity)
                                                      : NULL;
    if (!k) {
        fprintf(stderr, "usage: %s reuse_early|no_expect_tx|wrong_parity\n", argv[0]);
        return 2;
    }
    uint32_t host_in[WORDS], host_out[WORDS];
    for (int i = 0; i < WORDS; ++i)
        host_in[i] = 1000u + (uint32_t)i;
    void *in, *out;
    DSM_CHECK(dsm_malloc(&in, sizeof host_in));
    DSM_CHECK(dsm_malloc(&out, sizeof host_out));
    DSM_CHECK(dsm_memcpy_to_device(in, host_in, sizeof host_in));
    DSM_CHECK(dsm_memset(out, 0, sizeof host_out));

    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *args[] = {&in, &out};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    DSM_CHECK(dsm_memcpy_to_host(host_out, out, sizeof host_out));
    int wrong = 0;
    for (int i = 0; i < WORDS; ++i)
        wrong += host_out[i] != host_in[i];
    printf("ring_%s: %s, %d of %d words received wrong\n", which, dsm_error_name(err), wrong, WORDS);
    dsm_free(in);
    dsm_free(out);
    return err == dsmSuccess && wrong == 0 ? 0 : 1;
}
