/* ring_probe.cu: what limits a cp.async.bulk ring between the CTAs of a cluster on Hopper: source alignment, copies per chunk, where the roles sit, and the readers. */
#include <cuda_runtime.h>
#include "dsm.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>

/*
 * Every variant moves the same stream as solutions/ch06/ring_push.cu: CTA r
 * pushes nchunks chunks into ring slots of CTA (r + 1) mod n; chunk k starts
 * shift * (k mod (stages + 1)) bytes into the sender's staging buffer, and the
 * receiver folds word w of chunk k into out with weight k + 1. What changes:
 *
 *   layout 0  producer thread 0, forwarder thread 1 (the same warp), readers from thread 32:
 *             readers arrive on a local "consumed" barrier, the forwarder re-arms
 *             "full" and arrives once on the sender's "empty" (ring_push before 2026-12-01);
 *   layout 1  the same with the forwarder alone in warp 1, readers from thread 64
 *             (ring_push now, with shift 128);
 *   layout 2  no forwarder: the producer arms the receiver's "full" itself with a
 *             remote arrive.expect_tx before its copies, and lane 0 of every reader
 *             warp arrives on the sender's "empty" (count = reader warps);
 *   layout 3  layout 1 with one arrival per reader warp on "consumed" (lane 0, after __syncwarp);
 *   pieces    each chunk goes as that many cp.async.bulk copies (one mbarrier);
 *   read 0    the readers only signal (a transport bound: nothing is checked).
 *
 * Output, one CSV row per configuration: the median, min and max time of
 * `reps` launches after 2 warm-ups, and bytes pushed across SMs per second,
 * from the launch's events and from the kernel's own clocks (first cluster
 * barrier to last sum; its MHz is clock64 over globaltimer). Every `read 1`
 * configuration is checked against the host's sum first; clusters whose CTAs
 * share an SM are counted (their bytes would not cross between SMs).
 * RING_BYTES (default 8e9) sets the bytes per launch, RING_REPS the repeats.
 */

#define MAX_STAGES 8

/* The one PTX form the course's backend (runtime/hopper/device_hopper.h) has no
 * wrapper for: a remote arrive that also expects transaction bytes. */
__device__ __forceinline__ void mbar_arrive_expect_tx_remote(uint32_t cluster_bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;"
                 :: "r"(cluster_bar), "r"(bytes) : "memory"); }

template <int LANES>
__global__ void ring_probe(const uint4 *in, uint32_t *out, unsigned long long *info, int chunk, int stages, int nchunks,
                           int shift, int pieces, int layout, int read)
{
    __shared__ uint64_t full[MAX_STAGES], consumed[MAX_STAGES], empty[MAX_STAGES];
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem(), *src = ring + (size_t)stages * chunk;
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank(), right = (rank + 1) % n, left = (rank + n - 1) % n;
    if (threadIdx.x == 0) {
        uint32_t id; asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
        info[4 * blockIdx.x] = id;
    }
    int tid = threadIdx.x, first_reader = (layout == 1 || layout == 3) ? 64 : 32, readers = blockDim.x - first_reader;
    int reader_warps = readers / 32, units = chunk / 16, src_bytes = chunk + shift * stages;
    const uint4 *my_in = in + (size_t)blockIdx.x * (src_bytes / 16);
    for (int u = tid; u < src_bytes / 16; u += blockDim.x)
        ((uint4 *)src)[u] = my_in[u];
    dsm_fence_proxy_async_shared_cta();
    if (tid == 0) {
        for (int s = 0; s < stages; ++s) {
            dsm_mbarrier_init(&full[s], 1);
            dsm_mbarrier_init(&consumed[s], layout == 3 ? reader_warps : readers);
            dsm_mbarrier_init(&empty[s], layout == 2 ? reader_warps : 1);
        }
        dsm_fence_mbarrier_init();
        if (layout != 2)
            for (int s = 0; s < stages && s < nchunks; ++s)
                dsm_mbarrier_arrive_expect_tx(&full[s], chunk);
    }
    dsm_cluster_sync();
    /* the transfer's own time: from the first cluster barrier to the last reader's sum */
    unsigned long long c0 = dsm_clock64();
    if (threadIdx.x == 0) {
        unsigned long long t0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        info[4 * blockIdx.x + 1] = t0;
    }
    int piece = chunk / pieces;
    if (tid == 0) {
        uint32_t peer_ring = dsm_mapa_shared_cluster(dsm_smem_addr(ring), right), peer_full = dsm_mapa_shared_cluster(dsm_smem_addr(full), right);
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            if (round > 0)
                dsm_mbarrier_wait_parity(&empty[s], (round - 1) & 1);
            if (layout == 2)
                mbar_arrive_expect_tx_remote(peer_full + 8 * s, chunk);
            const unsigned char *from = src + shift * (k % (stages + 1));
            for (int p = 0; p < pieces; ++p)
                dsm_cp_async_bulk_shared_cluster(peer_ring + s * chunk + p * piece, from + p * piece, piece, peer_full + 8 * s);
        }
    } else if (layout != 2 && tid == (layout == 0 ? 1 : 32)) {
        uint32_t left_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), left);
        for (int k = 0; k + stages < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            dsm_mbarrier_wait_parity(&consumed[s], round & 1);
            dsm_mbarrier_arrive_expect_tx(&full[s], chunk);
            dsm_mbarrier_arrive_remote(left_empty + 8 * s);
        }
    } else if (tid >= first_reader) {
        int c = tid - first_reader;
        uint32_t left_empty = dsm_mapa_shared_cluster(dsm_smem_addr(empty), left);
        uint32_t acc[LANES][4] = {};
        for (int k = 0; k < nchunks; ++k) {
            int s = k % stages, round = k / stages;
            uint32_t weight = k + 1;
            dsm_mbarrier_wait_parity(&full[s], round & 1);
            if (read) {
                const uint4 *slot = (const uint4 *)(ring + (size_t)s * chunk);
                for (int i = 0; i < LANES; ++i) {
                    int u = c + i * readers;
                    if (u < units) {
                        uint4 v = slot[u];
                        acc[i][0] += weight * v.x; acc[i][1] += weight * v.y;
                        acc[i][2] += weight * v.z; acc[i][3] += weight * v.w;
                    }
                }
            }
            if (k + stages < nchunks) {
                if (layout == 2) {
                    __syncwarp();
                    if ((tid & 31) == 0)
                        dsm_mbarrier_arrive_remote(left_empty + 8 * s);
                } else if (layout == 3) {
                    __syncwarp();
                    if ((tid & 31) == 0)
                        dsm_mbarrier_arrive(&consumed[s]);
                } else {
                    dsm_mbarrier_arrive(&consumed[s]);
                }
            }
        }
        for (int i = 0; i < LANES; ++i) {
            int u = c + i * readers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * units * 4 + u * 4 + w] = acc[i][w];
        }
    }
    if (threadIdx.x == 0) {
        unsigned long long t1; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
        info[4 * blockIdx.x + 2] = t1;
        info[4 * blockIdx.x + 3] = dsm_clock64() - c0;
    }
    dsm_cluster_sync();
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static uint32_t rng = 12345u;
static uint32_t next_u32(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

struct cfgt { int n, stages, chunk, threads, shift, pieces, layout, read; };

/* The instantiation whose LANES (16-byte words per reader thread) covers the chunk, or null. */
static const void *kernel_for(const cfgt &c)
{
    int readers = c.threads - ((c.layout == 1 || c.layout == 3) ? 64 : 32), units = c.chunk / 16;
    if (readers <= 0 || readers % 32) return nullptr;
    int lanes = (units + readers - 1) / readers;
    if (lanes <= 1) return (const void *)ring_probe<1>;
    if (lanes <= 2) return (const void *)ring_probe<2>;
    if (lanes <= 4) return (const void *)ring_probe<4>;
    if (lanes <= 8) return (const void *)ring_probe<8>;
    return nullptr;
}

static void run(const cfgt &c, int sm_count, int clock_mhz, double target_bytes, int reps)
{
    size_t smem = (size_t)c.stages * c.chunk + c.chunk + (size_t)c.shift * c.stages;
    const void *kern = kernel_for(c);
    if (!kern || c.stages < 1 || c.stages > MAX_STAGES || c.chunk % (16 * c.pieces)) {
        printf("%d,%d,%d,%d,%d,%d,%d,%d,0,,,,,,,,,,,bad configuration\n", c.n, c.stages, c.chunk, c.threads, c.shift,
               c.pieces, c.layout, c.read);
        return;
    }
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t lc = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = c.n; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
    lc.attrs = at; lc.numAttrs = 1;
    lc.blockDim = dim3(c.threads); lc.gridDim = dim3(c.n); lc.dynamicSmemBytes = smem;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, kern, &lc) != cudaSuccess || clusters < 1) {
        cudaGetLastError();
        printf("%d,%d,%d,%d,%d,%d,%d,%d,0,,,,,,,,,,,no fit\n", c.n, c.stages, c.chunk, c.threads, c.shift, c.pieces, c.layout, c.read);
        return;
    }
    size_t blocks = (size_t)clusters * c.n;
    lc.gridDim = dim3((unsigned)blocks);
    int nchunks = (int)(target_bytes / ((double)c.chunk * blocks));
    nchunks = std::max(nchunks, 4 * c.stages);
    size_t src_words = (c.chunk + (size_t)c.shift * c.stages) / 4, chunk_words = c.chunk / 4;
    std::vector<uint32_t> h_in(blocks * src_words), h_out(blocks * chunk_words);
    for (auto &w : h_in) w = next_u32();
    uint4 *d_in; uint32_t *d_out; unsigned long long *d_info;
    CK(cudaMalloc(&d_in, h_in.size() * 4)); CK(cudaMalloc(&d_out, h_out.size() * 4));
    CK(cudaMalloc(&d_info, blocks * 32));
    CK(cudaMemcpy(d_in, h_in.data(), h_in.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xFF, h_out.size() * 4));
    int chunk = c.chunk, stages = c.stages, shift = c.shift, pieces = c.pieces, layout = c.layout, read = c.read;
    void *args[] = {&d_in, &d_out, &d_info, &chunk, &stages, &nchunks, &shift, &pieces, &layout, &read};
    CK(cudaLaunchKernelExC(&lc, kern, args));
    CK(cudaDeviceSynchronize());
    const char *check = "unchecked";
    if (c.read) {
        CK(cudaMemcpy(h_out.data(), d_out, h_out.size() * 4, cudaMemcpyDeviceToHost));
        std::vector<uint32_t> weight(c.stages + 1, 0);
        for (int k = 0; k < nchunks; ++k) weight[k % (c.stages + 1)] += k + 1;
        check = "ok";
        for (size_t b = 0; b < blocks && !strcmp(check, "ok"); ++b) {
            size_t r = b % c.n, lb = b - r + (r + c.n - 1) % c.n;
            const uint32_t *s = &h_in[lb * src_words];
            for (size_t w = 0; w < chunk_words; ++w) {
                uint32_t want = 0;
                for (int m = 0; m <= c.stages; ++m) want += weight[m] * s[(size_t)m * c.shift / 4 + w];
                if (h_out[b * chunk_words + w] != want) { check = "WRONG"; break; }
            }
        }
    }
    std::vector<float> ms;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    for (int i = 0; i < reps + 2; ++i) {
        CK(cudaEventRecord(e0));
        CK(cudaLaunchKernelExC(&lc, kern, args));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float t; CK(cudaEventElapsedTime(&t, e0, e1));
        if (i >= 2) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    /* clusters whose CTAs share an SM: their bytes never cross between SMs */
    std::vector<unsigned long long> h_info(4 * blocks);
    CK(cudaMemcpy(h_info.data(), d_info, blocks * 32, cudaMemcpyDeviceToHost));
    int shared_sm = 0;
    for (size_t b0 = 0; b0 < blocks; b0 += c.n) {
        int same = 0;
        for (int i = 0; i < c.n; ++i)
            for (int j = 0; j < i; ++j) same |= h_info[4 * (b0 + i)] == h_info[4 * (b0 + j)];
        shared_sm += same;
    }
    /* the last launch's own clock: first barrier to last sum, across all CTAs */
    unsigned long long t0 = ~0ull, t1 = 0;
    double clk = 0, ns = 0;
    for (size_t b = 0; b < blocks; ++b) {
        t0 = std::min(t0, h_info[4 * b + 1]);
        t1 = std::max(t1, h_info[4 * b + 2]);
        clk += (double)h_info[4 * b + 3];
        ns += (double)(h_info[4 * b + 2] - h_info[4 * b + 1]);
    }
    double span_s = (double)(t1 - t0) * 1e-9, eff_mhz = clk / ns * 1e3;
    double med = ms[ms.size() / 2], bytes = (double)c.chunk * blocks * nchunks;
    double tbps = bytes / (med * 1e-3) / 1e12;
    double bpc = bytes / (med * 1e-3) / ((double)clock_mhz * 1e6) / sm_count;
    printf("%d,%d,%d,%d,%d,%d,%d,%d,%zu,%d,%d,%d,%.4f,%.4f,%.4f,%.3f,%.2f,%.3f,%.0f,%.2f,%s\n", c.n, c.stages, c.chunk,
           c.threads, c.shift, c.pieces, c.layout, c.read, blocks, clusters, shared_sm, nchunks, med, ms.front(), ms.back(),
           tbps, bpc, bytes / span_s / 1e12, eff_mhz, bytes / span_s / (eff_mhz * 1e6) / sm_count, check);
    fflush(stdout);
    CK(cudaEventDestroy(e0)); CK(cudaEventDestroy(e1));
    CK(cudaFree(d_in)); CK(cudaFree(d_out)); CK(cudaFree(d_info));
}

/* Usage: ring_probe [N S CHUNK THREADS SHIFT PIECES LAYOUT READ]...  (8 numbers per configuration;
 * none: the built-in sweep). */
int main(int argc, char **argv)
{
    cudaDeviceProp prop;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1 || cudaGetDeviceProperties(&prop, 0) != cudaSuccess ||
        prop.major < 9) {
        printf("# waived: no GPU of compute capability 9.0 or later (clusters and cp.async.bulk need one)\n");
        return 2;
    }
    int clock_khz = 0;
    CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    int clock_mhz = clock_khz / 1000;
    printf("# %s, %d SMs, clock %d MHz (attribute; lock with nvidia-smi for exact B/clk)\n", prop.name,
           prop.multiProcessorCount, clock_mhz);
    printf("cluster,stages,chunk_bytes,threads,shift,pieces,layout,read,blocks,clusters,clusters_sharing_an_sm,nchunks,ms_median,ms_min,ms_max,tbps,bytes_per_clk_per_sm,inkernel_tbps,inkernel_mhz,inkernel_bytes_per_clk_per_sm,check\n");
    std::vector<cfgt> cs;
    if (argc > 1) {
        for (int i = 1; i + 7 < argc; i += 8)
            cs.push_back({atoi(argv[i]), atoi(argv[i + 1]), atoi(argv[i + 2]), atoi(argv[i + 3]), atoi(argv[i + 4]),
                          atoi(argv[i + 5]), atoi(argv[i + 6]), atoi(argv[i + 7])});
    } else {
        /* the old ring_push (thread-1 forwarder, 16-byte source steps), then one change at a time */
        cs = {
            {2, 4, 32768, 544, 16, 1, 0, 1},  {2, 4, 32768, 544, 128, 1, 0, 1}, {2, 4, 32768, 576, 16, 1, 1, 1},
            {2, 4, 32768, 576, 128, 1, 1, 1}, {2, 4, 32768, 576, 0, 1, 1, 1},   {2, 4, 32768, 576, 128, 1, 3, 1},
            {2, 4, 32768, 544, 128, 1, 2, 1}, {2, 4, 32768, 576, 128, 2, 1, 1}, {2, 4, 32768, 576, 128, 4, 1, 1},
            {2, 4, 32768, 576, 128, 1, 1, 0}, {2, 2, 65536, 576, 128, 1, 1, 1}, {2, 2, 32768, 576, 128, 1, 1, 1},
            {2, 4, 16384, 576, 128, 1, 1, 1}, {2, 5, 16384, 576, 128, 1, 1, 1}, {2, 6, 16384, 576, 128, 1, 1, 1},
            {2, 6, 16384, 576, 128, 1, 1, 0}, {2, 6, 16384, 576, 128, 1, 3, 1}, {2, 6, 16384, 544, 16, 1, 0, 1},
            {2, 3, 16384, 320, 128, 1, 1, 1}, {4, 6, 16384, 576, 128, 1, 1, 1}, {8, 6, 16384, 576, 128, 1, 1, 1},
            {16, 6, 16384, 576, 128, 1, 1, 1},
        };
    }
    const char *bytes_env = getenv("RING_BYTES");   /* bytes pushed per launch, all CTAs together */
    double target = bytes_env ? atof(bytes_env) : 8.0e9;
    for (auto &c : cs)
        run(c, prop.multiProcessorCount, clock_mhz, target, getenv("RING_REPS") ? atoi(getenv("RING_REPS")) : 7);
    return 0;
}
