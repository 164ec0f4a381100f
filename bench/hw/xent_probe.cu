// xent_probe.cu: chapter 9's design probe: every cross-entropy kernel of solutions/ch09 and its configurations on the large-vocabulary shapes, checked, then timed as CUDA graphs in rotating order beside the copy floor (CSV on stdout).
//
// Build (from the repository root):
//   nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -Iruntime -Isolutions/ch09 bench/hw/xent_probe.cu -o xent_probe
// Run: ./xent_probe [quick]
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "xent_cluster.cu"
#include "xent_rowpass.cu"
#include "xent_twokernel.cu"
#include "xent_gmem.cu"
#include "xent_copy.cu"

// The pull exchange (one cluster barrier per row, one at the end), a candidate protocol.
static __device__ __forceinline__ void pull_setup(xent_xchg *x) { (void)x; dsm_cluster_sync(); }
static __device__ __forceinline__ xent_stat pull_run(xent_xchg *x, xent_stat mine, int k)
{
    int C = (int)dsm_cluster_nctarank(), q = (int)dsm_cluster_ctarank(), b = k & 1;
    if (C == 1)
        return mine;
    if (threadIdx.x == 0)
        x->slot[b][q] = mine;
    dsm_cluster_sync();
    if (threadIdx.x == 0) {
        xent_stat r = q == 0 ? mine : *(const xent_stat *)dsm_map_shared_rank(&x->slot[b][0], 0);
        for (int p = 1; p < C; ++p)
            r = xent_stat_merge(r, p == q ? mine : *(const xent_stat *)dsm_map_shared_rank(&x->slot[b][p], (uint32_t)p));
        x->result = r;
    }
    __syncthreads();
    return x->result;
}
static __device__ __forceinline__ void pull_finish(xent_xchg *x) { (void)x; dsm_cluster_sync(); }
#undef XENT_EXCHANGE_SETUP
#undef XENT_EXCHANGE_RUN
#undef XENT_EXCHANGE_FINISH
#define XENT_EXCHANGE_SETUP pull_setup
#define XENT_EXCHANGE_RUN pull_run
#define XENT_EXCHANGE_FINISH pull_finish
#undef DSM_KERNEL_ENTRY
#define DSM_KERNEL_ENTRY(...)
#define xent_cluster_body xent_cluster_body_pull
namespace pullx {
#include "xent_cluster.cu"
}

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void fill_logits(uint4 *p, size_t n, uint32_t seed, int dtype)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        float v[8];
        uint64_t h = (i + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)seed << 32);
        for (int j = 0; j < 8; ++j) {
            h ^= h >> 29; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 32;
            v[j] = ((float)(h >> 40) / 16777216.0f) * 16.0f - 8.0f;
        }
        p[i] = xent_chunk_pack(v, dtype);
    }
}

struct Shape { int V, M, dtype; };
struct Buf { void *x, *g; };

enum Kind { COPY, CLUSTER, CLUSTER_PULL, ROWPASS, TWOK, GMEM_CL, GMEM_COOP };
struct Variant { Kind kind; int C, T, persistent; std::string name; };

static int nsm;

struct Ctx {
    Shape s; size_t bytes; int vc;
    std::vector<Buf> pool; int *labels; float *loss; xent_stat *ws; std::vector<uint32_t *> flags; float scale;
};

// Launch one call of variant v on slot i; returns false when it cannot launch.
static bool launch(Ctx &c, const Variant &v, int vi, int i, cudaStream_t st)
{
    const Buf &b = c.pool[i % c.pool.size()];
    const uint4 *x = (const uint4 *)b.x; uint4 *g = (uint4 *)b.g;
    int M = c.s.M, V = c.s.V, dt = c.s.dtype; float sc = c.scale;
    cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[2]; cfg.attrs = at; cfg.numAttrs = 0; cfg.stream = st;
    cfg.blockDim = dim3(v.T);
    switch (v.kind) {
    case COPY: {
        size_t n = c.bytes / 16;
        xent_copy<<<nsm * 8, 512, 0, st>>>(x, g, n);
        return true;
    }
    case CLUSTER: case CLUSTER_PULL: {
        void (*k)(XENT_PARAMS) = v.kind == CLUSTER ? (dt == XENT_BF16 ? xent_cluster_bf16 : xent_cluster_f32)
                                                   : (dt == XENT_BF16 ? pullx::xent_cluster_bf16 : pullx::xent_cluster_f32);
        size_t smem = xent_cluster_smem(V, dt, v.C, v.T);
        if (smem > 227 * 1024) return false;
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        if (v.C > 8) CK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = v.C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
        cfg.numAttrs = 1; cfg.dynamicSmemBytes = smem;
        int ncl = M;
        if (v.persistent) {
            cfg.gridDim = dim3(v.C * M);
            int act = 0;
            if (cudaOccupancyMaxActiveClusters(&act, (void *)k, &cfg) != cudaSuccess || act == 0) return false;
            ncl = std::min(M, act);
        }
        cfg.gridDim = dim3(v.C * ncl);
        return cudaLaunchKernelEx(&cfg, k, x, (const int *)c.labels, g, c.loss, M, V, sc) == cudaSuccess;
    }
    case ROWPASS: {
        auto k = dt == XENT_BF16 ? xent_rowpass_bf16 : xent_rowpass_f32;
        size_t smem = xent_fold_smem(v.T);
        k<<<v.persistent ? std::min(M, nsm * std::max(1, 2048 / v.T)) : M, v.T, smem, st>>>(x, c.labels, g, c.loss, M, V, sc);
        return true;
    }
    case TWOK: {
        auto k1 = dt == XENT_BF16 ? xent_split_stat_bf16 : xent_split_stat_f32;
        auto k2 = dt == XENT_BF16 ? xent_split_grad_bf16 : xent_split_grad_f32;
        size_t smem = xent_fold_smem(v.T);
        k1<<<M * v.C, v.T, smem, st>>>(x, c.ws, v.C, V);
        k2<<<M * v.C, v.T, smem, st>>>(x, c.labels, c.ws, g, c.loss, v.C, V, sc);
        return true;
    }
    case GMEM_CL: case GMEM_COOP: {
        auto k = dt == XENT_BF16 ? xent_gmem_bf16 : xent_gmem_f32;
        size_t smem = xent_gmem_smem(V, dt, v.C, v.T);
        if (smem > 227 * 1024) return false;
        CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        if (v.C > 8) CK(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        cfg.dynamicSmemBytes = smem;
        int groups;
        if (v.kind == GMEM_CL) {
            at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = v.C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
            cfg.numAttrs = 1; cfg.gridDim = dim3(v.C * M);
            int act = 0;
            if (cudaOccupancyMaxActiveClusters(&act, (void *)k, &cfg) != cudaSuccess || act == 0) return false;
            groups = std::min(M, act);
        } else {
            int per = 0;
            CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k, v.T, smem));
            groups = std::min(M, per * nsm / v.C);
            if (groups == 0) return false;
            at[0].id = cudaLaunchAttributeCooperative; at[0].val.cooperative = 1; cfg.numAttrs = 1;
        }
        cfg.gridDim = dim3(v.C * groups);
        return cudaLaunchKernelEx(&cfg, k, x, (const int *)c.labels, g, c.loss, c.ws, c.flags[vi], M, V, v.C, sc) == cudaSuccess;
    }
    }
    return false;
}

static float elem(const void *row, int i, int dt)
{
    if (dt == XENT_BF16) { uint16_t h = ((const uint16_t *)row)[i]; return xent_bits_f32((uint32_t)h << 16); }
    return ((const float *)row)[i];
}

// Check variant v on slot 0: every loss against ref_loss (when given), sampled rows' gradient against a CPU reference.
static bool check(Ctx &c, const Variant &v, int vi, std::vector<float> &loss_out, const std::vector<int> &hl, std::string &why)
{
    int M = c.s.M, V = c.s.V, dt = c.s.dtype; size_t es = dt == XENT_BF16 ? 2 : 4;
    CK(cudaMemset(c.pool[0].g, 0xFF, c.bytes));
    CK(cudaMemset(c.loss, 0xFF, (size_t)M * 4));
    if (!launch(c, v, vi, 0, 0)) { why = "does not launch"; return false; }
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", v.name.c_str(), cudaGetErrorString(e)); exit(1); }
    if (v.kind == COPY) {
        std::vector<char> a(std::min(c.bytes, (size_t)1 << 24)), b(a.size());
        CK(cudaMemcpy(a.data(), c.pool[0].x, a.size(), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(b.data(), c.pool[0].g, b.size(), cudaMemcpyDeviceToHost));
        if (memcmp(a.data(), b.data(), a.size())) { why = "copy differs"; return false; }
        return true;
    }
    loss_out.resize(M);
    CK(cudaMemcpy(loss_out.data(), c.loss, (size_t)M * 4, cudaMemcpyDeviceToHost));
    int rows[6] = {0, 1, M / 3, M / 2, M - 2, M - 1};
    std::vector<char> xr(V * es), gr(V * es);
    for (int r : rows) {
        if (r < 0 || r >= M) continue;
        CK(cudaMemcpy(xr.data(), (char *)c.pool[0].x + (size_t)r * V * es, V * es, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(gr.data(), (char *)c.pool[0].g + (size_t)r * V * es, V * es, cudaMemcpyDeviceToHost));
        double mx = -INFINITY, s = 0; int l = hl[r];
        for (int i = 0; i < V; ++i) mx = std::max(mx, (double)elem(xr.data(), i, dt));
        for (int i = 0; i < V; ++i) s += exp((double)elem(xr.data(), i, dt) - mx);
        double wl = l == XENT_IGNORE ? 0 : mx + log(s) - elem(xr.data(), l, dt);
        if (!(fabs(loss_out[r] - wl) <= 1e-4 * std::max(1.0, fabs(wl)))) { why = "loss row " + std::to_string(r); return false; }
        double rel = dt == XENT_BF16 ? 1.0 / 64 : 1e-4;
        for (int i = 0; i < V; ++i) {
            double w = l == XENT_IGNORE ? 0 : (exp((double)elem(xr.data(), i, dt) - mx) / s - (i == l)) * c.scale;
            double gg = elem(gr.data(), i, dt);
            if (!(fabs(gg - w) <= rel * fabs(w) + 1e-6 * c.scale)) { why = "grad row " + std::to_string(r) + " el " + std::to_string(i); return false; }
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    bool quick = argc > 1 && !strcmp(argv[1], "quick");
    cudaDeviceProp pr; CK(cudaGetDeviceProperties(&pr, 0)); nsm = pr.multiProcessorCount;
    printf("# %s, %d SMs, L2 %d MB\n", pr.name, nsm, pr.l2CacheSize >> 20);
    std::vector<Shape> shapes = {
        {128256, 4096, XENT_BF16}, {151936, 4096, XENT_BF16}, {262144, 4096, XENT_BF16}, {128256, 16384, XENT_BF16},
        {32000, 16384, XENT_BF16}, {128256, 64, XENT_BF16}, {262144, 8, XENT_BF16}, {128256, 512, XENT_BF16},
        {128256, 4096, XENT_F32}, {262144, 1024, XENT_F32}};
    if (quick) shapes.resize(2);
    std::vector<Variant> vs = {{COPY, 1, 512, 0, "copy"}};
    for (int C : {1, 2, 4, 8, 16})
        for (int T : {256, 512})
            vs.push_back({CLUSTER, C, T, 1, "cluster_c" + std::to_string(C) + "_t" + std::to_string(T) + "_pers"});
    for (int C : {4, 8})
        vs.push_back({CLUSTER, C, 256, 0, "cluster_c" + std::to_string(C) + "_t256_grid"});
    vs.push_back({CLUSTER_PULL, 8, 256, 1, "cluster_pull_c8_t256_pers"});
    vs.push_back({CLUSTER_PULL, 4, 256, 1, "cluster_pull_c4_t256_pers"});
    for (int T : {256, 512, 1024}) vs.push_back({ROWPASS, 1, T, 0, "rowpass_t" + std::to_string(T)});
    vs.push_back({ROWPASS, 1, 512, 1, "rowpass_t512_pers"});
    for (int C : {4, 8}) vs.push_back({TWOK, C, 256, 0, "twokernel_c" + std::to_string(C) + "_t256"});
    for (int C : {4, 8}) vs.push_back({GMEM_CL, C, 256, 1, "gmem_cluster_c" + std::to_string(C) + "_t256"});
    for (int C : {4, 8}) vs.push_back({GMEM_COOP, C, 256, 1, "gmem_coop_c" + std::to_string(C) + "_t256"});

    printf("V,M,dtype,variant,status,us_median,us_min,us_max,x_copy,tbps_rw\n");
    for (const Shape &s : shapes) {
        Ctx c; c.s = s; size_t es = s.dtype == XENT_BF16 ? 2 : 4;
        c.bytes = (size_t)s.M * s.V * es; c.vc = xent_row_chunks(s.V, s.dtype);
        size_t want = (size_t)4 * pr.l2CacheSize;
        int slots = (int)std::max((size_t)1, (want + c.bytes - 1) / c.bytes);
        for (int i = 0; i < slots; ++i) {
            Buf b; CK(cudaMalloc(&b.x, c.bytes)); CK(cudaMalloc(&b.g, c.bytes));
            fill_logits<<<nsm * 4, 256>>>((uint4 *)b.x, c.bytes / 16, 1234 + i, s.dtype);
            c.pool.push_back(b);
        }
        std::vector<int> hl(s.M); int count = 0;
        srand(7);
        for (int m = 0; m < s.M; ++m) { hl[m] = (rand() % 16 == 0 && m) ? XENT_IGNORE : rand() % s.V; count += hl[m] != XENT_IGNORE; }
        c.scale = 1.0f / count;
        CK(cudaMalloc(&c.labels, s.M * 4)); CK(cudaMemcpy(c.labels, hl.data(), s.M * 4, cudaMemcpyHostToDevice));
        CK(cudaMalloc(&c.loss, s.M * 4)); CK(cudaMalloc(&c.ws, (size_t)s.M * 16 * 8));
        c.flags.assign(vs.size(), nullptr);
        for (size_t i = 0; i < vs.size(); ++i) { CK(cudaMalloc(&c.flags[i], (size_t)s.M * 16 * 4)); CK(cudaMemset(c.flags[i], 0, (size_t)s.M * 16 * 4)); }
        std::vector<int> ok; std::vector<float> loss;
        for (size_t i = 0; i < vs.size(); ++i) {
            std::string why;
            if (check(c, vs[i], (int)i, loss, hl, why)) ok.push_back((int)i);
            else printf("%d,%d,%s,%s,%s,,,,,\n", s.V, s.M, s.dtype == XENT_BF16 ? "bf16" : "f32", vs[i].name.c_str(), why.c_str());
            fflush(stdout);
        }
        // graphs
        int calls = std::max(slots, 4);
        if (c.bytes < ((size_t)64 << 20)) calls = std::max(calls, 40);
        cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
        std::vector<cudaGraphExec_t> ge(vs.size());
        std::vector<int> timed;
        for (int i : ok) {
            cudaGraph_t gr = nullptr; bool good = cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal) == cudaSuccess;
            for (int j = 0; j < calls && good; ++j) good = launch(c, vs[i], i, j, st);
            good = cudaStreamEndCapture(st, &gr) == cudaSuccess && good;
            good = good && cudaGraphInstantiate(&ge[i], gr, 0) == cudaSuccess;
            if (gr) cudaGraphDestroy(gr);
            good = good && cudaGraphLaunch(ge[i], st) == cudaSuccess;
            if (good) timed.push_back(i);
            else { cudaGetLastError(); printf("%d,%d,%s,%s,no graph,,,,,\n", s.V, s.M, s.dtype == XENT_BF16 ? "bf16" : "f32", vs[i].name.c_str()); }
        }
        ok = timed;
        CK(cudaStreamSynchronize(st));
        int rounds = quick ? 3 : 7;
        std::vector<std::vector<float>> t(vs.size());
        cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
        for (int r = 0; r < rounds; ++r)
            for (size_t j = 0; j < ok.size(); ++j) {
                int i = ok[(j + r) % ok.size()];
                CK(cudaEventRecord(e0, st)); CK(cudaGraphLaunch(ge[i], st)); CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
                t[i].push_back(ms * 1000.0f / calls);
            }
        CK(cudaGetLastError());
        double copy_med = 0;
        for (int i : ok) {
            std::vector<float> a = t[i]; std::sort(a.begin(), a.end());
            double med = a[a.size() / 2];
            if (vs[i].kind == COPY) copy_med = med;
            printf("%d,%d,%s,%s,ok,%.2f,%.2f,%.2f,%.3f,%.3f\n", s.V, s.M, s.dtype == XENT_BF16 ? "bf16" : "f32",
                   vs[i].name.c_str(), med, a.front(), a.back(), copy_med > 0 ? med / copy_med : 0, 2.0 * c.bytes / med / 1e6);
            CK(cudaGraphExecDestroy(ge[i]));
        }
        fflush(stdout);
        for (Buf &b : c.pool) { cudaFree(b.x); cudaFree(b.g); }
        cudaFree(c.labels); cudaFree(c.loss); cudaFree(c.ws); for (uint32_t *f : c.flags) cudaFree(f); cudaStreamDestroy(st);
    }
    return 0;
}
