/* host_cuda.c: the host API of dsm_host.h on the CUDA runtime (launch with clusters, attributes, occupancy, memory, errors). */
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "dsm_host.h"

/* dsm_error_t uses cudaError_t's values, so conversion is a cast. */
static dsm_error_t from_cuda(cudaError_t err) { return (dsm_error_t)err; }

static dim3 to_dim3(dsm_dim3 d)
{
    dim3 r;
    r.x = d.x;
    r.y = d.y;
    r.z = d.z;
    return r;
}

/* Fills a cudaLaunchConfig_t from cfg on the default stream. The cluster
 * attribute (stored in *attr) is set unless cfg->cluster is all zero, which
 * means "no cluster attribute" (a plain launch); with_cluster 0 leaves it off. */
static void fill_config(cudaLaunchConfig_t *lc, cudaLaunchAttribute *attr, const dsm_launch_config *cfg,
                        int with_cluster)
{
    memset(lc, 0, sizeof *lc);
    memset(attr, 0, sizeof *attr);
    lc->gridDim = to_dim3(cfg->grid);
    lc->blockDim = to_dim3(cfg->block);
    lc->dynamicSmemBytes = cfg->dynamic_smem_bytes;
    lc->stream = 0; /* the legacy default stream: launches are ordered with memcpy and synchronize */
    if (with_cluster && (cfg->cluster.x | cfg->cluster.y | cfg->cluster.z) != 0) {
        attr->id = cudaLaunchAttributeClusterDimension;
        attr->val.clusterDim.x = cfg->cluster.x;
        attr->val.clusterDim.y = cfg->cluster.y;
        attr->val.clusterDim.z = cfg->cluster.z;
        lc->attrs = attr;
        lc->numAttrs = 1;
    }
}

dsm_error_t dsm_launch(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args)
{
    if (cfg == NULL || kernel == NULL)
        return dsmErrorInvalidValue;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr;
    fill_config(&lc, &attr, cfg, 1);
    cudaError_t err = cudaLaunchKernelExC(&lc, kernel, args);
    if (err != cudaSuccess)
        (void)cudaGetLastError(); /* a rejected launch is not sticky: clear it so later calls start clean */
    return from_cuda(err);
}

dsm_error_t dsm_device_synchronize(void) { return from_cuda(cudaDeviceSynchronize()); }

dsm_error_t dsm_launch_sync(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args)
{
    dsm_error_t err = dsm_launch(cfg, kernel, args);
    if (err != dsmSuccess)
        return err;
    return dsm_device_synchronize();
}

dsm_error_t dsm_func_set_max_dynamic_smem(dsm_kernel_t kernel, int bytes)
{
    if (kernel == NULL)
        return dsmErrorInvalidValue;
    return from_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

dsm_error_t dsm_func_set_non_portable_cluster_size_allowed(dsm_kernel_t kernel, int allowed)
{
    if (kernel == NULL)
        return dsmErrorInvalidValue;
    return from_cuda(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, allowed ? 1 : 0));
}

dsm_error_t dsm_occupancy_max_active_clusters(int *clusters, dsm_kernel_t kernel, const dsm_launch_config *cfg)
{
    if (clusters == NULL || kernel == NULL || cfg == NULL)
        return dsmErrorInvalidValue;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr;
    fill_config(&lc, &attr, cfg, 1);
    return from_cuda(cudaOccupancyMaxActiveClusters(clusters, kernel, &lc));
}

dsm_error_t dsm_occupancy_max_potential_cluster_size(int *size, dsm_kernel_t kernel, const dsm_launch_config *cfg)
{
    if (size == NULL || kernel == NULL || cfg == NULL)
        return dsmErrorInvalidValue;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr;
    fill_config(&lc, &attr, cfg, 0); /* the cluster dims are ignored by CUDA anyway */
    return from_cuda(cudaOccupancyMaxPotentialClusterSize(size, kernel, &lc));
}

dsm_error_t dsm_malloc(void **ptr, size_t bytes) { return from_cuda(cudaMalloc(ptr, bytes)); }

dsm_error_t dsm_free(void *ptr) { return from_cuda(cudaFree(ptr)); }

dsm_error_t dsm_memset(void *dst, int value, size_t bytes) { return from_cuda(cudaMemset(dst, value, bytes)); }

dsm_error_t dsm_memcpy_to_device(void *dst, const void *src, size_t bytes)
{
    return from_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

dsm_error_t dsm_memcpy_to_host(void *dst, const void *src, size_t bytes)
{
    return from_cuda(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

dsm_error_t dsm_device_check(const char **why)
{
    static char reason[512]; /* room for a 256-byte device name */
    int count = 0, dev = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        if (err == cudaErrorInsufficientDriver) /* also what a machine without any NVIDIA driver answers */
            snprintf(reason, sizeof reason, "no usable CUDA device: %s (no NVIDIA driver, or one older than "
                     "this CUDA runtime)", cudaGetErrorName(err));
        else if (err != cudaSuccess)
            snprintf(reason, sizeof reason, "no usable CUDA device: %s (%s)", cudaGetErrorName(err),
                     cudaGetErrorString(err));
        else
            snprintf(reason, sizeof reason, "no CUDA device found");
        (void)cudaGetLastError();
        if (why)
            *why = reason;
        return dsmErrorNoDevice;
    }
    struct cudaDeviceProp prop;
    if ((err = cudaGetDevice(&dev)) != cudaSuccess || (err = cudaGetDeviceProperties(&prop, dev)) != cudaSuccess) {
        snprintf(reason, sizeof reason, "cannot query CUDA device %d: %s", dev, cudaGetErrorName(err));
        (void)cudaGetLastError();
        if (why)
            *why = reason;
        return dsmErrorNoDevice;
    }
    if (prop.major < 9) {
        snprintf(reason, sizeof reason, "found %s, compute capability %d.%d; clusters need 9.0 (Hopper)", prop.name,
                 prop.major, prop.minor);
    } else if (!prop.clusterLaunch) {
        snprintf(reason, sizeof reason, "found %s, compute capability %d.%d, but it does not support cluster launch",
                 prop.name, prop.major, prop.minor);
    } else {
        /* 9.0 runs the sm_90a code; later GPUs JIT-compile the compute_90 PTX that NVCC_ARCH adds. */
        if (why)
            *why = "";
        return dsmSuccess;
    }
    if (why)
        *why = reason;
    return dsmErrorNoDevice;
}

const char *dsm_backend_name(void) { return "hopper"; }

/* Names and descriptions of the codes that exist only on the emulator. */
static const char *emu_only(dsm_error_t err, int want_name)
{
    switch (err) {
    case dsmErrorRaceDetected:
        return want_name ? "dsmErrorRaceDetected" : "a data race or schedule-dependent result (emulator)";
    case dsmErrorBarrierMisuse:
        return want_name ? "dsmErrorBarrierMisuse" : "barrier misuse (emulator)";
    case dsmErrorDeadlock:
        return want_name ? "dsmErrorDeadlock" : "every live thread is blocked: hardware would hang (emulator)";
    case dsmErrorUninitializedRead:
        return want_name ? "dsmErrorUninitializedRead" : "a read of shared memory nobody wrote (emulator)";
    default:
        return want_name ? "dsmErrorUnknownEmulatorCode" : "unknown emulator error code";
    }
}

const char *dsm_error_name(dsm_error_t err)
{
    if ((int)err >= 10000)
        return emu_only(err, 1);
    return cudaGetErrorName((cudaError_t)err);
}

const char *dsm_error_string(dsm_error_t err)
{
    if ((int)err >= 10000)
        return emu_only(err, 0);
    return cudaGetErrorString((cudaError_t)err);
}
