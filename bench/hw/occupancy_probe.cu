/* occupancy_probe.cu: measures cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize on a real GPU, as CSV beside the device model's predictions. */
/*
 * Rows (column "set"):
 *   anchor            every row of bench/results/anchors/occupancy-h200.md (column anchor_clusters)
 *   sweep_1024t_64k   cluster sizes 1..16, 1024 threads, 64 KB dynamic (2 CTAs per SM)
 *   sweep_128t_100k   cluster sizes 1..16, 128 threads, 100 KB dynamic (2 CTAs per SM)
 *   sweep_1024t_160k  cluster sizes 1..16, 1024 threads, 160 KB dynamic (1 CTA per SM)
 *   portable          sizes 8, 9, 16 on a kernel WITHOUT the non-portable attribute
 *   bare              a kernel with no attribute set at all: 32 KB and 64 KB (above
 *                     the 48 KB default) dynamic, cluster 2; what CUDA answers there
 * Then, as '#' lines, the GPC layouts (SMs per GPC) that reproduce the 1-CTA
 * sweep under the model's rule, to calibrate runtime/model/device_model.c.
 * Build and run: see bench/hw/README.md. Exit status 0, or 2 (waived) without a
 * cluster-capable GPU, or 1 when a setup call fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>
#include "model/device_model.h"

#define KB 1024
#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* No static shared memory; non-portable cluster sizes allowed. */
__global__ void probe_dynamic(int *sink)
{
    extern __shared__ int dyn[];
    if (sink != NULL && threadIdx.x == 0) {
        dyn[0] = (int)blockIdx.x;
        sink[blockIdx.x] = dyn[0];
    }
}

/* 64 B of static shared memory (the "+ 64 B static" rows); non-portable allowed. */
__global__ void probe_static64(int *sink)
{
    __shared__ int s[16];
    s[threadIdx.x % 16] = (int)threadIdx.x;
    __syncthreads();
    if (sink != NULL && threadIdx.x == 0)
        sink[blockIdx.x] = s[(blockIdx.x + 1) % 16];
}

/* Like probe_dynamic, but the non-portable attribute is never set on it. */
__global__ void probe_portable(int *sink)
{
    extern __shared__ int dyn[];
    if (sink != NULL && threadIdx.x == 0) {
        dyn[0] = (int)blockIdx.x;
        sink[blockIdx.x] = dyn[0];
    }
}

/* Like probe_dynamic, with no attribute set: 48 KB dynamic at most, portable sizes only. */
__global__ void probe_bare(int *sink)
{
    extern __shared__ int dyn[];
    if (sink != NULL && threadIdx.x == 0) {
        dyn[0] = (int)blockIdx.x;
        sink[blockIdx.x] = dyn[0];
    }
}

struct kernel_info {
    const void *fn;
    const char *name;
    int non_portable;
    int static_smem, regs;
};

enum { K_DYNAMIC, K_STATIC64, K_PORTABLE, K_BARE, K_COUNT };

struct row {
    const char *set;
    int cluster, threads, dyn_kb, kernel, anchor; /* kernel: K_*; anchor: -1 when none */
};

static const struct row anchor_rows[] = {
    {"anchor", 2, 256, 32, K_DYNAMIC, 396},   {"anchor", 2, 512, 64, K_DYNAMIC, 198},
    {"anchor", 2, 1024, 64, K_DYNAMIC, 132},  {"anchor", 2, 1024, 200, K_DYNAMIC, 66},
    {"anchor", 2, 1024, 128, K_DYNAMIC, 66},  {"anchor", 2, 64, 40, K_STATIC64, 330},
    {"anchor", 2, 64, 80, K_STATIC64, 132},   {"anchor", 2, 64, 160, K_STATIC64, 66},
    {"anchor", 4, 1024, 64, K_DYNAMIC, 62},   {"anchor", 4, 64, 80, K_STATIC64, 62},
    {"anchor", 8, 1024, 64, K_DYNAMIC, 30},   {"anchor", 8, 64, 80, K_STATIC64, 30},
    {"anchor", 16, 1024, 64, K_DYNAMIC, 14},  {"anchor", 16, 64, 80, K_STATIC64, 14},
};

static struct kernel_info kernels[K_COUNT];

/* Sets up one kernel: when optin is nonzero, that much shared memory allowed
 * (its dynamic part raised to optin less the static part); non-portable cluster
 * sizes as asked; reads its static size and registers. */
static void setup_kernel(struct kernel_info *k, const void *fn, const char *name, int non_portable, size_t optin)
{
    struct cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, fn));
    if (optin > 0)
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)(optin - fa.sharedSizeBytes)));
    if (non_portable)
        CHECK(cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    k->fn = fn;
    k->name = name;
    k->non_portable = non_portable;
    k->static_smem = (int)fa.sharedSizeBytes;
    k->regs = fa.numRegs;
}

static char gpu_name[256];
static int driver_version, runtime_version;
static const dsm_device_model *model;

/* Measured clusters of the 1-CTA-per-SM sweep, by cluster size (-1: not measured). */
static int sweep_one_cta[17];

/* Queries one configuration, prints its CSV line; returns the measured clusters (-1 on error). */
static int probe(const struct row *r)
{
    const struct kernel_info *k = &kernels[r->kernel];
    cudaLaunchConfig_t lc = {};
    cudaLaunchAttribute attr = {};
    /* A grid far larger than what fits, so that it never caps the answer; a multiple of 16 for the potential-size query. */
    lc.gridDim = dim3((unsigned)(r->cluster * 8192), 1, 1);
    lc.blockDim = dim3((unsigned)r->threads, 1, 1);
    lc.dynamicSmemBytes = (size_t)r->dyn_kb * KB;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = (unsigned)r->cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    lc.attrs = &attr;
    lc.numAttrs = 1;

    int clusters = -1, potential = -1;
    cudaError_t e1 = cudaOccupancyMaxActiveClusters(&clusters, k->fn, &lc);
    cudaError_t e2 = cudaOccupancyMaxPotentialClusterSize(&potential, k->fn, &lc);
    (void)cudaGetLastError(); /* these errors are not sticky; keep the next query clean */
    cudaError_t status = e1 != cudaSuccess ? e1 : e2;

    size_t smem = (size_t)r->dyn_kb * KB + (size_t)k->static_smem;
    int m_clusters = -1, m_potential = -1;
    dsm_error_t me1 = dsm_model_occupancy_max_active_clusters(model, r->cluster, r->threads, smem, k->regs, &m_clusters);
    dsm_error_t me2 = dsm_model_occupancy_max_potential_cluster_size(model, k->non_portable, r->threads, smem, k->regs,
                                                                    &m_potential);
    const char *verdict;
    if (status != cudaSuccess)
        verdict = "ERROR";
    else if (me1 != dsmSuccess || me2 != dsmSuccess)
        verdict = "DIFF";
    else
        verdict = (clusters == m_clusters && potential == m_potential) ? "MATCH" : "DIFF";

    char anchor[16] = "";
    if (r->anchor >= 0)
        snprintf(anchor, sizeof anchor, "%d", r->anchor);
    printf("\"%s\",%d,%d,%s,%s,%d,%d,%d,%d,%d,%d,%s,%d,%d,%d,%d,%d,%s,%s\n", gpu_name, driver_version,
           runtime_version, r->set, k->name, r->cluster, r->threads, r->dyn_kb * KB, k->static_smem, k->regs,
           k->non_portable, cudaGetErrorName(status), e1 == cudaSuccess ? clusters : -1,
           e1 == cudaSuccess ? clusters * r->cluster : -1, e2 == cudaSuccess ? potential : -1,
           me1 == dsmSuccess ? m_clusters : -1, me2 == dsmSuccess ? m_potential : -1, anchor, verdict);
    return e1 == cudaSuccess ? clusters : -1;
}

/* ---- GPC layouts consistent with the 1-CTA-per-SM sweep ---- */

#define MAX_SMS_PER_GPC 18 /* 9 TPCs of 2 SMs: a complete GH100 GPC (H100 whitepaper) */

static int layout[DSM_MODEL_MAX_GPCS], fits_found;

/* Whether a layout gives exactly the measured clusters for every size. */
static int layout_fits(int gpcs)
{
    for (int c = 1; c <= 16; c++) {
        if (sweep_one_cta[c] < 0)
            continue;
        int n = 0;
        for (int g = 0; g < gpcs; g++)
            n += layout[g] / c;
        if (n != sweep_one_cta[c])
            return 0;
    }
    return 1;
}

/* Enumerates non-increasing layouts of up to 8 GPCs summing to `left` more SMs. */
static void search_layouts(int g, int left, int max_here)
{
    if (left == 0) {
        if (layout_fits(g)) {
            if (fits_found < 12) {
                printf("# layout fits: {");
                for (int i = 0; i < g; i++)
                    printf("%s%d", i ? "," : "", layout[i]);
                printf("}\n");
            }
            fits_found++;
        }
        return;
    }
    if (g == DSM_MODEL_MAX_GPCS)
        return;
    for (int s = max_here < left ? max_here : left; s >= 1; s--) {
        if (s * (DSM_MODEL_MAX_GPCS - g) < left)
            break;
        layout[g] = s;
        search_layouts(g + 1, left - s, s);
    }
}

static void report_layouts(int sm_count)
{
    printf("# GPC layouts (SMs per GPC, at most %d GPCs of at most %d SMs) that give the measured 1-CTA-per-SM "
           "sweep as sum floor(sms/cluster):\n", DSM_MODEL_MAX_GPCS, MAX_SMS_PER_GPC);
    printf("# measured clusters by size 1..16:");
    for (int c = 1; c <= 16; c++)
        printf(" %d", sweep_one_cta[c]);
    printf("\n");
    search_layouts(0, sm_count, MAX_SMS_PER_GPC);
    printf("# %d layout(s) fit%s\n", fits_found,
           fits_found == 0 ? ": the rule (one CTA per SM, a cluster inside one GPC) does not explain this GPU" : "");
    printf("# the model's layout {");
    for (int g = 0; g < model->gpc_count; g++)
        printf("%s%d", g ? "," : "", model->sms_per_gpc[g]);
    for (int g = 0; g < model->gpc_count; g++)
        layout[g] = model->sms_per_gpc[g];
    printf("} %s\n", layout_fits(model->gpc_count) ? "fits" : "does NOT fit: update runtime/model/device_model.c");
}

int main(void)
{
    int count = 0, dev = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        printf("# waived: no CUDA device (%s)\n", cudaGetErrorName(err));
        return 2;
    }
    struct cudaDeviceProp prop;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaGetDeviceProperties(&prop, dev));
    if (prop.major < 9 || !prop.clusterLaunch) {
        printf("# waived: %s, compute capability %d.%d: no cluster launch\n", prop.name, prop.major, prop.minor);
        return 2;
    }
    snprintf(gpu_name, sizeof gpu_name, "%s", prop.name);
    CHECK(cudaDriverGetVersion(&driver_version));
    CHECK(cudaRuntimeGetVersion(&runtime_version));
    int clock_khz = 0;
    CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));

    model = dsm_model_find(prop.name);
    printf("# device: %s, cc %d.%d, %d SMs, %zu B shared/SM, %zu B opt-in/block, %zu B reserved/block, "
           "%d B L2, %d regs/SM, %d threads/SM, clock %d MHz\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.sharedMemPerMultiprocessor,
           prop.sharedMemPerBlockOptin, prop.reservedSharedMemPerBlock, prop.l2CacheSize,
           prop.regsPerMultiprocessor, prop.maxThreadsPerMultiProcessor, clock_khz / 1000);
    if (model == NULL) {
        model = dsm_model_find("H200");
        printf("# model: no model named \"%s\"; comparing with H200\n", prop.name);
    }
    printf("# model: %s, %d SMs, %zu B shared/SM, %zu B opt-in/block, %zu B reserved/block, %zu B L2, %d MHz%s\n",
           model->name, model->sm_count, model->smem_per_sm, model->smem_per_block_optin,
           model->smem_reserved_per_block, model->l2_bytes, model->sm_clock_mhz,
           (model->sm_count == prop.multiProcessorCount && model->smem_per_sm == prop.sharedMemPerMultiprocessor &&
            model->smem_per_block_optin == prop.sharedMemPerBlockOptin &&
            model->smem_reserved_per_block == prop.reservedSharedMemPerBlock)
               ? " (SMs and shared memory sizes agree)"
               : " (DIFFERS from the device: check SMs and shared memory sizes)");

    setup_kernel(&kernels[K_DYNAMIC], (const void *)probe_dynamic, "probe_dynamic", 1, prop.sharedMemPerBlockOptin);
    setup_kernel(&kernels[K_STATIC64], (const void *)probe_static64, "probe_static64", 1, prop.sharedMemPerBlockOptin);
    setup_kernel(&kernels[K_PORTABLE], (const void *)probe_portable, "probe_portable", 0, prop.sharedMemPerBlockOptin);
    setup_kernel(&kernels[K_BARE], (const void *)probe_bare, "probe_bare", 0, 0);
    if (kernels[K_STATIC64].static_smem != 64)
        printf("# note: probe_static64 has %d B of static shared memory, not 64\n", kernels[K_STATIC64].static_smem);

    printf("gpu,driver,runtime,set,kernel,cluster_size,threads,dyn_smem,static_smem,regs,non_portable,status,"
           "max_active_clusters,ctas_resident,max_potential_cluster_size,model_clusters,model_potential,"
           "anchor_clusters,verdict\n");
    for (size_t i = 0; i < sizeof anchor_rows / sizeof anchor_rows[0]; i++)
        probe(&anchor_rows[i]);
    for (int c = 1; c <= 16; c++) {
        struct row r1 = {"sweep_1024t_64k", c, 1024, 64, K_DYNAMIC, -1};
        struct row r2 = {"sweep_128t_100k", c, 128, 100, K_DYNAMIC, -1};
        probe(&r1);
        probe(&r2);
    }
    for (int c = 1; c <= 16; c++) {
        struct row r3 = {"sweep_1024t_160k", c, 1024, 160, K_DYNAMIC, -1};
        sweep_one_cta[c] = probe(&r3);
    }
    static const int portable_sizes[] = {8, 9, 16};
    for (int i = 0; i < 3; i++) {
        struct row r4 = {"portable", portable_sizes[i], 1024, 64, K_PORTABLE, -1};
        probe(&r4);
    }
    static const int bare_kb[] = {32, 64};
    for (int i = 0; i < 2; i++) {
        struct row r5 = {"bare", 2, 1024, bare_kb[i], K_BARE, -1};
        probe(&r5);
    }

    /* The layout search assumes one CTA per SM in that sweep: clusters of size 1 = SMs. */
    if (sweep_one_cta[1] == prop.multiProcessorCount)
        report_layouts(prop.multiProcessorCount);
    else
        printf("# layout search skipped: size-1 clusters at 1024 threads/160 KB = %d, not one per SM (%d)\n",
               sweep_one_cta[1], prop.multiProcessorCount);
    return 0;
}
