/* report_kinds.cu: two kernels whose launches end in a report, to read the kind line printed before it. */
#include "dsm.h"

/* Every thread arrives twice on the cluster barrier: a double arrive. */
__global__ void kinds_arrive_twice(int *out)
{
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    out[blockIdx.x] = 1;
}
DSM_KERNEL_ENTRY(kinds_arrive_twice, int *)

/* Half the threads of a CTA return before a __syncthreads the others wait at. */
__global__ void kinds_early_return(int *out)
{
    if (threadIdx.x >= 16)
        return;
    __syncthreads();
    out[blockIdx.x * 16 + threadIdx.x] = 1;
}
DSM_KERNEL_ENTRY(kinds_early_return, int *)
