/* twins_main.c: runs one buggy or fixed twin of the emulator's test kernels and prints what the backend did (error, wrong counts, stale reads): tools/gpu/emu_twins.sh records it on an H200. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_emu_control.h"
#include "dsm_host.h"

DSM_DECLARE_KERNEL(plain_histogram);
DSM_DECLARE_KERNEL(plain_publish);
DSM_DECLARE_KERNEL(inbox_publish);
DSM_DECLARE_KERNEL(uninitialised_transform);
DSM_DECLARE_KERNEL(global_copy);
DSM_DECLARE_KERNEL(read_after_exit);
DSM_DECLARE_KERNEL(store_before_start);
DSM_DECLARE_KERNEL(warp_handoff);
DSM_DECLARE_KERNEL(bulk_ring);
DSM_DECLARE_KERNEL(flag_ping_pong);
DSM_DECLARE_KERNEL(flag_handoff);
DSM_DECLARE_KERNEL(mixed_arrive);
DSM_DECLARE_KERNEL(volatile_handoff);
DSM_DECLARE_KERNEL(mcast_ring);
DSM_DECLARE_KERNEL(bulk_load);
DSM_DECLARE_KERNEL(bulk_store);

#define BINS_PER_CTA 16
/* launches per case: 20 on a GPU (races show only sometimes), TWINS_REPEATS to change */
static int REPEATS = 20;

static void *dev(size_t bytes)
{
    void *p = NULL;
    if (dsm_malloc(&p, bytes) != dsmSuccess || dsm_memset(p, 0, bytes) != dsmSuccess) {
        fprintf(stderr, "twins: cannot allocate %zu bytes\n", bytes);
        exit(2);
    }
    return p;
}

static dsm_error_t launch(unsigned grid, unsigned block, unsigned cluster, dsm_kernel_t k, void **args)
{
    dsm_launch_config cfg = {DSM_DIM3(grid, 1, 1), DSM_DIM3(block, 1, 1), DSM_DIM3(cluster, 1, 1), 0};
    dsm_error_t e = dsm_launch_sync(&cfg, k, args);
    const dsm_report *r = dsm_emu_last_report();
    printf("launch: %s (%d)%s%s\n", dsm_error_name(e), (int)e, r->kind ? ", emulator report: " : "",
           r->kind ? dsm_report_kind_name(r->kind) : "");
    return e;
}

/* Each case: REPEATS launches (or one), then what the results show. */
static int histogram(int atomic)
{
    int n = 1 << 16, cl = 4, bad = 0;
    uint32_t *h = malloc(n * 4), expect[64] = {0}, got[64];
    for (int i = 0; i < n; i++) {
        h[i] = (uint32_t)(i * 2654435761u) >> 7;
        expect[h[i] % 64]++;
    }
    uint32_t *in = dev(n * 4), *out = dev(sizeof got);
    dsm_memcpy_to_device(in, h, n * 4);
    void *args[] = {&in, &n, &out, &atomic};
    long lost = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof got);
        if (launch(66 * cl, 512, cl, DSM_KERNEL(plain_histogram), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(got, out, sizeof got);
        for (int b = 0; b < 64; b++)
            lost += (long)expect[b] - (long)got[b];
        bad += memcmp(got, expect, sizeof got) != 0;
    }
    printf("result: %d of %d runs wrong; %.1f %% of the %d counts lost on average\n", bad, REPEATS,
           100.0 * (double)lost / REPEATS / n, n);
    return 0;
}

static int tile_reads(dsm_kernel_t k, unsigned grid, unsigned block, unsigned cluster, int flag, const char *what)
{
    uint32_t *out = dev(grid * block * 4), *h = malloc(grid * block * 4);
    void *args[] = {&out, &flag};
    int wrong_runs = 0;
    long wrong = 0;
    uint32_t sample = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, grid * block * 4);
        if (launch(grid, block, cluster, k, args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(h, out, grid * block * 4);
        long w = 0;
        for (unsigned i = 0; i < grid * block; i++) {
            uint32_t want = 0;
            if (k == DSM_KERNEL(plain_publish))
                want = (((i / block) % cluster + 1) % cluster) * 100 + i % block;
            else if (k == DSM_KERNEL(store_before_start))
                want = ((i / block) % cluster + cluster - 1) % cluster;
            else if (k == DSM_KERNEL(uninitialised_transform))
                want = (((i % block + 1) % 64) * 3u + 1u) & 0xFFu;
            else
                continue;
            if (h[i] != want) {
                if (!w)
                    sample = h[i];
                w++;
            }
        }
        wrong += w;
        wrong_runs += w > 0;
    }
    printf("result: %s: %d of %d runs had wrong words (%ld words in all; first wrong value %u)\n", what, wrong_runs,
           REPEATS, wrong, sample);
    return 0;
}

static int inbox(int writers_relaxed)
{
    uint32_t *out = dev(32 * 4), h[32];
    void *args[] = {&out, &writers_relaxed};
    int wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof h);
        if (launch(4, 32, 4, DSM_KERNEL(inbox_publish), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(h, out, sizeof h);
        for (int k = 1; k < 4; k++)
            wrong += h[k] != (uint32_t)k * 7;
    }
    printf("result: %d stale inbox words in %d runs\n", wrong, REPEATS);
    return 0;
}

static int simple(dsm_kernel_t k, unsigned grid, unsigned block, unsigned cluster, int flag)
{
    uint32_t *out = dev(4096 * 4);
    int n = 100;
    uint32_t *in = dev(n * 4);
    if (k == DSM_KERNEL(global_copy)) {
        void *args[] = {&in, &out, &n, &flag};
        return launch(grid, block, cluster, k, args) != dsmSuccess;
    }
    void *args[] = {&out, &flag};
    int failed = 0;
    for (int r = 0; r < REPEATS; r++)
        failed += launch(grid, block, cluster, k, args) != dsmSuccess;
    printf("result: %d of %d launches failed\n", failed, REPEATS);
    return 0;
}

static int mixed(int writer_relaxed)
{
    uint32_t *out = dev(4), h;
    void *args[] = {&out, &writer_relaxed};
    int wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, 4);
        if (launch(132, 32, 2, DSM_KERNEL(mixed_arrive), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(&h, out, 4);
        wrong += h != 42;
    }
    printf("result: %d of %d runs read a stale inbox word\n", wrong, REPEATS);
    return 0;
}

static int handoff(int wait)
{
    uint32_t *out = dev(96 * 4), h[96];
    void *args[] = {&out, &wait};
    int wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        if (launch(1, 128, 1, DSM_KERNEL(warp_handoff), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(h, out, sizeof h);
        for (int i = 0; i < 96; i++)
            wrong += h[i] != 64 * 63 / 2;
    }
    printf("result: %d wrong consumer sums in %d runs\n", wrong, REPEATS);
    return 0;
}

static int ring(int bad)
{
    int chunks = 6, cl = 4;
    uint32_t *out = dev(cl * 4), h[4];
    void *args[] = {&out, &chunks, &bad};
    int wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof h);
        if (launch(cl, 64, cl, DSM_KERNEL(bulk_ring), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(h, out, sizeof h);
        for (uint32_t c = 0; c < (uint32_t)cl; c++) {
            uint32_t left = (c + cl - 1) % cl, expect = 0;
            for (uint32_t w = 0; w < (uint32_t)chunks * 32; w++)
                expect += left * 1000u + w;
            wrong += h[c] != expect;
        }
    }
    printf("result: %d wrong CTA sums in %d runs\n", wrong, REPEATS);
    return 0;
}

/* mcast_ring (multicast.cu) with bug `bad` (MC_*: 0 is the fixed twin): clusters of 4 stream chunks of 1 KB
 * through a 2-slot multicast ring; counts wrong words of the CTAs' weighted sums. */
static int mcast(int bad)
{
    int emu = !strcmp(dsm_backend_name(), "emulator");
    int n = 4, clusters = emu ? 1 : 32, cw = 256, chunks = emu ? 6 : getenv("TWINS_SMALL") ? 50 : 2000;
    size_t per = (size_t)chunks * (size_t)cw, blocks = (size_t)n * (size_t)clusters;
    uint32_t *h = malloc((size_t)clusters * per * 4), *got = malloc(blocks * (size_t)cw * 4);
    uint32_t *want = calloc(blocks * (size_t)cw, 4);
    for (size_t i = 0; i < (size_t)clusters * per; i++)
        h[i] = (uint32_t)(i * 2246822519u + 3266489917u);
    for (size_t b = 0; b < blocks; b++)
        for (int c = 0; c < chunks; c++)
            for (size_t w = 0; w < (size_t)cw; w++)
                want[b * (size_t)cw + w] += (uint32_t)(c + 1) * h[(b / (size_t)n) * per + (size_t)c * (size_t)cw + w];
    uint32_t *in = dev((size_t)clusters * per * 4), *out = dev(blocks * (size_t)cw * 4);
    dsm_memcpy_to_device(in, h, (size_t)clusters * per * 4);
    void *args[] = {&in, &out, &cw, &chunks, &bad};
    long wrong = 0;
    int wrong_runs = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, blocks * (size_t)cw * 4);
        if (launch((unsigned)blocks, 64, (unsigned)n, DSM_KERNEL(mcast_ring), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(got, out, blocks * (size_t)cw * 4);
        long w = 0;
        for (size_t i = 0; i < blocks * (size_t)cw; i++)
            w += got[i] != want[i];
        wrong += w;
        wrong_runs += w > 0;
    }
    printf("result: %d of %d runs had wrong words (%ld of %zu words per run on average)\n", wrong_runs, REPEATS,
           wrong / REPEATS, blocks * (size_t)cw);
    return 0;
}

/* bulk_load / bulk_store (bulk_global.cu) with bug `bad` (0: fixed): 132 CTAs, 256 words each. */
static int bulk(int store, int bad)
{
    int words = 256, blocks = 132;
    size_t nw = (size_t)blocks * (size_t)words;
    uint32_t *h = malloc(nw * 4), *got = malloc(nw * 4), *in = dev(nw * 4 + 64), *out = dev(nw * 4),
             *check = dev((size_t)blocks * 4);
    for (size_t i = 0; i < nw; i++)
        h[i] = (uint32_t)(i * 40503u + 17u);
    int wrong_runs = 0;
    long wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memcpy_to_device(in, h, nw * 4);
        dsm_memset(out, 0, nw * 4);
        dsm_error_t e;
        if (store) {
            void *args[] = {&in, &out, &check, &words, &bad};
            e = launch((unsigned)blocks, 64, 1, DSM_KERNEL(bulk_store), args);
        } else {
            void *args[] = {&in, &out, &words, &bad};
            e = launch((unsigned)blocks, 64, 1, DSM_KERNEL(bulk_load), args);
        }
        if (e != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(got, out, nw * 4);
        long w = 0;
        for (size_t i = 0; i < nw; i++)
            w += got[i] != (store ? 3u * h[i] + (uint32_t)(i / (size_t)words) : h[i] + 1u);
        wrong += w;
        wrong_runs += w > 0;
    }
    printf("result: %d of %d runs had wrong words (%ld words in all)\n", wrong_runs, REPEATS, wrong);
    return 0;
}

static int ping_pong(int bad)
{
    uint32_t *out = dev(8), *gflags = dev(8), h[2];
    int rounds = 1000, global = 0;
    void *args[] = {&out, &gflags, &rounds, &global, &bad};
    int wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(gflags, 0, 8);
        if (launch(2, 32, 2, DSM_KERNEL(flag_ping_pong), args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(h, out, sizeof h);
        wrong += h[0] != (uint32_t)rounds;
    }
    printf("result: %d of %d runs ended with a wrong token\n", wrong, REPEATS);
    return 0;
}

static int flag_handoff(dsm_kernel_t k, int relaxed)
{
    uint32_t *out = dev(32 * 4), h[32];
    void *args[] = {&out, &relaxed};
    int wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        if (launch(1, 64, 1, k, args) != dsmSuccess)
            return 1;
        dsm_memcpy_to_host(h, out, sizeof h);
        for (int i = 0; i < 32; i++)
            wrong += h[i] != 32 * 33 / 2;
    }
    printf("result: %d wrong sums in %d runs\n", wrong, REPEATS);
    return 0;
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "";
    if (getenv("TWINS_REPEATS") && atoi(getenv("TWINS_REPEATS")) > 0)
        REPEATS = atoi(getenv("TWINS_REPEATS"));
    printf("case %s on the %s backend\n", c, dsm_backend_name());
    if (!strcmp(c, "histogram_plain")) return histogram(0);
    if (!strcmp(c, "histogram_atomic")) return histogram(1);
    if (!strcmp(c, "publish_relaxed")) return tile_reads(DSM_KERNEL(plain_publish), 132, 64, 2, 1, "neighbour tile");
    if (!strcmp(c, "publish_release")) return tile_reads(DSM_KERNEL(plain_publish), 132, 64, 2, 0, "neighbour tile");
    if (!strcmp(c, "inbox_writers_relaxed")) return inbox(1);
    if (!strcmp(c, "inbox_writers_release")) return inbox(0);
    if (!strcmp(c, "mixed_writer_relaxed")) return mixed(1);
    if (!strcmp(c, "mixed_writer_release")) return mixed(0);
    if (!strcmp(c, "uninitialised")) return tile_reads(DSM_KERNEL(uninitialised_transform), 132, 64, 1, 0, "scratch");
    if (!strcmp(c, "initialised")) return tile_reads(DSM_KERNEL(uninitialised_transform), 132, 64, 1, 1, "scratch");
    if (!strcmp(c, "copy_unguarded")) return simple(DSM_KERNEL(global_copy), 1, 128, 1, 0);
    if (!strcmp(c, "copy_guarded")) return simple(DSM_KERNEL(global_copy), 1, 128, 1, 1);
    if (!strcmp(c, "read_after_exit")) return simple(DSM_KERNEL(read_after_exit), 132, 32, 2, 0);
    if (!strcmp(c, "read_with_final_barrier")) return simple(DSM_KERNEL(read_after_exit), 132, 32, 2, 1);
    if (!strcmp(c, "store_before_start")) return tile_reads(DSM_KERNEL(store_before_start), 128, 32, 4, 1, "slot");
    if (!strcmp(c, "store_after_barrier")) return tile_reads(DSM_KERNEL(store_before_start), 128, 32, 4, 0, "slot");
    if (!strcmp(c, "warp_handoff_nowait")) return handoff(0);
    if (!strcmp(c, "warp_handoff_wait")) return handoff(1);
    if (!strncmp(c, "ring_", 5)) return ring(atoi(c + 5));
    if (!strncmp(c, "mcast_", 6)) return mcast(atoi(c + 6));
    if (!strncmp(c, "load_", 5)) return bulk(0, atoi(c + 5));
    if (!strncmp(c, "store_", 6)) return bulk(1, atoi(c + 6));
    if (!strcmp(c, "pingpong_relaxed")) return ping_pong(1);
    if (!strcmp(c, "pingpong_release")) return ping_pong(0);
    if (!strcmp(c, "pingpong_wrong_value")) return ping_pong(2);
    if (!strcmp(c, "flag_handoff_relaxed")) return flag_handoff(DSM_KERNEL(flag_handoff), 1);
    if (!strcmp(c, "flag_handoff_release")) return flag_handoff(DSM_KERNEL(flag_handoff), 0);
    if (!strcmp(c, "volatile_unfenced")) return flag_handoff(DSM_KERNEL(volatile_handoff), 0);
    if (!strcmp(c, "volatile_fenced")) return flag_handoff(DSM_KERNEL(volatile_handoff), 1);
    fprintf(stderr, "twins: unknown case '%s'\n", c);
    return 2;
}
