/* xent_pipe_probe.cu: on a Hopper GPU, which design of chapter 9's fused cross-entropy cluster kernel comes closest to the copy floor: the course's register-slice kernel against persistent clusters with bulk-copy stages (swept over cluster size, threads, stages, look-ahead), one CTA per row and the copy, checked, then timed in rotating rounds with paired ratios. */
/*
 * Every variant's output (loss and gradient of every row) is compared with
 * one CTA per row's (itself checked on four rows against a double-precision
 * CPU reference) after poisoning; a variant that differs is reported and not
 * timed. Timing: CUDA graphs of CALLS calls on logits of at least 1 GB
 * (more than 16 x L2), ROUNDS rounds, every variant once per round in an
 * order rotated each round; per round a variant's ratio copy / variant
 * (paired). Output: CSV lines (shape,variant,round,us) then "# SUMMARY" lines.
 * Build and run: bench/hw/run_xent_pipe_probe.sh OUT.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../solutions/ch09/xent_copy.cu"
#include "../../solutions/ch09/xent_rowpass.cu"
#include "../../solutions/ch09/xent_cluster.cu"
#include "../../solutions/ch09/xent_plan.h"
#include "xent_pipe_kernel.h"

#define CK(x)                                                                                                       \
    do {                                                                                                            \
        cudaError_t e_ = (x);                                                                                       \
        if (e_ != cudaSuccess) {                                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                     \
            exit(2);                                                                                                \
        }                                                                                                           \
    } while (0)

static int CALLS = 3, ROUNDS = 9;

static __host__ __device__ uint32_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}
static __host__ __device__ float logit_of(uint32_t r, uint32_t i)
{
    uint32_t h = hash3(r, i, 12345u);
    float v = (float)(h % 4096u) / 256.0f - 8.0f;
    if (h % 50021u == 7u)
        v += 24.0f;   /* a few large logits */
    if (r % 13u == 5u && i < 4096u)
        v = -INFINITY;   /* rank 0's slice all -inf in some rows */
    return v;
}
__global__ void fill_logits(void *x, int M, int V, int dtype)
{
    size_t n = (size_t)M * V;
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
        float f = logit_of((uint32_t)(k / V), (uint32_t)(k % V));
        if (dtype == XENT_BF16)
            ((uint16_t *)x)[k] = (uint16_t)xent_bf16_bits(f);
        else
            ((float *)x)[k] = f;
    }
}
/* mismatches of a against b (gradients): |a - b| > rel |b| + tiny, or NaN. */
__global__ void compare(const void *a, const void *b, size_t n, int dtype, float rel, float tiny,
                        unsigned long long *bad)
{
    unsigned long long mine = 0;
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x) {
        float x, y;
        if (dtype == XENT_BF16) {
            x = __uint_as_float((uint32_t)((const uint16_t *)a)[k] << 16);
            y = __uint_as_float((uint32_t)((const uint16_t *)b)[k] << 16);
        } else {
            x = ((const float *)a)[k];
            y = ((const float *)b)[k];
        }
        if (!(x == y || fabsf(x - y) <= rel * fabsf(y) + tiny))
            ++mine;
    }
    if (mine)
        atomicAdd(bad, mine);
}

struct shape {
    int dtype, M, V;
};
struct variant {
    std::string name;
    int kind;   /* 0 copy, 1 rowpass, 2 course cluster kernel, 3 pipe, 4 one row in pieces */
    int C, T, S, ahead, streaming, persistent, G;
    size_t smem;
    cudaGraphExec_t g;
    std::vector<double> us, ratio;
};

struct run {
    shape sh;
    void *x, *g;
    int *labels;
    float *loss, scale;
};

static const void *fn_of(int kind, int dt)
{
    if (kind == 2)
        return dt == XENT_BF16 ? (const void *)xent_cluster_bf16 : (const void *)xent_cluster_f32;
    if (kind == 4)
        return dt == XENT_BF16 ? (const void *)xp1_bf16 : (const void *)xp1_f32;
    return dt == XENT_BF16 ? (const void *)xp_bf16 : (const void *)xp_f32;
}

static cudaError_t launch(const run &r, variant &v, cudaStream_t s)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    cfg.blockDim = dim3(v.T);
    cfg.stream = s;
    int M = r.sh.M, V = r.sh.V, dt = r.sh.dtype;
    float sc = r.scale;
    const uint4 *x = (const uint4 *)r.x;
    uint4 *g = (uint4 *)r.g;
    if (v.kind == 0) {
        size_t n = (size_t)M * V * (dt == XENT_BF16 ? 2 : 4) / 16;
        cfg.gridDim = dim3(132 * v.C);
        void *a[] = {&x, &g, &n};
        return cudaLaunchKernelExC(&cfg, (const void *)xent_copy, a);
    }
    const int *lab = r.labels;
    float *ls = r.loss;
    void *a[] = {&x, &lab, &g, &ls, &M, &V, &sc, &v.S, &v.ahead, &v.streaming};
    if (v.kind == 1) {
        cfg.gridDim = dim3(M);
        cfg.dynamicSmemBytes = (size_t)XENT_BLOCK_RED(v.T) * 8;
        return cudaLaunchKernelExC(&cfg, dt == XENT_BF16 ? (const void *)xent_rowpass_bf16 : (const void *)xent_rowpass_f32, a);
    }
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = v.C;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    cfg.dynamicSmemBytes = v.smem;
    if (v.kind == 2) {
        cfg.gridDim = dim3(v.C * M);
        return cudaLaunchKernelExC(&cfg, dt == XENT_BF16 ? (const void *)xent_cluster_bf16 : (const void *)xent_cluster_f32, a);
    }
    cfg.gridDim = dim3(v.C * v.G);
    return cudaLaunchKernelExC(&cfg, fn_of(v.kind, dt), a);
}

/* Sets the kernel's attributes and the persistent grid; 0 when the shape does not launch. */
static int prepare(const run &r, variant &v)
{
    if (v.kind < 2)
        return 1;
    const void *fn = fn_of(v.kind, r.sh.dtype);
    if (cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)v.smem) != cudaSuccess ||
        (v.C > 8 && cudaFuncSetAttribute(fn, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess)) {
        cudaGetLastError();
        return 0;
    }
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeClusterDimension;
    at[0].val.clusterDim.x = v.C;
    at[0].val.clusterDim.y = 1;
    at[0].val.clusterDim.z = 1;
    cfg.attrs = at;
    cfg.numAttrs = 1;
    cfg.blockDim = dim3(v.T);
    cfg.gridDim = dim3(v.C * r.sh.M);
    cfg.dynamicSmemBytes = v.smem;
    int n = 0;
    if (cudaOccupancyMaxActiveClusters(&n, fn, &cfg) != cudaSuccess || n <= 0) {
        cudaGetLastError();
        return 0;
    }
    v.G = v.persistent == 1 ? std::min(r.sh.M, n) : v.persistent > 1 ? r.sh.M / v.persistent : r.sh.M;
    return 1;
}

static double time_graph(cudaStream_t s, cudaGraphExec_t e, cudaEvent_t a, cudaEvent_t b)
{
    CK(cudaEventRecord(a, s));
    CK(cudaGraphLaunch(e, s));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    return 1000.0 * ms / CALLS;
}

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? NAN : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The CPU check of one row of the reference. */
static int check_row(const run &r, int row, const std::vector<int> &lab, const void *gref, const float *lref)
{
    int V = r.sh.V, l = lab[row];
    std::vector<double> x(V);
    for (int i = 0; i < V; ++i) {
        float f = logit_of((uint32_t)row, (uint32_t)i);
        if (r.sh.dtype == XENT_BF16)
            f = xent_bits_f32(xent_bf16_bits(f) << 16);
        x[i] = f;
    }
    double mx = -INFINITY, s = 0;
    for (int i = 0; i < V; ++i)
        mx = std::max(mx, x[i]);
    for (int i = 0; i < V; ++i)
        s += exp(x[i] - mx);
    double want = l == XENT_IGNORE ? 0.0 : mx + log(s) - x[l];
    if (!(fabs(lref[row] - want) <= 1e-4 * std::max(1.0, fabs(want)))) {
        printf("# CHECK FAILED reference row %d loss %.9g want %.9g\n", row, lref[row], want);
        return 0;
    }
    double rel = r.sh.dtype == XENT_BF16 ? 1.0 / 64 : 1e-4;
    for (int i = 0; i < V; ++i) {
        double w = l == XENT_IGNORE ? 0.0 : (exp(x[i] - mx) / s - (i == l)) * r.scale;
        double got = r.sh.dtype == XENT_BF16 ? (double)xent_bits_f32((uint32_t)((const uint16_t *)gref)[i] << 16)
                                             : (double)((const float *)gref)[i];
        if (!(fabs(got - w) <= rel * fabs(w) + 1e-6 * r.scale)) {
            printf("# CHECK FAILED reference row %d element %d: %.9g want %.9g\n", row, i, got, w);
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "quick");
    if (quick)
        ROUNDS = 5;
    std::vector<shape> shapes = {{XENT_BF16, 4096, 128256}, {XENT_BF16, 4096, 262144}, {XENT_F32, 4096, 128256},
                                 {XENT_BF16, 4096, 151936}, {XENT_BF16, 4096, 32000},  {XENT_F32, 4096, 32000}};
    size_t maxb = 0;
    for (auto &s : shapes)
        maxb = std::max(maxb, (size_t)s.M * s.V * (s.dtype == XENT_BF16 ? 2 : 4));
    void *x, *g, *gref;
    int *labels;
    float *loss, *lref;
    unsigned long long *bad;
    CK(cudaMalloc(&x, maxb));
    CK(cudaMalloc(&g, maxb));
    CK(cudaMalloc(&gref, maxb));
    CK(cudaMalloc(&labels, 16384 * 4));
    CK(cudaMalloc(&loss, 16384 * 4));
    CK(cudaMalloc(&lref, 16384 * 4));
    CK(cudaMalloc(&bad, 8));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t ea, eb;
    CK(cudaEventCreate(&ea));
    CK(cudaEventCreate(&eb));
    printf("shape,variant,round,us,copy_over_variant\n");
    for (auto &sh : shapes) {
        char sn[64];
        snprintf(sn, sizeof sn, "%s %dx%d", sh.dtype == XENT_BF16 ? "bf16" : "f32", sh.M, sh.V);
        size_t bytes = (size_t)sh.M * sh.V * (sh.dtype == XENT_BF16 ? 2 : 4), elems = (size_t)sh.M * sh.V;
        fill_logits<<<1056, 256, 0, st>>>(x, sh.M, sh.V, sh.dtype);
        std::vector<int> lab(sh.M);
        int count = 0;
        for (int i = 0; i < sh.M; ++i) {
            lab[i] = i % 11 == 3 ? XENT_IGNORE : (int)(hash3((uint32_t)i, 7u, 99u) % (uint32_t)sh.V);
            if (i % 13 == 5 && lab[i] != XENT_IGNORE)
                lab[i] = 4096 + lab[i] % (sh.V - 4096);   /* the label outside the -inf part */
            count += lab[i] != XENT_IGNORE;
        }
        CK(cudaMemcpy(labels, lab.data(), sh.M * 4, cudaMemcpyHostToDevice));
        run r = {sh, x, g, labels, loss, 1.0f / (float)count};
        /* the reference: one CTA per row, checked on four rows on the CPU */
        variant ref = {"rowpass_t1024", 1, 1, 1024, 0, 0, 0, 0, 0, 0};
        run rr = r;
        rr.g = gref;
        rr.loss = lref;
        CK(cudaMemsetAsync(gref, 0xFF, bytes, st));
        CK(launch(rr, ref, st));
        CK(cudaStreamSynchronize(st));
        {
            size_t rowb = bytes / sh.M;
            std::vector<char> hg(rowb);
            std::vector<float> hl(sh.M);
            CK(cudaMemcpy(hl.data(), lref, sh.M * 4, cudaMemcpyDeviceToHost));
            int rows[5] = {0, 3, 5, sh.M / 2, sh.M - 1};
            for (int k = 0; k < 5; ++k) {
                CK(cudaMemcpy(hg.data(), (char *)gref + rowb * rows[k], rowb, cudaMemcpyDeviceToHost));
                if (!check_row(r, rows[k], lab, hg.data(), hl.data()))
                    return 1;
            }
        }
        std::vector<variant> vs;
        vs.push_back({"copy_t256x8", 0, 8, 256});
        vs.push_back({"copy_t512x4", 0, 4, 512});
        vs.push_back({"rowpass_t1024", 1, 1, 1024});
        vs.push_back({"rowpass_t512", 1, 1, 512});
        {
            int cs[] = {1, 2, 3, 4, 5, 6, 7, 8, 16}, ts[] = {128, 192, 256, 384, 512};
            int vc = xent_row_chunks(sh.V, sh.dtype);
            for (int C : cs)
                for (int T : ts) {
                    if (xent_cluster_fits(sh.V, sh.dtype, C, T) && T == xent_plan_threads(sh.V, sh.dtype, C)) {
                        variant v = {"course_c" + std::to_string(C) + "_t" + std::to_string(T), 2, C, T, 0, 0, 0, 0,
                                     0, xent_cluster_smem(sh.V, sh.dtype, C, T)};
                        vs.push_back(v);
                    }
                    size_t stage = (size_t)xp_stage_chunks(vc, C) * 16;
                    if (stage > 200 * 1024 || stage < 8 * 1024)
                        continue;
                    for (int P = 1; P <= 4; P *= 2)
                        for (int stream = 0; stream <= 1; ++stream) {
                            if (stream && P != 1)
                                continue;
                            char nm[96];
                            snprintf(nm, sizeof nm, "row_c%d_t%d_p%d%s", C, T, P, stream ? "_cs" : "");
                            variant v = {nm, 4, C, T, P, 0, stream, 0, 0, xp_smem(vc, C, T, 1)};
                            vs.push_back(v);
                        }
                    if (T == 256 && C >= 2 && xp_smem(vc, C, T, 2) <= 227 * 1024) {
                        char nm[96];
                        snprintf(nm, sizeof nm, "pipe_c%d_t%d_s2_tworows", C, T);
                        variant v = {nm, 3, C, T, 2, 0, 0, 2, 0, xp_smem(vc, C, T, 2)};
                        vs.push_back(v);
                    }
                }
        }
        /* check every variant, build its graph */
        std::vector<variant> ok;
        for (auto &v : vs) {
            if (!prepare(r, v)) {
                printf("# SKIP %s %s: does not launch\n", sn, v.name.c_str());
                continue;
            }
            CK(cudaMemsetAsync(g, 0xFF, bytes, st));
            CK(cudaMemsetAsync(loss, 0xFF, sh.M * 4, st));
            cudaError_t e = launch(r, v, st);
            if (e == cudaSuccess)
                e = cudaStreamSynchronize(st);
            if (e != cudaSuccess) {
                printf("# SKIP %s %s: %s\n", sn, v.name.c_str(), cudaGetErrorString(e));
                if (e != cudaErrorInvalidValue && e != cudaErrorInvalidConfiguration &&
                    e != cudaErrorLaunchOutOfResources)
                    return 3;   /* a sticky error: nothing after it can be trusted */
                cudaGetLastError();
                continue;
            }
            CK(cudaMemsetAsync(bad, 0, 8, st));
            if (v.kind == 0)
                compare<<<1056, 256, 0, st>>>(g, x, elems, sh.dtype, 0.0f, 0.0f, bad);
            else {
                compare<<<1056, 256, 0, st>>>(g, gref, elems, sh.dtype, sh.dtype == XENT_BF16 ? 1.0f / 128 : 1e-5f,
                                              1e-30f, bad);
                compare<<<64, 256, 0, st>>>(loss, lref, sh.M, XENT_F32, 1e-5f, 1e-5f, bad);
            }
            unsigned long long nb = 0;
            CK(cudaMemcpyAsync(&nb, bad, 8, cudaMemcpyDeviceToHost, st));
            CK(cudaStreamSynchronize(st));
            if (nb) {
                printf("# CHECK FAILED %s %s: %llu values differ\n", sn, v.name.c_str(), nb);
                continue;
            }
            cudaGraph_t gr;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
            for (int i = 0; i < CALLS; ++i)
                CK(launch(r, v, st));
            CK(cudaStreamEndCapture(st, &gr));
            CK(cudaGraphInstantiate(&v.g, gr, 0));
            CK(cudaGraphDestroy(gr));
            ok.push_back(v);
        }
        for (auto &v : ok)
            time_graph(st, v.g, ea, eb);   /* warm-up */
        int N = (int)ok.size();
        for (int rd = 0; rd < ROUNDS; ++rd) {
            std::vector<double> t(N);
            for (int j = 0; j < N; ++j) {
                int i = (j + rd) % N;
                t[i] = time_graph(st, ok[i].g, ea, eb);
            }
            double floor = std::min(t[0], t[1]);
            for (int i = 0; i < N; ++i) {
                ok[i].us.push_back(t[i]);
                ok[i].ratio.push_back(floor / t[i]);
                printf("%s,%s,%d,%.3f,%.4f\n", sn, ok[i].name.c_str(), rd, t[i], floor / t[i]);
            }
        }
        std::vector<int> idx(N);
        for (int i = 0; i < N; ++i)
            idx[i] = i;
        std::sort(idx.begin(), idx.end(), [&](int a, int b) { return median(ok[a].us) < median(ok[b].us); });
        printf("# SUMMARY %s (%d variants timed; copy floor = the faster copy of each round)\n", sn, N);
        int shown = 0, best_course = -1, best_row = -1;
        for (int i : idx) {
            if (ok[i].kind == 2 && best_course < 0)
                best_course = i;
            if (ok[i].kind == 1 && best_row < 0)
                best_row = i;
        }
        for (int i : idx) {
            if (shown++ < 12 || i == best_course || i == best_row) {
                std::vector<double> q = ok[i].ratio;
                std::sort(q.begin(), q.end());
                printf("# SUMMARY %s %-36s %9.2f us [%9.2f, %9.2f]  %% copy %6.1f [%5.1f, %5.1f]  G=%d\n", sn,
                       ok[i].name.c_str(), median(ok[i].us), *std::min_element(ok[i].us.begin(), ok[i].us.end()),
                       *std::max_element(ok[i].us.begin(), ok[i].us.end()), 100 * median(q), 100 * q.front(),
                       100 * q.back(), ok[i].G);
            }
        }
        for (auto &v : ok)
            CK(cudaGraphExecDestroy(v.g));
        fflush(stdout);
    }
    return 0;
}
