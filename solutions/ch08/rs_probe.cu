/* rs_probe.cu: what a reduce-scatter costs by itself, for the benchmark: the CTAs of a cluster make up a partial vector in shared memory without loading anything, reduce-scatter it through DSMEM by one of several protocols (the course's push of ch08.reduce_scatter among them) and write their shares; or the same launch without the reduce-scatter. */
#include "dsm.h"
#include "reduce_scatter.h"

/* The longest partial vector the probe takes (its receive buffer is static). */
#define RS_PROBE_MAX_N 256

/* The protocols: `exchange` of rs_probe. Those of rs_protocol_sums() == 0 are
 * ablations: a part of a protocol's synchronisation with no data exchanged
 * (the output is then what RS_NONE writes). */
enum {
    RS_NONE = 0,        /* no exchange: each CTA writes its share of its own part */
    RS_PUSH = 1,        /* the course's: cluster_reduce_scatter (ch08.reduce_scatter): st.async into the owner,
                         * one relaxed cluster barrier arrived at the start, no barrier after */
    RS_PULL2 = 2,       /* pull: a release cluster barrier, DSMEM loads of my share, a release cluster barrier
                         * before exit (the course's first design) */
    RS_PULL2_RELAXED_EXIT = 3, /* the same, the exit barrier's arrive relaxed (it orders only reads) */
    RS_PUSH_STORES = 4, /* push with plain DSMEM stores, then one remote mbarrier arrive (release) per peer */
    RS_PUSH_I32 = 5,    /* the course's push, its index arithmetic in 32 bits (no 64-bit divide); the course's
                         * reduce_scatter_lo and _owner are 32-bit too now, so 1 and 5 should time alike */
    RS_PUSH_I32_CTA = 6, /* the same, the mbarrier wait .acquire.cta (no L1 invalidation after it) */
    RS_PUSH_V4 = 7,     /* the course's protocol, warp 0 pushing 16-byte st.async (shares of n / S, a multiple of 4) */
    RS_PUSH_V4_CTA = 8, /* the same, the mbarrier wait .acquire.cta */
    RS_SETUP_ONLY = 9,  /* ablation: the push's mbarrier set-up and its cluster barrier, nothing pushed */
    RS_BARRIER_ONLY = 10, /* ablation: a relaxed cluster arrive at the start, its wait at the end; no mbarrier */
    RS_MBAR_LOCAL = 11, /* ablation: the push's mbarrier set-up and wait, completed locally; no cluster barrier */
    RS_PUSH_I32_TEST = 12, /* protocol 5, its wait a spin on mbarrier.test_wait (never suspends) */
    RS_PUSH_I32_HINT = 13, /* protocol 5, its wait try_wait with a suspend-time hint of 32 ns */
    RS_PUSH_V4_TEST = 14, /* protocol 7, its wait a spin on mbarrier.test_wait */
    RS_PUSH_BULK = 15,  /* push by bulk copies: one cp.async.bulk shared::cta -> shared::cluster per peer, the
                         * owner's mbarrier completing its bytes; the pusher waits for its copies' reads before it
                         * exits (shares of n / S, a multiple of 4; otherwise protocol 5) */
    RS_PUSH_I32_WARP0 = 16, /* protocol 5, warp 0 alone waits on the mbarrier, then a __syncthreads */
    RS_ONE_STORE = 17,  /* ablation: protocol 5's synchronisation with one 4-byte st.async per peer (its
                         * mbarrier expects 4 bytes from each), nothing summed: the signal's latency alone */
    RS_PUSH_NOSUM = 18, /* ablation: protocol 5's pushes and wait, nothing summed */
    RS_ONE_V4 = 19,     /* ablation: protocol 17 with one 16-byte st.async per peer */
    RS_BULK_NOSUM = 20, /* ablation: protocol 15's copies and wait, nothing summed */
    RS_SUM_DIRECT = 21, /* protocol 5's pushes and wait; each owner thread adds its element's shares in rank
                         * order and writes the sum to out itself (no write back to part, no __syncthreads after) */
    RS_READ_ONLY = 22,  /* ablation: protocol 5's pushes and wait, the shares loaded and added but the sum kept
                         * only where it is not finite (never here): what reading what landed costs */
    RS_COUNT = 23
};

/* 1 when protocol `exchange` reduce-scatters (its output is the sums), 0 for RS_NONE and the ablations. */
static __host__ __device__ __forceinline__ int rs_protocol_sums(int exchange)
{
    return exchange != RS_NONE && exchange != RS_SETUP_ONLY && exchange != RS_BARRIER_ONLY && exchange != RS_MBAR_LOCAL &&
           exchange != RS_ONE_STORE && exchange != RS_PUSH_NOSUM && exchange != RS_ONE_V4 && exchange != RS_BULK_NOSUM &&
           exchange != RS_READ_ONLY;
}

/* mbarrier.try_wait.parity with the default .acquire.cta. The PTX ISA makes
 * st.async's complete_tx a release at cluster scope, which only an acquire at
 * cluster scope is formally sure to synchronise with; this wait is kept to
 * measure what the cluster scope costs (on sm_90a: one CCTL.IVALL once the
 * phase is seen). The emulator has one wait, the cluster-scope one. */
static __device__ __forceinline__ void rs_wait_parity_cta(uint64_t *bar, uint32_t parity)
{
#if defined(__CUDACC__)
    uint32_t ok = 0;
    while (!ok)
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
                     : "=r"(ok) : "r"(dsm_smem_addr(bar)), "r"(parity) : "memory");
#else
    dsm_mbarrier_wait_parity(bar, parity);
#endif
}

/* Two more waits at cluster scope, .acquire.cluster as the course's: mode 2
 * spins on mbarrier.test_wait, which returns at once; mode 3 is try_wait
 * with a suspend-time hint of 32 ns, so a suspended thread looks again
 * soon. Both are the same acquire as the course's wait, only polled
 * differently; the emulator has the course's. Mode 4 waits for nothing:
 * another thread of the CTA saw the phase, then a __syncthreads. */
static __device__ __forceinline__ void rs_wait_parity_mode(uint64_t *bar, uint32_t parity, int mode)
{
    if (mode == 4)
        return;     /* the caller has seen the phase complete (a warp waited, then a __syncthreads) */
#if defined(__CUDACC__)
    uint32_t ok = 0;
    if (mode == 2)
        while (!ok)
            asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
                         " selp.u32 %0, 1, 0, p;\n}" : "=r"(ok) : "r"(dsm_smem_addr(bar)), "r"(parity) : "memory");
    else if (mode == 3)
        while (!ok)
            asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2, 32;\n"
                         " selp.u32 %0, 1, 0, p;\n}" : "=r"(ok) : "r"(dsm_smem_addr(bar)), "r"(parity) : "memory");
    else if (mode == 1)
        rs_wait_parity_cta(bar, parity);
    else
        dsm_mbarrier_wait_parity(bar, parity);
#else
    (void)mode;
    dsm_mbarrier_wait_parity(bar, parity);
#endif
}

/* 32-bit forms of reduce_scatter_lo and _owner, for n * S < 2^31 (what the
 * course's now are; they were 64-bit, a divide that is a called subroutine
 * behind a 32-bit fast path, twice per pushed element). */
static __host__ __device__ __forceinline__ int rs_lo32(int n, int q, int S)
{
    return (int)((unsigned)(q * n) / (unsigned)S);
}
static __host__ __device__ __forceinline__ int rs_owner32(int n, int i, int S)
{
    return (int)((unsigned)((i + 1) * S - 1) / (unsigned)n);
}

/* Start of protocols 5 to 8: cluster_reduce_scatter_begin's code, 32-bit. */
static __device__ __forceinline__ void rs_push_begin32(uint64_t *landed, int n)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    if (threadIdx.x == 0) {
        int mine = rs_lo32(n, q + 1, S) - rs_lo32(n, q, S);
        dsm_mbarrier_init(landed, 1);
        dsm_fence_mbarrier_init();
        dsm_mbarrier_arrive_expect_tx(landed, (uint32_t)((S - 1) * mine * 4));
    }
    dsm_barrier_cluster_arrive_relaxed();
}

/* The end of protocols 5 to 8 and 12 to 14: wait for my share (cta_wait: the wait's mode, rs_wait_parity_mode),
 * add it up in rank order. */
static __device__ __forceinline__ void rs_push_sum(float *part, const float *recv, uint64_t *landed, int n, int cta_wait)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int lo = rs_lo32(n, q, S), hi = rs_lo32(n, q + 1, S), slot = (n + S - 1) / S;
    rs_wait_parity_mode(landed, 0, cta_wait);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        int j = i - lo;
        float s = q == 0 ? part[i] : recv[j];
        for (int p = 1; p < S; ++p)
            s += p == q ? part[i] : recv[p * slot + j];
        part[i] = s;
    }
    __syncthreads();
}

/* The pushes of protocols 5, 6, 16 and 18: after the start barrier's wait, each
 * thread st.asyncs its elements of the peers' shares into slot q of their recv. */
static __device__ __forceinline__ void rs_push_i32_stores(const float *part, float *recv, uint64_t *landed, int n)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int slot = (n + S - 1) / S;
    uint32_t bar = dsm_smem_addr(landed), base = dsm_smem_addr(recv + q * slot);
    __syncthreads();
    dsm_barrier_cluster_wait();
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x) {
        int p = rs_owner32(n, i, S);
        if (p == q)
            continue;
        union { float f; uint32_t u; } v = {part[i]};
        uint32_t dst = base + 4u * (uint32_t)(i - rs_lo32(n, p, S));
        dsm_st_async_u32(dsm_mapa_shared_cluster(dst, (uint32_t)p), v.u, dsm_mapa_shared_cluster(bar, (uint32_t)p));
    }
}

/*
 * Protocols 5 and 6: cluster_reduce_scatter with 32-bit index arithmetic.
 * Correct as the course's: the same synchronising instructions in the same
 * order; only the arithmetic that picks addresses differs (same values for
 * n * S < 2^31). Protocol 6's wait is .acquire.cta (rs_wait_parity_cta).
 */
static __device__ __forceinline__ void rs_push_i32(float *part, float *recv, uint64_t *landed, int n, int cta_wait,
                                                   int nosum)
{
    rs_push_i32_stores(part, recv, landed, n);
    if (nosum) {
        dsm_mbarrier_wait_parity(landed, 0);
        __syncthreads();
        return;
    }
    rs_push_sum(part, recv, landed, n, cta_wait);
}

/*
 * Protocols 7 and 8: when every share is n / S floats, a multiple of 4, warp
 * 0 alone pushes, 16 bytes per st.async: lane l takes chunks l, l + 32, ...
 * of the (S - 1) * n / S / 4 chunks bound for the peers (chunk c: peer
 * q + 1 + c / per mod S, its chunk c % per). Correct as the course's: the same
 * bytes complete on the same mbarrier (expect_tx counts bytes, not stores);
 * every pushing thread waits for the start barrier before its first st.async;
 * the other warps push nothing and wait for the barrier they arrived. part
 * (dynamic shared memory) and recv are 16-byte aligned, and so every chunk.
 * Any other n falls back to protocols 5 and 6.
 */
static __device__ __forceinline__ void rs_push_v4(float *part, float *recv, uint64_t *landed, int n, int cta_wait)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int share = n / S;
    if (share * S != n || share % 4 != 0) {
        rs_push_i32(part, recv, landed, n, cta_wait, 0);
        return;
    }
    __syncthreads();
    dsm_barrier_cluster_wait();
    if (threadIdx.x < 32) {
        int per = share / 4, chunks = (S - 1) * per;
        uint32_t bar = dsm_smem_addr(landed), base = dsm_smem_addr(recv + q * share);
        for (int c = (int)threadIdx.x; c < chunks; c += 32) {
            int k = c / per, j = c - k * per, p = q + 1 + k;
            p = p >= S ? p - S : p;
            uint4 v = *(const uint4 *)(part + p * share + 4 * j);
            dsm_st_async_v4_u32(dsm_mapa_shared_cluster(base + 16u * (uint32_t)j, (uint32_t)p), v,
                                dsm_mapa_shared_cluster(bar, (uint32_t)p));
        }
    }
    rs_push_sum(part, recv, landed, n, cta_wait);
}

/*
 * Protocol 15: when every share is n / S floats, a multiple of 4, thread p
 * (p < S, p != q) copies the share of peer p, 4 * n / S bytes of part, into
 * slot q of p's recv with one bulk copy that completes on p's mbarrier.
 * Correct: the partials are written by generic stores, so every thread fences
 * them to the async proxy before the __syncthreads that lets the copies go;
 * each copy is issued after the start barrier's wait (the peer's mbarrier is
 * initialised); the copy reads this CTA's shared memory, so its issuer waits
 * for the group's reads before the kernel can end. Any other n falls back to
 * protocol 5.
 */
static __device__ __forceinline__ void rs_push_bulk(float *part, float *recv, uint64_t *landed, int n, int nosum)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int share = n / S;
    if (share * S != n || share % 4 != 0) {
        rs_push_i32(part, recv, landed, n, 0, 0);
        return;
    }
    dsm_fence_proxy_async_shared_cta();
    __syncthreads();
    dsm_barrier_cluster_wait();
    int p = (int)threadIdx.x;
    if (p < S && p != q) {
        uint32_t dst = dsm_mapa_shared_cluster(dsm_smem_addr(recv + q * share), (uint32_t)p);
        dsm_cp_async_bulk_shared_cluster(dst, part + p * share, (uint32_t)(4 * share),
                                         dsm_mapa_shared_cluster(dsm_smem_addr(landed), (uint32_t)p));
        dsm_cp_async_bulk_commit_group();
    }
    if (nosum) {
        dsm_mbarrier_wait_parity(landed, 0);
        __syncthreads();
    } else
        rs_push_sum(part, recv, landed, n, 0);
    if (p < S && p != q)
        dsm_cp_async_bulk_wait_group_read(0);   /* my copy has read part: it may be left */
}

/* Protocol 16: protocol 5's pushes; warp 0 alone waits for the share, the other warps at a __syncthreads. */
static __device__ __forceinline__ void rs_push_i32_warp0(float *part, float *recv, uint64_t *landed, int n)
{
    rs_push_i32_stores(part, recv, landed, n);
    if (threadIdx.x < 32)
        dsm_mbarrier_wait_parity(landed, 0);
    __syncthreads();
    rs_push_sum(part, recv, landed, n, 4);  /* mode 4: the phase is already seen */
}

/* Protocol 17 (ablation): the push's start and wait with one 4-byte st.async per peer, into slot q of its recv. */
static __device__ __forceinline__ void rs_one_store(float *recv, uint64_t *landed, int v4)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank(), p = (int)threadIdx.x;
    __syncthreads();
    dsm_barrier_cluster_wait();
    if (p < S && p != q && !v4)
        dsm_st_async_u32(dsm_mapa_shared_cluster(dsm_smem_addr(recv + q), (uint32_t)p), 1u,
                         dsm_mapa_shared_cluster(dsm_smem_addr(landed), (uint32_t)p));
    if (p < S && p != q && v4)
        dsm_st_async_v4_u32(dsm_mapa_shared_cluster(dsm_smem_addr(recv + 4 * q), (uint32_t)p), make_uint4(1u, 2u, 3u, 4u),
                            dsm_mapa_shared_cluster(dsm_smem_addr(landed), (uint32_t)p));
    dsm_mbarrier_wait_parity(landed, 0);
    __syncthreads();
}

/* Protocols 21 and 22: protocol 5's pushes and wait, then each owner thread
 * adds the shares of its element in rank order. 21 writes the sum to
 * out[base + i] itself and returns 1 (the caller writes nothing more); 22
 * keeps the sum in part only where it is not finite, which no sum of the
 * probe is, and returns 0. */
static __device__ __forceinline__ int rs_push_sum_direct(float *part, float *recv, uint64_t *landed, int n, float *out,
                                                         int read_only)
{
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    int slot = (n + S - 1) / S, lo = rs_lo32(n, q, S), hi = rs_lo32(n, q + 1, S);
    rs_push_i32_stores(part, recv, landed, n);
    dsm_mbarrier_wait_parity(landed, 0);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x) {
        int j = i - lo;
        float mine = part[i], s = q == 0 ? mine : recv[j];
        for (int p = 1; p < S; ++p)
            s += p == q ? mine : recv[p * slot + j];
        if (!read_only)
            out[i] = s;
        else if (!(s - s == 0.0f))
            part[i] = s;
    }
    if (read_only)
        __syncthreads();
    return !read_only;
}

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
 * every sum is exact in fp32). exchange % 32 is the protocol (above, 1 the
 * course's); exchange / 32, when not 0, is work: every thread first waits that
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
    __shared__ __align__(16) float recv[RS_PROBE_MAX_N + REDUCE_SCATTER_MAX_CTAS];
    __shared__ uint64_t landed;
    float *part = (float *)dsm_dynamic_smem();
    int S = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank();
    size_t c = dsm_clusterid().x;
    long long work = (long long)(exchange / 32) * 1024;
    exchange %= 32;
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
    if ((exchange >= RS_PUSH_I32 && exchange <= RS_PUSH_V4_CTA) || (exchange >= RS_PUSH_I32_TEST && exchange < RS_ONE_STORE) ||
        exchange == RS_PUSH_NOSUM || exchange == RS_BULK_NOSUM || exchange == RS_SUM_DIRECT || exchange == RS_READ_ONLY)
        rs_push_begin32(&landed, n);
    if (exchange == RS_ONE_STORE || exchange == RS_ONE_V4) {
        if (threadIdx.x == 0) {
            dsm_mbarrier_init(&landed, 1);
            dsm_fence_mbarrier_init();
            dsm_mbarrier_arrive_expect_tx(&landed, (uint32_t)((exchange == RS_ONE_V4 ? 16 : 4) * (S - 1)));
        }
        dsm_barrier_cluster_arrive_relaxed();
    }
    if ((exchange == RS_SETUP_ONLY || exchange == RS_MBAR_LOCAL) && threadIdx.x == 0) {
        dsm_mbarrier_init(&landed, 1);      /* the push's set-up, no bytes expected */
        dsm_fence_mbarrier_init();
        dsm_mbarrier_arrive_expect_tx(&landed, 0u);
    }
    if (exchange == RS_SETUP_ONLY || exchange == RS_BARRIER_ONLY)
        dsm_barrier_cluster_arrive_relaxed();
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
    else if (exchange == RS_PUSH_I32 || exchange == RS_PUSH_I32_CTA)
        rs_push_i32(part, recv, &landed, n, exchange == RS_PUSH_I32_CTA, 0);
    else if (exchange == RS_PUSH_V4 || exchange == RS_PUSH_V4_CTA)
        rs_push_v4(part, recv, &landed, n, exchange == RS_PUSH_V4_CTA);
    else if (exchange == RS_PUSH_I32_TEST || exchange == RS_PUSH_I32_HINT)
        rs_push_i32(part, recv, &landed, n, exchange == RS_PUSH_I32_TEST ? 2 : 3, 0);
    else if (exchange == RS_PUSH_V4_TEST)
        rs_push_v4(part, recv, &landed, n, 2);
    else if (exchange == RS_PUSH_BULK)
        rs_push_bulk(part, recv, &landed, n, 0);
    else if (exchange == RS_PUSH_I32_WARP0)
        rs_push_i32_warp0(part, recv, &landed, n);
    else if (exchange == RS_ONE_STORE || exchange == RS_ONE_V4)
        rs_one_store(recv, &landed, exchange == RS_ONE_V4);
    else if (exchange == RS_PUSH_NOSUM)
        rs_push_i32(part, recv, &landed, n, 0, 1);
    else if (exchange == RS_BULK_NOSUM)
        rs_push_bulk(part, recv, &landed, n, 1);
    else if (exchange == RS_SUM_DIRECT || exchange == RS_READ_ONLY) {
        if (rs_push_sum_direct(part, recv, &landed, n, out + c * (size_t)n, exchange == RS_READ_ONLY))
            return;
    }
    else if (exchange == RS_SETUP_ONLY || exchange == RS_BARRIER_ONLY) {
        __syncthreads();
        dsm_barrier_cluster_wait();     /* the barrier arrived at the start */
    } else if (exchange == RS_MBAR_LOCAL) {
        __syncthreads();
        dsm_mbarrier_wait_parity(&landed, 0);   /* its one arrival, thread 0's, completed the phase */
        __syncthreads();
    } else
        __syncthreads();
    int lo = reduce_scatter_lo(n, q, S), hi = reduce_scatter_lo(n, q + 1, S);
    for (int i = lo + (int)threadIdx.x; i < hi; i += (int)blockDim.x)
        out[c * (size_t)n + (size_t)i] = part[i];
}
DSM_KERNEL_ENTRY(rs_probe, float *, int, int, int)
