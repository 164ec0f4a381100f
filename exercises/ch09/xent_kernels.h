/* xent_kernels.h: the host's view of chapter 9's kernels that are not exercises (the designs the cluster kernel is measured against, and the copy floor) and the shared memory each needs. */
#ifndef CH09_XENT_KERNELS_H
#define CH09_XENT_KERNELS_H

#include "dsm_host.h"
#include "xent_shape.h"

#ifdef __cplusplus
extern "C" {
#endif
DSM_DECLARE_KERNEL(xent_rowpass_bf16);      /* xent_rowpass.cu */
DSM_DECLARE_KERNEL(xent_rowpass_f32);
DSM_DECLARE_KERNEL(xent_split_stat_bf16);   /* xent_twokernel.cu */
DSM_DECLARE_KERNEL(xent_split_stat_f32);
DSM_DECLARE_KERNEL(xent_split_grad_bf16);
DSM_DECLARE_KERNEL(xent_split_grad_f32);
DSM_DECLARE_KERNEL(xent_gmem_bf16);         /* xent_gmem.cu */
DSM_DECLARE_KERNEL(xent_gmem_f32);
DSM_DECLARE_KERNEL(xent_copy);              /* xent_copy.cu */
#ifdef __cplusplus
}
#endif

/* Dynamic shared memory of the row-pass and two-kernel designs: the block fold's. */
XENT_FN size_t xent_fold_smem(int T)
{
    return (size_t)XENT_BLOCK_RED(T) * XENT_STAT_BYTES;
}

#endif
