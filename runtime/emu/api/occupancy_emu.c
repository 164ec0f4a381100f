/* occupancy_emu.c: cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize on the emulator, answered by the device model (DSM_EMU_DEVICE, default H200). */
#include "emu_api.h"
#include "../../model/device_model.h"

static size_t kernel_static_smem(const struct dsm_emu_kernel *k)
{
    return k && k->shared_begin ? (size_t)(k->shared_end - k->shared_begin) : 0;
}

static int block_threads(const dsm_launch_config *cfg) { return (int)(cfg->block.x * cfg->block.y * cfg->block.z); }

/* Registers are unknown on the emulator (0): they never limit occupancy here,
 * so the answer is an upper bound of what the GPU reports for a kernel that
 * needs many registers. */
dsm_error_t dsm_occupancy_max_active_clusters(int *clusters, dsm_kernel_t kernel, const dsm_launch_config *cfg)
{
    const struct dsm_emu_kernel *k = kernel;
    if (!clusters || !cfg)
        return dsmErrorInvalidValue;
    if (!k)
        return dsmErrorInvalidDeviceFunction;
    unsigned csize = (cfg->cluster.x ? cfg->cluster.x : 1) * (cfg->cluster.y ? cfg->cluster.y : 1) *
                     (cfg->cluster.z ? cfg->cluster.z : 1);
    if (csize > 16 || (csize > 8 && !emu_kernel_non_portable(k)))
        return dsmErrorInvalidClusterSize;
    if (cfg->dynamic_smem_bytes > (size_t)emu_kernel_max_dynamic_smem(k)) {
        *clusters = 0; /* what an H200 answers: the launch could not run */
        return dsmSuccess;
    }
    return dsm_model_occupancy_max_active_clusters(dsm_model_default(), (int)csize, block_threads(cfg),
                                                   kernel_static_smem(k) + cfg->dynamic_smem_bytes, 0, clusters);
}

dsm_error_t dsm_occupancy_max_potential_cluster_size(int *size, dsm_kernel_t kernel, const dsm_launch_config *cfg)
{
    const struct dsm_emu_kernel *k = kernel;
    if (!size || !cfg)
        return dsmErrorInvalidValue;
    if (!k)
        return dsmErrorInvalidDeviceFunction;
    if (cfg->dynamic_smem_bytes > (size_t)emu_kernel_max_dynamic_smem(k)) {
        *size = 0; /* what an H200 answers: no cluster of this block could launch */
        return dsmSuccess;
    }
    return dsm_model_occupancy_max_potential_cluster_size(dsm_model_default(), emu_kernel_non_portable(k), block_threads(cfg),
                                                          kernel_static_smem(k) + cfg->dynamic_smem_bytes, 0, size);
}
