/* launch_errors_probe.cu: tries each invalid cluster launch on a real GPU and prints, as CSV, the CUDA error each step returns. */
/*
 * For every case: the attribute call it needs (setup), cudaLaunchKernelExC's
 * return (launch), cudaGetLastError right after (last_error),
 * cudaDeviceSynchronize (sync), whether every block ran (ran: checked from
 * what the kernel wrote), and a known-good launch afterwards (canary), which
 * shows whether the error was sticky. If the canary fails, the probe prints a
 * '#' line and re-executes itself from the next case in a fresh process, so
 * one sticky error cannot spoil the rows after it.
 * Build and run: see bench/hw/README.md. Exit status 0, or 2 (waived) without
 * a cluster-capable GPU, or 1 when the probe itself fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cuda_runtime.h>

#define KB 1024
#define MAX_BLOCKS 4096

/* Each block's thread 0 writes 1 to its slot; dynamic shared memory, if any, is touched at both ends. */
#define PROBE_BODY                                                                                  \
    extern __shared__ unsigned char dyn[];                                                          \
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);                    \
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) {                                 \
        if (dyn_bytes > 0) {                                                                        \
            dyn[0] = 1;                                                                             \
            dyn[dyn_bytes - 1] = 1;                                                                 \
        }                                                                                           \
        if (b < MAX_BLOCKS)                                                                         \
            out[b] = dyn_bytes > 0 ? (int)(dyn[0] + dyn[dyn_bytes - 1]) / 2 : 1;                    \
    }

/* One kernel per attribute state, so that no case inherits another's attributes. */
__global__ void k_plain(int *out, unsigned dyn_bytes) { PROBE_BODY }       /* attributes never changed */
__global__ void k_nonportable(int *out, unsigned dyn_bytes) { PROBE_BODY } /* non-portable sizes allowed */
__global__ void k_smem228(int *out, unsigned dyn_bytes) { PROBE_BODY }     /* asks for 228 KB */
__global__ void k_smem227(int *out, unsigned dyn_bytes) { PROBE_BODY }     /* 227 KB allowed */
__global__ void k_static64_smem227(int *out, unsigned dyn_bytes)           /* 64 B static + asks for 227 KB dynamic */
{
    __shared__ int s[16];
    s[threadIdx.x % 16] = 1;
    __syncthreads();
    PROBE_BODY
    if (threadIdx.x == 0 && b < MAX_BLOCKS)
        out[b] *= s[1];
}
__global__ void k_canary(int *out, unsigned dyn_bytes) { PROBE_BODY }

/* Attribute calls a case makes before launching (flags). */
enum { SETUP_NONE = 0, SETUP_NON_PORTABLE = 1, SETUP_SMEM_228K = 2, SETUP_SMEM_227K = 4 };

struct launch_case {
    const char *name;
    const void *kernel;
    int setup;
    dim3 grid, block, cluster; /* cluster 0,0,0: the attribute is still passed, with zeros */
    unsigned dyn_bytes;
    const char *expect; /* what we expect, for the reader; the probe does not judge */
};

static int *d_out;
static int h_out[MAX_BLOCKS];

/* Makes the attribute calls in `setup`; returns the first error (cudaSuccess if none). */
static cudaError_t apply_setup(const void *kernel, int setup)
{
    cudaError_t first = cudaSuccess, e;
    if (setup & SETUP_NON_PORTABLE) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (first == cudaSuccess)
            first = e;
    }
    if (setup & SETUP_SMEM_228K) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 228 * KB);
        if (first == cudaSuccess)
            first = e;
    }
    if (setup & SETUP_SMEM_227K) {
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * KB);
        if (first == cudaSuccess)
            first = e;
    }
    return first;
}

static cudaError_t launch(const void *kernel, dim3 grid, dim3 block, dim3 cluster, unsigned dyn_bytes)
{
    cudaLaunchConfig_t lc = {};
    cudaLaunchAttribute attr = {};
    lc.gridDim = grid;
    lc.blockDim = block;
    lc.dynamicSmemBytes = dyn_bytes;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster.x;
    attr.val.clusterDim.y = cluster.y;
    attr.val.clusterDim.z = cluster.z;
    lc.attrs = &attr;
    lc.numAttrs = 1;
    void *args[] = {&d_out, &dyn_bytes};
    return cudaLaunchKernelExC(&lc, kernel, args);
}

/* "yes" when every block wrote its slot, "no" when none did, "partial" otherwise, "?" when unreadable. */
static const char *ran(dim3 grid)
{
    unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
    if (blocks == 0)
        return "no";
    if (blocks > MAX_BLOCKS)
        return "?";
    if (cudaMemcpy(h_out, d_out, blocks * sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) {
        (void)cudaGetLastError();
        return "?";
    }
    unsigned long long wrote = 0;
    for (unsigned long long i = 0; i < blocks; i++)
        wrote += h_out[i] == 1;
    return wrote == blocks ? "yes" : wrote == 0 ? "no" : "partial";
}

int main(int argc, char **argv)
{
    int from = (argc == 3 && strcmp(argv[1], "--from") == 0) ? atoi(argv[2]) : 0;
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess || count == 0) {
        printf("# waived: no CUDA device (%s)\n", cudaGetErrorName(err));
        return 2;
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        printf("# waived: cannot read the properties of device 0\n");
        return 2;
    }
    if (prop.major < 9 || !prop.clusterLaunch) {
        printf("# waived: %s, compute capability %d.%d: no cluster launch\n", prop.name, prop.major, prop.minor);
        return 2;
    }
    if (cudaMalloc((void **)&d_out, sizeof h_out) != cudaSuccess) {
        fprintf(stderr, "launch_errors_probe: cudaMalloc failed\n");
        return 1;
    }
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);

    const struct launch_case cases[] = {
        {"baseline_cluster2", (const void *)k_plain, SETUP_NONE, dim3(8), dim3(128), dim3(2), 0, "success"},
        {"cluster3_not_power_of_two", (const void *)k_plain, SETUP_NONE, dim3(6), dim3(128), dim3(3), 0, "success?"},
        {"cluster_2d_1x2", (const void *)k_plain, SETUP_NONE, dim3(2, 4), dim3(128), dim3(1, 2), 0, "success"},
        {"cluster_not_dividing_grid", (const void *)k_plain, SETUP_NONE, dim3(3), dim3(128), dim3(2), 0, "error"},
        {"cluster_dims_zero", (const void *)k_plain, SETUP_NONE, dim3(4), dim3(128), dim3(0, 0, 0), 0, "error?"},
        {"cluster9_without_non_portable", (const void *)k_plain, SETUP_NONE, dim3(18), dim3(128), dim3(9), 0, "error"},
        {"cluster16_without_non_portable", (const void *)k_plain, SETUP_NONE, dim3(32), dim3(128), dim3(16), 0,
         "error"},
        {"cluster16_non_portable", (const void *)k_nonportable, SETUP_NON_PORTABLE, dim3(32), dim3(128), dim3(16), 0,
         "success"},
        {"cluster32_non_portable", (const void *)k_nonportable, SETUP_NON_PORTABLE, dim3(64), dim3(128), dim3(32), 0,
         "error"},
        {"threads_1025", (const void *)k_plain, SETUP_NONE, dim3(2), dim3(1025), dim3(2), 0, "error"},
        {"block_z_128", (const void *)k_plain, SETUP_NONE, dim3(2), dim3(1, 1, 128), dim3(2), 0, "error"},
        {"grid_zero", (const void *)k_plain, SETUP_NONE, dim3(0), dim3(128), dim3(1), 0, "error"},
        {"dyn_48k_without_attribute", (const void *)k_plain, SETUP_NONE, dim3(2), dim3(128), dim3(2), 48 * KB,
         "success"},
        {"dyn_64k_without_attribute", (const void *)k_plain, SETUP_NONE, dim3(2), dim3(128), dim3(2), 64 * KB,
         "error"},
        {"dyn_228k_attribute_228k", (const void *)k_smem228, SETUP_SMEM_228K, dim3(2), dim3(128), dim3(2), 228 * KB,
         "setup error then launch error"},
        {"dyn_227k_attribute_227k", (const void *)k_smem227, SETUP_SMEM_227K, dim3(2), dim3(128), dim3(2), 227 * KB,
         "success"},
        {"dyn_227k_plus_64b_static", (const void *)k_static64_smem227, SETUP_SMEM_227K, dim3(2), dim3(128), dim3(2),
         227 * KB, "setup error or launch error"},
        {"cluster16_non_portable_227k", (const void *)k_smem227, SETUP_NON_PORTABLE | SETUP_SMEM_227K, dim3(32), dim3(128), dim3(16),
         227 * KB, "success"},
    };
    const int ncases = (int)(sizeof cases / sizeof cases[0]);

    if (from == 0)
        printf("gpu,driver,runtime,case,grid,block,cluster,dyn_smem,expect,setup,launch,last_error,sync,ran,canary\n");
    for (int i = from; i < ncases; i++) {
        const struct launch_case *c = &cases[i];
        cudaMemset(d_out, 0, sizeof h_out);
        cudaDeviceSynchronize();
        cudaError_t setup = apply_setup(c->kernel, c->setup);
        (void)cudaGetLastError(); /* clear the setup's error so last_error belongs to the launch */
        cudaError_t launched = launch(c->kernel, c->grid, c->block, c->cluster, c->dyn_bytes);
        cudaError_t last = cudaGetLastError();
        cudaError_t synced = cudaDeviceSynchronize();
        const char *did_run = ran(c->grid);
        /* A known-good launch: fails only if an error above was sticky. */
        cudaError_t canary = launch((const void *)k_canary, dim3(4), dim3(64), dim3(2), 0);
        if (canary == cudaSuccess)
            canary = cudaDeviceSynchronize();
        printf("\"%s\",%d,%d,%s,%ux%ux%u,%ux%ux%u,%ux%ux%u,%u,\"%s\",%s,%s,%s,%s,%s,%s\n", prop.name, driver, runtime,
               c->name, c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y, c->block.z, c->cluster.x,
               c->cluster.y, c->cluster.z, c->dyn_bytes, c->expect,
               c->setup == SETUP_NONE ? "-" : cudaGetErrorName(setup), cudaGetErrorName(launched),
               cudaGetErrorName(last), cudaGetErrorName(synced), did_run, cudaGetErrorName(canary));
        if (canary != cudaSuccess) {
            printf("# sticky: the canary failed with %s after case %s; continuing in a new process\n",
                   cudaGetErrorName(canary), c->name);
            fflush(stdout);
            char next[16];
            snprintf(next, sizeof next, "%d", i + 1);
            char *const args[] = {argv[0], (char *)"--from", next, NULL};
            execv("/proc/self/exe", args);
            perror("launch_errors_probe: execv");
            return 1;
        }
    }
    cudaFree(d_out);
    return 0;
}
