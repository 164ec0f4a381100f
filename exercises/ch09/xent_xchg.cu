/* xent_xchg.cu: the test kernel of ch09.xent_xchg: every CTA of a cluster exchanges one partial statistic per round for many rounds, every thread writing what it got. */
#include "dsm.h"
#include "xent_xchg.h"

/*
 * Launch: clusters of C CTAs, T threads, any grid. CTA b's partial of round k
 * is parts[b * rounds + k]; thread t of CTA b writes round k's result to
 * out[(b * rounds + k) * T + t].
 */
__global__ void xent_xchg_kernel(const xent_stat *parts, xent_stat *out, int rounds)
{
    __shared__ xent_xchg x;
    size_t b = blockIdx.x, T = blockDim.x;
    xent_xchg_setup(&x);
    for (int k = 0; k < rounds; ++k) {
        xent_stat r = xent_xchg_run(&x, parts[b * (size_t)rounds + (size_t)k], k);
        out[(b * (size_t)rounds + (size_t)k) * T + threadIdx.x] = r;
        __syncthreads();
    }
    xent_xchg_finish(&x, rounds);
}
DSM_KERNEL_ENTRY(xent_xchg_kernel, const xent_stat *, xent_stat *, int)
