/* host_emu.c: the host API on the emulator: device memory (registered in state/device_memory.c), copies, kernel attributes, the device. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_api.h"

/* ---- device memory ---- */

dsm_error_t dsm_malloc(void **ptr, size_t bytes)
{
    if (!ptr)
        return dsmErrorInvalidValue;
    /* From the arena (a plain access there is recognised as device memory),
     * 256-byte aligned as cudaMalloc's, a guard page after it. */
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = ((bytes ? bytes : 1) + pg - 1) / pg * pg;
    unsigned char *map = emu_arena_map(body + pg);
    if (!map || mprotect(map, body, PROT_READ | PROT_WRITE) != 0)
        return dsmErrorMemoryAllocation;
    void *p = map;
    if (!emu_device_register(p, bytes, map, body + pg)) {
        emu_arena_unmap(map, body + pg);
        return dsmErrorMemoryAllocation;
    }
    *ptr = p;
    return dsmSuccess;
}

dsm_error_t dsm_free(void *ptr)
{
    if (!ptr)
        return dsmSuccess;
    return emu_device_unregister(ptr) ? dsmSuccess : dsmErrorInvalidValue;
}

dsm_error_t dsm_memset(void *dst, int value, size_t bytes)
{
    if (!emu_is_device(dst, bytes))
        return dsmErrorInvalidValue;
    memset(dst, value, bytes);
    return dsmSuccess;
}

dsm_error_t dsm_memcpy_to_device(void *dst, const void *src, size_t bytes)
{
    if (!emu_is_device(dst, bytes) || !src)
        return dsmErrorInvalidValue;
    memcpy(dst, src, bytes);
    return dsmSuccess;
}

dsm_error_t dsm_memcpy_to_host(void *dst, const void *src, size_t bytes)
{
    dsm_error_t e = emu_take_pending_error();
    if (e)
        return e;
    if (!emu_is_device(src, bytes) || !dst)
        return dsmErrorInvalidValue;
    memcpy(dst, src, bytes);
    return dsmSuccess;
}

static size_t static_smem(const struct dsm_emu_kernel *k)
{
    return k->shared_begin ? (size_t)(k->shared_end - k->shared_begin) : 0;
}

dsm_error_t dsm_func_set_max_dynamic_smem(dsm_kernel_t kernel, int bytes)
{
    const struct dsm_emu_kernel *k = kernel;
    if (!k)
        return dsmErrorInvalidDeviceFunction;
    if (bytes < 0 || (size_t)bytes + static_smem(k) > EMU_SMEM_PER_BLOCK_MAX)
        return dsmErrorInvalidValue;
    return emu_kernel_set_max_dynamic_smem(k, bytes) ? dsmSuccess : dsmErrorMemoryAllocation;
}

dsm_error_t dsm_func_set_non_portable_cluster_size_allowed(dsm_kernel_t kernel, int allowed)
{
    if (!kernel)
        return dsmErrorInvalidDeviceFunction;
    return emu_kernel_set_non_portable(kernel, allowed) ? dsmSuccess : dsmErrorMemoryAllocation;
}

/* ---- the device ---- */

dsm_error_t dsm_device_check(const char **why)
{
    if (why)
        *why = "the CPU cluster emulator is always available";
    return dsmSuccess;
}

const char *dsm_backend_name(void) { return "emulator"; }

