/* rs_probe.cu: what a reduce-scatter costs by itself, for the benchmark: the CTAs of a cluster make up a partial vector in shared memory without loading anything, reduce-scatter it through DSMEM by one of several protocols (the course's push of ch08.reduce_scatter among them) and write their shares; or the same launch without the reduce-scatter. */
#include "dsm.h"
#include "reduce_scatter.h"

/* The longest partial vector the probe takes (its receive buffer is static). */
#define RS_PROBE_MAX_N 256

/* The protocols: `exchange` of rs_probe. */
enum {
    RS_NONE = 0,        /* no exchange: each CTA writes its share of its own part */
    RS_PUSH = 1,        /* the course's: cluster_reduce_scatter (ch08.reduce_scatter): st.async into the owner,
                         * one relaxed cluster barrier arrived at the start, no barrier after */
    RS_PULL2 = 2,       /* pull: a release cluster barrier, DSMEM loads of my share, a release cluster barrier
                         * before exit (the course's first design) */
    RS_PULL2_RELAXED_EXIT = 3, /* the same, the exit barrier's arrive relaxed (it orders only reads) */
    RS_PUSH_STORES = 4, /* push with plain DSMEM stores, then one remote mbarrier arrive (release) per peer */
    RS_COUNT = 5
};

/* Pull: add up my share from every peer's part, loads first, in rank order. */
static __device__ __forceinline__ void rs_pull_share(float *part, int n, int relaxed_exit)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S);
    dsm_cluster_sync();     /* every CTA's partials published, every peer started */
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        float v[REDUCE_SCATTER_MAX_CTAS];
        for (int p = 0; p < REDUCE_SCATTER_MAX_CTAS; ++p)
            v[p] = p >= S ? 0.0f : p == q ? part[i] : ((const float *)dsm_map_shared_rank(part, (uint32_t)p))[i];
        float s = v[0];
        for (int p = 1; p < REDUCE_SCATTER_MAX_CTAS; ++p)
            if (p < S)
                s += v[p];
        part[i] = s;
    }
    if (relaxed_exit)
        dsm_barrier_cluster_arrive_relaxed();   /* my reads are done (a read needs no release) */
    else
        dsm_barrier_cluster_arrive();
    dsm_barrier_cluster_wait();                 /* every peer has read me: I may leave */
}

/* Push with plain stores: each thread stores its elements of the peers' shares into their recv, then one
 * thread per peer arrives (release, cluster scope) on the peer's mbarrier of S - 1 arrivals. */
static __device__ __forceinline__ void rs_push_stores(float *part, float *recv, uint64_t *landed, int n)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S), slot = (n + S - 1) / S;
    __syncthreads();
    dsm_barrier_cluster_wait();
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x) {
        int p = reduce_scatter_owner(n, i, S);
        if (p != q)
            ((float *)dsm_map_shared_rank(recv, (uint32_t)p))[q * slot + (i - reduce_scatter_lo(n, p, S))] = part[i];
    }
    __syncthreads();        /* every thread's stores before the arrives that release them */
    if ((int)threadIdx.x < S && (int)threadIdx.x != q)
        dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(landed), threadIdx.x));
    dsm_mbarrier_wait_parity(landed, 0);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        float s = q == 0 ? part[i] : recv[i - lo];
        for (int p = 1; p < S; ++p)
            s += p == q ? part[i] : recv[p * slot + (i - lo)];
        part[i] = s;
    }
    __syncthreads();
}

/*
 * rs_probe(out, n, mark, exchange): a 1-D grid of 1-D clusters of S CTAs, any
 * block size, at least 4 * n bytes of dynamic shared memory, n <= 256. CTA q
 * of cluster c sets part[i] = mark + q * n + i for i < n (small integers:
 * every sum is exact in fp32). exchange % 16 is the protocol (above, 1 the
 * course's); exchange / 16, when not 0, is work: every thread first waits that
 * many times 1024 cycles of its SM's clock, after the protocol's start and
 * before the partials, as a kernel's main loop would (a push's start barrier
 * is then long complete when it is waited for). With a protocol, the cluster
 * reduce-scatters and each CTA writes its share of the
 * sums to out[c * n + i]: S * mark + n * S * (S - 1) / 2 + S * i. Without
 * (0), each CTA writes its share of its own part: mark + q * n + i. The
 * difference between two launches, timed alike, is what a protocol costs.
 */
__global__ void rs_probe(float *out, int n, int mark, int exchange)
{
    __shared__ float recv[RS_PROBE_MAX_N + REDUCE_SCATTER_MAX_CTAS];
    __shared__ uint64_t landed;
    float *part = (float *)dsm_dynamic_smem();
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    size_t c = dsm_clusterid().x;
    long long work = (long long)(exchange / 16) * 1024;
    exchange %= 16;
    if (exchange == RS_PUSH)
        cluster_reduce_scatter_begin(&landed, n);
    if (exchange == RS_PUSH_STORES) {
        if (threadIdx.x == 0) {
            dsm_mbarrier_init(&landed, (uint32_t)(S - 1 > 0 ? S - 1 : 1));
            dsm_fence_mbarrier_init();
            if (S == 1)
                dsm_mbarrier_arrive(&landed);   /* nobody sends: complete the phase here */
        }
        dsm_barrier_cluster_arrive_relaxed();
    }
    if (work > 0) {
        long long t0 = (long long)dsm_clock64();
        while ((long long)dsm_clock64() - t0 < work) {
        }
    }
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x)
        part[i] = (float)(mark + q * n + i);
    if (exchange == RS_PUSH)
        cluster_reduce_scatter(part, recv, &landed, n);
    else if (exchange == RS_PULL2 || exchange == RS_PULL2_RELAXED_EXIT)
        rs_pull_share(part, n, exchange == RS_PULL2_RELAXED_EXIT);
    else if (exchange == RS_PUSH_STORES)
        rs_push_stores(part, recv, &landed, n);
    else
        __syncthreads();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x)
        out[c * (size_t)n + (size_t)i] = part[i];
}
DSM_KERNEL_ENTRY(rs_probe, float *, int, int, int)
