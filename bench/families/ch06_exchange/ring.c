/* ring.c: ch06_exchange, part 3: the bulk-copy ring (ring_push) and its twin through global memory (ring_global), checked and timed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xchg_bench.h"

DSM_DECLARE_KERNEL(ring_push);
DSM_DECLARE_KERNEL(ring_global);

/* ---- 3. the bulk-copy ring ---- */

typedef struct ring_ctx {
    const char *kernel, *what;
    const uint32_t *out_dev, *in_host;
    int n, stages, nchunks, chunk_bytes, gmem;
    size_t blocks, chunk_words, src_words;
} ring_ctx;

/* The ring's mechanism, counted in the dry run: every chunk left through the
 * copy engine and arrived in the neighbour's shared memory (ring_push), or went
 * out to global memory and came back in by bulk copy, with no DSMEM access at
 * all (ring_global); and no cluster barrier sat inside the loop. */
static int ring_counts_ok(bench *b, const ring_ctx *c)
{
    dsm_emu_counts k;
    uint64_t want = (uint64_t)c->nchunks * (uint64_t)c->chunk_bytes;
    for (uint32_t blk = 0; blk < c->blocks; ++blk) {
        if (!xchg_counts_of(blk, &k))
            return 1;
        uint64_t out = c->gmem ? k.bulk_s2g_bytes : k.async_out_bytes;
        uint64_t in = c->gmem ? k.bulk_g2s_landed_bytes : k.async_in_bytes;
        if (out != want || in != want) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u sent %llu and received %llu bytes by bulk copy%s, %llu each "
                              "expected (%d chunks)", c->what, blk, (unsigned long long)out, (unsigned long long)in,
                              c->gmem ? " through global memory" : "", (unsigned long long)want, c->nchunks);
            return 0;
        }
        if (c->gmem && (k.dsmem_ld_bytes || k.dsmem_st_bytes || k.async_out_bytes || k.mbarrier_remote_arrives)) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u used DSMEM (%llu bytes loaded, %llu stored, %llu sent, %u "
                              "remote arrives): the global twin must not", c->what, blk,
                              (unsigned long long)k.dsmem_ld_bytes, (unsigned long long)k.dsmem_st_bytes,
                              (unsigned long long)k.async_out_bytes, k.mbarrier_remote_arrives);
            return 0;
        }
        if (!xchg_barrier_waits_ok(b, c->kernel, c->what, blk, &k, 1, 3))
            return 0;
    }
    return 1;
}

/* Word w of CTA b's sum is sum_m W_m * src_left[4m + w] with
 * W_m = sum of (k + 1) over the k < nchunks with k mod (stages + 1) = m. */
static int ring_check(bench *b, void *vctx)
{
    ring_ctx *c = vctx;
    size_t words = c->blocks * c->chunk_words;
    uint32_t *got = malloc(words * 4), weight[RING_WEIGHTS_MAX];
    int ok = got != NULL && ring_counts_ok(b, c);
    if (ok && dsm_memcpy_to_host(got, c->out_dev, words * 4) != dsmSuccess) {
        bench_fail_kernel(b, c->kernel, "%s: copying the result back failed", c->what);
        ok = 0;
    }
    for (int m = 0; m <= c->stages; ++m)
        weight[m] = 0;
    for (int k = 0; k < c->nchunks; ++k)
        weight[k % (c->stages + 1)] += (uint32_t)k + 1u;
    for (size_t blk = 0; ok && blk < c->blocks; ++blk) {
        size_t r = blk % (size_t)c->n, left = blk - r + (r + (size_t)c->n - 1) % (size_t)c->n;
        const uint32_t *src = c->in_host + left * c->src_words;
        for (size_t w = 0; w < c->chunk_words; ++w) {
            uint32_t want = 0;
            for (int m = 0; m <= c->stages; ++m)
                want += weight[m] * src[32 * (size_t)m + w];
            if (got[blk * c->chunk_words + w] != want) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %zu, word %zu of its sum: got 0x%08x, want 0x%08x", c->what,
                                  blk, w, got[blk * c->chunk_words + w], want);
                ok = 0;
                break;
            }
        }
    }
    free(got);
    return ok;
}

/* One ring_push (or, gmem, ring_global) configuration, filling the GPU with clusters of n. */
result xchg_ring_run(bench *b, const plan *p, int gmem, int n, int stages, int chunk_bytes, int threads)
{
    result r = {0};
    r.kernel = gmem ? "ring_global" : "ring_push";
    dsm_kernel_t k = gmem ? DSM_KERNEL(ring_global) : DSM_KERNEL(ring_push);
    size_t smem = (size_t)(stages + 1) * (size_t)chunk_bytes + 128 * (size_t)stages;
    dsm_launch_config cfg = {DSM_DIM3(n, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    if (!xchg_fits(k, &cfg, &r))
        return r;   /* zero clusters fit: recorded, not launched */
    r.clusters = p->dry ? 1 : r.max_clusters;
    size_t blocks = (size_t)n * (size_t)r.clusters;
    size_t src_words = (size_t)chunk_bytes / 4 + 32 * (size_t)stages, chunk_words = (size_t)chunk_bytes / 4;
    int nchunks = p->dry ? 2 * stages + 1 : (int)(p->target_bytes / ((double)chunk_bytes * (double)blocks));
    if (nchunks < 4 * stages)
        nchunks = 4 * stages;
    r.iters = nchunks;

    uint32_t *in_host = malloc(blocks * src_words * 4);
    for (size_t i = 0; in_host && i < blocks * src_words; ++i)
        in_host[i] = xchg_rng_u32();
    void *in = xchg_dev_alloc(b, blocks * src_words * 4), *out = xchg_dev_alloc(b, blocks * chunk_words * 4);
    /* the global twin's slots (stages chunks per block) and flags (2 x stages per block) */
    size_t scratch_bytes = gmem ? blocks * (size_t)stages * (size_t)chunk_bytes : 16;
    size_t flag_bytes = gmem ? blocks * 2 * (size_t)stages * sizeof(uint32_t) : 16;
    void *scratch = xchg_dev_alloc(b, scratch_bytes), *flags = xchg_dev_alloc(b, flag_bytes);
    char what[160];
    snprintf(what, sizeof what, "%s, clusters of %d, %d stages of %d B, %d threads", r.kernel, n, stages, chunk_bytes,
             threads);
    if (!in || !out || !in_host || !scratch || !flags) {
        r.failed = 1;
        bench_fail_kernel(b, r.kernel, "%s: out of memory", what);
    } else {
        dsm_memcpy_to_device(in, in_host, blocks * src_words * 4);
        dsm_memset(out, 0xFF, blocks * chunk_words * 4);
        dsm_memset(scratch, 0, scratch_bytes);
        dsm_memset(flags, 0xFF, flag_bytes);    /* the kernel clears its own flags */
        cfg.grid = DSM_DIM3(blocks, 1, 1);
        void *args[] = {&in, &out, &chunk_bytes, &stages, &nchunks, &scratch, &flags};
        ring_ctx ctx = {r.kernel, what, out, in_host, n, stages, nchunks, chunk_bytes, gmem, blocks, chunk_words,
                        src_words};
        xchg_check_then_time(b, p, &cfg, k, args, ring_check, &ctx, what, &r);
        if (r.ran)
            r.crossing_tbps = xchg_tbps((double)chunk_bytes * (double)blocks * nchunks, r.ms.median);
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    dsm_free(flags);
    free(in_host);
    return r;
}
