/* host_emu.c: the host API on the emulator: device memory (tracked, to compare schedules), kernel attributes, errors. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu_internal.h"

/* ---- device memory ---- */

typedef struct allocation {
    unsigned char *p;
    size_t bytes;
    unsigned char *map;  /* its arena block: pages for the buffer, then a guard page */
    size_t map_len;
} allocation;

static allocation *allocs;
static size_t nallocs, cap_allocs;

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
    if (nallocs == cap_allocs) {
        size_t cap = cap_allocs ? 2 * cap_allocs : 16;
        allocation *a = realloc(allocs, cap * sizeof *a);
        if (!a) {
            emu_arena_unmap(map, body + pg);
            return dsmErrorMemoryAllocation;
        }
        allocs = a;
        cap_allocs = cap;
    }
    allocs[nallocs++] = (allocation){p, bytes, map, body + pg};
    *ptr = p;
    return dsmSuccess;
}

dsm_error_t dsm_free(void *ptr)
{
    if (!ptr)
        return dsmSuccess;
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].p == ptr) {
            emu_arena_unmap(allocs[i].map, allocs[i].map_len);
            allocs[i] = allocs[--nallocs];
            return dsmSuccess;
        }
    return dsmErrorInvalidValue;
}

bool emu_is_device(const void *p, size_t n)
{
    /* every plain global access of a kernel asks: start with the buffer that answered last */
    static size_t last;
    const unsigned char *a = p;
    if (last < nallocs && a >= allocs[last].p && a + n <= allocs[last].p + allocs[last].bytes)
        return true;
    for (size_t i = 0; i < nallocs; i++)
        if (a >= allocs[i].p && a + n <= allocs[i].p + allocs[i].bytes) {
            last = i;
            return true;
        }
    return false;
}

bool emu_global_find(const void *p, size_t n, const unsigned char **start, size_t *bytes)
{
    static size_t last;
    const unsigned char *a = p;
    for (size_t k = 0; k <= nallocs; k++) {
        size_t i = k == 0 ? last : k - 1; /* the buffer that answered last first */
        if (i < nallocs && a >= allocs[i].p && a + n <= allocs[i].p + allocs[i].bytes) {
            last = i;
            *start = allocs[i].p;
            *bytes = allocs[i].bytes;
            return true;
        }
    }
    return false;
}

size_t emu_global_count(void) { return nallocs; }

void emu_global_buffer(size_t i, const unsigned char **start, size_t *bytes)
{
    *start = allocs[i].p;
    *bytes = allocs[i].bytes;
}

bool emu_global_nearest(const void *p, size_t *index, const unsigned char **start, size_t *bytes)
{
    const unsigned char *a = p, *best = NULL;
    for (size_t i = 0; i < nallocs; i++)
        if (allocs[i].p <= a && (!best || allocs[i].p > best)) {
            best = allocs[i].p;
            *index = i;
            *start = best;
            *bytes = allocs[i].bytes;
        }
    return best != NULL;
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

size_t emu_globals_bytes(void)
{
    size_t t = 0;
    for (size_t i = 0; i < nallocs; i++)
        t += allocs[i].bytes;
    return t;
}

void emu_globals_snapshot(unsigned char **out, size_t *total)
{
    size_t t = emu_globals_bytes();
    unsigned char *b = malloc(t ? t : 1);
    size_t o = 0;
    for (size_t i = 0; b && i < nallocs; i++) {
        memcpy(b + o, allocs[i].p, allocs[i].bytes);
        o += allocs[i].bytes;
    }
    *out = b;
    *total = t;
}

void emu_globals_restore(const unsigned char *snap)
{
    size_t o = 0;
    for (size_t i = 0; snap && i < nallocs; i++) {
        memcpy(allocs[i].p, snap + o, allocs[i].bytes);
        o += allocs[i].bytes;
    }
}

bool emu_globals_compare(const unsigned char *a, const unsigned char *b, char *msg, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; a && b && i < nallocs; i++) {
        if (memcmp(a + o, b + o, allocs[i].bytes) != 0) {
            size_t k = 0;
            while (a[o + k] == b[o + k])
                k++;
            size_t w = k / 4 * 4;
            uint32_t x = 0, y = 0;
            memcpy(&x, a + o + w, w + 4 <= allocs[i].bytes ? 4 : 0);
            memcpy(&y, b + o + w, w + 4 <= allocs[i].bytes ? 4 : 0);
            size_t diffs = 0;
            for (size_t j = 0; j + 4 <= allocs[i].bytes; j += 4)
                diffs += memcmp(a + o + j, b + o + j, 4) != 0;
            snprintf(msg, n,
                     "device buffer %zu (%zu bytes at %p): %zu of its 4-byte words differ; the first is word %zu "
                     "(byte %zu): 0x%08X (%d) then 0x%08X (%d)",
                     i, allocs[i].bytes, (void *)allocs[i].p, diffs, w / 4, w, x, (int)x, y, (int)y);
            return true;
        }
        o += allocs[i].bytes;
    }
    return false;
}

bool emu_globals_find_poison(const unsigned char *before, char *msg, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < nallocs; i++) {
        for (size_t j = 0; j + 4 <= allocs[i].bytes; j += 4) {
            uint32_t now, was = 0;
            memcpy(&now, allocs[i].p + j, 4);
            if (before)
                memcpy(&was, before + o + j, 4);
            if (now == EMU_POISON_WORD && was != EMU_POISON_WORD) {
                snprintf(msg, n, "device buffer %zu (%zu bytes at %p), word %zu (byte %zu)", i, allocs[i].bytes,
                         (void *)allocs[i].p, j / 4, j);
                return true;
            }
        }
        o += allocs[i].bytes;
    }
    return false;
}

/* ---- kernel attributes ---- */

typedef struct kernel_attrs {
    const void *kernel;
    int max_dynamic_smem;
    int non_portable;
} kernel_attrs;

static kernel_attrs attrs[64];
static int nattrs;

static kernel_attrs *attrs_of(const void *k, bool create)
{
    for (int i = 0; i < nattrs; i++)
        if (attrs[i].kernel == k)
            return &attrs[i];
    if (!create || nattrs == 64)
        return NULL;
    attrs[nattrs] = (kernel_attrs){k, (int)EMU_SMEM_DEFAULT_DYNAMIC, 0};
    return &attrs[nattrs++];
}

int emu_kernel_max_dynamic_smem(const struct dsm_emu_kernel *k)
{
    kernel_attrs *a = attrs_of(k, false);
    return a ? a->max_dynamic_smem : (int)EMU_SMEM_DEFAULT_DYNAMIC;
}

int emu_kernel_non_portable(const struct dsm_emu_kernel *k)
{
    kernel_attrs *a = attrs_of(k, false);
    return a ? a->non_portable : 0;
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
    kernel_attrs *a = attrs_of(k, true);
    if (!a)
        return dsmErrorMemoryAllocation;
    a->max_dynamic_smem = bytes;
    return dsmSuccess;
}

dsm_error_t dsm_func_set_non_portable_cluster_size_allowed(dsm_kernel_t kernel, int allowed)
{
    if (!kernel)
        return dsmErrorInvalidDeviceFunction;
    kernel_attrs *a = attrs_of(kernel, true);
    if (!a)
        return dsmErrorMemoryAllocation;
    a->non_portable = allowed != 0;
    return dsmSuccess;
}

/* ---- the device ---- */

dsm_error_t dsm_device_check(const char **why)
{
    if (why)
        *why = "the CPU cluster emulator is always available";
    return dsmSuccess;
}

const char *dsm_backend_name(void) { return "emulator"; }

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
