/* device_model.c: the table of Hopper device models and the occupancy rules (CTAs per SM, clusters) computed from it. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include "device_model.h"

#define KB ((size_t)1024)
#define MB (KB * KB)

/* Where the numbers come from:
 *  [TG]  NVIDIA Hopper Tuning Guide, "Thread Block Clusters" and "Increased
 *        Shared Memory Capacity": 228 KB of shared memory per SM, up to 227 KB
 *        per block (opt-in); portable cluster size 8, 16 non-portable on H100.
 *  [PG]  CUDA C++ Programming Guide, table of technical specifications per
 *        compute capability, column 9.0: 2048 threads and 32 blocks per SM,
 *        1024 threads per block, 64 K 32-bit registers per SM and per block,
 *        255 registers per thread, 48 KB dynamic shared memory without opt-in,
 *        1 KB of shared memory reserved by the system per block.
 *  [OCC] cuda_occupancy.h (CUDA 13.0), the occupancy calculator the runtime
 *        documents: shared memory allocated in 128 B units, registers in units
 *        of 256 per warp, 4 register sub-partitions per SM (compute major 9).
 *  [WP]  NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): GH100 has
 *        8 GPCs of 9 TPCs of 2 SMs (144 SMs); H100 SXM5 132 SMs, H100 PCIe 114
 *        SMs; 50 MB L2 on both.
 *  [DS]  NVIDIA H100 datasheet / nvidia-smi maximum SM clock: 1980 MHz SXM,
 *        1755 MHz PCIe.
 *  [AN]  ../shared/anchors (h200-anchors.md, occupancy-h200.md): measured on
 *        one H200 on 2026-11-29: 132 SMs, 60 MB L2, 1980 MHz, 228/227 KB, and
 *        cudaOccupancyMaxActiveClusters for 14 shapes.
 *  [LUO] Luo et al., "Benchmarking and Dissecting the Nvidia Hopper GPU
 *        Architecture", arXiv 2402.13499: an H800 with 114 SMs at 1755 MHz
 *        (cited in h200-anchors.md).
 */

/* The cluster layout of the 132-SM parts: groups of SMs a cluster can be
 * placed in (GPCs, plus small groups only clusters of 1 or 2 can use).
 * CALIBRATED on an H200 (driver 580.159.04, CUDA 13.0, 2026-11-29): with the
 * rule in dsm_model_occupancy_max_active_clusters this reproduces all 14 rows
 * of occupancy-h200.md [AN] and the 48 further shapes measured by
 * bench/hw/occupancy_probe (cluster sizes 1..16 at 1 and 2 CTAs per SM,
 * bench/results/occupancy_h200.csv). The simpler "8 even GPCs" layouts fit
 * the anchor rows but miss cluster sizes 3, 5, 6, 7, 9-12. Which physical
 * units these groups are (GPCs, TPCs left outside a full GPC) is inferred,
 * not documented by NVIDIA. Change the layout here, nowhere else. */
#define GH100_132SM_GPCS 12
#define GH100_132SM_LAYOUT {18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2}

/* The GPC layout of the 114-SM parts (H100 PCIe, H800): an ASSUMPTION, not
 * measured. [WP] gives 114 SMs; we assume 7 GPCs, one complete (9 TPCs) and
 * six with 8 TPCs. Measure it with bench/hw/occupancy_probe before relying on
 * cluster counts for these GPUs. */
#define GH100_114SM_GPCS 7
#define GH100_114SM_LAYOUT {18, 16, 16, 16, 16, 16, 16}

/* Limits common to every compute capability 9.0 part: [TG], [PG], [OCC]. */
#define HOPPER_LIMITS                                                       \
    .cc_major = 9, .cc_minor = 0,                                           \
    .smem_per_sm = 228 * KB,            /* [TG] */                          \
    .smem_per_block_optin = 227 * KB,   /* [TG] */                          \
    .smem_per_block_default = 48 * KB,  /* [PG] */                          \
    .smem_reserved_per_block = 1 * KB,  /* [PG] */                          \
    .smem_granularity = 128,            /* [OCC] */                         \
    .max_threads_per_sm = 2048,         /* [PG] */                          \
    .max_threads_per_block = 1024,      /* [PG] */                          \
    .max_ctas_per_sm = 32,              /* [PG], [OCC] */                   \
    .warp_size = 32,                                                        \
    .regs_per_sm = 65536,               /* [PG] */                          \
    .regs_per_block = 65536,            /* [PG] */                          \
    .reg_granularity_per_warp = 256,    /* [OCC] */                         \
    .max_regs_per_thread = 255,         /* [PG] */                          \
    .sub_partitions_per_sm = 4,         /* [OCC] */                         \
    .max_cluster_size_portable = 8,     /* [TG] */                          \
    .max_cluster_size_non_portable = 16 /* [TG] */

static const char *const h100_sxm_names[] = {"H100", "H100 SXM", "H100 SXM5", "NVIDIA H100 80GB HBM3", NULL};
static const char *const h100_pcie_names[] = {"H100 PCIe", "NVIDIA H100 PCIe", NULL};
static const char *const h200_names[] = {"H200", "H200 SXM", "NVIDIA H200", NULL};
static const char *const h800_names[] = {"H800", "H800 PCIe", "NVIDIA H800", "NVIDIA H800 PCIe", NULL};

static const dsm_device_model models[] = {
    {
        .name = "H200", .cuda_names = h200_names, HOPPER_LIMITS,
        .sm_count = 132,                          /* [AN] */
        .gpc_count = GH100_132SM_GPCS, .sms_per_gpc = GH100_132SM_LAYOUT,
        .gpc_layout_calibrated = 1,               /* [AN], see above */
        .sm_clock_mhz = 1980,                     /* [AN] nvidia-smi during the runs */
        .l2_bytes = 60 * MB,                      /* [AN] */
    },
    {
        .name = "H100 SXM", .cuda_names = h100_sxm_names, HOPPER_LIMITS,
        .sm_count = 132,                          /* [WP] */
        /* ASSUMPTION: the same 132-SM configuration as the H200 (same GH100 die and SM count). */
        .gpc_count = GH100_132SM_GPCS, .sms_per_gpc = GH100_132SM_LAYOUT,
        .gpc_layout_calibrated = 0,
        .sm_clock_mhz = 1980,                     /* [DS] */
        .l2_bytes = 50 * MB,                      /* [WP] */
    },
    {
        .name = "H100 PCIe", .cuda_names = h100_pcie_names, HOPPER_LIMITS,
        .sm_count = 114,                          /* [WP]; seed 000 measured on one */
        .gpc_count = GH100_114SM_GPCS, .sms_per_gpc = GH100_114SM_LAYOUT,
        .gpc_layout_calibrated = 0,               /* ASSUMPTION, see above */
        .sm_clock_mhz = 1755,                     /* [DS] */
        .l2_bytes = 50 * MB,                      /* [WP] */
    },
    {
        /* The H800 of [LUO] (the PCIe card: 114 SMs). An H800 SXM5 has 132 SMs;
         * it is not modelled separately. */
        .name = "H800", .cuda_names = h800_names, HOPPER_LIMITS,
        .sm_count = 114,                          /* [LUO] */
        .gpc_count = GH100_114SM_GPCS, .sms_per_gpc = GH100_114SM_LAYOUT,
        .gpc_layout_calibrated = 0,               /* ASSUMPTION, see above */
        .sm_clock_mhz = 1755,                     /* [LUO] */
        .l2_bytes = 50 * MB,                      /* ASSUMPTION: as H100 PCIe [WP] */
    },
};

#define MODEL_COUNT ((int)(sizeof models / sizeof models[0]))

/* GPUs that do not exist: shapes no shipped Hopper has, for the tests of the
 * occupancy lessons (a rule that holds on the four parts above by luck fails
 * on one of these). Each keeps the Hopper rules and changes what its name
 * says. */
static const char *const mig_slice_names[] = {"MIG-like slice", NULL};
static const char *const small_gpcs_names[] = {"small GPCs", NULL};
static const char *const small_sms_names[] = {"small SMs", NULL};
static const dsm_device_model hypothetical[] = {
    {
        /* A slice of a GPU: few SMs in three GPCs, one smaller than the others. */
        .name = "MIG-like slice", .cuda_names = mig_slice_names, HOPPER_LIMITS,
        .sm_count = 42, .gpc_count = 3, .sms_per_gpc = {16, 16, 10},
        .sm_clock_mhz = 1980, .l2_bytes = 20 * MB,
    },
    {
        /* GPCs of 6 SMs: no cluster above 6 CTAs fits at one CTA per SM. */
        .name = "small GPCs", .cuda_names = small_gpcs_names, HOPPER_LIMITS,
        .sm_count = 96, .gpc_count = 16, .sms_per_gpc = {6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6},
        .sm_clock_mhz = 1980, .l2_bytes = 50 * MB,
    },
    {
        /* Per-SM numbers of another size: 100 KB of shared memory per SM (99 KB per
         * block), 1536 threads and 24 CTAs per SM, half the registers; uneven GPCs. */
        .name = "small SMs", .cuda_names = small_sms_names, .cc_major = 9, .cc_minor = 0,
        .smem_per_sm = 100 * KB, .smem_per_block_optin = 99 * KB, .smem_per_block_default = 48 * KB,
        .smem_reserved_per_block = 1 * KB, .smem_granularity = 128,
        .max_threads_per_sm = 1536, .max_threads_per_block = 1024, .max_ctas_per_sm = 24, .warp_size = 32,
        .regs_per_sm = 32768, .regs_per_block = 32768, .reg_granularity_per_warp = 256,
        .max_regs_per_thread = 255, .sub_partitions_per_sm = 4,
        .max_cluster_size_portable = 8, .max_cluster_size_non_portable = 16,
        .sm_count = 64, .gpc_count = 5, .sms_per_gpc = {16, 16, 12, 12, 8},
        .sm_clock_mhz = 1980, .l2_bytes = 30 * MB,
    },
};

#define HYPOTHETICAL_COUNT ((int)(sizeof hypothetical / sizeof hypothetical[0]))

/* Case-insensitive equality of two strings (strcasecmp is POSIX, not C11). */
static int same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

const dsm_device_model *dsm_model_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (int i = 0; i < MODEL_COUNT + HYPOTHETICAL_COUNT; i++) {
        const dsm_device_model *m = i < MODEL_COUNT ? &models[i] : &hypothetical[i - MODEL_COUNT];
        if (same_name(name, m->name))
            return m;
        for (const char *const *alias = m->cuda_names; *alias; alias++)
            if (same_name(name, *alias))
                return m;
    }
    return NULL;
}

const dsm_device_model *dsm_model_default(void)
{
    static int warned;
    const dsm_device_model *h200 = dsm_model_find("H200");
    const char *want = getenv("DSM_EMU_DEVICE");
    if (want == NULL || want[0] == '\0')
        return h200;
    const dsm_device_model *m = dsm_model_find(want);
    if (m != NULL)
        return m;
    if (!warned) {
        warned = 1;
        fprintf(stderr, "dsm-model: warning: DSM_EMU_DEVICE=\"%s\" is not a known device; using H200 (known:", want);
        for (int i = 0; i < MODEL_COUNT; i++)
            fprintf(stderr, "%s \"%s\"", i ? "," : "", models[i].name);
        fprintf(stderr, ")\n");
    }
    return h200;
}

int dsm_model_count(void) { return MODEL_COUNT; }

const dsm_device_model *dsm_model_at(int i)
{
    return (i >= 0 && i < MODEL_COUNT) ? &models[i] : NULL;
}

int dsm_model_hypothetical_count(void) { return HYPOTHETICAL_COUNT; }

const dsm_device_model *dsm_model_hypothetical_at(int i)
{
    return (i >= 0 && i < HYPOTHETICAL_COUNT) ? &hypothetical[i] : NULL;
}

const char *dsm_occ_limit_name(dsm_occ_limit limit)
{
    switch (limit) {
    case DSM_OCC_LIMIT_SHARED_MEMORY: return "shared memory";
    case DSM_OCC_LIMIT_REGISTERS: return "registers";
    case DSM_OCC_LIMIT_WARPS: return "warps";
    case DSM_OCC_LIMIT_CTA_SLOTS: return "CTA slots";
    }
    return "?";
}

static size_t round_up(size_t x, size_t unit) { return (x + unit - 1) / unit * unit; }

/* CTAs per SM allowed by the register file, following cudaOccMaxBlocksPerSMRegsLimit
 * [OCC]: registers go to warps in 256-register units, each warp within one of 4
 * sub-partitions of 16 K registers. */
static int ctas_by_registers(const dsm_device_model *m, int warps_per_cta, int regs_per_thread)
{
    if (regs_per_thread == 0)
        return INT_MAX; /* unknown: never the limit */
    int regs_per_warp = (int)round_up((size_t)regs_per_thread * (size_t)m->warp_size,
                                      (size_t)m->reg_granularity_per_warp);
    /* The hardware check assumes a CTA's warps are spread over all sub-partitions. */
    int warps_rounded = (int)round_up((size_t)warps_per_cta, (size_t)m->sub_partitions_per_sm);
    if (regs_per_warp * warps_rounded > m->regs_per_block || regs_per_warp * warps_per_cta > m->regs_per_block)
        return 0;
    int warps_per_sub_partition = (m->regs_per_sm / m->sub_partitions_per_sm) / regs_per_warp;
    return warps_per_sub_partition * m->sub_partitions_per_sm / warps_per_cta;
}

dsm_error_t dsm_model_ctas_per_sm(const dsm_device_model *m, int threads_per_block,
                                  size_t smem_per_block, int regs_per_thread,
                                  dsm_cta_occupancy *occ)
{
    if (m == NULL || occ == NULL || threads_per_block < 1 || threads_per_block > m->max_threads_per_block ||
        regs_per_thread < 0 || regs_per_thread > m->max_regs_per_thread)
        return dsmErrorInvalidValue;

    int warps_per_cta = (threads_per_block + m->warp_size - 1) / m->warp_size;
    size_t alloc = round_up(smem_per_block + m->smem_reserved_per_block, m->smem_granularity);
    /* A block may use at most 227 KB; the reserved 1 KB comes on top [OCC]. */
    int fits = alloc <= m->smem_per_block_optin + m->smem_reserved_per_block;

    occ->smem_allocated_per_block = alloc;
    occ->by_shared_memory = fits ? (int)(m->smem_per_sm / alloc) : 0;
    occ->by_registers = ctas_by_registers(m, warps_per_cta, regs_per_thread);
    occ->by_warps = (m->max_threads_per_sm / m->warp_size) / warps_per_cta;
    occ->by_cta_slots = m->max_ctas_per_sm;

    /* The first minimum in enum order names the limit. */
    const int by[] = {occ->by_shared_memory, occ->by_registers, occ->by_warps, occ->by_cta_slots};
    int best = 0;
    for (int i = 1; i < 4; i++)
        if (by[i] < by[best])
            best = i;
    occ->ctas_per_sm = by[best];
    occ->limit = (dsm_occ_limit)best;
    return dsmSuccess;
}

dsm_error_t dsm_model_occupancy_max_active_clusters(const dsm_device_model *m, int cluster_size,
                                                    int threads_per_block, size_t smem_per_block,
                                                    int regs_per_thread, int *clusters)
{
    if (clusters == NULL || m == NULL)
        return dsmErrorInvalidValue;
    if (cluster_size < 1 || cluster_size > m->max_cluster_size_non_portable)
        return dsmErrorInvalidClusterSize;
    dsm_cta_occupancy occ;
    dsm_error_t err = dsm_model_ctas_per_sm(m, threads_per_block, smem_per_block, regs_per_thread, &occ);
    if (err != dsmSuccess)
        return err;
    /* A cluster lives in one group of SMs (a GPC) at least as large as the
     * cluster; within it, it takes cluster_size of the group's CTA slots
     * (several of its CTAs may share an SM). Fitted to the H200 measurements
     * above: floor(slots / cluster_size) per group with sms >= cluster_size. */
    int total = 0;
    for (int g = 0; g < m->gpc_count; g++)
        if (m->sms_per_gpc[g] >= cluster_size)
            total += occ.ctas_per_sm * m->sms_per_gpc[g] / cluster_size;
    *clusters = total;
    return dsmSuccess;
}

dsm_error_t dsm_model_occupancy_max_potential_cluster_size(const dsm_device_model *m, int non_portable,
                                                           int threads_per_block, size_t smem_per_block,
                                                           int regs_per_thread, int *size)
{
    if (size == NULL || m == NULL)
        return dsmErrorInvalidValue;
    int largest = non_portable ? m->max_cluster_size_non_portable : m->max_cluster_size_portable;
    for (int c = largest; c >= 1; c--) {
        int clusters = 0;
        dsm_error_t err = dsm_model_occupancy_max_active_clusters(m, c, threads_per_block, smem_per_block,
                                                                  regs_per_thread, &clusters);
        if (err != dsmSuccess)
            return err;
        if (clusters > 0) {
            *size = c;
            return dsmSuccess;
        }
    }
    *size = 0;
    return dsmSuccess;
}

size_t dsm_model_cluster_dsmem_bytes(const dsm_device_model *m, int cluster_size, size_t smem_per_block)
{
    if (m == NULL || cluster_size < 1 || cluster_size > m->max_cluster_size_non_portable ||
        smem_per_block > m->smem_per_block_optin)
        return 0;
    return (size_t)cluster_size * smem_per_block;
}

size_t dsm_model_max_cluster_dsmem_bytes(const dsm_device_model *m, int non_portable)
{
    if (m == NULL)
        return 0;
    int largest = non_portable ? m->max_cluster_size_non_portable : m->max_cluster_size_portable;
    return dsm_model_cluster_dsmem_bytes(m, largest, m->smem_per_block_optin);
}
