/* dsm_types.h: types and error codes shared by kernels, host code and both backends. */
#ifndef DSM_TYPES_H
#define DSM_TYPES_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

/* A 3-D extent or position (grid, block, cluster). Plain C, so host code built
 * by gcc and kernels built by nvcc agree on it. */
typedef struct dsm_dim3 {
    unsigned int x, y, z;
} dsm_dim3;

#ifdef __cplusplus
#define DSM_DIM3(x_, y_, z_) (dsm_dim3{(unsigned)(x_), (unsigned)(y_), (unsigned)(z_)})
#else
#define DSM_DIM3(x_, y_, z_) ((dsm_dim3){(unsigned)(x_), (unsigned)(y_), (unsigned)(z_)})
#endif

/* Error codes. The values and names are CUDA's (cudaError_t) so that a
 * learner sees the same words on the emulator and on a GPU. Codes from 10000
 * up exist only on the emulator: they name bugs that hardware does not report
 * (it returns silently wrong results instead). */
typedef enum dsm_error {
    dsmSuccess = 0,
    dsmErrorInvalidValue = 1,
    dsmErrorMemoryAllocation = 2,
    dsmErrorInvalidConfiguration = 9,
    dsmErrorInvalidDeviceFunction = 98,
    dsmErrorNoDevice = 100,
    dsmErrorIllegalAddress = 700,
    dsmErrorLaunchOutOfResources = 701,
    dsmErrorLaunchTimeout = 702,
    dsmErrorLaunchFailure = 719,
    dsmErrorNotSupported = 801,
    dsmErrorInvalidClusterSize = 912,
    dsmErrorUnknown = 999,
    /* emulator only */
    dsmErrorRaceDetected = 10000,     /* a data race or schedule-dependent result */
    dsmErrorBarrierMisuse = 10001,    /* arrive twice, __syncthreads divergence, ... */
    dsmErrorDeadlock = 10002,         /* every live thread is blocked: hardware would hang */
    dsmErrorUninitializedRead = 10003 /* a read of shared memory nobody wrote */
} dsm_error_t;

/* cudaErrorCooperativeLaunchTooLarge: a cooperative launch (dsm_launch_options.cooperative) whose grid
 * cannot be resident all at once. A constant beside the enum until the emulator's table of error names
 * (dsm_error_name) has its entry; then it joins the enum. */
#define dsmErrorCooperativeLaunchTooLarge ((dsm_error_t)720)

#endif
