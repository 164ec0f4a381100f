/* bulk_global.cu: bulk copies between global and shared memory: a tile loaded with cp.async.bulk into one CTA and completed on its mbarrier, and a tile stored with cp.async.bulk to global memory through a bulk async-group, each with its typical bugs. */
#include "dsm.h"

#define BG_MAX_WORDS 256

enum { LOAD_OK = 0, LOAD_MISALIGNED = 1, LOAD_SIZE = 2, LOAD_SOURCE_REWRITE = 3, LOAD_NO_WAIT = 4,
       LOAD_PEER_DST = 5, LOAD_SHARED_SRC = 6, LOAD_PAST_END = 7 };

/* Each CTA loads its `words` words of `in` (words a multiple of 4, at most BG_MAX_WORDS) into
 * shared memory with one bulk copy that thread 0 issues and arms, then every thread writes
 * out[i] = tile[i] + 1 for its words. bad: one LOAD_* bug. */
__global__ void bulk_load(const uint32_t *in, uint32_t *out, int words, int bad)
{
    __shared__ __align__(16) uint32_t tile[BG_MAX_WORDS];
    __shared__ __align__(16) uint32_t other[BG_MAX_WORDS];
    __shared__ __align__(8) uint64_t full;
    const uint32_t *src = in + (size_t)blockIdx.x * (size_t)words;
    uint32_t bytes = (uint32_t)words * 4u;
    if (threadIdx.x == 0) {
        dsm_mbarrier_init(&full, 1);
        dsm_fence_mbarrier_init();
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        dsm_mbarrier_arrive_expect_tx(&full, bad == LOAD_SIZE ? bytes - 8u : bytes);
        if (bad == LOAD_MISALIGNED)
            dsm_cp_async_bulk_global_to_shared(tile, src + 2, bytes, &full);   /* 8 bytes in: misaligned */
        else if (bad == LOAD_SIZE)
            dsm_cp_async_bulk_global_to_shared(tile, src, bytes - 8u, &full);
        else if (bad == LOAD_PEER_DST)
            dsm_cp_async_bulk_global_to_shared(dsm_map_shared_rank(tile, 0), src, bytes, &full);
        else if (bad == LOAD_SHARED_SRC)
            dsm_cp_async_bulk_global_to_shared(tile, other, bytes, &full);
        else if (bad == LOAD_PAST_END)
            dsm_cp_async_bulk_global_to_shared(tile, src + words, bytes, &full);  /* the last CTA reads past in */
        else
            dsm_cp_async_bulk_global_to_shared(tile, src, bytes, &full);
        if (bad == LOAD_SOURCE_REWRITE)
            ((uint32_t *)src)[0] = 7u;   /* "the copy has it": not before its phase completed */
    }
    if (bad != LOAD_NO_WAIT)
        dsm_mbarrier_wait_parity(&full, 0);
    for (int i = (int)threadIdx.x; i < words; i += (int)blockDim.x)
        out[(size_t)blockIdx.x * (size_t)words + (size_t)i] = tile[i] + 1u;
    if (bad == LOAD_NO_WAIT)
        dsm_mbarrier_wait_parity(&full, 0);   /* the copy lands, late: the reads above saw the poison */
}
DSM_KERNEL_ENTRY(bulk_load, const uint32_t *, uint32_t *, int, int)

enum { STORE_OK = 0, STORE_NO_PROXY_FENCE = 1, STORE_REWRITE_BEFORE_WAIT = 2, STORE_EXIT_WITHOUT_WAIT = 3,
       STORE_NO_COMMIT = 4, STORE_READ_AFTER_READ_WAIT = 5, STORE_MISALIGNED = 6, STORE_GROUPS = 7 };

/* Each CTA computes tile[i] = 3 * in[i] + rank for its `words` words in shared memory, and
 * thread 0 stores the tile to out with one bulk store (STORE_GROUPS: two halves in two groups,
 * waited for one at a time); check[b] = out[b's first word] read back by thread 0 after the
 * wait. bad: one STORE_* bug. */
__global__ void bulk_store(const uint32_t *in, uint32_t *out, uint32_t *check, int words, int bad)
{
    __shared__ __align__(16) uint32_t tile[BG_MAX_WORDS];
    uint32_t *dst = out + (size_t)blockIdx.x * (size_t)words;
    uint32_t bytes = (uint32_t)words * 4u;
    for (int i = (int)threadIdx.x; i < words; i += (int)blockDim.x)
        tile[i] = 3u * in[(size_t)blockIdx.x * (size_t)words + (size_t)i] + blockIdx.x;
    if (bad != STORE_NO_PROXY_FENCE)
        dsm_fence_proxy_async_shared_cta();   /* every writer: its generic writes, before the async proxy reads */
    __syncthreads();
    if (threadIdx.x != 0)
        return;
    if (bad == STORE_GROUPS) {
        dsm_cp_async_bulk_shared_to_global(dst, tile, bytes / 2u);
        dsm_cp_async_bulk_commit_group();
        dsm_cp_async_bulk_shared_to_global(dst + words / 2, tile + words / 2, bytes / 2u);
        dsm_cp_async_bulk_commit_group();
        dsm_cp_async_bulk_wait_group_read(1);   /* the first group has read its half: it may change */
        tile[0] = 0u;
        dsm_cp_async_bulk_wait_group(0);
    } else {
        dsm_cp_async_bulk_shared_to_global(bad == STORE_MISALIGNED ? dst + 1 : dst, tile, bytes);
        if (bad != STORE_NO_COMMIT)
            dsm_cp_async_bulk_commit_group();
        if (bad == STORE_REWRITE_BEFORE_WAIT)
            tile[0] = 0u;   /* "it is issued": but maybe not read yet */
        if (bad == STORE_EXIT_WITHOUT_WAIT)
            return;
        if (bad == STORE_NO_COMMIT) {
            dsm_cp_async_bulk_wait_group_read(0);   /* covers no group: the store was never committed */
            return;
        }
        dsm_cp_async_bulk_wait_group_read(0);
        if (bad != STORE_READ_AFTER_READ_WAIT)
            dsm_cp_async_bulk_wait_group(0);
    }
    check[blockIdx.x] = dst[0];   /* read back by the issuing thread: complete after wait_group */
}
DSM_KERNEL_ENTRY(bulk_store, const uint32_t *, uint32_t *, uint32_t *, int, int)
