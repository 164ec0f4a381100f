/* host_cuda.c: the host API of dsm_host.h on the CUDA runtime (launch with clusters and options, streams, events, graphs, attributes, occupancy, memory, errors). */
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

/* A dsm_stream_t is the cudaStream_t itself; NULL is the legacy default stream. */
static cudaStream_t to_stream(dsm_stream_t s) { return (cudaStream_t)(void *)s; }

#define LAUNCH_ATTRS_MAX 3 /* cluster dimension, programmatic stream serialization, cooperative */

/* Fills a cudaLaunchConfig_t from cfg and opt (NULL: none) into lc and
 * attr[LAUNCH_ATTRS_MAX]. The cluster attribute is set unless cfg->cluster is
 * all zero, which means "no cluster attribute" (a plain launch); with_cluster
 * 0 leaves it off. */
static void fill_config(cudaLaunchConfig_t *lc, cudaLaunchAttribute *attr, const dsm_launch_config *cfg,
                        const dsm_launch_options *opt, int with_cluster)
{
    memset(lc, 0, sizeof *lc);
    memset(attr, 0, LAUNCH_ATTRS_MAX * sizeof *attr);
    lc->gridDim = to_dim3(cfg->grid);
    lc->blockDim = to_dim3(cfg->block);
    lc->dynamicSmemBytes = cfg->dynamic_smem_bytes;
    lc->stream = opt ? to_stream(opt->stream) : 0; /* 0: the legacy default stream, ordered with memcpy */
    lc->attrs = attr;
    if (with_cluster && (cfg->cluster.x | cfg->cluster.y | cfg->cluster.z) != 0) {
        attr[lc->numAttrs].id = cudaLaunchAttributeClusterDimension;
        attr[lc->numAttrs].val.clusterDim.x = cfg->cluster.x;
        attr[lc->numAttrs].val.clusterDim.y = cfg->cluster.y;
        attr[lc->numAttrs].val.clusterDim.z = cfg->cluster.z;
        ++lc->numAttrs;
    }
    if (opt && opt->programmatic_dependent_launch) {
        attr[lc->numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[lc->numAttrs].val.programmaticStreamSerializationAllowed = 1;
        ++lc->numAttrs;
    }
    if (opt && opt->cooperative) {
        attr[lc->numAttrs].id = cudaLaunchAttributeCooperative;
        attr[lc->numAttrs].val.cooperative = 1;
        ++lc->numAttrs;
    }
    if (lc->numAttrs == 0)
        lc->attrs = NULL;
}

dsm_error_t dsm_launch_ex(const dsm_launch_config *cfg, const dsm_launch_options *opt, dsm_kernel_t kernel,
                          void **args)
{
    if (cfg == NULL || kernel == NULL)
        return dsmErrorInvalidValue;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr[LAUNCH_ATTRS_MAX];
    fill_config(&lc, attr, cfg, opt, 1);
    cudaError_t err = cudaLaunchKernelExC(&lc, kernel, args);
    if (err != cudaSuccess)
        (void)cudaGetLastError(); /* a rejected launch is not sticky: clear it so later calls start clean */
    return from_cuda(err);
}

dsm_error_t dsm_launch(const dsm_launch_config *cfg, dsm_kernel_t kernel, void **args)
{
    return dsm_launch_ex(cfg, NULL, kernel, args);
}

/* ---- streams, events, graphs ---- */

dsm_error_t dsm_stream_create(dsm_stream_t *stream)
{
    if (stream == NULL)
        return dsmErrorInvalidValue;
    cudaStream_t s = 0;
    cudaError_t err = cudaStreamCreateWithFlags(&s, cudaStreamDefault); /* blocking: ordered with stream 0 */
    *stream = err == cudaSuccess ? (dsm_stream_t)(void *)s : NULL;
    return from_cuda(err);
}

dsm_error_t dsm_stream_destroy(dsm_stream_t stream)
{
    return stream == NULL ? dsmSuccess : from_cuda(cudaStreamDestroy(to_stream(stream)));
}

dsm_error_t dsm_stream_synchronize(dsm_stream_t stream) { return from_cuda(cudaStreamSynchronize(to_stream(stream))); }

dsm_error_t dsm_event_create(dsm_event_t *event)
{
    if (event == NULL)
        return dsmErrorInvalidValue;
    cudaEvent_t e = NULL;
    cudaError_t err = cudaEventCreate(&e);
    *event = err == cudaSuccess ? (dsm_event_t)(void *)e : NULL;
    return from_cuda(err);
}

dsm_error_t dsm_event_destroy(dsm_event_t event)
{
    return event == NULL ? dsmSuccess : from_cuda(cudaEventDestroy((cudaEvent_t)(void *)event));
}

dsm_error_t dsm_event_record(dsm_event_t event, dsm_stream_t stream)
{
    if (event == NULL)
        return dsmErrorInvalidValue;
    return from_cuda(cudaEventRecord((cudaEvent_t)(void *)event, to_stream(stream)));
}

dsm_error_t dsm_event_synchronize(dsm_event_t event)
{
    if (event == NULL)
        return dsmErrorInvalidValue;
    return from_cuda(cudaEventSynchronize((cudaEvent_t)(void *)event));
}

dsm_error_t dsm_event_elapsed_ms(float *ms, dsm_event_t start, dsm_event_t end)
{
    if (ms == NULL || start == NULL || end == NULL)
        return dsmErrorInvalidValue;
    return from_cuda(cudaEventElapsedTime(ms, (cudaEvent_t)(void *)start, (cudaEvent_t)(void *)end));
}

dsm_error_t dsm_stream_begin_capture(dsm_stream_t stream)
{
    if (stream == NULL)
        return dsmErrorInvalidValue; /* the legacy stream cannot be captured */
    return from_cuda(cudaStreamBeginCapture(to_stream(stream), cudaStreamCaptureModeThreadLocal));
}

dsm_error_t dsm_stream_end_capture(dsm_stream_t stream, dsm_graph_exec_t *exec)
{
    if (stream == NULL || exec == NULL)
        return dsmErrorInvalidValue;
    *exec = NULL;
    cudaGraph_t graph = NULL;
    cudaGraphExec_t ge = NULL;
    cudaError_t err = cudaStreamEndCapture(to_stream(stream), &graph);
    if (err == cudaSuccess)
        err = cudaGraphInstantiate(&ge, graph, 0);
    if (graph != NULL)
        cudaGraphDestroy(graph); /* the executable graph is a copy */
    if (err != cudaSuccess) {
        (void)cudaGetLastError(); /* an invalidated capture is not sticky */
        return from_cuda(err);
    }
    *exec = (dsm_graph_exec_t)(void *)ge;
    return dsmSuccess;
}

dsm_error_t dsm_graph_launch(dsm_graph_exec_t exec, dsm_stream_t stream)
{
    if (exec == NULL)
        return dsmErrorInvalidValue;
    return from_cuda(cudaGraphLaunch((cudaGraphExec_t)(void *)exec, to_stream(stream)));
}

dsm_error_t dsm_graph_exec_destroy(dsm_graph_exec_t exec)
{
    return exec == NULL ? dsmSuccess : from_cuda(cudaGraphExecDestroy((cudaGraphExec_t)(void *)exec));
}

dsm_error_t dsm_device_l2_bytes(size_t *bytes)
{
    int dev = 0, l2 = 0;
    if (bytes == NULL)
        return dsmErrorInvalidValue;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    *bytes = err == cudaSuccess && l2 > 0 ? (size_t)l2 : 0;
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
    cudaLaunchAttribute attr[LAUNCH_ATTRS_MAX];
    fill_config(&lc, attr, cfg, NULL, 1);
    return from_cuda(cudaOccupancyMaxActiveClusters(clusters, kernel, &lc));
}

dsm_error_t dsm_occupancy_max_potential_cluster_size(int *size, dsm_kernel_t kernel, const dsm_launch_config *cfg)
{
    if (size == NULL || kernel == NULL || cfg == NULL)
        return dsmErrorInvalidValue;
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr[LAUNCH_ATTRS_MAX];
    fill_config(&lc, attr, cfg, NULL, 0); /* the cluster dims are ignored by CUDA anyway */
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
