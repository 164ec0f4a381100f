/* card_neighbor_main.c: runs the feature card's example kernel (as published, or with the exit barrier added) on a grid of 1 or more clusters of 2 and prints what the launch returned. */
#include <stdio.h>
#include <string.h>
#include "dsm_host.h"

DSM_DECLARE_KERNEL(card_as_published);
DSM_DECLARE_KERNEL(card_barrier_added);

/* Usage: card_neighbor_main as_published|barrier_added [CLUSTERS]. Exit
 * status 0 when the launch succeeded, 1 when it returned an error. */
int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "as_published";
    int clusters = argc > 2 ? atoi(argv[2]) : 1;
    dsm_kernel_t k = strcmp(which, "barrier_added") == 0 ? DSM_KERNEL(card_barrier_added)
                                                          : DSM_KERNEL(card_as_published);
    int *out;
    DSM_CHECK(dsm_malloc((void **)&out, sizeof(int) * 2 * (size_t)clusters));
    DSM_CHECK(dsm_memset(out, 0, sizeof(int) * 2 * (size_t)clusters));

    dsm_launch_config cfg = {DSM_DIM3(2 * clusters, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(2, 1, 1), 0};
    void *args[] = {&out};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    printf("card_neighbor %s, %d cluster(s) of 2: %s (%s)\n", which, clusters, dsm_error_name(err),
           dsm_error_string(err));
    dsm_free(out);
    return err == dsmSuccess ? 0 : 1;
}
