/* fit_cluster.cu: ch04.fit_cluster: a kernel whose clusters share one working set through DSMEM, and the host code that picks its cluster size from the occupancy API. */
#include "dsm.h"
#include "fit_cluster.h"

/* The value word i of cluster `cluster`'s working set holds. */
#define FIT_CLUSTER_VALUE(cluster, i) ((uint32_t)(i) * 2654435761u + (uint32_t)(cluster))

// BOOK-BEGIN(kernel)
/* Every cluster builds a working set of `words` 32-bit words spread over its
 * CTAs (CTA r owns words [r * per, (r + 1) * per), per = ceil(words / cluster
 * size)), then reads all of it back through DSMEM, CTA r the words i with
 * i % cluster size == r, into out[cluster * words + i]. Launch with at least
 * per * 4 bytes of dynamic shared memory per CTA. */
__global__ void fit_cluster_fill(uint32_t *out, uint32_t words)
{
    uint32_t *mine = (uint32_t *)dsm_dynamic_smem();
    uint32_t size = dsm_cluster_nctarank(), rank = dsm_cluster_ctarank();
    uint32_t per = (words + size - 1) / size;
    uint32_t cluster = dsm_clusterid().x;

    for (uint32_t j = threadIdx.x; j < per && rank * per + j < words; j += blockDim.x)
        mine[j] = FIT_CLUSTER_VALUE(cluster, rank * per + j);
    dsm_cluster_sync();     /* every share written and every CTA started before anyone reads */

    for (uint32_t i = rank + size * threadIdx.x; i < words; i += size * blockDim.x) {
        const uint32_t *owner = (const uint32_t *)dsm_map_shared_rank(mine, i / per);
        out[(size_t)cluster * words + i] = owner[i % per];
    }
    dsm_cluster_sync();     /* no CTA exits while a peer still reads its share */
}
DSM_KERNEL_ENTRY(fit_cluster_fill, uint32_t *, uint32_t)
// BOOK-END(kernel)

size_t fit_cluster_share(size_t bytes, int cluster_size)
{
    size_t share = (bytes + (size_t)cluster_size - 1) / (size_t)cluster_size;
    return (share + 15) / 16 * 16;
}

/* Largest dynamic shared memory a launch may use without the attribute. */
#define FIT_CLUSTER_DEFAULT_DYNAMIC_SMEM ((size_t)48 * 1024)

/* Largest a block may opt in to on Hopper (227 KB): asking for more is an API error. */
#define FIT_CLUSTER_MAX_DYNAMIC_SMEM ((size_t)227 * 1024)

dsm_error_t fit_cluster_plan(dsm_kernel_t kernel, int threads, size_t bytes, cluster_plan *plan)
{
    if (kernel == NULL || plan == NULL || bytes == 0 || threads < 1 || threads > 1024)
        return dsmErrorInvalidValue;
    // TODO(ch04.fit_cluster): for every cluster size 1..16, opt the kernel in
    // to what that size needs, ask dsm_occupancy_max_active_clusters how many
    // clusters are resident, keep the best size (see fit_cluster.h), and leave
    // the attributes allowing the chosen shape.
    (void)kernel;
    plan->cluster_size = 1;
    plan->smem_per_cta = fit_cluster_share(bytes, 1);
    plan->resident_clusters = 0;
    return dsmErrorNotSupported;
}

dsm_error_t fit_cluster_launch(dsm_kernel_t kernel, void **args, int threads, size_t bytes, int max_clusters,
                               cluster_plan *plan)
{
    dsm_error_t err = fit_cluster_plan(kernel, threads, bytes, plan);
    if (err != dsmSuccess)
        return err;
    // TODO(ch04.fit_cluster): launch min(resident_clusters, max_clusters)
    // clusters of the planned shape and wait for the kernel.
    (void)args;
    (void)max_clusters;
    return dsmErrorNotSupported;
}
