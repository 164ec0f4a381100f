/* vec.c: ch06_exchange, part 2: the careful exchange (xchg_vec_dsmem / xchg_vec_gmem: 16-byte accesses, one barrier per exchange, exchange counts that leave no tile home), checked and timed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xchg_bench.h"

DSM_DECLARE_KERNEL(xchg_vec_dsmem);
DSM_DECLARE_KERNEL(xchg_vec_gmem);

/* ---- 2. the careful exchange ---- */

static uint32_t rng_below(uint32_t k)
{
    return xchg_rng_u32() % k;
}

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* The smallest count >= want (and >= 1) that is 1 modulo the period of the
 * pattern: the lcm of the cycle lengths of every chunk's rank map
 * r -> table[r * n + j]. After that many exchanges every chunk that moves at
 * all sits one step from home, exactly as after one exchange: no tile is back
 * where it started, and a kernel that does nothing fails the check. */
static int iters_without_fixed_point(const int *table, int n, int want)
{
    long period = 1;
    for (int j = 0; j < n; ++j)
        for (int r = 0; r < n; ++r) {
            int len = 1;
            for (int x = table[r * n + j]; x != r && len <= n; x = table[x * n + j])
                ++len;
            period = period / gcd((int)(period % 1000000), len) * len;
        }
    if (want < 1)
        want = 1;
    long iters = (want - 1 + period - 1) / period * period + 1;
    return iters > 1000000 ? want : (int)iters;
}

typedef struct vec_ctx {
    const char *kernel, *what;
    const uint32_t *out_dev, *in_host;
    const void *scratch_dev;
    const int *table;
    int n, iters, gmem;
    size_t blocks, tile_words;
} vec_ctx;

/* The bytes of its tile that rank r takes from other CTAs in one exchange. */
static uint64_t remote_bytes(const vec_ctx *c, int r)
{
    uint64_t chunk = (uint64_t)c->tile_words * 4 / (uint64_t)c->n, bytes = 0;
    for (int j = 0; j < c->n; ++j)
        bytes += c->table[r * c->n + j] != r ? chunk : 0;
    return bytes;
}

/* The careful exchange's mechanism, counted in the dry run: every exchange
 * fetched at least the chunks that come from other CTAs (16 bytes per access
 * on the DSMEM path), and passed one cluster barrier. */
static int vec_counts_ok(bench *b, const vec_ctx *c)
{
    dsm_emu_counts k;
    uint64_t tile = (uint64_t)c->tile_words * 4;
    for (uint32_t blk = 0; blk < c->blocks; ++blk) {
        if (!xchg_counts_of(blk, &k))
            return 1;
        uint64_t lo = remote_bytes(c, (int)(blk % (uint32_t)c->n)) * (uint64_t)c->iters, hi = tile * (uint64_t)c->iters;
        uint64_t got = k.dsmem_ld_bytes, ops = k.dsmem_ld_ops;
        const char *where = "its peers' shared memory";
        if (c->gmem) {
            dsm_emu_gmem_use u;
            memset(&u, 0, sizeof u);
            dsm_emu_last_gmem_use(blk, c->scratch_dev, &u);
            got = u.ld_bytes;
            ops = got / 16; /* the widths of global accesses are checked below, over all buffers */
            where = "scratch";
            if (u.st_bytes != hi) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u wrote %llu bytes of scratch, %llu expected (its whole "
                                  "tile, %d exchanges)", c->what, blk, (unsigned long long)u.st_bytes,
                                  (unsigned long long)hi, c->iters);
                return 0;
            }
            /* every global store is 16 bytes wide; loads too, but for the n ranks of the pattern table */
            if (k.gmem_st_bytes != 16 * k.gmem_st_ops ||
                k.gmem_ld_bytes - 4 * (uint64_t)c->n != 16 * (k.gmem_ld_ops - (uint64_t)c->n)) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %u: global memory in %llu loads of %llu bytes and %llu stores "
                                  "of %llu bytes: 16-byte accesses expected", c->what, blk,
                                  (unsigned long long)k.gmem_ld_ops, (unsigned long long)k.gmem_ld_bytes,
                                  (unsigned long long)k.gmem_st_ops, (unsigned long long)k.gmem_st_bytes);
                return 0;
            }
        }
        if (got < lo || got > hi || got != 16 * ops) {
            bench_fail_kernel(b, c->kernel, "%s: CTA %u read %llu bytes of %s in %llu accesses: %llu to %llu bytes in "
                              "16-byte accesses expected (%d exchanges; the dry run counts them)", c->what, blk,
                              (unsigned long long)got, where, (unsigned long long)ops, (unsigned long long)lo,
                              (unsigned long long)hi, c->iters);
            return 0;
        }
        if (!xchg_barrier_waits_ok(b, c->kernel, c->what, blk, &k, (uint32_t)c->iters, (uint32_t)c->iters + 1u))
            return 0;
    }
    return 1;
}

/* After iters exchanges chunk j of rank r holds chunk j of rank f_j^iters(r),
 * f_j(r) = table[r * n + j]: the check composes the rank map instead of
 * replaying thousands of exchanges. */
static int vec_check(bench *b, void *vctx)
{
    vec_ctx *c = vctx;
    size_t words = c->blocks * c->tile_words, cw = c->tile_words / (size_t)c->n;
    uint32_t *got = malloc(words * 4);
    int ok = got != NULL && vec_counts_ok(b, c);
    if (ok && dsm_memcpy_to_host(got, c->out_dev, words * 4) != dsmSuccess) {
        bench_fail_kernel(b, c->kernel, "%s: copying the result back failed", c->what);
        ok = 0;
    }
    int origin[16 * 16];
    for (int r = 0; r < c->n; ++r)
        for (int j = 0; j < c->n; ++j) {
            int x = r;
            for (int it = 0; it < c->iters; ++it)
                x = c->table[x * c->n + j];
            origin[r * c->n + j] = x;
        }
    for (size_t blk = 0; ok && blk < c->blocks; ++blk) {
        size_t r = blk % (size_t)c->n, first = blk - r;
        for (size_t w = 0; w < c->tile_words; ++w) {
            size_t j = w / cw, from = first + (size_t)origin[r * (size_t)c->n + j];
            uint32_t want = c->in_host[from * c->tile_words + w];
            if (got[blk * c->tile_words + w] != want) {
                bench_fail_kernel(b, c->kernel, "%s: CTA %zu, word %zu: got 0x%08x, want 0x%08x", c->what, blk, w,
                                  got[blk * c->tile_words + w], want);
                ok = 0;
                break;
            }
        }
    }
    free(got);
    return ok;
}

/* One xchg_vec configuration, filling the GPU (or `clusters` when > 0); `iters`
 * > 0 asks for about that many exchanges (rounded so that no tile comes home). */
result xchg_vec_run(bench *b, const plan *p, int gmem, enum pattern pat, int n, int tile_bytes, int threads,
                      int clusters, int iters)
{
    result r = {0};
    r.kernel = gmem ? "xchg_vec_gmem" : "xchg_vec_dsmem";
    dsm_kernel_t k = gmem ? DSM_KERNEL(xchg_vec_gmem) : DSM_KERNEL(xchg_vec_dsmem);
    size_t smem = (size_t)tile_bytes * (gmem ? 1u : 2u);
    dsm_launch_config cfg = {DSM_DIM3(n, 1, 1), DSM_DIM3(threads, 1, 1), DSM_DIM3(n, 1, 1), smem};
    if (!xchg_fits(k, &cfg, &r))
        return r;   /* zero clusters fit: recorded, not launched */
    r.clusters = clusters > 0 ? clusters : r.max_clusters;
    if (p->dry && r.clusters > 2)
        r.clusters = 2;
    int table[16 * 16];
    xchg_make_pattern(table, n, pat, rng_below);
    int remote = 0;
    for (int i = 0; i < n * n; ++i)
        remote += table[i] != i / n;
    size_t blocks = (size_t)n * (size_t)r.clusters, bytes = blocks * (size_t)tile_bytes;
    double crossing_per_iter = (double)remote / n * tile_bytes * (double)r.clusters;
    int want = p->dry ? 3 : (int)(p->target_bytes / crossing_per_iter);
    if (want < 20 && !p->dry)
        want = 20;
    if (want > SEED_ITERS)
        want = SEED_ITERS;
    if (iters > 0)
        want = iters;
    r.iters = iters_without_fixed_point(table, n, want);

    uint32_t *in_host = malloc(bytes);
    for (size_t i = 0; in_host && i < bytes / 4; ++i)
        in_host[i] = xchg_rng_u32();
    void *in = xchg_dev_alloc(b, bytes), *out = xchg_dev_alloc(b, bytes), *scratch = xchg_dev_alloc(b, 2 * bytes);
    void *chunk_src = xchg_dev_alloc(b, sizeof table);
    char what[160];
    snprintf(what, sizeof what, "%s, %s, clusters of %d, %d B tiles, %d threads", r.kernel, pattern_name[pat], n,
             tile_bytes, threads);
    if (!in || !out || !scratch || !chunk_src || !in_host) {
        r.failed = 1;
        bench_fail_kernel(b, r.kernel, "%s: out of memory", what);
    } else {
        dsm_memcpy_to_device(in, in_host, bytes);
        dsm_memcpy_to_device(chunk_src, table, sizeof table);
        dsm_memset(out, 0xFF, bytes);
        dsm_memset(scratch, 0, 2 * bytes);
        cfg.grid = DSM_DIM3(blocks, 1, 1);
        void *args[] = {&in, &out, &chunk_src, &tile_bytes, &r.iters, &scratch};
        vec_ctx ctx = {r.kernel, what, out, in_host, scratch, table, n, r.iters, gmem, blocks, (size_t)tile_bytes / 4};
        xchg_check_then_time(b, p, &cfg, k, args, vec_check, &ctx, what, &r);
        if (r.ran) {
            r.crossing_tbps = xchg_tbps(crossing_per_iter * r.iters, r.ms.median);
            r.seed_tbps = xchg_tbps(2.0 * tile_bytes * (double)blocks * r.iters, r.ms.median);
        }
    }
    dsm_free(in);
    dsm_free(out);
    dsm_free(scratch);
    dsm_free(chunk_src);
    free(in_host);
    return r;
}
