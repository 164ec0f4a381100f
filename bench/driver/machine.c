/* machine.c: where and when a run was measured: GPU, driver, SM clock (as CUDA and nvidia-smi report it), date, git commit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_internal.h"
#include "model/device_model.h"

#ifdef DSM_BACKEND_CUDA
#include <cuda_runtime_api.h>
#endif

/* The first line a shell command prints, without its newline; empty when it fails. */
static void first_line_of(const char *cmd, char *out, size_t size)
{
    out[0] = '\0';
    FILE *p = popen(cmd, "r");
    if (p == NULL)
        return;
    if (fgets(out, (int)size, p) == NULL)
        out[0] = '\0';
    out[strcspn(out, "\r\n")] = '\0';
    pclose(p);
}

void machine_describe_host(bench_machine *m)
{
    time_t now = time(NULL);
    strftime(m->date, sizeof m->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    /* The tree measured: a learner's SRC=exercises run is only comparable with
     * the same kernels, so a modified tree says so. */
    first_line_of("git describe --always --dirty=+dirty --abbrev=12 2>/dev/null", m->commit, sizeof m->commit);
    /* A copy of the tree without its history (a lent GPU machine) is told the
     * commit it was copied from. */
    const char *told = getenv("BENCH_COMMIT");
    if (told && told[0])
        snprintf(m->commit, sizeof m->commit, "%s", told);
    if (m->commit[0] == '\0')
        snprintf(m->commit, sizeof m->commit, "unknown");
}

double machine_smi_clock_mhz(const char *field)
{
    char cmd[256], line[128];
    snprintf(cmd, sizeof cmd, "nvidia-smi --query-gpu=%s --format=csv,noheader,nounits -i 0 2>/dev/null", field);
    first_line_of(cmd, line, sizeof line);
    return atof(line); /* 0 when nvidia-smi is missing or says "[N/A]" */
}

#ifdef DSM_BACKEND_CUDA
/* The kernel module's version from /proc/driver/nvidia/version ("580.159.04"), or "". */
static void kernel_module_version(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (f == NULL)
        return;
    char line[512], tok[64];
    if (fgets(line, sizeof line, f) != NULL) {
        for (char *p = line; *p != '\0'; ++p) {
            unsigned a, b;
            if ((p == line || p[-1] == ' ') && sscanf(p, "%u.%u", &a, &b) == 2 && sscanf(p, "%63s", tok) == 1) {
                snprintf(out, size, "%s", tok);
                break;
            }
        }
    }
    fclose(f);
}

int machine_describe_device(bench_machine *m, const char **why)
{
    if (dsm_device_check(why) != dsmSuccess)
        return -1;
    int dev = 0, khz = 0, cuda_driver = 0, optin = 0;
    struct cudaDeviceProp prop;
    char kmod[64];
    if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) {
        *why = "cudaGetDeviceProperties failed";
        return -1;
    }
    snprintf(m->gpu, sizeof m->gpu, "%s", prop.name);
    snprintf(m->compute_cap, sizeof m->compute_cap, "%d.%d", prop.major, prop.minor);
    m->sm_count = prop.multiProcessorCount;
    m->smem_per_sm = prop.sharedMemPerMultiprocessor;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) == cudaSuccess)
        m->smem_per_block_optin = (size_t)optin;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
        m->sm_clock_mhz = khz / 1000.0;
    cudaDriverGetVersion(&cuda_driver);
    kernel_module_version(kmod, sizeof kmod);
    snprintf(m->driver, sizeof m->driver, "%s%sCUDA %d.%d", kmod, kmod[0] ? " / " : "", cuda_driver / 1000,
             (cuda_driver % 1000) / 10);
    m->smi_max_clock_mhz = machine_smi_clock_mhz("clocks.max.sm");
    return 0;
}
#else
int machine_describe_device(bench_machine *m, const char **why)
{
    /* The emulator stands in for the GPU model it emulates (DSM_EMU_DEVICE, H200 by default). */
    const dsm_device_model *model = dsm_model_default();
    *why = "";
    snprintf(m->gpu, sizeof m->gpu, "CPU cluster emulator (%s model)", model->name);
    snprintf(m->driver, sizeof m->driver, "none");
    snprintf(m->compute_cap, sizeof m->compute_cap, "%d.%d", model->cc_major, model->cc_minor);
    m->sm_count = model->sm_count;
    m->smem_per_sm = model->smem_per_sm;
    m->smem_per_block_optin = model->smem_per_block_optin;
    m->sm_clock_mhz = model->sm_clock_mhz;
    return 0;
}
#endif

void machine_write_info(const bench_machine *m, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        perror(path);
        return;
    }
    fprintf(f, "gpu: %s\ncompute capability: %s\ndriver: %s\nSMs: %d\n", m->gpu, m->compute_cap, m->driver,
            m->sm_count);
    fprintf(f, "shared memory per SM: %zu bytes\nshared memory per block (opt-in): %zu bytes\n", m->smem_per_sm,
            m->smem_per_block_optin);
    fprintf(f, "SM clock (cudaDevAttrClockRate): %.0f MHz\n", m->sm_clock_mhz);
    fprintf(f, "SM clock (nvidia-smi clocks.max.sm): %.0f MHz\n", m->smi_max_clock_mhz);
    fprintf(f, "SM clock (nvidia-smi clocks.sm, highest seen after a family): %.0f MHz\n", m->smi_clock_mhz);
    fprintf(f, "date: %s\ncommit: %s\n", m->date, m->commit);
    fclose(f);
}
