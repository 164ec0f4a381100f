/* rs_protocols.cu: on a Hopper GPU, what each reduce-scatter protocol of rs_probe costs per call (paired with the same launch without the exchange, interleaved rounds, CUDA graphs), and whether the cluster GEMV at split 1 runs as fast as row-parallel with the same configuration. */
/*
 * Section R (reduction alone): 128 CTAs x 256 threads, 64 floats per CTA,
 * clusters of 2, 4 and 8; each protocol of rs_probe (solutions/ch08/rs_probe.cu)
 * and the same kernel without the exchange, each as a CUDA graph of 200 calls;
 * every graph checked first. Rounds: every graph once per round, the order
 * rotated by one each round; a round's "extra" for a protocol is its us per
 * call minus that round's no-exchange time with the same cluster size.
 * Section Rw: the same with 4096 cycles of work in every CTA after the
 * protocol's start and before the partials, the no-exchange kernel included.
 * Section S (split 1): gemv_rowpar_t1 and gemv_cluster_t1 with the same rows,
 * threads and unroll, plain launches, one token, W rotating through copies
 * (at least 4x the L2), graphs of 200 calls, checked against a CPU reference,
 * rounds in an order rotated by one each round; the round's ratio cluster / rowpar.
 * Output: CSV lines (section,name,cluster,round,value) then "# SUMMARY" lines.
 * Environment: RS_ROUNDS (41 unless set), RS_SECTIONS (a list such as "R,S";
 * all three unless set).
 * Build: bench/hw/run_rs_protocols.sh.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "../../solutions/ch08/rs_probe.cu"
#include "../../solutions/ch08/dot_bf16.cu"
#include "../../solutions/ch08/gemv_cluster.cu"

#define CK(x)                                                                                                       \
    do {                                                                                                            \
        cudaError_t e_ = (x);                                                                                       \
        if (e_ != cudaSuccess) {                                                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                     \
            exit(2);                                                                                                \
        }                                                                                                           \
    } while (0)

static const int CALLS = 200;
static int rounds = 41;     /* RS_rounds in the environment overrides it */
static const char *const proto_name[RS_COUNT] = {"none", "push-st.async (course)", "pull-2-release-barriers",
                                                 "pull-relaxed-exit", "push-stores+remote-arrive", "push-i32",
                                                 "push-i32-wait.cta", "push-v4-warp", "push-v4-warp-wait.cta",
                                                 "ablation:setup+barrier", "ablation:barrier-only",
                                                 "ablation:mbarrier-local", "push-i32-test_wait-spin",
                                                 "push-i32-try_wait-hint32ns", "push-v4-warp-test_wait-spin",
                                                 "push-bulk-copy-per-peer", "push-i32-warp0-waits",
                                                 "ablation:one-st.async-per-peer", "ablation:push-i32-no-sum",
                                                 "ablation:one-v4-st.async-per-peer", "ablation:bulk-no-sum",
                                                 "push-i32-sum-direct-to-out", "ablation:push-i32-read-shares-only"};

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static cudaGraphExec_t capture(cudaStream_t s, const void *fn, dim3 grid, dim3 block, unsigned cluster, size_t smem,
                               void **(*args_of)(int, void *), void *ctx)
{
    cudaGraph_t g;
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int i = 0; i < CALLS; ++i) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute at[1];
        cfg.gridDim = grid;
        cfg.blockDim = block;
        cfg.dynamicSmemBytes = smem;
        cfg.stream = s;
        if (cluster) {
            at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = cluster;
            at[0].val.clusterDim.y = 1;
            at[0].val.clusterDim.z = 1;
            cfg.attrs = at;
            cfg.numAttrs = 1;
        }
        CK(cudaLaunchKernelExC(&cfg, fn, args_of(i, ctx)));
    }
    CK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t e;
    CK(cudaGraphInstantiate(&e, g, 0));
    CK(cudaGraphDestroy(g));
    return e;
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

/* ---- section R ---- */
struct rs_ctx {
    float *out;
    int n, mark, exchange;
    void *args[4];
};
static void **rs_args(int, void *p)
{
    rs_ctx *c = (rs_ctx *)p;
    c->args[0] = &c->out;
    c->args[1] = &c->n;
    c->args[2] = &c->mark;
    c->args[3] = &c->exchange;
    return c->args;
}

static int section_r(cudaStream_t s, cudaEvent_t a, cudaEvent_t b, int work)
{
    const int ctas = 128, threads = 256, n = 64, sizes[3] = {2, 4, 8};
    const int NG = 3 * RS_COUNT;
    float *out;
    CK(cudaMalloc(&out, (size_t)ctas * n * 4));
    rs_ctx ctx[NG];
    cudaGraphExec_t ge[NG];
    int bad = 0;
    for (int si = 0; si < 3; ++si)
        for (int v = 0; v < RS_COUNT; ++v) {
            int g = si * RS_COUNT + v, S = sizes[si];
            ctx[g].out = out;
            ctx[g].n = n;
            ctx[g].mark = 1000 + 17 * g;
            ctx[g].exchange = v + 32 * work;
            ge[g] = capture(s, (const void *)rs_probe, dim3(ctas), dim3(threads), (unsigned)S, 4 * n, rs_args, &ctx[g]);
            CK(cudaMemset(out, 0xFF, (size_t)ctas * n * 4));
            CK(cudaGraphLaunch(ge[g], s));
            CK(cudaStreamSynchronize(s));
            std::vector<float> got((size_t)ctas * n);
            CK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
            int nc = ctas / S;
            for (int k = 0; k < nc * n && !bad; ++k) {
                int i = k % n, q = reduce_scatter_owner(n, i, S), m = ctx[g].mark;
                double want = rs_protocol_sums(v) ? (double)S * m + (double)n * S * (S - 1) / 2 + (double)S * i : (double)m + (double)q * n + i;
                if ((double)got[k] != want) {
                    printf("# CHECK FAILED R %s cluster %d element %d: %g want %g\n", proto_name[v], S, k, got[k], want);
                    bad = 1;
                }
            }
        }
    if (bad)
        return 1;
    std::vector<double> t[NG], extra[NG];
    for (int w = 0; w < 3; ++w)
        for (int g = 0; g < NG; ++g)
            time_graph(s, ge[g], a, b);     /* warm-up */
    for (int r = 0; r < rounds; ++r) {
        double tr[NG];
        for (int j = 0; j < NG; ++j) {
            int g = (j + r) % NG;
            tr[g] = time_graph(s, ge[g], a, b);
        }
        for (int g = 0; g < NG; ++g) {
            t[g].push_back(tr[g]);
            extra[g].push_back(tr[g] - tr[(g / RS_COUNT) * RS_COUNT]);
            printf("R%s,%s,%d,%d,%.4f\n", work ? "w" : "", proto_name[g % RS_COUNT], sizes[g / RS_COUNT], r, tr[g]);
        }
    }
    printf("# SUMMARY R%s: 128 CTAs x 256 threads, 64 floats per CTA, %d x 1024 cycles of work before the partials, "
           "graphs of %d calls, %d interleaved rotating rounds; us per call (median) and extra us per call over no "
           "exchange in the same round (median [min, max])\n", work ? "w" : "", work, CALLS, rounds);
    for (int g = 0; g < NG; ++g) {
        std::vector<double> e = extra[g];
        std::sort(e.begin(), e.end());
        printf("# SUMMARY R%s cluster %d %-28s %7.3f us  extra %+7.3f [%+.3f, %+.3f]\n", work ? "w" : "", sizes[g / RS_COUNT],
               proto_name[g % RS_COUNT], median(t[g]), median(e), e.front(), e.back());
    }
    CK(cudaFree(out));
    return 0;
}

/* ---- section S ---- */
/* Beside gemv_rowpar_t1 and gemv_cluster_t1: gemv_cluster_one_t1, what
 * gemv_cluster_launch runs at split 1 (the row-parallel code with the
 * cluster kernel's parameters, bias and residual NULL here, and no cluster
 * instruction), and a control: the same code behind the cluster kernel's test
 * of the cluster size, a cluster barrier on the other side (never taken in a
 * plain launch). */
__global__ void GEMV_BOUNDS(1) gemv_rowpar_clbranch_t1(GEMV_CLUSTER_PARAMS)
{
    if (dsm_cluster_nctarank() == 1) {
        gemv_rowpar(W, x, y, bias, residual, M, K, nb, rows, unroll, 1);
        return;
    }
    dsm_barrier_cluster_arrive_relaxed();
    dsm_barrier_cluster_wait();
}
enum { NV = 4 };
static const char *const gv_name[NV] = {"rowpar", "cluster", "cluster-one", "rowpar+cluster-branch"};
struct gv_ctx {
    const uint4 *W;
    const uint4 *x;
    float *y;
    const float *bias, *residual;
    int M, K, nb, rows, unroll;
    size_t copy_chunks;
    int copies, cluster;
    const uint4 *Wcall[CALLS];
    void *args[10];
};
static void **gv_args(int i, void *p)
{
    gv_ctx *c = (gv_ctx *)p;
    c->Wcall[i] = c->W + (size_t)(i % c->copies) * c->copy_chunks;
    if (!c->cluster) {  /* gemv_rowpar_t1(W, x, y, M, K, nb, rows, unroll) */
        void *a[] = {&c->Wcall[i], &c->x, &c->y, &c->M, &c->K, &c->nb, &c->rows, &c->unroll};
        memcpy(c->args, a, sizeof a);
    } else {            /* the others: (W, x, y, bias, residual, M, K, nb, rows, unroll) */
        void *a[] = {&c->Wcall[i], &c->x, &c->y, &c->bias, &c->residual, &c->M, &c->K, &c->nb, &c->rows, &c->unroll};
        memcpy(c->args, a, sizeof a);
    }
    return c->args;
}

static uint16_t to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}
static float from_bf16(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static int section_s(cudaStream_t s, cudaEvent_t a, cudaEvent_t b)
{
    struct shape { int M, K, rows, threads, unroll; } shapes[] = {
        {256, 7168, 1, 512, 2}, {576, 7168, 2, 256, 2}, {1536, 7168, 2, 128, 4}, {4096, 4096, 4, 128, 4},
        {256, 7168, 2, 256, 4}};
    int bad = 0;
    printf("# SUMMARY S: gemv_cluster_t1 at split 1 (plain launch) / gemv_rowpar_t1, same rows, threads, unroll; one "
           "token; graphs of %d calls, W rotating over >= 300 MB; %d rounds, order rotated each round\n", CALLS, rounds);
    for (const shape &sh : shapes) {
        size_t chunks = (size_t)sh.M * sh.K / 8, bytes = chunks * 16;
        int copies = (int)std::max<size_t>(2, (300u << 20) / bytes + 1);
        std::vector<uint16_t> hw((size_t)sh.M * sh.K), hx(sh.K);
        unsigned long long st = 0x9E3779B97F4A7C15ull ^ (unsigned long long)sh.M;
        for (auto &v : hw) {
            st ^= st << 13; st ^= st >> 7; st ^= st << 17;
            v = to_bf16((float)((int)(st % 17) - 8) / 8.0f);
        }
        for (auto &v : hx) {
            st ^= st << 13; st ^= st >> 7; st ^= st << 17;
            v = to_bf16((float)((int)(st % 9) - 4) / 4.0f);
        }
        uint4 *W, *x;
        float *y;
        CK(cudaMalloc(&W, bytes * copies));
        CK(cudaMalloc(&x, (size_t)sh.K * 2));
        CK(cudaMalloc(&y, (size_t)sh.M * 4));
        for (int c = 0; c < copies; ++c)
            CK(cudaMemcpy((char *)W + (size_t)c * bytes, hw.data(), bytes, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(x, hx.data(), (size_t)sh.K * 2, cudaMemcpyHostToDevice));
        std::vector<double> want(sh.M);
        for (int m = 0; m < sh.M; ++m) {
            double acc = 0;
            for (int k = 0; k < sh.K; ++k)
                acc += (double)from_bf16(hw[(size_t)m * sh.K + k]) * from_bf16(hx[k]);
            want[m] = acc;
        }
        gv_ctx ctx[NV];
        cudaGraphExec_t ge[NV];
        const void *fn[NV] = {(const void *)gemv_rowpar_t1, (const void *)gemv_cluster_t1,
                              (const void *)gemv_cluster_one_t1, (const void *)gemv_rowpar_clbranch_t1};
        size_t smem[NV] = {gemv_block_smem(sh.rows, sh.threads, 1), gemv_cluster_smem(sh.rows, sh.threads, 1),
                           gemv_block_smem(sh.rows, sh.threads, 1), gemv_cluster_smem(sh.rows, sh.threads, 1)};
        for (int v = 0; v < NV; ++v) {
            gv_ctx &c = ctx[v];
            c.W = W; c.x = x; c.y = y; c.bias = NULL; c.residual = NULL;
            c.M = sh.M; c.K = sh.K; c.nb = 1; c.rows = sh.rows; c.unroll = sh.unroll;
            c.copy_chunks = chunks; c.copies = copies; c.cluster = v;
            if (smem[v] > 48 * 1024)
                CK(cudaFuncSetAttribute(fn[v], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem[v]));
            unsigned grid = (unsigned)((sh.M + sh.rows - 1) / sh.rows);
            ge[v] = capture(s, fn[v], dim3(grid), dim3(sh.threads), 0, smem[v], gv_args, &c);
            CK(cudaMemset(y, 0xFF, (size_t)sh.M * 4));
            CK(cudaGraphLaunch(ge[v], s));
            CK(cudaStreamSynchronize(s));
            std::vector<float> got(sh.M);
            CK(cudaMemcpy(got.data(), y, (size_t)sh.M * 4, cudaMemcpyDeviceToHost));
            for (int m = 0; m < sh.M; ++m)
                if (std::fabs(got[m] - want[m]) > 1e-3 * (1.0 + std::fabs(want[m]))) {
                    printf("# CHECK FAILED S %s M %d row %d: %g want %g\n", gv_name[v], sh.M, m, got[m], want[m]);
                    bad = 1;
                    break;
                }
        }
        if (!bad) {
            std::vector<double> t[NV], ratio[NV];
            for (int w = 0; w < 3; ++w)
                for (int v = 0; v < NV; ++v)
                    time_graph(s, ge[v], a, b);
            for (int r = 0; r < rounds; ++r) {
                double tr[NV];
                for (int j = 0; j < NV; ++j) {
                    int v = (j + r) % NV;
                    tr[v] = time_graph(s, ge[v], a, b);
                }
                for (int v = 0; v < NV; ++v) {
                    t[v].push_back(tr[v]);
                    ratio[v].push_back(tr[v] / tr[0]);
                    printf("S,%s %dx%d r%d t%d u%d,1,%d,%.4f\n", gv_name[v], sh.M, sh.K, sh.rows, sh.threads,
                           sh.unroll, r, tr[v]);
                }
            }
            for (int v = 1; v < NV; ++v) {
                std::vector<double> q = ratio[v];
                std::sort(q.begin(), q.end());
                printf("# SUMMARY S %5d x %5d rows %d threads %4d unroll %d: rowpar %7.3f us, %-16s %7.3f us, paired "
                       "ratio %.4f [%.4f, %.4f]\n", sh.M, sh.K, sh.rows, sh.threads, sh.unroll, median(t[0]),
                       gv_name[v], median(t[v]), median(ratio[v]), q.front(), q.back());
            }
        }
        for (int v = 0; v < NV; ++v)
            CK(cudaGraphExecDestroy(ge[v]));
        CK(cudaFree(W));
        CK(cudaFree(x));
        CK(cudaFree(y));
    }
    return bad;
}

/* 1 when the comma-separated list names section `name`. */
static int has_section(const char *list, const char *name)
{
    size_t k = strlen(name);
    for (const char *p = list; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
        if (strncmp(p, name, k) == 0 && (p[k] == ',' || p[k] == 0))
            return 1;
    return 0;
}

int main(void)
{
    cudaStream_t s;
    cudaEvent_t a, b;
    const char *env = getenv("RS_ROUNDS"), *sections = getenv("RS_SECTIONS");  /* e.g. "R,S": which sections run */
    if (env && atoi(env) > 0)
        rounds = atoi(env);
    if (!sections)
        sections = "R,Rw,S";
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    printf("section,name,cluster,round,us_per_call\n");
    int bad = 0;
    if (has_section(sections, "R"))
        bad |= section_r(s, a, b, 0);
    if (has_section(sections, "Rw"))
        bad |= section_r(s, a, b, 4);   /* about 2 us of work at 1980 MHz */
    if (has_section(sections, "S"))
        bad |= section_s(s, a, b);
    return bad;
}
