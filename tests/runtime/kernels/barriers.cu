/* barriers.cu: kernels that misuse barriers (double arrive, wait without arrive, divergent __syncthreads, deadlock) and their fixed twins. */
#include "dsm.h"

__global__ void arrive_twice(int *out)
{
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    out[blockIdx.x] = 1;
}
DSM_KERNEL_ENTRY(arrive_twice, int *)

__global__ void arrive_wait_twice(int *out)
{
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    out[blockIdx.x] = 1;
}
DSM_KERNEL_ENTRY(arrive_wait_twice, int *)

__global__ void wait_without_arrive(int *out)
{
    dsm_barrier_cluster_wait();
    out[blockIdx.x] = 1;
}
DSM_KERNEL_ENTRY(wait_without_arrive, int *)

/* Threads 32.. return early while the first warp waits at __syncthreads. */
__global__ void syncthreads_after_early_return(int *out)
{
    if (threadIdx.x >= 32)
        return;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = 1;
}
DSM_KERNEL_ENTRY(syncthreads_after_early_return, int *)

/* Odd and even threads wait at two different __syncthreads. */
__global__ void syncthreads_in_branches(int *out)
{
    if (threadIdx.x % 2)
        __syncthreads();
    else
        __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
DSM_KERNEL_ENTRY(syncthreads_in_branches, int *)

__global__ void syncthreads_guarded_work(int *out, int n)
{
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        out[i] = 1;
    __syncthreads();
    if (i < n)
        out[i] += 1;
}
DSM_KERNEL_ENTRY(syncthreads_guarded_work, int *, int)

/* An mbarrier that expects `count` arrivals gets one per CTA: count 2 never completes. */
__global__ void mbarrier_waits_forever(int *out, int count)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0)
        dsm_mbarrier_init(&bar, (uint32_t)count);
    __syncthreads();
    if (threadIdx.x == 0)
        dsm_mbarrier_arrive(&bar);
    dsm_mbarrier_wait_parity(&bar, 0);
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mbarrier_waits_forever, int *, int)
