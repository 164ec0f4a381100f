/* ch05_pingpong.c: the ping-pong token of chapter 5: SM cycles per hop between two CTAs of a cluster for every signalling mechanism and its global-memory twin, in three harnesses, with each like-for-like pair's ratio. */
// bench-kernels: ch05/pingpong_seed.cu ch05/pingpong_mbarrier.cu ch05/pingpong_flags.cu
// bench-own-kernels: bench/kernels/ch05_pingpong_probe.cu
#include <string.h>

#include "ch05_pingpong/pp_bench.h"

/* Summary keys the driver must know (bench.h): the bests and every like-for-like pair are headlines;
 * the source document's figures (an H100 PCIe) beside them. */
const bench_key_info bench_keys_ch05_pingpong[] = {
    {"pingpong_dsmem_cycles_per_hop_best", 1, "736.1 cycles (store + cluster.sync per hop)"},
    {"pingpong_gmem_cycles_per_hop_best", 1, "1419.2 cycles (st.global + __threadfence)"},
    {"pingpong_pair_gmem_over_dsmem.", 1, NULL},
    {"pingpong_cycles_per_hop.seed_dsmem_1000", 0, "736.1 cycles"},
    {"pingpong_cycles_per_hop.seed_gmem_1000", 0, "1419.2 cycles"},
    {"pingpong_best_gmem_over_dsmem", 0, "1.93 (its two kernels)"},
    {NULL, 0, NULL},
};

static const pp_sizes full_sizes = {20000, 10000, 1000, 9, 5, 0};
static const pp_sizes quick_sizes = {5000, 5000, 1000, 5, 3, 0};
static const pp_sizes dry_sizes = {5, 5, 4, 1, 1, 4096}; /* the dry run samples one round */

/* The family (bench.h): every mechanism of chapter 5 in every harness (each harness's mechanisms
 * interleaved in rotating rounds, then the seed's pair at 1000 round trips), checked, sampled, reported with
 * its like-for-like pairs. Returns non-zero when any row failed a check. */
int bench_family_ch05_pingpong(bench *b)
{
    pp_sizes sz = bench_dry(b) ? dry_sizes : bench_quick(b) ? quick_sizes : full_sizes;
    if (!bench_dry(b)) {
        /* more than half an SM's shared memory: the two CTAs cannot share an SM */
        size_t half = bench_smem_per_sm(b) / 2 + 1024, optin = bench_smem_per_block_optin(b);
        sz.spread_bytes = half <= optin ? half : optin;
    }
    pp_config cfgs[HARNESSES * MECHANISMS + 2];
    int n = pp_configurations(&sz, bench_dry(b), cfgs);
    pp_result res[HARNESSES * MECHANISMS + 2];
    memset(res, 0, sizeof res);
    pp_buffers d = {0};
    int good = pp_ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.first, sizeof(uint32_t))) &&
               pp_ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.slots, 2 * sizeof(uint32_t))) &&
               pp_ok(b, NULL, "buffers", "dsm_malloc",
                  dsm_malloc((void **)&d.trace, 2 * (size_t)sz.check_rounds * sizeof(uint32_t))) &&
               pp_ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.last, 2 * sizeof(uint32_t))) &&
               pp_ok(b, NULL, "buffers", "dsm_malloc", dsm_malloc((void **)&d.cycles, 2 * sizeof(unsigned long long))) &&
               pp_ok(b, NULL, "buffers", "dsm_memset", dsm_memset(d.slots, 0, 2 * sizeof(uint32_t)));
    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(THREADS, 1, 1), DSM_DIM3(2, 1, 1), sz.spread_bytes};
    for (int i = 0, j; good && i < n; i = j) { /* a group: one harness, or the seed's pair */
        int seed = strstr(cfgs[i].key, "_1000") != NULL;
        for (j = i + 1; j < n && cfgs[j].harness == cfgs[i].harness && (strstr(cfgs[j].key, "_1000") != NULL) == seed;)
            ++j;
        bench_progress(b, "%s (%d configurations, %u round trips)", seed ? "the seed at its own round trips"
                       : pp_harnesses[cfgs[i].harness].label, j - i, cfgs[i].rounds);
        pp_measure_group(b, &sz, &cfgs[i], j - i, &d, &cfg, &res[i]);
    }
    pp_write_csv(b, cfgs, res, n);
    pp_report_mechanisms(b, &sz, cfgs, res, n);
    pp_report_pairs(b, cfgs, res, n);
    pp_report_conclusions(b, cfgs, res, n);
    dsm_free(d.first);
    dsm_free(d.slots);
    dsm_free(d.trace);
    dsm_free(d.last);
    dsm_free(d.cycles);
    int failed = !good;
    for (int i = 0; i < n; ++i)
        failed |= !res[i].measured;
    return failed;
}
