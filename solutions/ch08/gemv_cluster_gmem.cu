/* gemv_cluster_gmem.cu: the global-memory twin of ch08.gemv_cluster: the same clusters, K slices and reduce-scatter, but the partial vectors meet in a global workspace (L2) instead of DSMEM (benchmark of chapter 8). */
#include "dsm.h"
#include "dot_bf16.h"
#include "reduce_scatter.h"

/*
 * gemv_cluster_gmem_t<NB>(W, x, y, bias, residual, ws, M, K, nb, rows, unroll):
 * launched exactly as gemv_cluster (gemv_cluster.h), plus a workspace ws of
 * rows * 8 floats per CTA. The protocol is the DSMEM kernel's, with the
 * partials in L2: the same start (an mbarrier, and a relaxed cluster arrive
 * whose wait comes after the K loop), then each CTA writes its partial vector
 * to its own slot ws[blockIdx.x * rows * 8 ...] and tells each peer, with one
 * remote mbarrier arrive (release, cluster scope), that its slot is written;
 * each owner waits on its mbarrier (S - 1 arrivals) and adds its share from
 * the peers' slots in rank order. One cluster barrier and one mbarrier phase,
 * as in the DSMEM kernel; the one difference is where the partials live: L2
 * instead of the owner's shared memory (the signals cross DSMEM in both). A
 * cluster of one skips the workspace and the barriers.
 */
static __device__ __forceinline__ void gemv_cluster_gmem(const uint4 *__restrict__ W, const uint4 *__restrict__ x,
                                                         float *y, const float *bias, const float *residual, float *ws,
                                                         int M, int K, int nb, int rows, int unroll, const int NB)
{
    const int RT = GEMV_RT(NB);
    int split = (int)dsm_cluster_nctarank(), rank = (int)dsm_cluster_ctarank();
    int kc = K / 8, m0 = (int)dsm_clusterid().x * rows, nrows = M - m0 < rows ? M - m0 : rows;
    int warps = (int)blockDim.x / 32, warp = (int)threadIdx.x / 32, lane = (int)threadIdx.x % 32;
    int c0, c1;
    gemv_slice(kc, split, rank, &c0, &c1);
    gemv_warps g = gemv_warps_of(rows, RT, warps);
    float *red = (float *)dsm_dynamic_smem();
    float *part = red + gemv_red_floats(rows, (int)blockDim.x, NB);
    __shared__ uint64_t landed_word;    /* static: the launch's dynamic shared memory is gemv_block_smem's */
    uint64_t *landed = &landed_word;
    if (split > 1) {
        if (threadIdx.x == 0) {
            dsm_mbarrier_init(landed, (uint32_t)(split - 1));   /* one arrival per peer: "my slot is written" */
            dsm_fence_mbarrier_init();
        }
        dsm_barrier_cluster_arrive_relaxed();   /* "I have started": waited for after the K loop */
    }
    gemv_pdl_start(W, g, warp, lane, m0, nrows, kc, c0, c1, unroll, RT);

    for (int u = warp; u < g.units; u += warps) {
        int group = u / g.parts, h = u % g.parts;
        if (group * RT >= nrows)
            break;
        float acc[GEMV_ACC_MAX];
        for (int j = 0; j < RT * NB; ++j)
            acc[j] = 0.0f;
        dot_bf16_accumulate(W, x, m0 + nrows, kc, m0 + group * RT, nb, c0 + h * 32 + lane, c1, 32 * g.parts, unroll,
                            acc, RT, NB);
        gemv_store_partial(red, g, u, lane, acc, RT * NB);
    }
    gemv_block_reduce(red, part, g, nrows, nb, RT, NB);

    int n = nrows * nb, lo = reduce_scatter_lo(n, rank, split), hi = reduce_scatter_lo(n, rank + 1, split);
    size_t slot = (size_t)rows * 8, first = (size_t)blockIdx.x - (size_t)rank;   /* rank 0's block */
    if (split > 1) {    /* a cluster of one has nothing to exchange (as the DSMEM kernel) */
        for (int o = (int)threadIdx.x; o < n; o += (int)blockDim.x)
            if (o < lo || o >= hi)  /* my own share I add from part */
                ws[(size_t)blockIdx.x * slot + (size_t)o] = part[o];
        __syncthreads();            /* my slot written, by every thread */
        dsm_barrier_cluster_wait(); /* every peer started, its mbarrier ready */
        if ((int)threadIdx.x < split && (int)threadIdx.x != rank)  /* the release carries my CTA's writes */
            dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(landed), threadIdx.x));
        dsm_mbarrier_wait_parity(landed, 0);    /* every peer's slot written and released to me */
    }
    for (int o = lo + (int)threadIdx.x; o < hi; o += (int)blockDim.x) {
        /* the peers' partials four at a time, the four loads in flight together
         * (all sixteen at once would cost this kernel registers, so occupancy,
         * in its main loop), added in rank order */
        float v = 0.0f;
        for (int p0 = 0; p0 < split; p0 += 4) {
            float t[4];
            for (int j = 0; j < 4; ++j) {
                int p = p0 + j;
                t[j] = p >= split ? 0.0f : p == rank ? part[o] : ws[(first + (size_t)p) * slot + (size_t)o];
            }
            for (int j = 0; j < 4 && p0 + j < split; ++j)
                v = p0 + j == 0 ? t[j] : v + t[j];
        }
        int m = m0 + o / nb, b = o % nb;
        if (bias)
            v += bias[m];
        if (residual)
            v += residual[(size_t)b * (size_t)M + (size_t)m];
        y[(size_t)b * (size_t)M + (size_t)m] = v;
    }
}

#define GEMV_GMEM_PARAMS                                                                                            \
    const uint4 *W, const uint4 *x, float *y, const float *bias, const float *residual, float *ws, int M, int K,    \
        int nb, int rows, int unroll
#define GEMV_GMEM_TYPES                                                                                             \
    const uint4 *, const uint4 *, float *, const float *, const float *, float *, int, int, int, int, int

__global__ void GEMV_BOUNDS(1) gemv_cluster_gmem_t1(GEMV_GMEM_PARAMS) { gemv_cluster_gmem(W, x, y, bias, residual, ws, M, K, nb, rows, unroll, 1); }
DSM_KERNEL_ENTRY(gemv_cluster_gmem_t1, GEMV_GMEM_TYPES)
__global__ void GEMV_BOUNDS(2) gemv_cluster_gmem_t2(GEMV_GMEM_PARAMS) { gemv_cluster_gmem(W, x, y, bias, residual, ws, M, K, nb, rows, unroll, 2); }
DSM_KERNEL_ENTRY(gemv_cluster_gmem_t2, GEMV_GMEM_TYPES)
__global__ void GEMV_BOUNDS(4) gemv_cluster_gmem_t4(GEMV_GMEM_PARAMS) { gemv_cluster_gmem(W, x, y, bias, residual, ws, M, K, nb, rows, unroll, 4); }
DSM_KERNEL_ENTRY(gemv_cluster_gmem_t4, GEMV_GMEM_TYPES)
__global__ void GEMV_BOUNDS(8) gemv_cluster_gmem_t8(GEMV_GMEM_PARAMS) { gemv_cluster_gmem(W, x, y, bias, residual, ws, M, K, nb, rows, unroll, 8); }
DSM_KERNEL_ENTRY(gemv_cluster_gmem_t8, GEMV_GMEM_TYPES)
