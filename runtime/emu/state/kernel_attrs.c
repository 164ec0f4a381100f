/* kernel_attrs.c: what dsm_func_set_* recorded per kernel (dynamic shared memory limit, non-portable cluster sizes). */
#include "emu_state.h"

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

bool emu_kernel_set_max_dynamic_smem(const struct dsm_emu_kernel *k, int bytes)
{
    kernel_attrs *a = attrs_of(k, true);
    if (a)
        a->max_dynamic_smem = bytes;
    return a != NULL;
}

bool emu_kernel_set_non_portable(const struct dsm_emu_kernel *k, int allowed)
{
    kernel_attrs *a = attrs_of(k, true);
    if (a)
        a->non_portable = allowed != 0;
    return a != NULL;
}
