/* occupancy.h: ch04.occupancy: how many clusters of one shape a GPU holds at once, computed by hand from a description of the GPU. */
#ifndef CH04_OCCUPANCY_H
#define CH04_OCCUPANCY_H

#include <stddef.h>
#include "dsm_types.h"

/* A GPU as the occupancy rules see it (chapter 4, "Where each limit comes
 * from"). Sizes are in bytes. On an H200: 233472, 232448, 49152, 1024, 128,
 * 2048, 1024, 32, 32, 65536, 65536, 256, 4, 8, 16, and GPCs of
 * 18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2 SMs. */
typedef struct gpu_desc {
    int gpc_count;
    const int *sms_per_gpc;         /* SMs in each GPC: a cluster must fit in one */
    size_t smem_per_sm;             /* shared memory of one SM */
    size_t smem_per_block_optin;    /* the most a block may use, after opting in */
    size_t smem_per_block_default;  /* dynamic shared memory allowed without opting in */
    size_t smem_reserved_per_block; /* taken from the SM by every resident block, on top of its own */
    size_t smem_granularity;        /* a block's shared memory is allocated in units of this */
    int max_threads_per_sm;
    int max_threads_per_block;
    int max_ctas_per_sm;
    int warp_size;
    int regs_per_sm;                /* 32-bit registers of one SM */
    int regs_per_block;             /* the most one block may hold */
    int reg_granularity_per_warp;   /* registers go to a warp in units of this */
    int sub_partitions_per_sm;      /* the register file is split evenly between these; a warp lives in one */
    int max_cluster_size_portable;
    int max_cluster_size_non_portable;
} gpu_desc;

/* A kernel and the launch shape asked about. */
typedef struct kernel_shape {
    int cluster_size;               /* CTAs per cluster */
    int threads_per_block;
    size_t static_smem;             /* __shared__ arrays of the kernel */
    size_t dynamic_smem;            /* the launch's dynamic shared memory */
    int regs_per_thread;            /* 0: unknown, then registers never limit */
    size_t max_dynamic_smem_attr;   /* cudaFuncAttributeMaxDynamicSharedMemorySize as set; 0: never set */
    int non_portable_allowed;       /* cudaFuncAttributeNonPortableClusterSizeAllowed set to 1 */
} kernel_shape;

/* cudaOccupancyMaxActiveClusters, by hand: stores in *clusters how many
 * clusters of shape k the GPU can hold at once, and returns dsmSuccess, with
 * exactly the answers an H200 gave (chapter 4 states the rules). Errors:
 * dsmErrorInvalidValue for a NULL pointer or threads_per_block outside
 * 1..max_threads_per_block; dsmErrorInvalidClusterSize for a cluster size
 * below 1, above the non-portable maximum, or above the portable one without
 * non_portable_allowed. */
dsm_error_t occupancy_max_active_clusters(const gpu_desc *gpu, const kernel_shape *k, int *clusters);

#endif
