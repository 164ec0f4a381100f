/* error_names.c: the names and messages of the runtime's error codes (the CUDA runtime's where one exists). */
#include "emu_diagnostics.h"

const char *dsm_error_name(dsm_error_t e)
{
    switch (e) {
    case dsmSuccess: return "cudaSuccess";
    case dsmErrorInvalidValue: return "cudaErrorInvalidValue";
    case dsmErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case dsmErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case dsmErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case dsmErrorNoDevice: return "cudaErrorNoDevice";
    case dsmErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case dsmErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case dsmErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
    case dsmErrorLaunchFailure: return "cudaErrorLaunchFailure";
    case dsmErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    case dsmErrorNotSupported: return "cudaErrorNotSupported";
    case dsmErrorInvalidClusterSize: return "cudaErrorInvalidClusterSize";
    case dsmErrorUnknown: return "cudaErrorUnknown";
    case dsmErrorRaceDetected: return "dsmErrorRaceDetected";
    case dsmErrorBarrierMisuse: return "dsmErrorBarrierMisuse";
    case dsmErrorDeadlock: return "dsmErrorDeadlock";
    case dsmErrorUninitializedRead: return "dsmErrorUninitializedRead";
    }
    return "unrecognized error code";
}

const char *dsm_error_string(dsm_error_t e)
{
    switch (e) {
    case dsmSuccess: return "no error";
    case dsmErrorInvalidValue: return "invalid argument";
    case dsmErrorMemoryAllocation: return "out of memory";
    case dsmErrorInvalidConfiguration: return "invalid configuration argument";
    case dsmErrorInvalidDeviceFunction: return "invalid device function";
    case dsmErrorNoDevice: return "no CUDA-capable device is detected";
    case dsmErrorIllegalAddress: return "an illegal memory access was encountered";
    case dsmErrorLaunchOutOfResources: return "too many resources requested for launch";
    case dsmErrorLaunchTimeout: return "the launch timed out and was terminated";
    case dsmErrorLaunchFailure: return "unspecified launch failure";
    case dsmErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    case dsmErrorNotSupported: return "operation not supported";
    case dsmErrorInvalidClusterSize: return "cluster misconfiguration";
    case dsmErrorUnknown: return "unknown error";
    case dsmErrorRaceDetected: return "data race (emulator only; hardware returns silently wrong results)";
    case dsmErrorBarrierMisuse: return "barrier misuse (emulator only; undefined behaviour on hardware)";
    case dsmErrorDeadlock: return "deadlock (emulator only; the kernel hangs on hardware)";
    case dsmErrorUninitializedRead: return "read of uninitialised shared memory (emulator only; garbage on hardware)";
    }
    return "unrecognized error code";
}
