/* test_cluster_scan.c: ch04.cluster_scan: the plan is the smallest cluster the occupancy API says can hold a segment, on every modelled GPU, with the grid from the resident clusters; the launch opts the kernel in to any plan (clusters of 1 to 16, shares above 48 KB) and every segment's scan matches the CPU, each element read and written once, totals through DSMEM, at most one cluster barrier per segment plus one. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, strdup */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster_scan.h"
#include "dsm_emu_control.h"
#include "model/device_model.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(cluster_scan);

#define KB ((size_t)1024)

enum {
    CHECK_GLOBAL = 1,   /* each element of in read once and of out written once, by the CTA that holds it */
    CHECK_DSMEM = 2,    /* the totals cross through DSMEM */
    CHECK_BARRIERS = 4, /* at most S + 1 cluster barriers per thread */
};

#define PLAN_FMT "%" PRIu32 " segments of %" PRIu32 " words in %d clusters of %d CTAs (%zu B each) (repeat with " \
                 "DSM_SEED=%" PRIu32 ")"
#define PLAN_ARGS(seg_len, segments, p) (uint32_t)(segments), (seg_len), (p)->clusters, (p)->cluster_size, \
                                        (p)->smem_bytes, test_seed()

/* Takes back every attribute of the kernel, so that a launch must opt in by itself. */
static void reset_attributes(void)
{
    dsm_kernel_t k = DSM_KERNEL(cluster_scan);
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 0), dsmSuccess);
    assert_int_equal(dsm_func_set_max_dynamic_smem(k, 48 * 1024), dsmSuccess);
}

static size_t share_of(uint32_t seg_len, int c) { return (seg_len + (uint32_t)c - 1) / (uint32_t)c; }

/* The plan of the contract, found by asking the occupancy API the same questions. */
static dsm_error_t expected_plan(uint32_t seg_len, int segments, scan_plan *want)
{
    dsm_kernel_t k = DSM_KERNEL(cluster_scan);
    assert_int_equal(dsm_func_set_non_portable_cluster_size_allowed(k, 1), dsmSuccess);
    for (int c = 1; c <= 16; ++c) {
        size_t smem = 4 * share_of(seg_len, c);
        if (smem > 227 * KB || dsm_func_set_max_dynamic_smem(k, (int)(smem > 48 * KB ? smem : 48 * KB)) != dsmSuccess)
            continue;
        dsm_launch_config cfg = {DSM_DIM3(c, 1, 1), DSM_DIM3(CLUSTER_SCAN_THREADS, 1, 1), DSM_DIM3(c, 1, 1), smem};
        int resident = 0;
        assert_int_equal(dsm_occupancy_max_active_clusters(&resident, k, &cfg), dsmSuccess);
        if (resident > 0) {
            want->cluster_size = c;
            want->clusters = resident < segments ? resident : segments;
            want->smem_bytes = smem;
            return dsmSuccess;
        }
    }
    return dsmErrorLaunchOutOfResources;
}

static void check_plan(const char *device, uint32_t seg_len, int segments)
{
    reset_attributes();
    scan_plan got = {0, 0, 0}, want = {0, 0, 0};
    dsm_error_t err = cluster_scan_plan(seg_len, segments, &got);
    if (err == dsmSuccess) {
        /* "On return the kernel's attributes allow the planned shape": ask about it as it is. */
        dsm_launch_config cfg = {DSM_DIM3(got.cluster_size, 1, 1), DSM_DIM3(CLUSTER_SCAN_THREADS, 1, 1),
                                 DSM_DIM3(got.cluster_size, 1, 1), got.smem_bytes};
        int resident = 0;
        dsm_error_t q = dsm_occupancy_max_active_clusters(&resident, DSM_KERNEL(cluster_scan), &cfg);
        if (q != dsmSuccess || resident < 1)
            fail_msg("on %s, after cluster_scan_plan(%" PRIu32 " words, %d segments) chose %d CTAs with %zu B each, "
                     "the occupancy API answers %s and %d resident clusters for that shape: the plan must leave the "
                     "kernel opted in to it (repeat with DSM_SEED=%" PRIu32 ")",
                     device, seg_len, segments, got.cluster_size, got.smem_bytes, dsm_error_name(q), resident,
                     test_seed());
    }
    dsm_error_t want_err = expected_plan(seg_len, segments, &want);
    if (err != want_err || (err == dsmSuccess && (got.cluster_size != want.cluster_size ||
                                                  got.clusters != want.clusters || got.smem_bytes != want.smem_bytes)))
        fail_msg("on %s, cluster_scan_plan(%" PRIu32 " words, %d segments) returned %s with %d clusters of %d CTAs, "
                 "%zu B each; expected %s with %d clusters of %d CTAs, %zu B each (repeat with DSM_SEED=%" PRIu32 ")",
                 device, seg_len, segments, dsm_error_name(err), got.clusters, got.cluster_size, got.smem_bytes,
                 dsm_error_name(want_err), want.clusters, want.cluster_size, want.smem_bytes, test_seed());
}

/* A segment length that the smallest fitting cluster holds in c CTAs on an H200-like part (about 57 K words per
 * CTA at most), give or take: the plan test asks the API, so the exact cut does not matter. */
static uint32_t length_for(int c)
{
    uint32_t most = 57000;
    return c == 1 ? 1 + test_random_below(most) : (uint32_t)(c - 1) * most + 1000 + test_random_below(most - 2000);
}

static void check_mechanism(uint32_t seg_len, int segments, const scan_plan *p, int checks, const uint32_t *in,
                            const uint32_t *out)
{
    int c = p->cluster_size, G = p->clusters;
    size_t share = share_of(seg_len, c);
    for (int g = 0; g < G; ++g) {
        uint32_t S = 0;
        for (int s = g; s < segments; s += G)
            ++S;
        uint64_t crossed = 0;
        for (int r = 0; r < c; ++r) {
            uint32_t b = (uint32_t)(g * c + r);
            size_t begin = (size_t)r * share < seg_len ? (size_t)r * share : seg_len;
            size_t len = seg_len - begin < share ? seg_len - begin : share;
            size_t lo = 4 * ((size_t)g * seg_len + begin), hi = 4 * ((size_t)(g + (int)(S - 1) * G) * seg_len + begin + len);
            dsm_emu_counts k;
            dsm_emu_gmem_use ui, uo;
            assert_true(dsm_emu_last_counts(b, &k));
            assert_true(dsm_emu_last_gmem_use(b, in, &ui));
            assert_true(dsm_emu_last_gmem_use(b, out, &uo));
            if (checks & CHECK_GLOBAL) {
                if (ui.ld_bytes != 4 * len * S || (ui.ld_bytes && (ui.ld_lo < lo || ui.ld_hi > hi)) || ui.st_bytes)
                    fail_msg("block %" PRIu32 " (rank %d) read %" PRIu64 " bytes of in in [%zu, %zu); it holds %zu "
                             "elements of each of its cluster's %" PRIu32 " segments and must read exactly those, once "
                             "each (%zu bytes): stage them in shared memory; the lower ranks' part comes as their "
                             "totals, through DSMEM: " PLAN_FMT,
                             b, r, ui.ld_bytes, ui.ld_lo, ui.ld_hi, len, S, 4 * len * S, PLAN_ARGS(seg_len, segments, p));
                if (uo.st_bytes != 4 * len * S || (uo.st_bytes && (uo.st_lo < lo || uo.st_hi > hi)) || uo.ld_bytes)
                    fail_msg("block %" PRIu32 " (rank %d) wrote %" PRIu64 " bytes of out in [%zu, %zu); it must write "
                             "its %zu elements of each of its cluster's %" PRIu32 " segments, once each: " PLAN_FMT,
                             b, r, uo.st_bytes, uo.st_lo, uo.st_hi, len, S, PLAN_ARGS(seg_len, segments, p));
                if (k.gmem_ld_bytes != ui.ld_bytes || k.gmem_st_bytes != uo.st_bytes)
                    fail_msg("block %" PRIu32 " used global memory beyond its elements of in and out: " PLAN_FMT, b,
                             PLAN_ARGS(seg_len, segments, p));
            }
            crossed += k.dsmem_ld_bytes + k.dsmem_st_bytes + 4 * k.dsmem_atom_ops;
            if ((checks & CHECK_BARRIERS) && k.cluster_waits_max > S + 1)
                fail_msg("a thread of block %" PRIu32 " passed %" PRIu32 " cluster barriers for the %" PRIu32
                         " segments of its cluster; the contract allows at most one per segment plus one (%" PRIu32
                         "): " PLAN_FMT,
                         b, k.cluster_waits_max, S, S + 1, PLAN_ARGS(seg_len, segments, p));
        }
        if ((checks & CHECK_DSMEM) && c > 1 && crossed < 4 * (uint64_t)(c - 1) * S)
            fail_msg("cluster %d moved %" PRIu64 " bytes through its CTAs' shared memory for %" PRIu32 " segments; "
                     "every rank above 0 needs the lower ranks' totals of every segment, through DSMEM: at least "
                     "%" PRIu64 " bytes: " PLAN_FMT,
                     g, crossed, S, 4 * (uint64_t)(c - 1) * S, PLAN_ARGS(seg_len, segments, p));
    }
}

/* Scans random words (large ones: the sums wrap around 2^32) with cluster_scan_launch in the shape of plan p,
 * after taking back the kernel's attributes, and compares with the CPU; on the emulator, no report, and the
 * claims in `checks`. */
static void run_scan(uint32_t seg_len, int segments, const scan_plan *p, int checks)
{
    size_t n = (size_t)seg_len * (size_t)segments;
    uint32_t *host_in = malloc(4 * n), *want = malloc(4 * n), *got = malloc(4 * n);
    test_fill_random_u32(host_in, n, 0, 0xffffffffu);
    for (size_t i = 0; i < n; i++)
        want[i] = (i % seg_len == 0 ? 0 : want[i - 1]) + host_in[i];
    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, 4 * n), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, 4 * n), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, 4 * n), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xff, 4 * n), dsmSuccess);
    reset_attributes();
    dsm_error_t err = cluster_scan_launch(out, in, seg_len, segments, p);
    if (err != dsmSuccess)
        fail_msg("cluster_scan_launch returned %s (%s): " PLAN_FMT, dsm_error_name(err), dsm_error_string(err),
                 PLAN_ARGS(seg_len, segments, p));
    if (test_on_emulator() && dsm_emu_last_report()->kind != DSM_REPORT_NONE)
        fail_msg("the emulator reported %s (above): " PLAN_FMT, dsm_report_kind_name(dsm_emu_last_report()->kind),
                 PLAN_ARGS(seg_len, segments, p));
    assert_int_equal(dsm_memcpy_to_host(got, out, 4 * n), dsmSuccess);
    for (size_t i = 0; i < n; ++i)
        if (got[i] != want[i])
            fail_msg("out[%zu] (segment %zu, element %zu, rank %zu) is 0x%08" PRIx32 ", expected 0x%08" PRIx32
                     ": " PLAN_FMT,
                     i, i / seg_len, i % seg_len, i % seg_len / share_of(seg_len, p->cluster_size), got[i], want[i],
                     PLAN_ARGS(seg_len, segments, p));
    if (checks && test_on_emulator())
        check_mechanism(seg_len, segments, p, checks, in, out);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(want);
    free(got);
}

/* A plan of c CTAs and `clusters` clusters for segments of seg_len words. */
static scan_plan plan_of(uint32_t seg_len, int c, int clusters)
{
    scan_plan p = {c, clusters, 4 * share_of(seg_len, c)};
    return p;
}

static void test_cluster_scan_plan_is_the_smallest_cluster_that_fits_on_every_modelled_gpu(void **state)
{
    (void)state;
    if (!test_on_emulator()) { /* a GPU is one device: its own occupancy API is the reference */
        for (int c = 1; c <= 16; c += 5)
            check_plan("this GPU", length_for(c), 1 + (int)test_random_below(3000));
        return;
    }
    const char *was = getenv("DSM_EMU_DEVICE");
    char *saved = was ? strdup(was) : NULL; /* the learner's own choice, restored for the other tests */
    for (int mi = 0; mi < dsm_model_count(); mi++) {
        const dsm_device_model *m = dsm_model_at(mi);
        setenv("DSM_EMU_DEVICE", m->name, 1);
        for (int i = 0; i < 6; i++) {
            int c = 1 + (int)test_random_below(16);
            check_plan(m->name, length_for(c), 1 + (int)test_random_below(3000));
        }
        check_plan(m->name, 1 + test_random_below(12000), 1 + (int)test_random_below(4)); /* fewer segments than resident */
    }
    if (saved) {
        setenv("DSM_EMU_DEVICE", saved, 1);
        free(saved);
    } else {
        unsetenv("DSM_EMU_DEVICE");
    }
}

static void test_cluster_scan_plan_rejects_segments_no_cluster_can_hold(void **state)
{
    (void)state;
    scan_plan p = {0, 0, 0};
    assert_int_equal(cluster_scan_plan(17 * 60000u, 4, &p), dsmErrorLaunchOutOfResources);
    assert_int_equal(cluster_scan_plan(0, 4, &p), dsmErrorInvalidValue);
    assert_int_equal(cluster_scan_plan(100, 0, &p), dsmErrorInvalidValue);
    assert_int_equal(cluster_scan_plan(100, 1, NULL), dsmErrorInvalidValue);
}

/* The kernel, from any plan: clusters of 1 to 8 CTAs, persistent clusters looping over more segments than clusters. */
static void test_cluster_scan_matches_the_cpu_in_clusters_of_1_to_8(void **state)
{
    (void)state;
    for (int c = 1; c <= 8; ++c) {
        uint32_t seg_len = 1 + test_random_below(1500);
        int segments = 1 + (int)test_random_below(5);
        scan_plan p = plan_of(seg_len, c, 1 + (int)test_random_below((uint32_t)segments));
        run_scan(seg_len, segments, &p, 0);
    }
}

/* Every non-portable size, not only 16: the launch must opt in to each. */
static void test_cluster_scan_matches_the_cpu_in_clusters_of_9_to_16(void **state)
{
    (void)state;
    int c = 9 + (int)test_random_below(7);
    uint32_t seg_len = 1 + test_random_below(3000);
    scan_plan p = plan_of(seg_len, c, 1 + (int)test_random_below(2));
    run_scan(seg_len, 3, &p, 0);
    p = plan_of(seg_len, 16, 1);
    run_scan(seg_len, 2, &p, 0);
}

/* Segments shorter than the cluster (ranks with no elements) and shorter than a block. */
static void test_cluster_scan_short_segments_leave_ranks_empty(void **state)
{
    (void)state;
    uint32_t seg_len = 1 + test_random_below(12);
    scan_plan p = plan_of(seg_len, 16, 2);
    run_scan(seg_len, 3 + (int)test_random_below(3), &p, 0);
    seg_len = 20 + test_random_below(100);
    p = plan_of(seg_len, 3, 1);
    run_scan(seg_len, 4, &p, 0);
}

/* Shares above 48 KB: the launch must raise the kernel's dynamic shared memory limit. */
static void test_cluster_scan_shares_above_48_kb_per_cta(void **state)
{
    (void)state;
    int c = 2 + (int)test_random_below(2);
    uint32_t seg_len = (uint32_t)c * (12300 + test_random_below(3000));
    scan_plan p = plan_of(seg_len, c, 1);
    run_scan(seg_len, 1, &p, 0);
}

/* One cluster scans 257 segments one after the other: more than a table indexed by the segment
 * (a total per segment, an mbarrier per segment) of any size a kernel might fix holds. */
static void test_cluster_scan_one_cluster_scans_hundreds_of_segments(void **state)
{
    (void)state;
    uint32_t seg_len = 2 + test_random_below(6);
    scan_plan p = plan_of(seg_len, 2, 1);
    run_scan(seg_len, 257, &p, 0);
}

/* The plan, launched: whatever the GPU, the smallest cluster that holds the segment, in as many clusters as fit. */
static void test_cluster_scan_planned_launch_matches_the_cpu(void **state)
{
    (void)state;
    uint32_t seg_len = 2000 + test_random_below(8000);
    int segments = 2 + (int)test_random_below(4);
    scan_plan p = {0, 0, 0};
    assert_int_equal(cluster_scan_plan(seg_len, segments, &p), dsmSuccess);
    run_scan(seg_len, segments, &p, 0);
    p = plan_of(seg_len, 4, 1);
    run_scan(seg_len, segments, &p, 0);
}

/* cluster_scan_launch waits for the kernel and returns its error: give it an `in` one segment
 * short (the kernel reads past the buffer) and expect the error from the call itself, with nothing
 * left for a later synchronize. Emulator only: on a GPU such an error ends the context. */
static void test_cluster_scan_launch_waits_for_the_kernel_and_returns_its_error(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    uint32_t seg_len = 256 + test_random_below(1024);
    int segments = 2;
    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, 4 * (size_t)seg_len), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, 4 * (size_t)seg_len * (size_t)segments), dsmSuccess);
    assert_int_equal(dsm_memset(in, 0, 4 * (size_t)seg_len), dsmSuccess);
    scan_plan p = plan_of(seg_len, 2, 1);
    dsm_emu_set_verbose(0);    /* the report is expected: do not print it */
    dsm_error_t err = cluster_scan_launch(out, in, seg_len, segments, &p);
    dsm_error_t later = dsm_device_synchronize();
    dsm_emu_set_verbose(1);
    if (err == dsmSuccess)
        fail_msg("cluster_scan_launch returned cudaSuccess for a kernel that read past `in` (%s came only from a "
                 "later synchronize): the contract says it waits for the kernel and returns its error",
                 dsm_error_name(later));
    assert_int_equal(later, dsmSuccess);
    dsm_free(in);
    dsm_free(out);
}

static void test_cluster_scan_reads_and_writes_each_element_once_from_its_own_cta(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    uint32_t seg_len = 100 + test_random_below(1000);
    scan_plan p = plan_of(seg_len, 2 + (int)test_random_below(14), 2);
    run_scan(seg_len, 3 + (int)test_random_below(3), &p, CHECK_GLOBAL);
}

static void test_cluster_scan_totals_cross_through_dsmem(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    uint32_t seg_len = 100 + test_random_below(1000);
    scan_plan p = plan_of(seg_len, 2 + (int)test_random_below(14), 1);
    run_scan(seg_len, 2 + (int)test_random_below(3), &p, CHECK_DSMEM);
}

static void test_cluster_scan_at_most_one_cluster_barrier_per_segment_plus_one(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    uint32_t seg_len = 50 + test_random_below(500);
    scan_plan p = plan_of(seg_len, 2 + (int)test_random_below(7), 1 + (int)test_random_below(2));
    run_scan(seg_len, 3 + (int)test_random_below(4), &p, CHECK_BARRIERS);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_cluster_scan_plan_is_the_smallest_cluster_that_fits_on_every_modelled_gpu),
    cmocka_unit_test(test_cluster_scan_plan_rejects_segments_no_cluster_can_hold),
    cmocka_unit_test(test_cluster_scan_matches_the_cpu_in_clusters_of_1_to_8),
    cmocka_unit_test(test_cluster_scan_matches_the_cpu_in_clusters_of_9_to_16),
    cmocka_unit_test(test_cluster_scan_short_segments_leave_ranks_empty),
    cmocka_unit_test(test_cluster_scan_shares_above_48_kb_per_cta),
    cmocka_unit_test(test_cluster_scan_one_cluster_scans_hundreds_of_segments),
    cmocka_unit_test(test_cluster_scan_planned_launch_matches_the_cpu),
    cmocka_unit_test(test_cluster_scan_launch_waits_for_the_kernel_and_returns_its_error),
    cmocka_unit_test(test_cluster_scan_reads_and_writes_each_element_once_from_its_own_cta),
    cmocka_unit_test(test_cluster_scan_totals_cross_through_dsmem),
    cmocka_unit_test(test_cluster_scan_at_most_one_cluster_barrier_per_segment_plus_one),
};

DSM_TEST_MAIN(tests)
