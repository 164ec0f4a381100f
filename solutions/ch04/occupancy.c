/* occupancy.c: ch04.occupancy: cudaOccupancyMaxActiveClusters by hand, from a GPU description (occupancy.h). */
#include "occupancy.h"

// BEGIN SOLUTION
//~ // TODO(ch04.occupancy): write occupancy_max_active_clusters as occupancy.h
//~ // and chapter 4 describe it. Work per SM first (how many CTAs of this shape
//~ // one SM holds, limited by each resource in turn), then per GPC.
//~ dsm_error_t occupancy_max_active_clusters(const gpu_desc *gpu, const kernel_shape *k, int *clusters)
//~ {
//~     (void)gpu;
//~     (void)k;
//~     (void)clusters;
//~     return dsmErrorNotSupported;
//~ }
static size_t round_up(size_t x, size_t unit) { return (x + unit - 1) / unit * unit; }

static int min_int(int a, int b) { return a < b ? a : b; }

/* CTAs per SM allowed by the register file: each warp gets its registers in
 * whole units and lives in one sub-partition (a quarter of the file). */
static int ctas_by_registers(const gpu_desc *gpu, int warps, int regs_per_thread)
{
    if (regs_per_thread == 0)
        return gpu->max_ctas_per_sm;   /* unknown: never the limit */
    int regs_per_warp = (int)round_up((size_t)regs_per_thread * (size_t)gpu->warp_size,
                                      (size_t)gpu->reg_granularity_per_warp);
    /* A block's warps are spread over every sub-partition, so it is checked as if rounded up to them. */
    int warps_rounded = (int)round_up((size_t)warps, (size_t)gpu->sub_partitions_per_sm);
    if (regs_per_warp * warps_rounded > gpu->regs_per_block)
        return 0;
    int warps_per_sub_partition = gpu->regs_per_sm / gpu->sub_partitions_per_sm / regs_per_warp;
    return warps_per_sub_partition * gpu->sub_partitions_per_sm / warps;
}

/* CTAs of shape k one SM holds at once: the least of the four limits. */
static int ctas_per_sm(const gpu_desc *gpu, const kernel_shape *k)
{
    size_t max_dynamic = k->max_dynamic_smem_attr ? k->max_dynamic_smem_attr : gpu->smem_per_block_default;
    if (k->dynamic_smem > max_dynamic || k->static_smem + k->dynamic_smem > gpu->smem_per_block_optin)
        return 0;      /* the launch could not run: the H200 answers 0, not an error */
    size_t alloc = round_up(k->static_smem + k->dynamic_smem + gpu->smem_reserved_per_block, gpu->smem_granularity);
    int warps = (k->threads_per_block + gpu->warp_size - 1) / gpu->warp_size;
    int by_smem = (int)(gpu->smem_per_sm / alloc);
    int by_warps = gpu->max_threads_per_sm / gpu->warp_size / warps;
    int by_regs = ctas_by_registers(gpu, warps, k->regs_per_thread);
    return min_int(min_int(by_smem, by_warps), min_int(by_regs, gpu->max_ctas_per_sm));
}

dsm_error_t occupancy_max_active_clusters(const gpu_desc *gpu, const kernel_shape *k, int *clusters)
{
    if (gpu == NULL || k == NULL || clusters == NULL || k->threads_per_block < 1 ||
        k->threads_per_block > gpu->max_threads_per_block)
        return dsmErrorInvalidValue;
    int largest = k->non_portable_allowed ? gpu->max_cluster_size_non_portable : gpu->max_cluster_size_portable;
    if (k->cluster_size < 1 || k->cluster_size > largest)
        return dsmErrorInvalidClusterSize;

    int per_sm = ctas_per_sm(gpu, k);
    /* A cluster lives inside one GPC with at least cluster_size SMs and takes
     * cluster_size of that GPC's per_sm * SMs CTA slots (several of its CTAs
     * may share an SM). The slots of a GPC smaller than the cluster stay idle. */
    int total = 0;
    for (int g = 0; g < gpu->gpc_count; g++)
        if (gpu->sms_per_gpc[g] >= k->cluster_size)
            total += per_sm * gpu->sms_per_gpc[g] / k->cluster_size;
    *clusters = total;
    return dsmSuccess;
}
// END SOLUTION
