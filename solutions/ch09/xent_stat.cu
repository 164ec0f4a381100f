/* xent_stat.cu: the test kernels of ch09.xent_stat: merges, folds and pushes of statistics, one per thread. */
#include "dsm.h"
#include "xent_stat.h"

/* out[i] = xent_stat_merge(a[i], b[i]) for i < n; any grid. */
__global__ void xent_merge_kernel(const xent_stat *a, const xent_stat *b, xent_stat *out, int n)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int)(gridDim.x * blockDim.x))
        out[i] = xent_stat_merge(a[i], b[i]);
}
DSM_KERNEL_ENTRY(xent_merge_kernel, const xent_stat *, const xent_stat *, xent_stat *, int)

/* out[l] = xent_stat_fold(p + l * per, per) for l < lists; any grid. */
__global__ void xent_fold_kernel(const xent_stat *p, int per, xent_stat *out, int lists)
{
    for (int l = (int)(blockIdx.x * blockDim.x + threadIdx.x); l < lists; l += (int)(gridDim.x * blockDim.x))
        out[l] = xent_stat_fold(p + (size_t)l * (size_t)per, per);
}
DSM_KERNEL_ENTRY(xent_fold_kernel, const xent_stat *, int, xent_stat *, int)

/* out[i] = xent_stat_push(a[i], v + i * nv, nv) for i < n; any grid. */
__global__ void xent_push_kernel(const xent_stat *a, const float *v, int nv, xent_stat *out, int n)
{
    for (int i = (int)(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += (int)(gridDim.x * blockDim.x))
        out[i] = xent_stat_push(a[i], v + (size_t)i * (size_t)nv, nv);
}
DSM_KERNEL_ENTRY(xent_push_kernel, const xent_stat *, const float *, int, xent_stat *, int)
