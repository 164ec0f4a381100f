/* dsm_host.h: the host-side API (C): memory, launch with clusters and options, streams, events, graphs, attributes, occupancy, errors. */
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

/* A stream: launches on one stream run in order. NULL is the default stream
 * (the one dsm_launch, dsm_memset and the copies use). A stream from
 * dsm_stream_create is ordered with the default stream as a CUDA stream
 * created without cudaStreamNonBlocking is. */
typedef struct dsm_stream_s *dsm_stream_t;

/* How to launch beyond the shape: the stream, and two launch attributes. */
typedef struct dsm_launch_options {
    dsm_stream_t stream;                /* NULL: the default stream */
    int programmatic_dependent_launch;  /* cudaLaunchAttributeProgrammaticStreamSerialization = 1: the
                                           kernel may start before the previous kernel of its stream has
                                           finished; it waits for it with dsm_griddepcontrol_wait() */
    int cooperative;                    /* cudaLaunchAttributeCooperative = 1: the whole grid co-resident,
                                           else dsmErrorCooperativeLaunchTooLarge (emulator: from the
                                           device model's occupancy) */
} dsm_launch_options;

/* dsm_launch with options (NULL: none, the default stream). Returns launch
 * errors; execution errors come back from dsm_stream_synchronize or
 * dsm_device_synchronize. While opt->stream is being captured
 * (dsm_stream_begin_capture) the launch is recorded into the graph. On the
 * emulator the kernel has run to completion when this returns, captured or
 * not, and programmatic dependent launch is accepted and changes nothing. */
dsm_error_t dsm_launch_ex(const dsm_launch_config *cfg, const dsm_launch_options *opt, dsm_kernel_t kernel,
                          void **args);

/* cudaStreamCreate / cudaStreamDestroy / cudaStreamSynchronize. Synchronize
 * returns the first execution error of the stream's work (as
 * dsm_device_synchronize does). Destroying NULL does nothing. */
dsm_error_t dsm_stream_create(dsm_stream_t *stream);
dsm_error_t dsm_stream_destroy(dsm_stream_t stream);
dsm_error_t dsm_stream_synchronize(dsm_stream_t stream);

/* An event: a point in a stream's work, with the time it was reached.
 * cudaEventCreate / Destroy / Record / Synchronize / ElapsedTime. On the
 * emulator an event reads a host clock when it is recorded (the work before
 * it has run by then). */
typedef struct dsm_event_s *dsm_event_t;
dsm_error_t dsm_event_create(dsm_event_t *event);
dsm_error_t dsm_event_destroy(dsm_event_t event);
dsm_error_t dsm_event_record(dsm_event_t event, dsm_stream_t stream);
dsm_error_t dsm_event_synchronize(dsm_event_t event);
/* Milliseconds from start to end, both recorded and reached. */
dsm_error_t dsm_event_elapsed_ms(float *ms, dsm_event_t start, dsm_event_t end);

/* A graph of launches, captured from a stream and instantiated, ready to be
 * launched as a whole (cudaGraphExec_t). */
typedef struct dsm_graph_exec_s *dsm_graph_exec_t;

/* cudaStreamBeginCapture (thread-local mode): from now on the stream's
 * launches are recorded, not run (stream must not be NULL). On the emulator
 * a captured launch runs when it is captured, in order with the stream's
 * other work, and the graph keeps the count of its launches: a kernel's
 * argument types are not known to the emulator's host side, so it cannot
 * copy the arguments to run them again, and a graph launch there runs
 * nothing more (every kernel the bench captures gives the same result run
 * once or many times; a check reads what the captured launches left). */
dsm_error_t dsm_stream_begin_capture(dsm_stream_t stream);

/* cudaStreamEndCapture + cudaGraphInstantiate: the launches recorded since
 * dsm_stream_begin_capture, as one graph ready to launch (*exec). A capture
 * that went wrong (a launch refused, work from another stream) gives the
 * error and no graph (*exec NULL); the stream is no longer capturing either way. */
dsm_error_t dsm_stream_end_capture(dsm_stream_t stream, dsm_graph_exec_t *exec);

/* cudaGraphLaunch: the graph's launches, in order, on stream (may be NULL). */
dsm_error_t dsm_graph_launch(dsm_graph_exec_t exec, dsm_stream_t stream);

/* cudaGraphExecDestroy; NULL does nothing. */
dsm_error_t dsm_graph_exec_destroy(dsm_graph_exec_t exec);

/* cudaDevAttrL2CacheSize in bytes (emulator: the device model's). */
dsm_error_t dsm_device_l2_bytes(size_t *bytes);

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
