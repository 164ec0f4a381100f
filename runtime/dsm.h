/* dsm.h: include this in a kernel file; it selects the Hopper backend under nvcc and the CPU emulator under a C compiler. */
#ifndef DSM_H
#define DSM_H

#include "dsm_types.h"
#include "dsm_host.h"
#if defined(__CUDACC__)
#include "hopper/device_hopper.h"
#else
#include "emu/device_emu.h"
/* Programmatic dependent launch on the emulator: launches run one after the
 * other, so the previous grid has always completed and the next one cannot
 * start early: griddepcontrol.wait and .launch_dependents do nothing. */
static inline void dsm_griddepcontrol_wait(void) {}
static inline void dsm_griddepcontrol_launch_dependents(void) {}
#endif

#endif
