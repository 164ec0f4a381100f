/* dsm_host.h: the host-side API (C): memory, launch with clusters, attributes, occupancy, errors. */
#ifndef DSM_HOST_H
#define DSM_HOST_H

#include <stdio.h>
#include <stdlib.h>
#include "dsm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel as the host names it. On the GPU it is the kernel's host stub (what
 * cudaLaunchKernelExC takes); on the emulator a descriptor of the kernel.
 * Obtain one with DSM_KERNEL(name) after DSM_DECLARE_KERNEL(name). */
typedef const void *dsm_kernel_t;

#define DSM_DECLARE_KERNEL(name) dsm_kernel_t name##__dsm_handle(void)
#define DSM_KERNEL(name) (name##__dsm_handle())

/* How to launch: grid and block in the usual units, cluster dims in blocks
 * (each must divide the grid's), dynamic shared memory per block in bytes.
 * A cluster of {0, 0, 0} means no cluster attribute: a plain launch, in which
 * every CTA is a cluster of one (as on the GPU). */
typedef struct dsm_launch_config {
    dsm_dim3 grid;
    dsm_dim3 block;
    dsm_dim3 cluster;
    size_t dynamic_smem_bytes;
} dsm_launch_config;

/* Launches kernel with args (an array of pointers to each argument, as
 * cudaLaunchKernelExC takes them). Returns launch errors (bad configuration);
 * errors during execution are returned by dsm_device_synchronize(), as in CUDA.
 * On the emulator the kernel has run to completion when this returns. */
dsm_error_t dsm_launch(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args);

/* dsm_launch() followed by dsm_device_synchronize(): the first error of the two. */
dsm_error_t dsm_launch_sync(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args);

/* Waits for the device; returns the first execution error since the last call
 * (dsmErrorLaunchFailure for the lifetime trap, ...). On hardware such an error
 * is sticky for the whole process; on the emulator it is cleared once returned. */
dsm_error_t dsm_device_synchronize(void);

/* cudaFuncAttributeMaxDynamicSharedMemorySize: allow more than 48 KB of dynamic
 * shared memory per block (up to 227 KB on Hopper). */
dsm_error_t dsm_func_set_max_dynamic_smem(dsm_kernel_t kernel, int bytes);

/* cudaFuncAttributeNonPortableClusterSizeAllowed: allow clusters of up to 16. */
dsm_error_t dsm_func_set_non_portable_cluster_size_allowed(dsm_kernel_t kernel, int allowed);

/* cudaOccupancyMaxActiveClusters: how many clusters of cfg->cluster can be
 * resident at once. On the emulator this comes from the device model chosen
 * with DSM_EMU_DEVICE (default: H200). */
dsm_error_t dsm_occupancy_max_active_clusters(int *clusters, dsm_kernel_t kernel,
                                              const dsm_launch_config *cfg);

/* cudaOccupancyMaxPotentialClusterSize: the largest cluster size that can be
 * resident for this kernel and block shape (cfg->cluster is ignored). */
dsm_error_t dsm_occupancy_max_potential_cluster_size(int *size, dsm_kernel_t kernel,
                                                     const dsm_launch_config *cfg);

/* Device ("global") memory. On the emulator, buffers from dsm_malloc are the
 * ones compared across schedules to find schedule-dependent results. */
dsm_error_t dsm_malloc(void **ptr, size_t bytes);
dsm_error_t dsm_free(void *ptr);
dsm_error_t dsm_memset(void *dst, int value, size_t bytes);
dsm_error_t dsm_memcpy_to_device(void *dst, const void *src, size_t bytes);
dsm_error_t dsm_memcpy_to_host(void *dst, const void *src, size_t bytes);

/* dsmSuccess when a device that can run cluster kernels is present (always on
 * the emulator); dsmErrorNoDevice with a reason in *why otherwise. */
dsm_error_t dsm_device_check(const char **why);

/* "emulator" or "hopper". */
const char *dsm_backend_name(void);

/* CUDA's name for an error ("cudaErrorLaunchFailure") and its description. */
const char *dsm_error_name(dsm_error_t err);
const char *dsm_error_string(dsm_error_t err);

/* Checks a host API call; on failure prints the call, file, line and CUDA's
 * name for the error, then exits. Use in programs, not in graded tests. */
#define DSM_CHECK(call)                                                             \
    do {                                                                            \
        dsm_error_t dsm_check_err_ = (call);                                        \
        if (dsm_check_err_ != dsmSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, __LINE__, #call, \
                    dsm_error_name(dsm_check_err_), dsm_error_string(dsm_check_err_)); \
            exit(EXIT_FAILURE);                                                     \
        }                                                                           \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif
