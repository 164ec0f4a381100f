/* counts.cu: kernels for test_counts.c: a known number of cluster barriers and mbarrier phases, and clock64 differences written to global memory. */
#include "dsm.h"

/* Every thread passes `syncs` cluster barriers; thread 0 of each CTA completes
 * `phases` phases of its own mbarrier (one arrival each). */
__global__ void counted_barriers(uint32_t syncs, uint32_t phases)
{
    __shared__ uint64_t bar;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&bar, 1);
        for (uint32_t p = 0; p < phases; ++p) {
            dsm_mbarrier_arrive(&bar);
            dsm_mbarrier_wait_parity(&bar, p & 1u);
        }
    }
    for (uint32_t s = 0; s < syncs; ++s)
        dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(counted_barriers, uint32_t, uint32_t)

/* Thread 0 of each CTA times a loop of `syncs` cluster barriers with clock64
 * and writes the difference to cycles[blockIdx.x]. */
__global__ void timed_barriers(uint32_t syncs, unsigned long long *cycles)
{
    uint64_t t0 = dsm_clock64();
    for (uint32_t s = 0; s < syncs; ++s)
        dsm_cluster_sync();
    uint64_t t1 = dsm_clock64();
    if (threadIdx.x == 0)
        cycles[blockIdx.x] = (unsigned long long)(t1 - t0);
}
DSM_KERNEL_ENTRY(timed_barriers, uint32_t, unsigned long long *)
