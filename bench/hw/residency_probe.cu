/* residency_probe.cu: are the clusters cudaOccupancyMaxActiveClusters promises really resident together, and do two CTAs of one cluster ever share an SM? */
/*
 * Chapter 4 reads cudaOccupancyMaxActiveClusters as "this many clusters fit",
 * but the Runtime API documentation does not promise that the calculated
 * occupancy is achievable, and a kernel that only synchronises inside its
 * cluster (fit_cluster_fill) would pass if the clusters ran in waves. This
 * probe tests both questions on purpose, for each shape (threads, dynamic
 * shared memory, cluster size):
 *
 *   co-residency  Launch exactly n = cudaOccupancyMaxActiveClusters clusters.
 *                 Thread 0 of every CTA checks in (an atomic add on a global
 *                 counter) and then waits until every CTA of the GRID has
 *                 checked in, or until a time limit (LIMIT_MS, read from
 *                 %globaltimer) passes. If all n clusters are resident at once
 *                 every CTA sees the full count; if they run in waves, the
 *                 first wave times out. The same shape with n + 1 clusters is
 *                 the control: one cluster more than the answer must time out
 *                 (unless the GPU holds more than the API said, which the row
 *                 then shows).
 *   placement     Every CTA records %smid, its cluster and its rank. Per
 *                 launch: the SMs used, the most CTAs on one SM, and how many
 *                 clusters had two of their CTAs on the same SM. One more
 *                 launch has the seed's tile-exchange shape (chapter 6: clusters
 *                 of 2 CTAs of 128 threads with 32 KB of shared memory, one
 *                 cluster per two SMs): do its CTAs sit one per SM? The n + 1
 *                 launches of clusters of 4 and 16 at two CTAs per SM are the
 *                 shapes where sharing would make room (the four groups of 2 SMs
 *                 and the GPC of 8 of the H200's fitted layout,
 *                 docs/device-model.md): if the hardware placed two CTAs of a
 *                 cluster on one SM, the extra cluster would check in.
 *
 * Output: CSV on stdout, one row per launch; '#' lines are comments. Columns:
 * gpu, shape (threads, dyn_smem, cluster), ctas_per_sm (the answer for clusters
 * of 1, over the SM count), max_active_clusters, clusters_launched, extra (0:
 * the answer, 1: one more, -1: the seed's shape, SMs / 2 clusters), launch, ctas, all_checked_in (every CTA saw every
 * CTA of the grid), ctas_timed_out, distinct_sms, max_ctas_on_one_sm,
 * clusters_sharing_an_sm, ms (the launch, events).
 * Build and run: bench/hw/README.md, or bench/hw/run_residency_probe.sh OUT.
 * Exit status 0, 2 (waived) without a cluster-capable GPU, 1 when the probe
 * itself fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#define KB 1024
#define MAX_CTAS 8192
#define LIMIT_MS 200 /* far longer than the few microseconds every resident CTA needs to check in */

#define CHECK(call)                                                                              \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            fprintf(stderr, "residency_probe: %s failed: %s (line %d)\n", #call,                 \
                    cudaGetErrorString(e_), __LINE__);                                           \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

/* Per CTA: info[4 b] = SM, [4 b + 1] = cluster id, [4 b + 2] = rank, [4 b + 3] = 1 when it saw every CTA check in. */
__global__ void residency_probe(unsigned *arrived, unsigned total, unsigned long long limit_ns, unsigned *info,
                                unsigned dyn_bytes)
{
    extern __shared__ unsigned char dyn[];
    unsigned b = blockIdx.x;
    if (threadIdx.x == 0) {
        unsigned smid, cid, rank;
        unsigned long long start, now;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
        asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
        if (dyn_bytes > 0) /* the shared memory the occupancy answer assumed is really allocated and used */
            dyn[dyn_bytes - 1] = (unsigned char)smid;
        atomicAdd(arrived, 1u);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
        unsigned seen = 0;
        do {
            asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(seen) : "l"(arrived) : "memory");
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
        } while (seen < total && now - start < limit_ns);
        if (b < MAX_CTAS) {
            info[4 * b] = smid;
            info[4 * b + 1] = cid;
            info[4 * b + 2] = rank;
            info[4 * b + 3] = seen >= total;
        }
    }
    __syncthreads();
}

static unsigned h_info[4 * MAX_CTAS];

struct shape {
    int threads;
    unsigned dyn_bytes;
    int cluster;
};

/* Launches `clusters` clusters of the shape and prints one row. */
static void run(const cudaDeviceProp *prop, const shape *s, int per_sm_x100, int answer, int extra, unsigned *d_arrived,
                unsigned *d_info, int seed_clusters)
{
    int clusters = extra < 0 ? seed_clusters : answer + extra;
    unsigned ctas = (unsigned)(clusters * s->cluster);
    if (clusters < 1 || ctas > MAX_CTAS) {
        printf("\"%s\",%d,%u,%d,%.2f,%d,%d,%d,not-run,%u,,,,,,\n", prop->name, s->threads, s->dyn_bytes, s->cluster,
               per_sm_x100 / 100.0, answer, clusters, extra, ctas);
        return;
    }
    CHECK(cudaMemset(d_arrived, 0, sizeof(unsigned)));
    CHECK(cudaMemset(d_info, 0xff, sizeof(unsigned) * 4 * ctas));
    cudaLaunchConfig_t lc = {};
    cudaLaunchAttribute attr = {};
    lc.gridDim = dim3(ctas, 1, 1);
    lc.blockDim = dim3((unsigned)s->threads, 1, 1);
    lc.dynamicSmemBytes = s->dyn_bytes;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = (unsigned)s->cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    lc.attrs = &attr;
    lc.numAttrs = 1;
    unsigned long long limit = (unsigned long long)LIMIT_MS * 1000000ull;
    unsigned dyn = s->dyn_bytes;
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    CHECK(cudaEventRecord(e0));
    cudaError_t err = cudaLaunchKernelEx(&lc, residency_probe, d_arrived, ctas, limit, d_info, dyn);
    CHECK(cudaEventRecord(e1));
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (err != cudaSuccess) {
        printf("\"%s\",%d,%u,%d,%.2f,%d,%d,%d,%s,%u,,,,,,\n", prop->name, s->threads, s->dyn_bytes, s->cluster,
               per_sm_x100 / 100.0, answer, clusters, extra, cudaGetErrorName(err), ctas);
        (void)cudaGetLastError();
        return;
    }
    CHECK(cudaMemcpy(h_info, d_info, sizeof(unsigned) * 4 * ctas, cudaMemcpyDeviceToHost));
    static int per_sm[1024];
    memset(per_sm, 0, sizeof per_sm);
    unsigned timed_out = 0, sharing = 0, distinct = 0, most = 0;
    for (unsigned b = 0; b < ctas; ++b) {
        unsigned sm = h_info[4 * b];
        if (sm < 1024 && per_sm[sm]++ == 0)
            ++distinct;
        if (sm < 1024 && (unsigned)per_sm[sm] > most)
            most = (unsigned)per_sm[sm];
        timed_out += h_info[4 * b + 3] != 1;
    }
    /* a cluster is s->cluster consecutive blocks of a 1-D grid */
    for (unsigned c0 = 0; c0 < ctas; c0 += (unsigned)s->cluster) {
        int shared = 0;
        for (int i = 0; i < s->cluster && !shared; ++i)
            for (int j = i + 1; j < s->cluster; ++j)
                shared |= h_info[4 * (c0 + i)] == h_info[4 * (c0 + j)];
        sharing += shared;
    }
    printf("\"%s\",%d,%u,%d,%.2f,%d,%d,%d,cudaSuccess,%u,%s,%u,%u,%u,%u,%.3f\n", prop->name, s->threads, s->dyn_bytes,
           s->cluster, per_sm_x100 / 100.0, answer, clusters, extra, ctas, timed_out ? "no" : "yes", timed_out,
           distinct, most, sharing, ms);
    fflush(stdout);
}

int main(void)
{
    int dev = 0, count = 0, cluster_ok = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
        cudaDeviceGetAttribute(&cluster_ok, cudaDevAttrClusterLaunch, dev) != cudaSuccess || !cluster_ok) {
        printf("# waived: no GPU with cluster launch\n");
        return 2;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    printf("# device: %s, cc %d.%d, %d SMs, driver %d, runtime %d; time limit %d ms per launch\n", prop.name,
           prop.major, prop.minor, prop.multiProcessorCount, driver, runtime, LIMIT_MS);
    printf("gpu,threads,dyn_smem,cluster,ctas_per_sm,max_active_clusters,clusters_launched,extra,launch,ctas,"
           "all_checked_in,ctas_timed_out,distinct_sms,max_ctas_on_one_sm,clusters_sharing_an_sm,ms\n");
    CHECK(cudaFuncSetAttribute(residency_probe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CHECK(cudaFuncSetAttribute(residency_probe, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * KB));
    unsigned *d_arrived, *d_info;
    CHECK(cudaMalloc(&d_arrived, sizeof(unsigned)));
    CHECK(cudaMalloc(&d_info, sizeof(unsigned) * 4 * MAX_CTAS));

    /* one CTA per SM (160 KB), two (1024 threads; or 100 KB), three (64 KB), eight (16 KB) */
    static const struct {
        int threads;
        unsigned dyn_bytes;
    } blocks[] = {{1024, 160 * KB}, {1024, 64 * KB}, {128, 100 * KB}, {128, 64 * KB}, {128, 16 * KB}};
    static const int sizes[] = {1, 2, 3, 4, 8, 16};
    for (unsigned i = 0; i < sizeof blocks / sizeof blocks[0]; ++i) {
        shape one = {blocks[i].threads, blocks[i].dyn_bytes, 1};
        cudaLaunchConfig_t lc = {};
        cudaLaunchAttribute attr = {};
        lc.gridDim = dim3(1, 1, 1);
        lc.blockDim = dim3((unsigned)one.threads, 1, 1);
        lc.dynamicSmemBytes = one.dyn_bytes;
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = 1;
        attr.val.clusterDim.y = 1;
        attr.val.clusterDim.z = 1;
        lc.attrs = &attr;
        lc.numAttrs = 1;
        int singles = 0;
        CHECK(cudaOccupancyMaxActiveClusters(&singles, residency_probe, &lc));
        int per_sm_x100 = singles * 100 / prop.multiProcessorCount;
        for (unsigned j = 0; j < sizeof sizes / sizeof sizes[0]; ++j) {
            shape s = {blocks[i].threads, blocks[i].dyn_bytes, sizes[j]};
            lc.gridDim = dim3((unsigned)s.cluster, 1, 1);
            attr.val.clusterDim.x = (unsigned)s.cluster;
            int answer = 0;
            cudaError_t q = cudaOccupancyMaxActiveClusters(&answer, residency_probe, &lc);
            if (q != cudaSuccess) {
                printf("# %d threads, %u B, clusters of %d: the occupancy query failed: %s\n", s.threads, s.dyn_bytes,
                       s.cluster, cudaGetErrorName(q));
                (void)cudaGetLastError();
                continue;
            }
            run(&prop, &s, per_sm_x100, answer, 0, d_arrived, d_info, 0);
            run(&prop, &s, per_sm_x100, answer, 1, d_arrived, d_info, 0);
        }
    }
    /* the seed's tile exchange (chapter 6): 66 clusters of 2 CTAs of 128 threads, 32 KB each, on an H200 */
    {
        shape seed = {128, 32 * KB, 2};
        cudaLaunchConfig_t lc = {};
        cudaLaunchAttribute attr = {};
        lc.gridDim = dim3(2, 1, 1);
        lc.blockDim = dim3(128, 1, 1);
        lc.dynamicSmemBytes = seed.dyn_bytes;
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = 2;
        attr.val.clusterDim.y = 1;
        attr.val.clusterDim.z = 1;
        lc.attrs = &attr;
        lc.numAttrs = 1;
        int answer = 0;
        CHECK(cudaOccupancyMaxActiveClusters(&answer, residency_probe, &lc));
        run(&prop, &seed, 0, answer, -1, d_arrived, d_info, prop.multiProcessorCount / 2);
    }
    printf("# all_checked_in yes with extra 0: the promised clusters were resident together; with extra 1 a "
           "\"no\" is the control (the test sees waves); clusters_sharing_an_sm counts clusters with two CTAs on one SM\n");
    cudaFree(d_arrived);
    cudaFree(d_info);
    return 0;
}
