/* cta_order.cu: inside a CTA a cluster barrier orders only what a thread did before its release arrive; buggy kernels (a relaxed rendezvous, work after the own arrive) and their fixed twins. 2 CTAs of 64 threads. */
#include "dsm.h"

/* Threads 1..63 count themselves with shared atomics; thread 0 reads the count after the barrier. */
__global__ void count_relaxed_rendezvous(unsigned *out)
{
    __shared__ unsigned count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    if (threadIdx.x > 0)
        atomicAdd(&count, 1u);
    dsm_barrier_cluster_arrive_relaxed(); /* BUG: a relaxed arrive orders none of the atomics before the wait */
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}
DSM_KERNEL_ENTRY(count_relaxed_rendezvous, unsigned *)

__global__ void count_release_rendezvous(unsigned *out)
{
    __shared__ unsigned count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    if (threadIdx.x > 0)
        atomicAdd(&count, 1u);
    dsm_barrier_cluster_arrive(); /* .release: the atomics happen before the wait of every thread */
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}
DSM_KERNEL_ENTRY(count_release_rendezvous, unsigned *)

/* Threads 1..63 add to a partial after their own arrive; thread 0 reads it after its wait. */
__global__ void partial_after_own_arrive(unsigned *out)
{
    __shared__ unsigned partial;
    if (threadIdx.x == 0)
        partial = 0;
    __syncthreads();
    dsm_barrier_cluster_arrive();
    if (threadIdx.x > 0)
        atomicAdd(&partial, threadIdx.x); /* BUG: after this thread's arrive, so not before anyone's wait */
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial;
}
DSM_KERNEL_ENTRY(partial_after_own_arrive, unsigned *)

__global__ void partial_before_own_arrive(unsigned *out)
{
    __shared__ unsigned partial;
    if (threadIdx.x == 0)
        partial = 0;
    __syncthreads();
    if (threadIdx.x > 0)
        atomicAdd(&partial, threadIdx.x);
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial;
}
DSM_KERNEL_ENTRY(partial_before_own_arrive, unsigned *)

/* Thread 0 initialises an mbarrier that thread 1 arrives on after the cluster barrier. */
__global__ void mbar_init_relaxed_rendezvous(unsigned *out)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0)
        dsm_mbarrier_init(&bar, 1);
    dsm_barrier_cluster_arrive_relaxed(); /* BUG: no release (and no fence.mbarrier_init) carries the init */
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 1)
        (void)dsm_mbarrier_arrive(&bar);
    if (threadIdx.x == 0) {
        dsm_mbarrier_wait_parity(&bar, 0);
        out[blockIdx.x] = 1;
    }
}
DSM_KERNEL_ENTRY(mbar_init_relaxed_rendezvous, unsigned *)

__global__ void mbar_init_release_rendezvous(unsigned *out)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0)
        dsm_mbarrier_init(&bar, 1);
    dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();
    if (threadIdx.x == 1)
        (void)dsm_mbarrier_arrive(&bar);
    if (threadIdx.x == 0) {
        dsm_mbarrier_wait_parity(&bar, 0);
        out[blockIdx.x] = 1;
    }
}
DSM_KERNEL_ENTRY(mbar_init_release_rendezvous, unsigned *)
