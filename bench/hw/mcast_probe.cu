/* mcast_probe.cu: which refill protocol lets a cluster's multicast ring deliver as fast as per-CTA loading, what L2 supplies, and where multicast beats per-CTA loading: many designs side by side in one run, each checked. */
/*
 * One kernel, mcast_probe, moves what chapter 7's kernels move (solutions/ch07): in step
 * k every CTA needs an "own" chunk (own_bytes from a region of its own) and an "operand"
 * chunk (opnd_bytes from its cluster's region, the same for every CTA of the cluster),
 * both by cp.async.bulk into a ring of `stages` slots, and folds word w of step k with
 * weight k + 1 (so every step must land, in order, in every CTA: no fixed points). A
 * pure stream is own_bytes = 0. What changes from row to row:
 *
 *   opmode    unicast: every CTA copies the whole operand itself (per-CTA loading);
 *             pieces: CTA r multicasts units [u r / n, u (r + 1) / n) of each operand chunk
 *             to all n CTAs (.multicast::cluster); roundrobin: CTA k mod n multicasts the
 *             whole chunk of step k.
 *   release   how the issuers learn that a slot may be refilled:
 *             local    the consumers arrive on the issuer's own `empty` (per-CTA only);
 *             fwd1     a forwarder THREAD (warp 1) waits on the local `consumed` and then
 *                      arrives on `empty` of every target CTA, one remote arrive after the
 *                      other (solutions/ch07/mcast_stream.cu before 2026-12-02);
 *             fwdwarp  the same, the target CTAs' arrives made by lanes 0..n-1 of the
 *                      forwarder warp at once;
 *             direct   the consumers arrive on every target's `empty` themselves (per warp
 *                      after __syncwarp: lanes 0..n-1; or per thread), no forwarder;
 *             cbar     a split cluster barrier (arrive after consuming a group, wait before
 *                      refilling it): the H200 anchor's design (../shared/anchors/multicast.txt).
 *   group     one release covers `group` consecutive steps (stages / group groups are in
 *             the ring at once); group 1 = a release per slot.
 *   warp      the consumers release once per warp (__syncwarp, then lane 0) instead of
 *             once per thread.
 * Warp 0 issues (lane 0), warp 1 forwards, warps 2 and up consume; the issuer arms its
 * own CTA's `full` barrier with the whole step's bytes right before it issues its part.
 *
 * Built by nvcc (bench/hw/run_mcast_probe.sh) it is one program; built for the emulator
 * (run_mcast_probe.sh --emu) the kernel part (MCAST_PROBE_PART=1) and the host part
 * (MCAST_PROBE_PART=2) compile separately and main runs a small self-test of every design
 * on every cluster size instead of the measurement (the __syncwarp variants excepted).
 * Environment: MCAST_PROBE_BYTES (delivered bytes per launch, default 2e9), MCAST_PROBE_REPS
 * (timed launches, default 5), MCAST_PROBE_ONLY=id,id,... (only those rows), MCAST_PROBE_NCU=1
 * (each row launched once, checked, not timed: for Nsight Compute, one profiled launch per row),
 * MCAST_PROBE_CLUSTERS=N (at most N clusters per row: `build/hw/mcast_probe_emu` runs the measurement's rows
 * this way on the emulator, slowly, to try its host side).
 */
#include "dsm.h"

#define PR_MAX_STAGES 8
#define PR_MAX_LANES 8

enum { PR_UNICAST = 0, PR_PIECES = 1, PR_ROUNDROBIN = 2 };
enum { PR_LOCAL = 0, PR_FWD1 = 1, PR_FWDWARP = 2, PR_DIRECT = 3, PR_CBAR = 4 };

typedef struct probe_params {
    int own_bytes, opnd_bytes;                       /* per step, multiples of 16, not both 0 */
    int stages, group, nsteps;                       /* stages % group == 0 */
    int own_region_steps, own_rot, own_shared;       /* CTA b reads step k from region chunk (k + b own_rot) mod R */
    int opnd_region_steps, opnd_rot, opnd_shared;    /* cluster c: (k + c opnd_rot) mod R */
    int opmode, release, warp_arrive;
} probe_params;

#if !defined(MCAST_PROBE_PART) || MCAST_PROBE_PART == 1

#if defined(__CUDACC__)
#define PR_SYNCWARP() __syncwarp()
#else
#define PR_SYNCWARP() ((void)0) /* the emulator self-test never sets warp_arrive */
#endif

/* Arms my full[s] with the step's bytes and issues my part of step k into slot s. */
static __device__ __forceinline__ void issue_step(const probe_params *p, unsigned char *ring, uint64_t *full, int k,
                                                  int s, const unsigned char *my_own, int own_off,
                                                  const unsigned char *my_opnd, int opnd_off, uint32_t rank,
                                                  uint32_t n, int lo, int hi)
{
    int step = p->own_bytes + p->opnd_bytes;
    unsigned char *slot = ring + (size_t)s * (size_t)step;
    dsm_mbarrier_arrive_expect_tx(&full[s], (uint32_t)step);
    if (p->own_bytes > 0)
        dsm_cp_async_bulk_global_to_shared(
            slot, my_own + (size_t)((k + own_off) % p->own_region_steps) * (size_t)p->own_bytes,
            (uint32_t)p->own_bytes, &full[s]);
    if (p->opnd_bytes > 0) {
        const unsigned char *src = my_opnd + (size_t)((k + opnd_off) % p->opnd_region_steps) * (size_t)p->opnd_bytes;
        uint16_t everyone = (uint16_t)((1u << n) - 1u);
        if (p->opmode == PR_UNICAST)
            dsm_cp_async_bulk_global_to_shared(slot + p->own_bytes, src, (uint32_t)p->opnd_bytes, &full[s]);
        else if (p->opmode == PR_PIECES) {
            if (hi > lo)
                dsm_cp_async_bulk_global_to_shared_multicast(slot + p->own_bytes + 16 * lo, src + 16 * lo,
                                                             16u * (uint32_t)(hi - lo), &full[s], everyone);
        } else if ((uint32_t)k % n == rank)
            dsm_cp_async_bulk_global_to_shared_multicast(slot + p->own_bytes, src, (uint32_t)p->opnd_bytes, &full[s],
                                                         everyone);
    }
}

/* One remote arrive on empty[h] of rank r (a cluster address). */
static __device__ __forceinline__ void release_to(uint64_t *empty, int h, uint32_t r)
{
    dsm_mbarrier_arrive_remote(dsm_mapa_shared_cluster(dsm_smem_addr(&empty[h]), r));
}

__global__ void mcast_probe(const uint4 *own, const uint4 *opnd, uint32_t *out, probe_params p)
{
    __shared__ uint64_t full[PR_MAX_STAGES], consumed[PR_MAX_STAGES], empty[PR_MAX_STAGES];
    unsigned char *ring = (unsigned char *)dsm_dynamic_smem();
    uint32_t rank = dsm_cluster_ctarank(), n = dsm_cluster_nctarank(), cid = dsm_clusterid().x;
    int tid = (int)threadIdx.x, lane = tid & 31, consumers = (int)blockDim.x - 64, cwarps = consumers / 32;
    int step = p.own_bytes + p.opnd_bytes, units = step / 16, ounits = p.opnd_bytes / 16;
    int G = p.group, NG = p.stages / G, S = NG * G;
    int mc = p.opmode != PR_UNICAST;
    uint32_t targets = mc ? n : 1u;   /* the CTAs that write into my slots: each must hear my releases */
    int lo = p.opmode == PR_PIECES ? (int)((uint32_t)ounits * rank / n) : 0;
    int hi = p.opmode == PR_PIECES ? (int)((uint32_t)ounits * (rank + 1u) / n) : ounits;
    const unsigned char *my_own = (const unsigned char *)own + (size_t)(p.own_shared ? 0u : blockIdx.x) *
                                                                   (size_t)p.own_region_steps * (size_t)p.own_bytes;
    const unsigned char *my_opnd = (const unsigned char *)opnd + (size_t)(p.opnd_shared ? 0u : cid) *
                                                                     (size_t)p.opnd_region_steps * (size_t)p.opnd_bytes;
    int own_off = (int)(((long long)blockIdx.x * p.own_rot) % p.own_region_steps);
    int opnd_off = (int)(((long long)cid * p.opnd_rot) % p.opnd_region_steps);
    int ngroups = (p.nsteps + G - 1) / G;
    uint32_t per_cta = p.warp_arrive ? (uint32_t)cwarps : (uint32_t)consumers;   /* consumer arrivals per release */
    uint32_t empty_count = p.release == PR_LOCAL ? per_cta : p.release == PR_DIRECT ? targets * per_cta : targets;

    if (tid == 0) {
        for (int s = 0; s < p.stages; ++s)
            dsm_mbarrier_init(&full[s], 1);
        for (int h = 0; h < NG; ++h) {
            dsm_mbarrier_init(&consumed[h], per_cta);
            dsm_mbarrier_init(&empty[h], empty_count);
        }
        dsm_fence_mbarrier_init();
    }
    dsm_cluster_sync();   /* every barrier of the cluster exists before anybody copies into it */

    if (p.release == PR_CBAR && tid < 64) {
        /* the split cluster barrier: one phase per group; the issuer refills group j + NG
         * once phase j (every thread of the cluster consumed group j, or has nothing to do) completed */
        if (tid == 0)
            for (int k = 0; k < p.nsteps && k < S; ++k)
                issue_step(&p, ring, full, k, k % S, my_own, own_off, my_opnd, opnd_off, rank, n, lo, hi);
        for (int j = 0; j < ngroups; ++j) {
            dsm_barrier_cluster_arrive();
            dsm_barrier_cluster_wait();
            if (tid == 0 && (j + NG) * G < p.nsteps)
                for (int k = (j + NG) * G; k < (j + NG + 1) * G && k < p.nsteps; ++k)
                    issue_step(&p, ring, full, k, k % S, my_own, own_off, my_opnd, opnd_off, rank, n, lo, hi);
        }
    } else if (tid == 0) {
        for (int k = 0; k < p.nsteps; ++k) {
            int j = k / G;
            if (k % G == 0 && j >= NG)   /* every CTA that receives into group j's slots released group j - NG */
                dsm_mbarrier_wait_parity(&empty[j % NG], (uint32_t)(j / NG - 1) & 1u);
            issue_step(&p, ring, full, k, k % S, my_own, own_off, my_opnd, opnd_off, rank, n, lo, hi);
        }
    } else if (tid >= 32 && tid < 64 && (p.release == PR_FWD1 || p.release == PR_FWDWARP)) {
        for (int j = 0; (j + NG) * G < p.nsteps; ++j) {
            int h = j % NG;
            uint32_t par = (uint32_t)(j / NG) & 1u;
            if (p.release == PR_FWD1) {
                if (lane == 0) {
                    dsm_mbarrier_wait_parity(&consumed[h], par);
                    for (uint32_t r = 0; r < targets; ++r)
                        release_to(empty, h, mc ? r : rank);
                }
            } else if ((uint32_t)lane < targets) {
                dsm_mbarrier_wait_parity(&consumed[h], par);
                release_to(empty, h, mc ? (uint32_t)lane : rank);
            }
        }
    } else if (tid >= 64) {
        int c = tid - 64;
        uint32_t acc[PR_MAX_LANES][4];
        for (int i = 0; i < PR_MAX_LANES; ++i)
            acc[i][0] = acc[i][1] = acc[i][2] = acc[i][3] = 0u;
        for (int k = 0; k < p.nsteps; ++k) {
            int s = k % S, j = k / G, h = j % NG;
            uint32_t weight = (uint32_t)k + 1u;
            dsm_mbarrier_wait_parity(&full[s], (uint32_t)(k / S) & 1u);
            const uint4 *slot = (const uint4 *)(ring + (size_t)s * (size_t)step);
            for (int i = 0; i < PR_MAX_LANES; ++i) {
                int u = c + i * consumers;
                if (u < units) {
                    uint4 v = slot[u];
                    acc[i][0] += weight * v.x;
                    acc[i][1] += weight * v.y;
                    acc[i][2] += weight * v.z;
                    acc[i][3] += weight * v.w;
                }
            }
            if (p.release == PR_CBAR) {
                if (k % G == G - 1 || k == p.nsteps - 1) {
                    if (j > 0)
                        dsm_barrier_cluster_wait();   /* phase j - 1: pairs my previous arrive */
                    dsm_barrier_cluster_arrive();     /* phase j: I am done with group j */
                }
            } else if (k % G == G - 1 && (j + NG) * G < p.nsteps) {
                /* group j will be refilled: release it */
                if (p.warp_arrive)
                    PR_SYNCWARP();   /* my warp's reads happen before lane 0's (or lanes') release */
                if (p.release == PR_LOCAL) {
                    if (!p.warp_arrive || lane == 0)
                        dsm_mbarrier_arrive(&empty[h]);
                } else if (p.release == PR_DIRECT) {
                    if (p.warp_arrive) {
                        if ((uint32_t)lane < targets)
                            release_to(empty, h, mc ? (uint32_t)lane : rank);
                    } else
                        for (uint32_t r = 0; r < targets; ++r)
                            release_to(empty, h, mc ? r : rank);
                } else if (!p.warp_arrive || lane == 0)
                    dsm_mbarrier_arrive(&consumed[h]);
            }
        }
        if (p.release == PR_CBAR)
            dsm_barrier_cluster_wait();   /* the last phase */
        for (int i = 0; i < PR_MAX_LANES; ++i) {
            int u = c + i * consumers;
            if (u < units)
                for (int w = 0; w < 4; ++w)
                    out[(size_t)blockIdx.x * (size_t)(units * 4) + (size_t)(u * 4 + w)] = acc[i][w];
        }
    }
    /* every copy into my ring landed (my consumers waited for all of them); no remote
     * arrive or copy can reach a CTA that left */
    dsm_cluster_sync();
}
DSM_KERNEL_ENTRY(mcast_probe, const uint4 *, const uint4 *, uint32_t *, probe_params)

#endif /* kernel part */

#if !defined(MCAST_PROBE_PART) || MCAST_PROBE_PART == 2

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsm_host.h"
#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
DSM_DECLARE_KERNEL(mcast_probe);
#endif

/* Where a stream comes from. */
enum { SRC_NONE = 0, SRC_L2_SHARED, SRC_L2_ROT, SRC_L2_OWN, SRC_HBM };
static const char *const src_name[] = {"-", "L2-same", "L2-rotated", "L2-own", "HBM"};
static const char *const opmode_name[] = {"per-CTA", "mc-pieces", "mc-roundrobin"};
static const char *const release_name[] = {"local", "fwd-thread", "fwd-warp", "direct", "cluster-barrier"};

#define SAME_REGION_BYTES (8u << 20)   /* "the same 8 MB for every cluster" (the anchor's L2 stream) */
#define OWN_L2_STEPS 2                 /* an L2-resident own region per CTA: 2 steps (<= 8.6 MB in all) */
#define OPND_L2_STEPS 4                /* an L2-resident operand region per cluster: 4 steps */
#define ROT 37                         /* rotation step of SRC_L2_ROT: CTAs/clusters start 37 chunks apart */

typedef struct row {
    const char *section, *design;
    int n, own_bytes, opnd_bytes, stages, group, own_src, opnd_src, opmode, release, warp_arrive;
} row;

typedef struct result {
    int ok, clusters, nsteps;
    double ms_med, ms_min, ms_max, delivered_tbps, requested_tbps, bpc;
    const char *why;
} result;

static uint32_t *host_pool[2], *dev_pool[2];
static size_t pool_bytes;
static int sm_count = 132, clock_mhz = 1980, self_test;
static double target_bytes = 2e9;
static int reps = 5, ncu_mode;

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next_u32(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* out[w] += sum over k < nsteps of (k + 1) * region[((k + off) mod R) * words + w]. */
static void ref_add(uint32_t *out, const uint32_t *region, size_t words, int R, int off, int nsteps, uint32_t *weight)
{
    memset(weight, 0, (size_t)R * sizeof *weight);
    for (int k = 0; k < nsteps; ++k)
        weight[(k + off) % R] += (uint32_t)k + 1u;
    for (int q = 0; q < R; ++q)
        if (weight[q])
            for (size_t w = 0; w < words; ++w)
                out[w] += weight[q] * region[(size_t)q * words + w];
}

static double tbps(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e12 : 0; }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Times `reps` launches (after one more warm-up) with events; fills r's times. */
static dsm_error_t time_launches(const dsm_launch_config *cfg, void **args, result *r)
{
#if defined(__CUDACC__)
    double ms[64];
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    dsm_error_t err = dsm_launch(cfg, DSM_KERNEL(mcast_probe), args);
    for (int i = 0; err == dsmSuccess && i < reps; ++i) {
        cudaEventRecord(e0, 0);
        err = dsm_launch(cfg, DSM_KERNEL(mcast_probe), args);
        cudaEventRecord(e1, 0);
        if (cudaEventSynchronize(e1) != cudaSuccess)
            err = dsm_device_synchronize();
        float t = 0;
        cudaEventElapsedTime(&t, e0, e1);
        ms[i] = t;
    }
    if (err == dsmSuccess)
        err = dsm_device_synchronize();
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    if (err != dsmSuccess)
        return err;
    qsort(ms, (size_t)reps, sizeof ms[0], cmp_double);
    r->ms_med = ms[reps / 2];
    r->ms_min = ms[0];
    r->ms_max = ms[reps - 1];
    return dsmSuccess;
#else
    (void)cfg;
    (void)args;
    (void)r;
    return dsmSuccess; /* the emulator's times mean nothing */
#endif
}

/* Runs one row: occupancy, a checked launch (outputs poisoned first, every word of every
 * CTA compared with the host), then the timed launches. */
static result run_row(const row *w, int threads)
{
    result r;
    memset(&r, 0, sizeof r);
    r.why = "ok";
    int n = w->n, step = w->own_bytes + w->opnd_bytes;
    size_t smem = (size_t)w->stages * (size_t)step;
    dsm_kernel_t k = DSM_KERNEL(mcast_probe);
    dsm_func_set_non_portable_cluster_size_allowed(k, 1);
    if (smem > 48 * 1024)
        dsm_func_set_max_dynamic_smem(k, (int)smem);
    dsm_launch_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.grid = DSM_DIM3(n, 1, 1);
    cfg.block = DSM_DIM3(threads, 1, 1);
    cfg.cluster = DSM_DIM3(n, 1, 1);
    cfg.dynamic_smem_bytes = smem;
    int max_clusters = 0;
    if (dsm_occupancy_max_active_clusters(&max_clusters, k, &cfg) != dsmSuccess || max_clusters < 1) {
        r.why = "no-fit";
        return r;
    }
    int clusters = self_test ? 2 : max_clusters;
    if (getenv("MCAST_PROBE_CLUSTERS") && atoi(getenv("MCAST_PROBE_CLUSTERS")) > 0 &&
        atoi(getenv("MCAST_PROBE_CLUSTERS")) < clusters)
        clusters = atoi(getenv("MCAST_PROBE_CLUSTERS"));   /* a trial of the measurement's rows on the emulator */
    int blocks = clusters * n;
    r.clusters = clusters;
    cfg.grid = DSM_DIM3(blocks, 1, 1);
    probe_params p;
    memset(&p, 0, sizeof p);
    p.own_bytes = w->own_bytes;
    p.opnd_bytes = w->opnd_bytes;
    p.stages = w->stages;
    p.group = w->group;
    p.opmode = w->opmode;
    p.release = w->release;
    p.warp_arrive = w->warp_arrive;
    long nsteps = self_test ? 2 * w->stages + 3 : (long)(target_bytes / ((double)blocks * step));
    if (nsteps < 4 * w->stages)
        nsteps = 4 * w->stages;
    p.nsteps = (int)nsteps;
    r.nsteps = p.nsteps;
    /* regions: own in pool 0, operand in pool 1 */
    p.own_region_steps = p.opnd_region_steps = 1;
    if (w->own_bytes) {
        if (w->own_src == SRC_L2_SHARED || w->own_src == SRC_L2_ROT) {
            p.own_shared = 1;
            p.own_region_steps = self_test ? 5 : (int)(SAME_REGION_BYTES / (unsigned)w->own_bytes);
            p.own_rot = w->own_src == SRC_L2_ROT ? ROT : 0;
        } else if (w->own_src == SRC_L2_OWN)
            p.own_region_steps = OWN_L2_STEPS;
        else
            p.own_region_steps = (int)(pool_bytes / (size_t)blocks / (size_t)w->own_bytes);
    }
    if (w->opnd_bytes) {
        if (w->opnd_src == SRC_L2_SHARED || w->opnd_src == SRC_L2_ROT) {
            p.opnd_shared = 1;
            p.opnd_region_steps = self_test ? 5 : (int)(SAME_REGION_BYTES / (unsigned)w->opnd_bytes);
            p.opnd_rot = w->opnd_src == SRC_L2_ROT ? ROT : 0;
        } else if (w->opnd_src == SRC_L2_OWN)
            p.opnd_region_steps = OPND_L2_STEPS;
        else
            p.opnd_region_steps = (int)(pool_bytes / (size_t)clusters / (size_t)w->opnd_bytes);
    }
    if (p.own_region_steps < 1 || p.opnd_region_steps < 1 ||
        (size_t)(p.own_shared ? 1 : blocks) * (size_t)p.own_region_steps * (size_t)w->own_bytes > pool_bytes ||
        (size_t)(p.opnd_shared ? 1 : clusters) * (size_t)p.opnd_region_steps * (size_t)w->opnd_bytes > pool_bytes) {
        r.why = "regions-too-big";
        return r;
    }
    size_t W = (size_t)step / 4, ow = (size_t)w->own_bytes / 4, pw = (size_t)w->opnd_bytes / 4;
    uint32_t *dout = NULL;
    if (dsm_malloc((void **)&dout, (size_t)blocks * W * 4) != dsmSuccess) {
        r.why = "malloc";
        return r;
    }
    dsm_memset(dout, 0xFF, (size_t)blocks * W * 4);
    const void *a0 = dev_pool[0], *a1 = dev_pool[1];
    void *args[] = {&a0, &a1, &dout, &p};
    dsm_error_t err = dsm_launch_sync(&cfg, k, args);
    if (err != dsmSuccess) {
        fprintf(stderr, "mcast_probe: %s %s n=%d: launch failed: %s (%s)\n", w->section, w->design, n,
                dsm_error_name(err), dsm_error_string(err));
        r.why = dsm_error_name(err);
        dsm_free(dout);
        return r;
    }
    /* the check: every word of every CTA */
    uint32_t *got = (uint32_t *)malloc((size_t)blocks * W * 4), *want = (uint32_t *)malloc(W * 4 + 4);
    int maxR = p.own_region_steps > p.opnd_region_steps ? p.own_region_steps : p.opnd_region_steps;
    uint32_t *weight = (uint32_t *)malloc((size_t)maxR * sizeof *weight);
    uint32_t *opnd_ref = (uint32_t *)malloc(pw * 4 + 4);
    dsm_memcpy_to_host(got, dout, (size_t)blocks * W * 4);
    int ok = 1, last_cluster = -1;
    for (int b = 0; ok && b < blocks; ++b) {
        int c = b / n;
        memset(want, 0, W * 4);
        if (ow) {
            size_t base = (size_t)(p.own_shared ? 0 : b) * (size_t)p.own_region_steps * ow;
            ref_add(want, host_pool[0] + base, ow, p.own_region_steps, (int)(((long long)b * p.own_rot) % p.own_region_steps),
                    p.nsteps, weight);
        }
        if (pw) {
            /* the same for every CTA of a cluster (and for all clusters of an unrotated shared region) */
            int same_as_last = last_cluster >= 0 && (c == last_cluster || (p.opnd_shared && !p.opnd_rot));
            if (!same_as_last) {
                memset(opnd_ref, 0, pw * 4);
                size_t base = (size_t)(p.opnd_shared ? 0 : c) * (size_t)p.opnd_region_steps * pw;
                ref_add(opnd_ref, host_pool[1] + base, pw, p.opnd_region_steps,
                        (int)(((long long)c * p.opnd_rot) % p.opnd_region_steps), p.nsteps, weight);
                last_cluster = c;
            }
            memcpy(want + ow, opnd_ref, pw * 4);
        }
        for (size_t x = 0; x < W; ++x)
            if (got[(size_t)b * W + x] != want[x]) {
                fprintf(stderr, "mcast_probe: %s %s n=%d: CTA %d word %zu: got 0x%08x want 0x%08x\n", w->section,
                        w->design, n, b, x, got[(size_t)b * W + x], want[x]);
                ok = 0;
                break;
            }
    }
    free(got);
    free(want);
    free(weight);
    free(opnd_ref);
    if (!ok) {
        r.why = "WRONG";
        dsm_free(dout);
        return r;
    }
    if (!self_test && !ncu_mode) {
        err = time_launches(&cfg, args, &r);
        if (err != dsmSuccess) {
            r.why = dsm_error_name(err);
            dsm_free(dout);
            return r;
        }
        double delivered = (double)blocks * (double)p.nsteps * step;
        double requested = (double)blocks * (double)p.nsteps *
                           (w->own_bytes + (w->opmode == 0 ? (double)w->opnd_bytes : (double)w->opnd_bytes / n));
        r.delivered_tbps = tbps(delivered, r.ms_med);
        r.requested_tbps = tbps(requested, r.ms_med);
        r.bpc = r.delivered_tbps * 1e12 / ((double)sm_count * clock_mhz * 1e6);
    }
    r.ok = 1;
    dsm_free(dout);
    return r;
}

/* ---- the rows ---- */

#define MAX_ROWS 400
static row rows[MAX_ROWS];
static int nrows;

static void add(const char *section, const char *design, int n, int own_bytes, int own_src, int opnd_bytes,
                int opnd_src, int stages, int group, int opmode, int release, int warp_arrive)
{
    if (nrows < MAX_ROWS) {
        row w = {section, design, n, own_bytes, opnd_bytes, stages, group, own_src, opnd_src, opmode, release,
                 warp_arrive};
        rows[nrows++] = w;
    }
}

/* A: the stream of the anchor (the same 8 MB for every cluster), every design, clusters 1-16;
 * B: what L2 supplies to per-CTA loading when the CTAs read different lines at once;
 * C: own data beside a shared operand: per-CTA vs multicast with the same protocol. */
static void build_rows(void)
{
    static const int sizes[] = {1, 2, 4, 8, 16};
    const int K16 = 16384, K32 = 32768;
    for (int i = 0; i < 5; ++i) {
        int n = sizes[i];
        add("A", "percta-local-thread (bulk_stream)", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 1, PR_UNICAST, PR_LOCAL, 0);
        add("A", "percta-local-warp", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 1, PR_UNICAST, PR_LOCAL, 1);
        add("A", "percta-fwdwarp-g4 (mcast_operand mc=0)", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 4, PR_UNICAST,
            PR_FWDWARP, 0);
        add("A", "mc-fwd1-g1 (old mcast_stream)", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 1, PR_PIECES, PR_FWD1, 0);
        add("A", "mc-fwdwarp-g1", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 1, PR_PIECES, PR_FWDWARP, 0);
        add("A", "mc-fwdwarp-g2", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 2, PR_PIECES, PR_FWDWARP, 0);
        add("A", "mc-fwdwarp-g4 (new mcast_stream)", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 4, PR_PIECES, PR_FWDWARP, 0);
        add("A", "mc-fwdwarp-g4-warp", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 4, PR_PIECES, PR_FWDWARP, 1);
        add("A", "mc-direct-g1-warp (cutlass-like)", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 1, PR_PIECES, PR_DIRECT, 1);
        add("A", "mc-direct-g4-warp", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 4, PR_PIECES, PR_DIRECT, 1);
        add("A", "mc-cbar-g4 (anchor design)", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 4, PR_PIECES, PR_CBAR, 0);
        add("A", "mc-roundrobin-fwdwarp-g4", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 8, 4, PR_ROUNDROBIN, PR_FWDWARP, 0);
        add("A32", "percta-local-thread 32K", n, 0, SRC_NONE, K32, SRC_L2_SHARED, 4, 1, PR_UNICAST, PR_LOCAL, 0);
        add("A32", "percta-fwdwarp-g2 32K", n, 0, SRC_NONE, K32, SRC_L2_SHARED, 4, 2, PR_UNICAST, PR_FWDWARP, 0);
        add("A32", "mc-fwdwarp-g2 32K", n, 0, SRC_NONE, K32, SRC_L2_SHARED, 4, 2, PR_PIECES, PR_FWDWARP, 0);
        add("A32", "mc-cbar-g2 32K", n, 0, SRC_NONE, K32, SRC_L2_SHARED, 4, 2, PR_PIECES, PR_CBAR, 0);
        /* a 64 KB ring: up to 3 CTAs per SM (the family's 16 KB x 4 shape) */
        add("A64", "percta-local-thread 16Kx4", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 4, 1, PR_UNICAST, PR_LOCAL, 0);
        add("A64", "mc-fwdwarp-g2 16Kx4", n, 0, SRC_NONE, K16, SRC_L2_SHARED, 4, 2, PR_PIECES, PR_FWDWARP, 0);
    }
    /* B: per-CTA loading, clusters of 1, 32 KB x 4 and 16 KB x 8: lockstep vs different lines */
    add("B", "percta 32K L2-same (lockstep)", 1, K32, SRC_L2_SHARED, 0, SRC_NONE, 4, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 32K L2-rotated", 1, K32, SRC_L2_ROT, 0, SRC_NONE, 4, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 32K L2-own (2 chunks per CTA)", 1, K32, SRC_L2_OWN, 0, SRC_NONE, 4, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 32K HBM-own", 1, K32, SRC_HBM, 0, SRC_NONE, 4, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 16K L2-same (lockstep)", 1, K16, SRC_L2_SHARED, 0, SRC_NONE, 8, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 16K L2-rotated", 1, K16, SRC_L2_ROT, 0, SRC_NONE, 8, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 16K L2-own (2 chunks per CTA)", 1, K16, SRC_L2_OWN, 0, SRC_NONE, 8, 1, PR_UNICAST, PR_LOCAL, 0);
    add("B", "percta 16K HBM-own", 1, K16, SRC_HBM, 0, SRC_NONE, 8, 1, PR_UNICAST, PR_LOCAL, 0);
    for (int i = 1; i < 5; ++i) {
        add("B", "percta-fwdwarp-g2 32K L2-rotated", sizes[i], 0, SRC_NONE, K32, SRC_L2_ROT, 4, 2, PR_UNICAST, PR_FWDWARP, 0);
        add("B", "mc-fwdwarp-g2 32K L2-rotated", sizes[i], 0, SRC_NONE, K32, SRC_L2_ROT, 4, 2, PR_PIECES, PR_FWDWARP, 0);
    }
    /* C: own data + an operand per cluster, per CTA vs multicast, the same protocol (fwd-warp, halves) */
    static const int shares[] = {50, 75, 90};
    for (int i = 1; i < 5; ++i)
        for (int os = 0; os < 2; ++os)
            for (int sh = 0; sh < 3; ++sh) {
                int own_src = os ? SRC_HBM : SRC_L2_OWN, opnd = K32 * shares[sh] / 100 / 16 * 16;
                add("C", "percta 32K", sizes[i], K32 - opnd, own_src, opnd, SRC_L2_OWN, 4, 2, PR_UNICAST, PR_FWDWARP, 0);
                add("C", "mc 32K", sizes[i], K32 - opnd, own_src, opnd, SRC_L2_OWN, 4, 2, PR_PIECES, PR_FWDWARP, 0);
            }
    for (int i = 1; i < 5; ++i)
        for (int os = 0; os < 2; ++os) {
            int own_src = os ? SRC_HBM : SRC_L2_OWN, opnd = K16 * 3 / 4;
            add("C", "percta 16K", sizes[i], K16 - opnd, own_src, opnd, SRC_L2_OWN, 8, 4, PR_UNICAST, PR_FWDWARP, 0);
            add("C", "mc 16K", sizes[i], K16 - opnd, own_src, opnd, SRC_L2_OWN, 8, 4, PR_PIECES, PR_FWDWARP, 0);
        }
    for (int i = 1; i < 5; ++i) {
        int opnd = K32 * 3 / 4;
        add("C", "percta 32K opnd-HBM", sizes[i], K32 - opnd, SRC_L2_OWN, opnd, SRC_HBM, 4, 2, PR_UNICAST, PR_FWDWARP, 0);
        add("C", "mc 32K opnd-HBM", sizes[i], K32 - opnd, SRC_L2_OWN, opnd, SRC_HBM, 4, 2, PR_PIECES, PR_FWDWARP, 0);
    }
}

/* The emulator self-test: every design on tiny shapes, clusters of 1, 2, 3, 4 and 16. */
static void build_self_test_rows(void)
{
    static const int sizes[] = {1, 2, 3, 4, 16};
    for (int i = 0; i < 5; ++i) {
        int n = sizes[i];
        add("T", "percta-local", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 1, PR_UNICAST, PR_LOCAL, 0);
        add("T", "percta-fwdwarp-g2", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 2, PR_UNICAST, PR_FWDWARP, 0);
        add("T", "mc-fwd1-g1", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 1, PR_PIECES, PR_FWD1, 0);
        add("T", "mc-fwdwarp-g2", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 2, PR_PIECES, PR_FWDWARP, 0);
        add("T", "mc-fwdwarp-g4", n, 0, SRC_NONE, 512, SRC_L2_ROT, 8, 4, PR_PIECES, PR_FWDWARP, 0);
        add("T", "mc-direct-thread-g2", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 2, PR_PIECES, PR_DIRECT, 0);
        add("T", "mc-cbar-g2", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 2, PR_PIECES, PR_CBAR, 0);
        /* (one group in the ring, stages == group, is correct too, but the emulator reports a
         * false race there: a consumer that arrived and has not yet waited reads a copy issued
         * after the phase it has not waited for; its race model orders such threads by barrier
         * generation) */
        add("T", "mc-cbar-g1", n, 0, SRC_NONE, 256, SRC_L2_SHARED, 2, 1, PR_PIECES, PR_CBAR, 0);
        add("T", "mc-roundrobin-g2", n, 0, SRC_NONE, 512, SRC_L2_SHARED, 4, 2, PR_ROUNDROBIN, PR_FWDWARP, 0);
        add("T", "op-percta", n, 256, SRC_L2_OWN, 256, SRC_L2_OWN, 4, 2, PR_UNICAST, PR_FWDWARP, 0);
        add("T", "op-mc", n, 256, SRC_HBM, 256, SRC_HBM, 4, 2, PR_PIECES, PR_FWDWARP, 0);
        add("T", "op-mc-cbar", n, 256, SRC_L2_OWN, 256, SRC_L2_OWN, 6, 3, PR_PIECES, PR_CBAR, 0);
    }
}

static int selected(int id)
{
    const char *only = getenv("MCAST_PROBE_ONLY");
    if (!only || !*only)
        return 1;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","))
        if (atoi(t) == id)
            return 1;
    return 0;
}

/* Summary: section A/A32 as one line per design (TB/s delivered at n = 1..16), B as listed,
 * C as per-CTA vs multicast speedups. */
static void summarize(const result *res)
{
    static const int sizes[] = {1, 2, 4, 8, 16};
    printf("\n# SUMMARY (delivered TB/s into shared memory, median; WRONG/no-fit rows blank)\n");
    const char *secs[] = {"A", "A32", "A64"};
    const char *shapes[] = {"8 slots of 16 KB (the family's shape), one CTA per SM", "4 slots of 32 KB, one CTA per SM",
                            "4 slots of 16 KB, up to 3 CTAs per SM"};
    for (int sc = 0; sc < 3; ++sc) {
        printf("# section %s: the same 8 MB for every cluster, %s\n", secs[sc], shapes[sc]);
        printf("# %-42s %7s %7s %7s %7s %7s   min-of-mc\n", "design", "n=1", "n=2", "n=4", "n=8", "n=16");
        for (int i = 0; i < nrows; ++i) {
            if (strcmp(rows[i].section, secs[sc]) != 0 || rows[i].n != 1)
                continue;
            printf("# %-42s", rows[i].design);
            double mn = 1e9;
            for (int s = 0; s < 5; ++s) {
                int found = 0;
                for (int j = 0; j < nrows; ++j)
                    if (strcmp(rows[j].section, secs[sc]) == 0 && strcmp(rows[j].design, rows[i].design) == 0 &&
                        rows[j].n == sizes[s] && res[j].ok && res[j].delivered_tbps > 0) {
                        printf(" %7.2f", res[j].delivered_tbps);
                        if (sizes[s] > 1 && res[j].delivered_tbps < mn)
                            mn = res[j].delivered_tbps;
                        found = 1;
                    }
                if (!found)
                    printf(" %7s", "-");
            }
            printf("   %s\n", rows[i].opmode != PR_UNICAST && mn < 1e9 ? (mn >= 6.0 ? "MEETS >= 6 at n>=2" : "below 6") : "");
        }
    }
    printf("# section B: per-CTA loading, different lines at once (L2 supply); multicast on rotated lines\n");
    for (int i = 0; i < nrows; ++i)
        if (strcmp(rows[i].section, "B") == 0 && res[i].ok && res[i].delivered_tbps > 0)
            printf("# %-42s n=%-2d delivered %6.2f TB/s (%5.1f B/clk/SM), requested from L2 %6.2f TB/s\n",
                   rows[i].design, rows[i].n, res[i].delivered_tbps, res[i].bpc, res[i].requested_tbps);
    printf("# section C: own data + an operand per cluster: per-CTA ms / multicast ms (>= 1.20: multicast wins)\n");
    double best = 0;
    int best_i = -1;
    for (int i = 0; i + 1 < nrows; ++i) {
        if (strcmp(rows[i].section, "C") != 0 || rows[i].opmode != PR_UNICAST)
            continue;
        const result *a = &res[i], *m = &res[i + 1];
        if (!a->ok || !m->ok || a->ms_med <= 0 || m->ms_med <= 0)
            continue;
        double sp = a->ms_med / m->ms_med;
        printf("# n=%-2d step %2d KB, operand %2d %%, own from %-7s operand from %-7s per-CTA %6.2f TB/s, multicast %6.2f "
               "TB/s: %.2fx%s\n", rows[i].n, (rows[i].own_bytes + rows[i].opnd_bytes) / 1024,
               100 * rows[i].opnd_bytes / (rows[i].own_bytes + rows[i].opnd_bytes), src_name[rows[i].own_src],
               src_name[rows[i].opnd_src], a->delivered_tbps, m->delivered_tbps, sp, sp >= 1.2 ? "  WIN" : "");
        if (sp > best) {
            best = sp;
            best_i = i;
        }
    }
    if (best_i >= 0)
        printf("# best multicast speedup %.2fx (row %d vs %d)\n", best, best_i, best_i + 1);
}

int main(int argc, char **argv)
{
    const char *why = NULL;
    self_test = argc > 1 && strcmp(argv[1], "--self-test") == 0;
    if (dsm_device_check(&why) != dsmSuccess) {
        printf("# waived: %s\n", why ? why : "no device");
        return 2;
    }
#if defined(__CUDACC__)
    if (!self_test) {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, 0);
        int khz = 0;
        cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0);
        sm_count = prop.multiProcessorCount;
        clock_mhz = khz / 1000;
        printf("# %s, %d SMs, %d MHz (attribute), L2 %d MB\n", prop.name, sm_count, clock_mhz, prop.l2CacheSize >> 20);
    }
#endif
    if (getenv("MCAST_PROBE_BYTES"))
        target_bytes = atof(getenv("MCAST_PROBE_BYTES"));
    if (getenv("MCAST_PROBE_REPS"))
        reps = atoi(getenv("MCAST_PROBE_REPS"));
    if (reps < 1 || reps > 64)
        reps = 5;
    ncu_mode = getenv("MCAST_PROBE_NCU") && atoi(getenv("MCAST_PROBE_NCU")) == 1;
    pool_bytes = self_test ? (1u << 20) : (256u << 20);
    for (int i = 0; i < 2; ++i) {
        host_pool[i] = (uint32_t *)malloc(pool_bytes);
        if (!host_pool[i] || dsm_malloc((void **)&dev_pool[i], pool_bytes) != dsmSuccess) {
            fprintf(stderr, "mcast_probe: cannot allocate the pools\n");
            return 1;
        }
        for (size_t x = 0; x < pool_bytes / 4; ++x)
            host_pool[i][x] = next_u32();
        dsm_memcpy_to_device(dev_pool[i], host_pool[i], pool_bytes);
    }
    if (self_test)
        build_self_test_rows();
    else
        build_rows();
    int threads = self_test ? 96 : 320, failed = 0;
    printf("id,section,design,cluster,clusters,ctas,own_from,own_bytes,operand_from,operand_bytes,opmode,release,group,"
           "stages,warp_arrive,nsteps,ms_median,ms_min,ms_max,delivered_tbps,requested_from_l2_tbps,"
           "delivered_bytes_per_clk_per_sm,check\n");
    result *res = (result *)calloc((size_t)nrows, sizeof *res);
    for (int i = 0; i < nrows; ++i) {
        const row *w = &rows[i];
        if (!selected(i))
            continue;
        res[i] = run_row(w, threads);
        failed |= !res[i].ok && strcmp(res[i].why, "no-fit") != 0;
        printf("%d,%s,%s,%d,%d,%d,%s,%d,%s,%d,%s,%s,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.3f,%.3f,%.2f,%s\n", i, w->section,
               w->design, w->n, res[i].clusters, res[i].clusters * w->n, src_name[w->own_src], w->own_bytes,
               src_name[w->opnd_src], w->opnd_bytes, opmode_name[w->opmode], release_name[w->release], w->group,
               w->stages, w->warp_arrive, res[i].nsteps, res[i].ms_med, res[i].ms_min, res[i].ms_max,
               res[i].delivered_tbps, res[i].requested_tbps, res[i].bpc, res[i].why);
        fflush(stdout);
    }
    if (!self_test && !ncu_mode)
        summarize(res);
    printf("# %s\n", failed ? "SOME ROWS FAILED (see check column and stderr)" : "every row checked ok");
    free(res);
    for (int i = 0; i < 2; ++i) {
        dsm_free(dev_pool[i]);
        free(host_pool[i]);
    }
    return failed;
}

#endif /* host part */
