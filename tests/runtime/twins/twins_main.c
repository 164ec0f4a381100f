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
DSM_DECLARE_KERNEL(done_then_read_arrive);
DSM_DECLARE_KERNEL(done_then_read_flag);
DSM_DECLARE_KERNEL(copy_out_then_exit);
DSM_DECLARE_KERNEL(arrive_then_exit);
DSM_DECLARE_KERNEL(one_slot_stream);
DSM_DECLARE_KERNEL(token_rounds);
DSM_DECLARE_KERNEL(init_then_peer_arrive);
DSM_DECLARE_KERNEL(short_stream);
DSM_DECLARE_KERNEL(scratch_exchange);
DSM_DECLARE_KERNEL(cluster_totals);
DSM_DECLARE_KERNEL(gpu_flag_handoff);
DSM_DECLARE_KERNEL(flush_bins);
DSM_DECLARE_KERNEL(mcast_ring);
DSM_DECLARE_KERNEL(bulk_load);
DSM_DECLARE_KERNEL(bulk_store);
DSM_DECLARE_KERNEL(second_wait);
DSM_DECLARE_KERNEL(source_rewrite);
DSM_DECLARE_KERNEL(g2s_generic_source);
DSM_DECLARE_KERNEL(g2s_peer_source);
DSM_DECLARE_KERNEL(count_relaxed_rendezvous);
DSM_DECLARE_KERNEL(count_release_rendezvous);
DSM_DECLARE_KERNEL(partial_after_own_arrive);
DSM_DECLARE_KERNEL(partial_before_own_arrive);

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

/* ---- issue 19's twins: 132 clusters of 2 CTAs x 32 threads unless said otherwise ---- */
#define TW_GRID 264
#define TW_WORDS 32

/* Runs k REPEATS times with args (out first, zeroed each time); counts the words of out that differ from
 * want(block, word) and the failed launches. */
static int twin_words(dsm_kernel_t k, void **args, uint32_t *out, unsigned grid, unsigned cluster, size_t words,
                      uint32_t (*want)(uint32_t b, uint32_t i, int flag), int flag, const char *what)
{
    uint32_t *h = malloc(words * 4);
    long wrong = 0;
    int wrong_runs = 0, failed = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, words * 4);
        if (launch(grid, TW_WORDS, cluster, k, args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, words * 4);
        long w = 0;
        for (size_t j = 0; j < words; j++) {
            uint32_t b = (uint32_t)(j / TW_WORDS), i = (uint32_t)(j % TW_WORDS), e = want(b, i, flag);
            if (e != UINT32_MAX && h[j] != e)
                w++;
        }
        wrong += w;
        wrong_runs += w > 0;
    }
    printf("result: %s: %d of %d launches failed; %d of the others had wrong words (%ld in all)\n", what, failed,
           REPEATS, wrong_runs, wrong);
    free(h);
    return 0;
}

static uint32_t want_done_read(uint32_t b, uint32_t i, int flag) { (void)b; (void)flag; return i; }
static uint32_t want_copy_out(uint32_t b, uint32_t i, int flag) { (void)flag; return ((b % 2) ^ 1u) * 100u + i; }
static uint32_t want_stream(uint32_t b, uint32_t i, int flag)
{
    (void)flag;
    uint32_t e = 0;
    if (b % 2 == 0)
        return UINT32_MAX; /* senders write nothing */
    for (uint32_t k = 0; k < 6; k++)
        e += (k + 1) * (k * 1000u + i);
    return e;
}
static uint32_t want_short(uint32_t b, uint32_t i, int chunks)
{
    uint32_t e = 0, left = (b % 2) ^ 1u;
    for (uint32_t s = 0; s < (uint32_t)chunks; s++)
        e += left * 1000u + s * 100u + i;
    return e;
}
static uint32_t want_exchange(uint32_t b, uint32_t i, int flag)
{
    (void)flag;
    uint32_t e = 0;
    for (uint32_t r = 0; r < 4; r++)
        e += (b ^ 1u) * 1000u + r * 100u + i;
    return e;
}

static int done_read(dsm_kernel_t k, int fixed)
{
    uint32_t *out = dev(TW_GRID * TW_WORDS * 4);
    void *args[] = {&out, &fixed};
    return twin_words(k, args, out, TW_GRID, 2, TW_GRID * TW_WORDS, want_done_read, 0, "peer tile copies");
}

static int copy_out(int final_barrier)
{
    uint32_t *out = dev(TW_GRID * TW_WORDS * 4);
    void *args[] = {&out, &final_barrier};
    return twin_words(DSM_KERNEL(copy_out_then_exit), args, out, TW_GRID, 2, TW_GRID * TW_WORDS, want_copy_out, 0,
                      "received tiles");
}

static uint32_t want_rank1(uint32_t b, uint32_t i, int flag) { (void)i; (void)flag; return b % 2 + 1u; }

static int arrive_exit(int final_barrier)
{
    uint32_t *out = dev(TW_GRID * TW_WORDS * 4);
    void *args[] = {&out, &final_barrier};
    return twin_words(DSM_KERNEL(arrive_then_exit), args, out, TW_GRID, 2, TW_GRID * TW_WORDS, want_rank1, 0,
                      "rank words");
}

static int stream(int how)
{
    uint32_t *out = dev(TW_GRID * TW_WORDS * 4);
    void *args[] = {&out, &how};
    return twin_words(DSM_KERNEL(one_slot_stream), args, out, TW_GRID, 2, TW_GRID * TW_WORDS, want_stream, 0,
                      "receiver sums");
}

static int tokens(int how)
{
    uint32_t *out = dev(TW_GRID * 4), h[TW_GRID];
    void *args[] = {&out, &how};
    int wrong = 0, failed = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof h);
        if (launch(TW_GRID, TW_WORDS, 2, DSM_KERNEL(token_rounds), args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, sizeof h);
        for (int b = 1; b < TW_GRID; b += 2)
            wrong += h[b] != 21u;
    }
    printf("result: %d of %d launches failed; %d wrong token sums\n", failed, REPEATS, wrong);
    return 0;
}

static int init_arrive(int how)
{
    uint32_t *out = dev(TW_GRID * 4), h[TW_GRID];
    void *args[] = {&out, &how};
    int wrong = 0, failed = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof h);
        if (launch(TW_GRID, TW_WORDS, 2, DSM_KERNEL(init_then_peer_arrive), args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, sizeof h);
        for (int b = 0; b < TW_GRID; b++)
            wrong += h[b] != 1u;
    }
    printf("result: %d of %d launches failed; %d blocks did not finish their wait\n", failed, REPEATS, wrong);
    return 0;
}

static int short_stream(int arm_all)
{
    uint32_t *out = dev(TW_GRID * TW_WORDS * 4);
    int chunks = 2;
    void *args[] = {&out, &chunks, &arm_all};
    return twin_words(DSM_KERNEL(short_stream), args, out, TW_GRID, 2, TW_GRID * TW_WORDS, want_short, chunks,
                      "2 chunks into a ring of 4");
}

static int exchange(int fixed)
{
    uint32_t *scratch = dev(TW_GRID * TW_WORDS * 4), *out = dev(TW_GRID * TW_WORDS * 4);
    void *args[] = {&scratch, &out, &fixed};
    return twin_words(DSM_KERNEL(scratch_exchange), args, out, TW_GRID, 2, TW_GRID * TW_WORDS, want_exchange, 0,
                      "exchange sums");
}

static int totals(int how)
{
    uint32_t *out = dev(132 * 4), h[132];
    void *args[] = {&out, &how};
    int wrong = 0, failed = 0;
    uint32_t last = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof h);
        if (launch(TW_GRID, TW_WORDS, 2, DSM_KERNEL(cluster_totals), args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, sizeof h);
        if (how == 0)
            wrong += h[0] != last && r > 0, last = h[0];
        else if (how == 1)
            for (int c = 0; c < 132; c++)
                wrong += h[c] != 3u;
        else
            wrong += h[0] != 3u * 132u;
    }
    printf("result: %d of %d launches failed; %d %s\n", failed, REPEATS, wrong,
           how == 0 ? "launches where out[0] (which cluster stored last) changed" : "wrong totals");
    return 0;
}

static int gpu_handoff(int how)
{
    uint32_t *data = dev(TW_WORDS * 4), *flag = dev(4), *out = dev(TW_WORDS * 4), h[TW_WORDS];
    void *args[] = {&data, &flag, &out, &how};
    int wrong = 0, failed = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(data, 0, sizeof h);
        dsm_memset(flag, 0, 4);
        dsm_memset(out, 0, sizeof h);
        if (launch(4, TW_WORDS, 2, DSM_KERNEL(gpu_flag_handoff), args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, sizeof h);
        for (uint32_t i = 0; i < TW_WORDS; i++)
            wrong += h[i] != i * 7u + 1u;
    }
    printf("result: %d of %d launches failed; %d stale words read by cluster 1\n", failed, REPEATS, wrong);
    return 0;
}

static int flush(int bounded)
{
    int nbins = 10;
    uint32_t *bins = dev((size_t)nbins * 4), h[10];
    void *args[] = {&bins, &nbins, &bounded};
    int failed = 0, wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(bins, 0, sizeof h);
        if (launch(4, TW_WORDS, 4, DSM_KERNEL(flush_bins), args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, bins, sizeof h);
        uint32_t total = 0;
        for (int i = 0; i < nbins; i++)
            total += h[i];
        wrong += total != 3u * 32u + 11u;
    }
    printf("result: %d of %d launches failed; %d wrong bin totals (the writes past the end are not seen here)\n",
           failed, REPEATS, wrong);
    return 0;
}

/* The copy-source and second-wait twins (copy_sources.cu): REPEATS launches of k on 132 CTAs of 32 threads in
 * clusters of `cluster`, out and the global scratch zeroed before each; out[block * 32 + lane] must be base + lane. */
static int words32(dsm_kernel_t k, unsigned cluster, int variant, uint32_t base)
{
    enum { CTAS = 132, LANES = 32 };
    uint32_t *out = dev(CTAS * LANES * 4), *g = dev(CTAS * LANES * 4), *h = malloc(CTAS * LANES * 4);
    void *args[] = {&out, &g, &variant};
    int failed = 0, wrong_runs = 0;
    long wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, CTAS * LANES * 4);
        dsm_memset(g, 0, CTAS * LANES * 4);
        if (launch(CTAS, LANES, cluster, k, args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, CTAS * LANES * 4);
        long w = 0;
        for (int i = 0; i < CTAS * LANES; i++)
            w += h[i] != base + (uint32_t)(i % LANES);
        wrong += w;
        wrong_runs += w > 0;
    }
    printf("result: %d of %d launches failed; %ld wrong words in %d launches\n", failed, REPEATS, wrong, wrong_runs);
    free(h);
    return 0;
}

/* The CTA-order twins (cta_order.cu): REPEATS launches on 132 CTAs of 64 threads in clusters of 2; each CTA's
 * thread 0 writes out[block], which must be `want`. */
static int cta_order(dsm_kernel_t k, uint32_t want)
{
    enum { CTAS = 132 };
    uint32_t *out = dev(CTAS * 4), h[CTAS];
    void *args[] = {&out};
    int failed = 0, wrong_runs = 0;
    long wrong = 0;
    for (int r = 0; r < REPEATS; r++) {
        dsm_memset(out, 0, sizeof h);
        if (launch(CTAS, 64, 2, k, args) != dsmSuccess) {
            failed++;
            continue;
        }
        dsm_memcpy_to_host(h, out, sizeof h);
        long w = 0;
        for (int i = 0; i < CTAS; i++)
            w += h[i] != want;
        wrong += w;
        wrong_runs += w > 0;
    }
    printf("result: %d of %d launches failed; %ld wrong CTA totals in %d launches\n", failed, REPEATS, wrong,
           wrong_runs);
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
    if (!strcmp(c, "done_read_arrive")) return done_read(DSM_KERNEL(done_then_read_arrive), 0);
    if (!strcmp(c, "done_read_arrive_fixed")) return done_read(DSM_KERNEL(done_then_read_arrive), 1);
    if (!strcmp(c, "done_read_flag")) return done_read(DSM_KERNEL(done_then_read_flag), 0);
    if (!strcmp(c, "done_read_flag_fixed")) return done_read(DSM_KERNEL(done_then_read_flag), 1);
    if (!strcmp(c, "copy_out_no_barrier")) return copy_out(0);
    if (!strcmp(c, "copy_out_final_barrier")) return copy_out(1);
    if (!strcmp(c, "arrive_unwaited")) return arrive_exit(0);
    if (!strcmp(c, "arrive_final_barrier")) return arrive_exit(1);
    if (!strcmp(c, "stream_parity_zero")) return stream(1);
    if (!strcmp(c, "stream_parity_round")) return stream(0);
    if (!strcmp(c, "tokens_parity_zero")) return tokens(1);
    if (!strcmp(c, "tokens_parity_round")) return tokens(0);
    if (!strcmp(c, "init_relaxed_no_fence")) return init_arrive(1);
    if (!strcmp(c, "init_release_no_fence")) return init_arrive(0);
    if (!strcmp(c, "init_fence_relaxed")) return init_arrive(2);
    if (!strcmp(c, "pending_tx_armed_all")) return short_stream(1);
    if (!strcmp(c, "pending_tx_armed_needed")) return short_stream(0);
    if (!strcmp(c, "gscratch_no_barrier")) return exchange(0);
    if (!strcmp(c, "gscratch_barrier")) return exchange(1);
    if (!strcmp(c, "totals_one_word")) return totals(0);
    if (!strcmp(c, "totals_own_words")) return totals(1);
    if (!strcmp(c, "totals_atomic")) return totals(2);
    if (!strcmp(c, "gpu_flag_relaxed")) return gpu_handoff(1);
    if (!strcmp(c, "gpu_flag_release")) return gpu_handoff(0);
    if (!strcmp(c, "gpu_flag_fenced")) return gpu_handoff(2);
    if (!strcmp(c, "flush_past_bins")) return flush(0);
    if (!strcmp(c, "flush_bounded")) return flush(1);
    if (!strcmp(c, "second_wait_untouched")) return words32(DSM_KERNEL(second_wait), 1, 0, 14);
    if (!strcmp(c, "second_wait_rearmed")) return words32(DSM_KERNEL(second_wait), 1, 1, 14);
    if (!strcmp(c, "source_rewrite_relaxed")) return words32(DSM_KERNEL(source_rewrite), 2, 0, 100);
    if (!strcmp(c, "source_rewrite_release")) return words32(DSM_KERNEL(source_rewrite), 2, 1, 100);
    if (!strcmp(c, "g2s_unfenced")) return words32(DSM_KERNEL(g2s_generic_source), 1, 0, 200);
    if (!strcmp(c, "g2s_fenced")) return words32(DSM_KERNEL(g2s_generic_source), 1, 1, 200);
    if (!strcmp(c, "g2s_peer_after_arrive")) return words32(DSM_KERNEL(g2s_peer_source), 2, 1, 300);
    if (!strcmp(c, "g2s_peer_before_arrive")) return words32(DSM_KERNEL(g2s_peer_source), 2, 0, 300);
    if (!strcmp(c, "cta_count_relaxed")) return cta_order(DSM_KERNEL(count_relaxed_rendezvous), 63);
    if (!strcmp(c, "cta_count_release")) return cta_order(DSM_KERNEL(count_release_rendezvous), 63);
    if (!strcmp(c, "cta_partial_after_arrive")) return cta_order(DSM_KERNEL(partial_after_own_arrive), 63 * 32);
    if (!strcmp(c, "cta_partial_before_arrive")) return cta_order(DSM_KERNEL(partial_before_own_arrive), 63 * 32);
    fprintf(stderr, "twins: unknown case '%s'\n", c);
    return 2;
}
