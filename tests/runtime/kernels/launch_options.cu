/* launch_options.cu: a kernel whose result depends on the order of its launches (x = x * mul + add per element), for the tests of streams, graphs, PDL and cooperative launch. */
#include "dsm.h"

/* Every element: x[i] = x[i] * mul + add. Launched with programmatic dependent
 * launch, it waits for the previous kernel of its stream before it reads x,
 * and lets the next one start once it has read. */
__global__ void affine_step(uint32_t *x, int n, uint32_t mul, uint32_t add)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    dsm_griddepcontrol_wait();
    uint32_t v = i < n ? x[i] : 0u;
    dsm_griddepcontrol_launch_dependents();
    if (i < n)
        x[i] = v * mul + add;
}
DSM_KERNEL_ENTRY(affine_step, uint32_t *, int, uint32_t, uint32_t)
