/* report.c: ch05_pingpong, part 3: what the run says: the CSV rows and summary keys of every configuration, the mechanisms table, the like-for-like pairs, the rankings and the deep dive's figures beside them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pp_bench.h"

/* "median (min-max)" or "failed". */
static const char *cell(char *buf, size_t size, const pp_result *r)
{
    if (!r->measured)
        snprintf(buf, size, "failed");
    else
        snprintf(buf, size, "%.1f (%.1f-%.1f)", r->cycles.median, r->cycles.min, r->cycles.max);
    return buf;
}

/* The lowest median among the measured mechanisms of one path in harness h; -1 if none. */
static int best_of(const pp_config *cfgs, const pp_result *res, int n, const char *path, int h)
{
    int best = -1;
    for (int i = 0; i < n; ++i) {
        if (!res[i].measured || cfgs[i].harness != h || strstr(cfgs[i].key, "_1000") ||
            strcmp(cfgs[i].m->path, path) != 0)
            continue;
        if (best < 0 || res[i].cycles.median < res[best].cycles.median)
            best = i;
    }
    return best;
}

void pp_write_csv(bench *b, const pp_config *cfgs, const pp_result *res, int n)
{
    /* columns 5-15 as before the harnesses existed (the plot reads them), harness and mechanism after */
    bench_csv *csv = bench_csv_open(b, "ch05_pingpong",
                                    "mechanism,path,label,round_trips,threads,cycles_per_hop,min_cycles_per_hop,"
                                    "max_cycles_per_hop,repeats,event_ns_per_hop,clock_mhz_from_events,harness,"
                                    "base_mechanism");
    for (int i = 0; i < n; ++i) {
        const pp_result *r = &res[i];
        if (!r->measured)
            continue; /* a failed row has no numbers at all */
        /* cycles per ns is GHz: the SM clock during the launch (the launch's own overhead is a few
         * microseconds of the milliseconds timed; the probe's cycles leave out its first round trip) */
        double run_mhz = r->event_ns.median > 0 ? 1e3 * r->cycles.median / r->event_ns.median : 0.0;
        bench_csv_row(csv, "\"%s\",\"%s\",\"%s\",%u,%u,%.2f,%.2f,%.2f,%d,%.2f,%.0f,\"%s\",\"%s\"", cfgs[i].key,
                      cfgs[i].m->path, cfgs[i].m->label, r->rounds, pp_harnesses[cfgs[i].harness].threads,
                      r->cycles.median, r->cycles.min, r->cycles.max, r->cycles.n, r->event_ns.median, run_mhz,
                      pp_harnesses[cfgs[i].harness].key, cfgs[i].m->key);
        char key[96];
        snprintf(key, sizeof key, "pingpong_cycles_per_hop.%s", cfgs[i].key);
        bench_summary_number(b, key, r->cycles.median);
    }
    bench_csv_close(csv);
}

/* Table 1: every mechanism in every harness (median and min-max), "failed" where a check failed. */
void pp_report_mechanisms(bench *b, const pp_sizes *sz, const pp_config *cfgs, const pp_result *res, int n)
{
    double mhz = bench_sm_clock_mhz(b);
    bench_report(b,
                 "## Ping-pong: one hop between two CTAs (chapter 5, `ch05_pingpong`)\n\n"
                 "One cluster of 2 CTAs, each on an SM of its own (%zu bytes of dynamic shared memory each); "
                 "thread 0 of each CTA passes a token back and forth, every receiver sends on what it received "
                 "plus one. Cycles per hop: CTA 0's `clock64` over its loop / hops, median (min-max) of %d "
                 "launches after a warm-up (%d in the other two harnesses), %u round trips per launch (%u); "
                 "every launch's last tokens checked, and one shorter launch per row checked hop by hop%s. "
                 "Three harnesses: **course** = the exercises' kernels at the deep dive's 128 threads; "
                 "**1 warp** = the same kernels with 32 threads; **probe** = the benchmark's own kernels "
                 "(`bench/kernels/ch05_pingpong_probe.cu`: one round trip per iteration in straight-line code, "
                 "a poll for the exact token expected, the clock started after the first round trip), 32 "
                 "threads. A row that failed a check says \"failed\" and has no number anywhere.%s\n\n"
                 "| mechanism | path | course | 1 warp | probe | course, ns at %.0f MHz | course, ns (events) |\n"
                 "|---|---|---:|---:|---:|---:|---:|\n",
                 sz->spread_bytes, sz->repeats, sz->repeats_other, sz->rounds, sz->rounds_other,
                 bench_dry(b) ? " (in this dry run also the emulator's counts of the stores, barriers and "
                                "mbarrier phases every hop needs)"
                              : "",
                 bench_dry(b) ? " (Dry run: the cycle counter and the clock are the emulator's and mean nothing.)"
                              : "",
                 mhz);
    for (int i = 0; i < MECHANISMS; ++i) {
        char c0[64], c1[64], c2[64];
        int ix[HARNESSES];
        for (int h = 0; h < HARNESSES; ++h)
            ix[h] = pp_config_index(cfgs, n, pp_mechanisms[i].key, h);
        const pp_result *rc = &res[ix[H_COURSE]];
        char ns[32] = "", ev[32] = "";
        if (rc->measured) {
            snprintf(ns, sizeof ns, "%.1f", mhz > 0 ? 1e3 * rc->cycles.median / mhz : 0.0);
            snprintf(ev, sizeof ev, "%.1f", rc->event_ns.median);
        }
        bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", pp_mechanisms[i].label, pp_mechanisms[i].path,
                     cell(c0, sizeof c0, rc), cell(c1, sizeof c1, &res[ix[H_1WARP]]),
                     cell(c2, sizeof c2, &res[ix[H_PROBE]]), ns, ev);
    }
    for (int i = 0; i < n; ++i)
        if (strstr(cfgs[i].key, "_1000")) {
            char c0[64];
            bench_report(b, "| %s, %u round trips%s | %s | %s | | | | |\n", cfgs[i].m->label, res[i].rounds,
                         res[i].rounds == SEED_ROUNDS ? " (as published)" : "", cfgs[i].m->path,
                         cell(c0, sizeof c0, &res[i]));
        }
}

/* Table 2: each like-for-like pair's ratio (global / DSMEM) in every harness, and its spread. */
void pp_report_pairs(bench *b, const pp_config *cfgs, const pp_result *res, int n)
{
    bench_report(b, "\n**Like for like** (global-memory cycles / DSMEM cycles per hop, round by round, median over "
                    "the rounds; above 1: DSMEM is faster). "
                    "Where a harness failed one side, the pair has no ratio in it.\n\n"
                    "| pair | DSMEM | global memory | course | 1 warp | probe | spread over harnesses |\n"
                    "|---|---|---|---:|---:|---:|---|\n");
    for (int p = 0; p < PAIRS; ++p) {
        double lo = INFINITY, hi = -INFINITY, ratio[HARNESSES];
        int got = 0;
        char cells[HARNESSES][32];
        for (int h = 0; h < HARNESSES; ++h) {
            int d = pp_config_index(cfgs, n, pp_pairs[p].dsmem, h), g = pp_config_index(cfgs, n, pp_pairs[p].gmem, h);
            ratio[h] = NAN;
            bench_stats pr = {0, 0, 0, 0};
            if (d >= 0 && g >= 0 && res[d].measured && res[g].measured)
                pr = bench_pair_ratio(&res[g].rounds_seen, &res[d].rounds_seen); /* the same rounds: paired */
            if (pr.n > 0) {
                ratio[h] = pr.median;
                snprintf(cells[h], sizeof cells[h], "%.2fx", ratio[h]);
                lo = ratio[h] < lo ? ratio[h] : lo;
                hi = ratio[h] > hi ? ratio[h] : hi;
                got++;
                char key[96];
                snprintf(key, sizeof key, "pingpong_pair_gmem_over_dsmem.%s.%s", pp_pairs[p].key, pp_harnesses[h].key);
                bench_summary_number(b, key, ratio[h]);
            } else {
                snprintf(cells[h], sizeof cells[h], "failed");
            }
        }
        char spread[64] = "no ratio";
        if (got) {
            char key[96];
            if (got == HARNESSES)
                snprintf(spread, sizeof spread, "%.2fx-%.2fx", lo, hi);
            else
                snprintf(spread, sizeof spread, "%.2fx-%.2fx (%d of %d harnesses)", lo, hi, got, HARNESSES);
            snprintf(key, sizeof key, "pingpong_pair_gmem_over_dsmem.%s.min", pp_pairs[p].key);
            bench_summary_number(b, key, lo);
            snprintf(key, sizeof key, "pingpong_pair_gmem_over_dsmem.%s.max", pp_pairs[p].key);
            bench_summary_number(b, key, hi);
        }
        int d = pp_index_of_mechanism(pp_pairs[p].dsmem), g = pp_index_of_mechanism(pp_pairs[p].gmem);
        bench_report(b, "| %s | %s | %s | %s | %s | %s | %s |\n", pp_pairs[p].what, pp_mechanisms[d].label,
                     pp_mechanisms[g].label, cells[H_COURSE], cells[H_1WARP], cells[H_PROBE], spread);
    }
}

/* The DSMEM mechanisms of harness h from fastest to slowest, e.g. "st_async < flag_relaxed < ...". */
static void ranking(char *out, size_t size, const pp_config *cfgs, const pp_result *res, int n, int h)
{
    int order[MECHANISMS], k = 0;
    for (int i = 0; i < n; ++i)
        if (cfgs[i].harness == h && res[i].measured && !strstr(cfgs[i].key, "_1000") &&
            strcmp(cfgs[i].m->path, "DSMEM") == 0) {
            int j = k++;
            while (j > 0 && res[order[j - 1]].cycles.median > res[i].cycles.median) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
    size_t used = 0;
    out[0] = '\0';
    for (int j = 0; j < k && used < size; ++j)
        used += (size_t)snprintf(out + used, size - used, "%s%s (%.0f)", j ? " < " : "", cfgs[order[j]].m->key,
                                 res[order[j]].cycles.median);
    if (k == 0)
        snprintf(out, size, "none measured");
}

/* Rankings per harness, best against best with both mechanisms named, the seed, the probe's floor. */
void pp_report_conclusions(bench *b, const pp_config *cfgs, const pp_result *res, int n)
{
    bench_report(b, "\n**DSMEM mechanisms, fastest first** (median cycles per hop). If the order differs between "
                    "harnesses, the ranking depends on the harness, not only on the mechanism.\n\n");
    for (int h = 0; h < HARNESSES; ++h) {
        char line[1024];
        ranking(line, sizeof line, cfgs, res, n, h);
        bench_report(b, "- %s (%s): %s\n", pp_harnesses[h].key, pp_harnesses[h].label, line);
    }
    bench_report(b, "\n**Best against best**, each path with its fastest mechanism (a DSMEM-only mechanism may be "
                    "the DSMEM side: read the pairs above for like for like):\n\n");
    for (int h = 0; h < HARNESSES; ++h) {
        int bd = best_of(cfgs, res, n, "DSMEM", h), bg = best_of(cfgs, res, n, "global", h);
        if (bd < 0 || bg < 0) {
            bench_report(b, "- %s: no ratio (%s failed)\n", pp_harnesses[h].key,
                         bd < 0 ? "every DSMEM mechanism" : "every global-memory mechanism");
            continue;
        }
        double ratio = res[bg].cycles.median / res[bd].cycles.median;
        bench_report(b, "- %s: DSMEM `%s` %.1f cycles against global `%s` %.1f cycles: %.2fx\n", pp_harnesses[h].key,
                     cfgs[bd].m->key, res[bd].cycles.median, cfgs[bg].m->key, res[bg].cycles.median, ratio);
        char key[96];
        snprintf(key, sizeof key, "pingpong_best_gmem_over_dsmem_by_harness.%s", pp_harnesses[h].key);
        bench_summary_number(b, key, ratio);
        if (h != H_COURSE)
            continue;
        /* the course harness's bests keep their headline keys; the mechanisms are named in keys too */
        bench_summary_number(b, "pingpong_dsmem_cycles_per_hop_best", res[bd].cycles.median);
        bench_summary_number(b, "pingpong_gmem_cycles_per_hop_best", res[bg].cycles.median);
        bench_summary_number(b, "pingpong_best_gmem_over_dsmem", ratio);
        snprintf(key, sizeof key, "pingpong_best_mechanism.dsmem.%s", cfgs[bd].m->key);
        bench_summary_number(b, key, res[bd].cycles.median);
        snprintf(key, sizeof key, "pingpong_best_mechanism.gmem.%s", cfgs[bg].m->key);
        bench_summary_number(b, key, res[bg].cycles.median);
    }

    int sd = -1, sg = -1;
    for (int i = 0; i < n; ++i)
        if (strstr(cfgs[i].key, "_1000"))
            *(strcmp(cfgs[i].m->path, "DSMEM") == 0 ? &sd : &sg) = i;
    bench_report(b, "\nSeed 000 on an H100 PCIe (1000 round trips): DSMEM %.1f, global memory %.1f cycles per hop, "
                    "%.2fx.",
                 SEED_DSMEM_CYCLES, SEED_GMEM_CYCLES, SEED_GMEM_CYCLES / SEED_DSMEM_CYCLES);
    if (sd >= 0 && sg >= 0 && res[sd].measured && res[sg].measured)
        bench_report(b, " The same kernels here: %.1f and %.1f cycles, %.2fx.", res[sd].cycles.median,
                     res[sg].cycles.median, res[sg].cycles.median / res[sd].cycles.median);
    else
        bench_report(b, " The same kernels here: failed (above).");
    if (!bench_dry(b)) { /* cycles mean nothing in the dry run: no floor to compare with */
        int below = 0;
        for (int i = 0; i < n; ++i)
            below += res[i].measured && res[i].cycles.median < CYCLES_FLOOR;
        bench_report(b, " Rows below %d cycles per hop (the lowest hop of the reference probe on an H200): %d.",
                     CYCLES_FLOOR, below);
        bench_summary_number(b, "pingpong_mechanisms_below_360_cycles", below);
    }
    bench_report(b, "\n\n");
}
