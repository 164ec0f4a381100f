/* emu_api.h: the emulator's API layer: the device entry points that belong to no mechanism (registers,
 * atomics), the plain-access hooks of kernel code, dsm_launch and the host API. Calls every layer below.
 *
 * Host-API extensions (streams, graphs, launch options, ...): a new file api/host_<what>.c, with its
 * internal entry points declared at the end of this header; it may call launch.c (dsm_launch) and
 * anything below, and no mechanism calls it. */
#ifndef DSM_EMU_API_H
#define DSM_EMU_API_H

#include "../mechanisms/emu_mechanisms.h"

/* ---- plain_access.c: the ThreadSanitizer entry points kernel code calls for every plain load and store ---- */
/* An atomic RMW of n bytes at a by kernel code (atomicAdd & co.); ret: the kernel's return address. */
void emu_atomic_access(void *a, unsigned n, void *ret);

/* ---- launch.c ---- */
/* The error of the last launch, if one is pending (cleared): what dsm_device_synchronize returns. */
dsm_error_t emu_take_pending_error(void);

#endif
