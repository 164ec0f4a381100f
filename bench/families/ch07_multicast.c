/* ch07_multicast.c: make bench's chapter 7 family: loading what every CTA of a cluster needs per CTA or once per cluster with multicast, delivered and fetched bandwidth per cluster size from L2 and from HBM, and the sweep that finds where multicast wins and where it loses. */
// bench-kernels: ch07/bulk_stream.cu ch07/mcast_stream.cu ch07/mcast_operand.cu
/*
 * What it measures (each configuration checked before it is timed; a wrong result is
 * bench_fail_kernel(), never a number):
 *   1. stream:  every CTA of a cluster needs every chunk of the cluster's stream.
 *               "per CTA": bulk_stream, each CTA loads every chunk itself (its own
 *               ring, local mbarriers); "multicast": mcast_stream, each chunk read once
 *               per cluster and multicast into every CTA's ring. Both from L2 (the same
 *               8 MB region for every cluster) and from HBM (a region of its own per
 *               cluster, 512 MB in all, so that nothing stays in L2), clusters of 1, 2, 4,
 *               8 and 16, as many clusters as fit, one CTA per SM (8 slots of 16 KB).
 *               Delivered = bytes landed in shared memory per second; fetched = bytes
 *               the copies requested from L2 per second (delivered / n for multicast;
 *               NCU=1 measures it: bench/driver/ncu.sh). Full runs add the ring's
 *               shape (chunk 8-32 KB x 4-8 slots) in clusters of 2 from L2, both ways.
 *   2. operand: mcast_operand, every CTA streams its own data and an operand its cluster
 *               shares, per CTA and with the operand multicast, swept over cluster size,
 *               where each stream comes from (L2 or HBM), the operand's share of the
 *               bytes and the step size: the winning experiment is the configuration
 *               with the largest per-CTA / multicast time ratio, the losing ones those
 *               below 1 (and the pure L2 stream of part 1).
 * The two modes of every configuration are checked, then timed side by side
 * (bench_time_variants: one launch per sample, interleaved round by round in
 * rotating order); a speed-up is the median of the per-round ratios, with its
 * min and max (speedup_min, speedup_max).
 * Every configuration fills the GPU with as many clusters as
 * cudaOccupancyMaxActiveClusters allows and records that number and the launch's result.
 * Outputs are poisoned before the checked launch and every word of every CTA's sums is
 * compared with the CPU, so a kernel that skips work or does nothing fails.
 * BENCH_CH07_NCU=1 (set by bench/driver/ncu.sh under Nsight Compute): only part 1, one
 * timed launch per configuration, and ch07-ncu-launches.csv lists every launch in order,
 * with the bytes its CTAs receive, so that ncu.c can name each profiled launch and set its
 * L2 reads against what was delivered.
 * A failed check names its kernel (bench_fail_kernel): its rows read "failed" (both tables
 * end with a "kernel" column), its progress lines print no number, and no summary number
 * measured with it survives (bench_summary_measured).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch07_multicast/mcast_bench.h"

/* Summary keys the driver must know (bench.h): none is a headline, no source figure stands beside one. */
const bench_key_info bench_keys_ch07_multicast[] = {{NULL, 0, NULL}};

#define STREAM_HEADER \
    "data,cluster,mode,chunk_bytes,stages,threads,max_active_clusters,clusters,launch,nchunks,ms_median,ms_min,ms_max," \
    "delivered_tbps,fetched_tbps,delivered_bytes_per_clk_per_sm,speedup_vs_per_cta,kernel,speedup_min,speedup_max"

#define OPERAND_HEADER \
    "cluster,step_bytes,operand_pct,own_from,operand_from,mode,max_active_clusters,clusters,launch,nsteps,ms_median," \
    "ms_min,ms_max,delivered_tbps,fetched_tbps,speedup_vs_per_cta,kernel,speedup_min,speedup_max"

int bench_family_ch07_multicast(bench *b)
{
    plan p = {bench_dry(b), bench_quick(b), 0, 1, 5, 4e9, HBM_POOL_BYTES, 16384, 8};
    if (!p.dry && getenv("BENCH_CH07_NCU"))
        p.ncu = 1;
    if (p.quick) {
        p.target_bytes = 1.5e9;
        p.pool_bytes = HBM_POOL_BYTES / 2;   /* still several times L2 */
    }
    if (p.ncu) {
        p.warmup = 0;
        p.repeats = 1;
        p.target_bytes = 1e9;
    }
    if (p.dry) {
        p.repeats = 1;
        p.warmup = 0;
        p.pool_bytes = 1u << 20;
        p.chunk = 256;
        p.stages = 2;
    }
    pools pl;
    if (!mcast_make_pools(b, &p, &pl)) {
        mcast_free_pools(&pl);
        return 1;
    }
    int failed = 0, broken = 0;
    dsm_stream_t stream = NULL;     /* the timed launches' stream (ordered with the default one) */
    if (dsm_stream_create(&stream) != dsmSuccess) {
        bench_fail(b, "creating a stream");
        mcast_free_pools(&pl);
        return 1;
    }
#define TRACK(r) do { failed |= (r).failed; broken |= mcast_device_broken(&(r)); } while (0)
    if (p.ncu)
        mcast_ncu_log = bench_csv_open(b, "ch07-ncu-launches", "kernel,mode,data,cluster,delivered_bytes");

    /* 1. the stream, both ways, per cluster size, from L2 and from HBM */
    bench_csv *csv = bench_csv_open(b, "ch07_multicast", STREAM_HEADER);
    int sizes[] = {1, 2, 4, 8, 16};
    result st[2][5][2];   /* [source][size][mode] */
    memset(st, 0, sizeof st);
    double best_l2_percta = 0;
    char best_l2_what[96] = "";
    bench_stats st_speed[2][5];   /* [source][size]: multicast's speed over per-CTA's, paired */
    memset(st_speed, 0, sizeof st_speed);
    for (int src = 0; src < 2 && !broken; ++src)
        for (int i = 0; i < 5 && !broken; ++i) {
            if (((p.quick && !p.ncu) || p.dry) && (sizes[i] == 4 || sizes[i] == 16))
                continue;
            job jobs[2];
            for (int m = 0; m < 2; ++m)
                mcast_stream_job(b, &p, &pl, (enum mode)m, (enum source)src, sizes[i], &jobs[m]);
            bench_stats speed;
            mcast_time_pair(b, &p, stream, jobs, &speed);
            for (int m = 0; m < 2; ++m) {
                result *r = &st[src][i][m];
                *r = jobs[m].r;
                mcast_job_free(&jobs[m]);
                TRACK(*r);
                bench_csv_row(csv, "%s,%d,%s,%d,%d,%d,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.3f,%s,%.3f,%.3f",
                              source_name[src], sizes[i], mode_name[m], p.chunk, p.stages,
                              (p.dry ? 32 : CONSUMERS) + (m == PER_CTA ? 32 : 64), r->max_clusters, r->clusters,
                              mcast_launch_name(b, r), r->iters, r->ms.median, r->ms.min, r->ms.max, r->delivered_tbps,
                              r->fetched_tbps, mcast_per_sm_clk(b, r->delivered_tbps), m ? speed.median : 1.0, r->kernel,
                              m ? speed.min : 1.0, m ? speed.max : 1.0);
                if (mcast_shown(b, r))
                    bench_progress(b, "stream from %-3s clusters of %2d, %-9s delivered %.2f TB/s, fetched %.2f TB/s",
                                   source_name[src], sizes[i], mode_name[m], r->delivered_tbps, r->fetched_tbps);
                else
                    bench_progress(b, "stream from %-3s clusters of %2d, %-9s %s: failed", source_name[src], sizes[i],
                                   mode_name[m], r->kernel);
                if (src == FROM_L2 && m == PER_CTA && mcast_shown(b, r) && r->delivered_tbps > best_l2_percta) {
                    best_l2_percta = r->delivered_tbps;
                    snprintf(best_l2_what, sizeof best_l2_what, "clusters of %d, %d slots of %d KB", sizes[i], p.stages,
                             p.chunk / 1024);
                }
            }
            if (speed.n > 0)
                st_speed[src][i] = speed;
        }
    /* 1b. the ring's shape, from L2, in clusters of 2 (full runs only): the per-CTA best is the target's number */
    if (!p.quick && !p.dry && !p.ncu && !broken) {
        int chunks[] = {8192, 16384, 24576, 32768}, depths[] = {4, 6, 8};
        for (int c = 0; c < 4 && !broken; ++c)
            for (int d = 0; d < 3 && !broken; ++d) {
                if ((size_t)chunks[c] * (size_t)depths[d] > 200u * 1024u || (chunks[c] == p.chunk && depths[d] == p.stages))
                    continue;
                plan q = p;
                q.chunk = chunks[c];
                q.stages = depths[d];
                result r2[2];
                job jobs[2];
                for (int m = 0; m < 2; ++m)
                    mcast_stream_job(b, &q, &pl, (enum mode)m, FROM_L2, 2, &jobs[m]);
                bench_stats speed;
                mcast_time_pair(b, &q, stream, jobs, &speed);
                for (int m = 0; m < 2; ++m) {
                    r2[m] = jobs[m].r;
                    mcast_job_free(&jobs[m]);
                    TRACK(r2[m]);
                    bench_csv_row(csv, "%s,%d,%s,%d,%d,%d,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.3f,%s,%.3f,%.3f",
                                  "L2", 2, mode_name[m], q.chunk, q.stages, CONSUMERS + (m == PER_CTA ? 32 : 64),
                                  r2[m].max_clusters, r2[m].clusters, mcast_launch_name(b, &r2[m]), r2[m].iters,
                                  r2[m].ms.median, r2[m].ms.min, r2[m].ms.max, r2[m].delivered_tbps,
                                  r2[m].fetched_tbps, mcast_per_sm_clk(b, r2[m].delivered_tbps), m ? speed.median : 1.0,
                                  r2[m].kernel, m ? speed.min : 1.0, m ? speed.max : 1.0);
                    if (mcast_shown(b, &r2[m]))
                        bench_progress(b, "stream from L2  clusters of  2, %-9s %2d x %2d KB: delivered %.2f TB/s",
                                       mode_name[m], q.stages, q.chunk / 1024, r2[m].delivered_tbps);
                    else
                        bench_progress(b, "stream from L2  clusters of  2, %-9s %2d x %2d KB: %s failed", mode_name[m],
                                       q.stages, q.chunk / 1024, r2[m].kernel);
                }
                if (!broken && mcast_shown(b, &r2[0]) && r2[0].delivered_tbps > best_l2_percta) {
                    best_l2_percta = r2[0].delivered_tbps;
                    snprintf(best_l2_what, sizeof best_l2_what, "clusters of 2, %d slots of %d KB", q.stages,
                             q.chunk / 1024);
                }
            }
    }
    bench_csv_close(csv);
    if (mcast_ncu_log) {
        bench_csv_close(mcast_ncu_log);
        mcast_ncu_log = NULL;
    }
    if (broken || p.ncu) {
        mcast_free_pools(&pl);
        dsm_stream_destroy(stream);
        return failed || broken;
    }

    /* 2. own data beside a shared operand: the sweep that finds the win and the losses */
    bench_csv *ocsv = bench_csv_open(b, "ch07_multicast_operand", OPERAND_HEADER);
    int op_sizes[] = {2, 4, 8, 16}, steps[] = {16384, 32768}, shares[] = {50, 75, 90};
    double best = 0, worst = 1e9;
    char best_what[200] = "none", worst_what[200] = "none";
    result best_r[2], worst_r[2];
    memset(best_r, 0, sizeof best_r);
    memset(worst_r, 0, sizeof worst_r);
    int nconf = 0, wins = 0;
    for (int i = 0; i < 4 && !broken; ++i)
        for (int own_src = 0; own_src < 2 && !broken; ++own_src)
            for (int opnd_src = 0; opnd_src < 2 && !broken; ++opnd_src)
                for (int sh = 0; sh < 3 && !broken; ++sh)
                    for (int stp = 0; stp < 2 && !broken; ++stp) {
                        if ((p.quick || p.dry) && (op_sizes[i] != 4 || shares[sh] != 50 || stp != 0))
                            continue;
                        op_shape s = {op_sizes[i], p.dry ? 512 : steps[stp], shares[sh], (enum source)own_src,
                                      (enum source)opnd_src};
                        result r[2];
                        job jobs[2];
                        for (int m = 0; m < 2; ++m)
                            mcast_operand_job(b, &p, &pl, (enum mode)m, &s, &jobs[m]);
                        bench_stats sp;
                        double speed = mcast_time_pair(b, &p, stream, jobs, &sp);
                        for (int m = 0; m < 2; ++m) {
                            r[m] = jobs[m].r;
                            mcast_job_free(&jobs[m]);
                            TRACK(r[m]);
                        }
                        if (broken)
                            break;
                        for (int m = 0; m < 2; ++m)
                            bench_csv_row(ocsv, "%d,%d,%d,%s,%s,%s,%d,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%s,%.3f,%.3f",
                                          s.n, s.step, s.share_pct, source_name[s.own_src], source_name[s.opnd_src],
                                          mode_name[m], r[m].max_clusters, r[m].clusters, mcast_launch_name(b, &r[m]),
                                          r[m].iters, r[m].ms.median, r[m].ms.min, r[m].ms.max, r[m].delivered_tbps,
                                          r[m].fetched_tbps, m ? speed : 1.0, r[m].kernel, m ? sp.min : 1.0,
                                          m ? sp.max : 1.0);
                        char what[200];
                        snprintf(what, sizeof what, "clusters of %d, %d KB steps, %d %% operand, own data from %s, "
                                                    "operand from %s", s.n, s.step / 1024, s.share_pct,
                                 source_name[s.own_src], source_name[s.opnd_src]);
                        if (!mcast_shown(b, &r[0]) || !mcast_shown(b, &r[1]) || speed <= 0) {
                            bench_progress(b, "operand, %s: mcast_operand failed", what);
                            continue;
                        }
                        bench_progress(b, "operand, %s: per CTA %.3f ms, multicast %.3f ms: %.2fx", what,
                                       r[0].ms.median, r[1].ms.median, speed);
                        ++nconf;
                        wins += speed >= TARGET_WIN;
                        if (speed > best) {
                            best = speed;
                            snprintf(best_what, sizeof best_what, "%s", what);
                            best_r[0] = r[0];
                            best_r[1] = r[1];
                        }
                        if (speed < worst) {
                            worst = speed;
                            snprintf(worst_what, sizeof worst_what, "%s", what);
                            worst_r[0] = r[0];
                            worst_r[1] = r[1];
                        }
                    }
    bench_csv_close(ocsv);
    mcast_free_pools(&pl);
    dsm_stream_destroy(stream);
    if (broken)
        return 1;

    /* the multicast stream's worst cluster size from L2 (n >= 2, the main ring shape) */
    double mc_l2_min = 1e9;
    char mc_l2_min_what[32] = "";
    for (int i = 1; i < 5; ++i) {
        const result *r = &st[FROM_L2][i][MULTICAST];
        if (mcast_shown(b, r) && r->delivered_tbps < mc_l2_min) {
            mc_l2_min = r->delivered_tbps;
            snprintf(mc_l2_min_what, sizeof mc_l2_min_what, "clusters of %d", sizes[i]);
        }
    }
    /* summary.json */
    char key[128];
    for (int src = 0; src < 2; ++src)
        for (int i = 0; i < 5; ++i)
            for (int m = 0; m < 2; ++m) {
                const result *r = &st[src][i][m];
                if (!mcast_shown(b, r))
                    continue;
                snprintf(key, sizeof key, "multicast_stream.%s.%s_delivered_tbps.c%d", src ? "hbm" : "l2",
                         m ? "multicast" : "per_cta", sizes[i]);
                bench_summary_measured(b, key, r->delivered_tbps, r->kernel);
            }
    if (!bench_kernel_ok(b, "bulk_stream"))
        best_l2_percta = 0;   /* a kernel that failed anywhere in the family gives no best */
    if (!bench_kernel_ok(b, "mcast_operand"))
        nconf = 0;
    if (best_l2_percta > 0)
        bench_summary_measured(b, "multicast_per_cta_l2_delivered_tbps_best", best_l2_percta, "bulk_stream");
    if (mc_l2_min < 1e9)
        bench_summary_measured(b, "multicast_l2_delivered_tbps_min", mc_l2_min, "mcast_stream");
    if (nconf > 0) {
        bench_summary_measured(b, "multicast_win_speedup_best", best, "mcast_operand");
        bench_summary_measured(b, "multicast_win_speedup_worst", worst, "mcast_operand");
    }
    const result *l2_2 = st[FROM_L2][1];
    double lose = mcast_shown(b, &l2_2[0]) && mcast_shown(b, &l2_2[1]) ? st_speed[FROM_L2][1].median : 0;
    if (lose > 0)
        bench_summary_measured(b, "multicast_lose_speedup_l2_stream_c2", lose, "bulk_stream mcast_stream");

    /* report.md */
    bench_report(b, "\n## Chapter 7: one load, many CTAs (ch07_multicast)\n\n");
    if (p.dry)
        bench_report(b, "Dry run on the emulator: every kernel checked on tiny sizes; the times below mean nothing.\n\n");
    const char *jit = getenv("CUDA_FORCE_PTX_JIT");
    if (!p.dry && jit && jit[0] == '1')
        bench_report(b, "**This run forced the PTX JIT (PTX_ONLY=1): the `compute_90` PTX has no `.multicast::cluster`; "
                        "\"multicast\" below is one unicast copy per CTA of the mask (the same bytes, n reads from L2).**\n\n");
    bench_report(b, "Every CTA of a cluster needs every chunk of its cluster's stream: loaded by each CTA itself "
                    "(`bulk_stream`) or once per cluster with `.multicast::cluster` (`mcast_stream`); %d slots of "
                    "%d KB per CTA, %d consumer threads, as many clusters as fit. \"Fetched\" is what the copies ask "
                    "of L2 (delivered / n with multicast); what L2 served is `make bench NCU=1`'s counter (when "
                    "every CTA reads the same lines at nearly the same time, L2 may serve several SMs' requests "
                    "for a line as one).\n\n",
                 p.stages, p.chunk / 1024, CONSUMERS);
    bench_report(b, "| data | cluster | CTAs | per CTA delivered TB/s (B/clk/SM) | multicast delivered TB/s (B/clk/SM) "
                    "| multicast fetched TB/s | multicast / per CTA speed |\n|---|---|---|---|---|---|---|\n");
    for (int src = 0; src < 2; ++src)
        for (int i = 0; i < 5; ++i) {
            const result *a = &st[src][i][0], *c = &st[src][i][1];
            if (!a->kernel || !c->kernel)
                continue;   /* not run (QUICK and dry runs skip clusters of 4 and 16) */
            char pc[48] = "failed", mc[48] = "failed", fetched[24] = "failed", speed[48] = "failed";
            if (mcast_shown(b, a))
                snprintf(pc, sizeof pc, "%.2f (%.1f)", a->delivered_tbps, mcast_per_sm_clk(b, a->delivered_tbps));
            if (mcast_shown(b, c)) {
                snprintf(mc, sizeof mc, "%.2f (%.1f)", c->delivered_tbps, mcast_per_sm_clk(b, c->delivered_tbps));
                snprintf(fetched, sizeof fetched, "%.2f", c->fetched_tbps);
            }
            if (mcast_shown(b, a) && mcast_shown(b, c))
                snprintf(speed, sizeof speed, "%.2fx [%.2f, %.2f]", st_speed[src][i].median, st_speed[src][i].min,
                         st_speed[src][i].max);
            bench_report(b, "| %s | %d | %d | %s | %s | %s | %s |\n",
                         src ? "own region per cluster (HBM)" : "the same 8 MB for every cluster (L2)", sizes[i],
                         a->clusters * sizes[i], pc, mc, fetched, speed);
        }
    if (best_l2_percta <= 0)
        bench_report(b, "\nPer-CTA loading from L2: failed (no configuration of bulk_stream passed its checks).\n");
    else
        bench_report(b, "\nPer-CTA loading from L2 delivered at best %.2f TB/s (%.1f B/clk/SM), %s (target on an H200: "
                    "at least %.1f, %s; other ring shapes: the rows of `ch07_multicast.csv` with other chunk_bytes "
                    "and stages; near 64 B/clk/SM it is what each SM can take in that limits it).\n",
                 best_l2_percta, mcast_per_sm_clk(b, best_l2_percta), best_l2_what, TARGET_L2_TBPS,
                 p.dry ? "not measured in a dry run"
                 : p.quick ? "not judged in a QUICK run"
                 : best_l2_percta >= TARGET_L2_TBPS ? "met" : "not met");
    if (mc_l2_min < 1e9)
        bench_report(b, "Multicast from L2 delivered at least %.2f TB/s in clusters of 2 and more, at %s (target on an "
                        "H200: at least %.1f at every cluster size, %s).\n", mc_l2_min, mc_l2_min_what, TARGET_MC_TBPS,
                     p.dry ? "not measured in a dry run" : mc_l2_min >= TARGET_MC_TBPS ? "met" : "not met");
    if (nconf == 0)
        bench_report(b, "\nOwn data beside a shared operand (mcast_operand): failed (no configuration passed its "
                        "checks).\n");
    if (nconf > 0) {
        bench_report(b, "\n### Own data beside a shared operand (mcast_operand, %d configurations, "
                        "`ch07_multicast_operand.csv`)\n\n", nconf);
        bench_report(b, "| experiment | configuration | per CTA ms (delivered TB/s) | multicast ms (delivered TB/s) | "
                        "speedup |\n|---|---|---|---|---|\n");
        bench_report(b, "| multicast wins most | %s | %.3f (%.2f) | %.3f (%.2f) | %.2fx |\n", best_what,
                     best_r[0].ms.median, best_r[0].delivered_tbps, best_r[1].ms.median, best_r[1].delivered_tbps,
                     best);
        bench_report(b, "| multicast loses most | %s | %.3f (%.2f) | %.3f (%.2f) | %.2fx |\n", worst_what,
                     worst_r[0].ms.median, worst_r[0].delivered_tbps, worst_r[1].ms.median, worst_r[1].delivered_tbps,
                     worst);
        if (lose > 0)
            bench_report(b, "| pure stream from L2 | clusters of 2, part 1 | %.3f (%.2f) | %.3f (%.2f) | %.2fx |\n",
                         l2_2[0].ms.median, l2_2[0].delivered_tbps, l2_2[1].ms.median, l2_2[1].delivered_tbps, lose);
        bench_report(b, "\nMulticast was at least %.1fx faster in %d of %d configurations; the best, %.2fx (target on an "
                        "H200: at least %.1fx, %s).\n", TARGET_WIN, wins, nconf, best, TARGET_WIN,
                     p.dry ? "not measured in a dry run" : best >= TARGET_WIN ? "met" : "not met");
    }
#undef TRACK
    return failed || broken;
}
