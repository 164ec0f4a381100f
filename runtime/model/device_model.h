/* device_model.h: models of Hopper GPUs (H100 SXM, H100 PCIe, H200, H800) and the occupancy rules for thread block clusters. */
#ifndef DSM_DEVICE_MODEL_H
#define DSM_DEVICE_MODEL_H

#include <stddef.h>
#include "../dsm_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DSM_MODEL_MAX_GPCS 16

/* One GPU as the occupancy rules see it. Every number is cited where the
 * table is defined (device_model.c). Sizes are in bytes. */
typedef struct dsm_device_model {
    const char *name;                 /* short name: "H200", "H100 SXM", ... */
    const char *const *cuda_names;    /* cudaDeviceProp.name strings that select it, NULL-terminated */
    int cc_major, cc_minor;           /* compute capability */
    int sm_count;
    int gpc_count;
    int sms_per_gpc[DSM_MODEL_MAX_GPCS]; /* SMs in each GPC: a cluster must fit in one */
    int gpc_layout_calibrated;        /* 1: fitted to measurements on this GPU; 0: an assumption */
    size_t smem_per_sm;               /* shared memory per SM at the largest carveout (228 KB) */
    size_t smem_per_block_optin;      /* most a block may use after raising the attribute (227 KB) */
    size_t smem_per_block_default;    /* dynamic shared memory allowed without the attribute (48 KB) */
    size_t smem_reserved_per_block;   /* taken by the driver from every block (1 KB) */
    size_t smem_granularity;          /* a block's shared memory is rounded up to this (128 B) */
    int max_threads_per_sm;
    int max_threads_per_block;
    int max_ctas_per_sm;
    int warp_size;
    int regs_per_sm;
    int regs_per_block;
    int reg_granularity_per_warp;     /* registers are given to a warp in units of this */
    int max_regs_per_thread;
    int sub_partitions_per_sm;        /* the register file is split between these */
    int max_cluster_size_portable;
    int max_cluster_size_non_portable;
    int sm_clock_mhz;
    size_t l2_bytes;
} dsm_device_model;

/* What limits the number of CTAs an SM can hold. */
typedef enum dsm_occ_limit {
    DSM_OCC_LIMIT_SHARED_MEMORY = 0, /* shared memory per SM (or the block is too big for one SM) */
    DSM_OCC_LIMIT_REGISTERS,         /* register file (or the block needs more than one SM has) */
    DSM_OCC_LIMIT_WARPS,             /* resident threads per SM (2048) */
    DSM_OCC_LIMIT_CTA_SLOTS          /* resident CTAs per SM (32) */
} dsm_occ_limit;

/* CTAs per SM for one block shape, each resource's own limit, and the binding one. */
typedef struct dsm_cta_occupancy {
    int ctas_per_sm;                /* the minimum of the four limits below */
    int by_shared_memory, by_registers, by_warps, by_cta_slots; /* by_registers: INT_MAX when unknown */
    dsm_occ_limit limit;            /* the limit that binds; ties go to the first in enum order */
    size_t smem_allocated_per_block; /* static + dynamic + reserved, rounded to the granularity */
} dsm_cta_occupancy;

/* The model named `name`, case-insensitively: a short name ("H200", "h100 sxm")
 * or a CUDA device name ("NVIDIA H200", "NVIDIA H100 80GB HBM3",
 * "NVIDIA H100 PCIe", "NVIDIA H800"). NULL when none matches. */
const dsm_device_model *dsm_model_find(const char *name);

/* The model the emulator uses: the one named by the environment variable
 * DSM_EMU_DEVICE, or the H200 when it is unset or empty. An unknown name
 * prints one warning to stderr (listing the known names) and gives the H200. */
const dsm_device_model *dsm_model_default(void);

/* How many models there are, and model i (0 <= i < count; NULL otherwise). */
int dsm_model_count(void);
const dsm_device_model *dsm_model_at(int i);

/* GPUs that do not exist, for tests of the occupancy rules: "MIG-like slice"
 * (42 SMs in uneven GPCs), "small GPCs" (16 GPCs of 6 SMs), "small SMs" (other
 * per-SM limits: 100 KB of shared memory, 99 KB per block, 1536 threads).
 * dsm_model_find (and so DSM_EMU_DEVICE) finds them too; dsm_model_at does not
 * list them. Model i, 0 <= i < count; NULL otherwise. */
int dsm_model_hypothetical_count(void);
const dsm_device_model *dsm_model_hypothetical_at(int i);

/* A short stable name for a limit: "shared memory", "registers", "warps", "CTA slots". */
const char *dsm_occ_limit_name(dsm_occ_limit limit);

/* CTAs of one shape that fit on one SM, as cudaOccupancyMaxActiveBlocksPerMultiprocessor
 * computes it (cuda_occupancy.h), with the default carveout. smem_per_block is
 * static + dynamic shared memory (the reserved 1 KB is added here);
 * regs_per_thread 0 means "unknown": registers then never limit. A block
 * above the per-block shared memory limit (227 KB) fits 0 times.
 * dsmErrorInvalidValue for a NULL argument, threads_per_block outside
 * 1..1024 or regs_per_thread outside 0..255. */
dsm_error_t dsm_model_ctas_per_sm(const dsm_device_model *m, int threads_per_block,
                                  size_t smem_per_block, int regs_per_thread,
                                  dsm_cta_occupancy *occ);

/* cudaOccupancyMaxActiveClusters on the model: a cluster lies inside one GPC
 * that has at least cluster_size SMs, so with k CTAs per SM the device holds
 * the sum over such GPCs of floor(k * sms_in_gpc / cluster_size) clusters
 * (calibrated on an H200: see device_model.c). Whether sizes
 * 9..16 are allowed (the non-portable attribute) and whether the dynamic shared
 * memory is within the kernel's attribute are the caller's checks.
 * dsmErrorInvalidClusterSize for cluster_size outside 1..16 (the hardware
 * limit); dsmErrorInvalidValue as for dsm_model_ctas_per_sm. */
dsm_error_t dsm_model_occupancy_max_active_clusters(const dsm_device_model *m, int cluster_size,
                                                    int threads_per_block, size_t smem_per_block,
                                                    int regs_per_thread, int *clusters);

/* cudaOccupancyMaxPotentialClusterSize on the model: the largest cluster size
 * (at most 8, or 16 when non_portable is nonzero) of which at least one
 * cluster can be resident; 0 when not even one block fits on an SM.
 * dsmErrorInvalidValue as for dsm_model_ctas_per_sm. */
dsm_error_t dsm_model_occupancy_max_potential_cluster_size(const dsm_device_model *m, int non_portable,
                                                           int threads_per_block, size_t smem_per_block,
                                                           int regs_per_thread, int *size);

/* Distributed shared memory one cluster can address: cluster_size blocks of
 * smem_per_block bytes each. 0 when cluster_size is outside 1..16 or the
 * block is above the per-block limit. */
size_t dsm_model_cluster_dsmem_bytes(const dsm_device_model *m, int cluster_size, size_t smem_per_block);

/* The most distributed shared memory any cluster can address on this GPU: the
 * largest cluster (8, or 16 when non_portable) times 227 KB. */
size_t dsm_model_max_cluster_dsmem_bytes(const dsm_device_model *m, int non_portable);

#ifdef __cplusplus
}
#endif

#endif
