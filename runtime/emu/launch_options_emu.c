/* launch_options_emu.c: the host API's launch options, streams, events and graphs on the emulator: every launch runs to completion in host order, events read a host clock. */
#include <stdlib.h>
#include <time.h>

#include "dsm_host.h"            /* -Iruntime: the same line wherever the layer folders put this file */
#include "model/device_model.h"

/* A stream on the emulator: work runs when it is issued, so a stream only
 * knows whether it is capturing and how many launches the capture holds. */
struct dsm_stream_s {
    int capturing;
    int capture_failed;     /* a launch was refused while capturing: the graph is invalid */
    dsm_error_t capture_err;
    long captured;          /* launches recorded since dsm_stream_begin_capture */
};

struct dsm_event_s {
    int recorded;
    double ms;              /* the host clock when it was recorded */
};

struct dsm_graph_exec_s {
    long launches;          /* what the capture recorded (they ran when captured) */
};

static double host_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static unsigned dim_or_one(unsigned d) { return d ? d : 1; }

/* cudaLaunchAttributeCooperative: every cluster of the grid resident at once,
 * as the device model's occupancy answers for this kernel and shape. */
static dsm_error_t check_cooperative(const dsm_launch_config *cfg, dsm_kernel_t kernel)
{
    dsm_launch_config one = *cfg;
    one.cluster = DSM_DIM3(dim_or_one(cfg->cluster.x), dim_or_one(cfg->cluster.y), dim_or_one(cfg->cluster.z));
    int resident = 0;
    dsm_error_t err = dsm_occupancy_max_active_clusters(&resident, kernel, &one);
    if (err != dsmSuccess)
        return err;
    unsigned long long ctas = (unsigned long long)cfg->grid.x * cfg->grid.y * cfg->grid.z;
    unsigned long long per_cluster = (unsigned long long)one.cluster.x * one.cluster.y * one.cluster.z;
    return ctas / per_cluster > (unsigned long long)(resident > 0 ? resident : 0) ? dsmErrorCooperativeLaunchTooLarge
                                                                                   : dsmSuccess;
}

dsm_error_t dsm_launch_ex(const dsm_launch_config *cfg, const dsm_launch_options *opt, dsm_kernel_t kernel,
                          void **args)
{
    if (cfg == NULL || kernel == NULL)
        return dsmErrorInvalidValue;
    dsm_stream_t s = opt ? opt->stream : NULL;
    dsm_error_t err = dsmSuccess;
    if (opt && opt->cooperative)
        err = check_cooperative(cfg, kernel);
    if (err == dsmSuccess)
        err = dsm_launch(cfg, kernel, args); /* PDL: the kernel runs after the previous one, which is allowed */
    if (s && s->capturing) {
        if (err == dsmSuccess)
            ++s->captured;
        else if (!s->capture_failed)
            s->capture_failed = 1, s->capture_err = err;
    }
    return err;
}

dsm_error_t dsm_stream_create(dsm_stream_t *stream)
{
    if (stream == NULL)
        return dsmErrorInvalidValue;
    *stream = calloc(1, sizeof **stream);
    return *stream ? dsmSuccess : dsmErrorMemoryAllocation;
}

dsm_error_t dsm_stream_destroy(dsm_stream_t stream)
{
    free(stream);
    return dsmSuccess;
}

/* The stream's work has run; its execution errors are the device's. */
dsm_error_t dsm_stream_synchronize(dsm_stream_t stream)
{
    (void)stream;
    return dsm_device_synchronize();
}

dsm_error_t dsm_event_create(dsm_event_t *event)
{
    if (event == NULL)
        return dsmErrorInvalidValue;
    *event = calloc(1, sizeof **event);
    return *event ? dsmSuccess : dsmErrorMemoryAllocation;
}

dsm_error_t dsm_event_destroy(dsm_event_t event)
{
    free(event);
    return dsmSuccess;
}

dsm_error_t dsm_event_record(dsm_event_t event, dsm_stream_t stream)
{
    (void)stream;
    if (event == NULL)
        return dsmErrorInvalidValue;
    event->recorded = 1;
    event->ms = host_ms();
    return dsmSuccess;
}

dsm_error_t dsm_event_synchronize(dsm_event_t event)
{
    if (event == NULL)
        return dsmErrorInvalidValue;
    return event->recorded ? dsmSuccess : dsmErrorInvalidValue;
}

dsm_error_t dsm_event_elapsed_ms(float *ms, dsm_event_t start, dsm_event_t end)
{
    if (ms == NULL || start == NULL || end == NULL || !start->recorded || !end->recorded)
        return dsmErrorInvalidValue; /* cudaErrorInvalidResourceHandle on a GPU for an unrecorded event */
    *ms = (float)(end->ms - start->ms);
    return dsmSuccess;
}

dsm_error_t dsm_stream_begin_capture(dsm_stream_t stream)
{
    if (stream == NULL || stream->capturing)
        return dsmErrorInvalidValue;
    stream->capturing = 1;
    stream->capture_failed = 0;
    stream->capture_err = dsmSuccess;
    stream->captured = 0;
    return dsmSuccess;
}

dsm_error_t dsm_stream_end_capture(dsm_stream_t stream, dsm_graph_exec_t *exec)
{
    if (stream == NULL || exec == NULL || !stream->capturing)
        return dsmErrorInvalidValue;
    *exec = NULL;
    stream->capturing = 0;
    if (stream->capture_failed)
        return stream->capture_err;
    *exec = malloc(sizeof **exec);
    if (*exec == NULL)
        return dsmErrorMemoryAllocation;
    (*exec)->launches = stream->captured;
    return dsmSuccess;
}

dsm_error_t dsm_graph_launch(dsm_graph_exec_t exec, dsm_stream_t stream)
{
    (void)stream;
    return exec ? dsmSuccess : dsmErrorInvalidValue; /* its launches ran when they were captured */
}

dsm_error_t dsm_graph_exec_destroy(dsm_graph_exec_t exec)
{
    free(exec);
    return dsmSuccess;
}

dsm_error_t dsm_device_l2_bytes(size_t *bytes)
{
    if (bytes == NULL)
        return dsmErrorInvalidValue;
    *bytes = dsm_model_default()->l2_bytes;
    return dsmSuccess;
}
