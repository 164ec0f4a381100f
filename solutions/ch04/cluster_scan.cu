/* cluster_scan.cu: ch04.cluster_scan: an inclusive prefix sum over a cluster of up to 16 CTAs: each CTA scans its own part, then adds the totals of the CTAs before it, read through DSMEM. */
#include "dsm.h"
#include "cluster_scan.h"

/* See cluster_scan_launch (cluster_scan.h). Launch with CLUSTER_SCAN_THREADS
 * threads per block, 1-D clusters, no dynamic shared memory. */
__global__ void cluster_scan(uint32_t *out, const uint32_t *in, int per_cta)
{
    __shared__ uint32_t partial[CLUSTER_SCAN_THREADS]; /* each thread's run, then its exclusive prefix in the CTA */
    __shared__ uint32_t cta_total;                      /* this CTA's sum: what the later ranks read */
    __shared__ uint32_t cta_offset;                     /* the sum of every earlier rank's total */
    uint32_t rank = dsm_cluster_ctarank();
    int run = (per_cta + (int)blockDim.x - 1) / (int)blockDim.x;  /* thread t scans [t * run, (t + 1) * run) */
    int begin = (int)threadIdx.x * run, end = begin + run < per_cta ? begin + run : per_cta;
    const uint32_t *my_in = in + (size_t)blockIdx.x * (size_t)per_cta;
    uint32_t *my_out = out + (size_t)blockIdx.x * (size_t)per_cta;

    // BOOK-BEGIN(local)
    uint32_t sum = 0;
    for (int i = begin; i < end; i++)
        sum += my_in[i];
    partial[threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {         /* 128 runs: a serial exclusive scan is short */
        uint32_t acc = 0;
        for (uint32_t t = 0; t < blockDim.x; t++) {
            uint32_t v = partial[t];
            partial[t] = acc;
            acc += v;
        }
        cta_total = acc;
    }
    __syncthreads();
    // BOOK-END(local)

    // BEGIN SOLUTION
    //~ // TODO(ch04.cluster_scan): make every CTA's cta_total visible to the
    //~ // cluster, let one thread add up the totals of the ranks before this one
    //~ // (read through DSMEM) into cta_offset, and keep every CTA alive while
    //~ // later ranks read its total.
    //~ (void)rank;
    //~ if (threadIdx.x == 0)
    //~     cta_offset = 0;
    //~ __syncthreads();
    dsm_cluster_sync();     /* every CTA's total is written and published before any rank reads it */
    if (threadIdx.x == 0) {
        uint32_t acc = 0;
        for (uint32_t r = 0; r < rank; r++)
            acc += *(const uint32_t *)dsm_map_shared_rank(&cta_total, r);
        cta_offset = acc;
    }
    dsm_cluster_sync();     /* cta_offset is seen by the whole CTA, and no CTA exits while later ranks read its total */
    // END SOLUTION

    // BOOK-BEGIN(write)
    uint32_t acc = cta_offset + partial[threadIdx.x];
    for (int i = begin; i < end; i++) {
        acc += my_in[i];
        my_out[i] = acc;
    }
    // BOOK-END(write)
}
DSM_KERNEL_ENTRY(cluster_scan, uint32_t *, const uint32_t *, int)

dsm_error_t cluster_scan_launch(uint32_t *out, const uint32_t *in, int per_cta, int cluster_size, int clusters)
{
    if (per_cta < 1 || clusters < 1 || cluster_size < 1 || cluster_size > 16)
        return dsmErrorInvalidValue;
    dsm_kernel_t kernel = DSM_KERNEL(cluster_scan);
    // BEGIN SOLUTION
    //~ // TODO(ch04.cluster_scan): a cluster of more than 8 CTAs needs the kernel's permission.
    dsm_error_t err = cluster_size > 8 ? dsm_func_set_non_portable_cluster_size_allowed(kernel, 1) : dsmSuccess;
    if (err != dsmSuccess)
        return err;
    // END SOLUTION
    void *args[] = {&out, &in, &per_cta};
    dsm_launch_config cfg = {DSM_DIM3(cluster_size * clusters, 1, 1), DSM_DIM3(CLUSTER_SCAN_THREADS, 1, 1),
                             DSM_DIM3(cluster_size, 1, 1), 0};
    return dsm_launch_sync(&cfg, kernel, args);
}
