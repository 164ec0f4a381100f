/* dsm.h: include this in a kernel file; it selects the Hopper backend under nvcc and the CPU emulator under a C compiler. */
#ifndef DSM_H
#define DSM_H

#include "dsm_types.h"
#include "dsm_host.h"
#if defined(__CUDACC__)
#include "hopper/device_hopper.h"
#else
#include "emu/device_emu.h"
#endif

#endif
