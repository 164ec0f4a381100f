/* test_occupancy.c: ch04.occupancy: occupancy by hand agrees with every shape measured on an H200 (bench/results/occupancy_h200.csv) and with the course's device models. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "occupancy.h"
#include "dsm_host.h"
#include "support/models.h"
#include "support/test_support.h"

#define KB ((size_t)1024)

/* The measured table, from the repository root (where make grade runs) or found from this file's path. */
static const char *const csv_paths[] = {"bench/results/occupancy_h200.csv", "../../bench/results/occupancy_h200.csv"};

/* A gpu_desc with the numbers of device model m (the layout array is m's). */
static gpu_desc desc_of(const dsm_device_model *m)
{
    gpu_desc g = {
        .gpc_count = m->gpc_count, .sms_per_gpc = m->sms_per_gpc,
        .smem_per_sm = m->smem_per_sm, .smem_per_block_optin = m->smem_per_block_optin,
        .smem_per_block_default = m->smem_per_block_default,
        .smem_reserved_per_block = m->smem_reserved_per_block, .smem_granularity = m->smem_granularity,
        .max_threads_per_sm = m->max_threads_per_sm, .max_threads_per_block = m->max_threads_per_block,
        .max_ctas_per_sm = m->max_ctas_per_sm, .warp_size = m->warp_size,
        .regs_per_sm = m->regs_per_sm, .regs_per_block = m->regs_per_block,
        .reg_granularity_per_warp = m->reg_granularity_per_warp, .sub_partitions_per_sm = m->sub_partitions_per_sm,
        .max_cluster_size_portable = m->max_cluster_size_portable,
        .max_cluster_size_non_portable = m->max_cluster_size_non_portable,
    };
    return g;
}

static gpu_desc h200_desc(void)
{
    const dsm_device_model *m = dsm_model_find("H200");
    assert_non_null(m);
    return desc_of(m);
}

/* What an H200 would answer, from the calibrated device model plus the two
 * checks the model leaves to its caller (the size attribute, the opt-in). */
static dsm_error_t reference(const dsm_device_model *m, const kernel_shape *k, int *clusters)
{
    if (k->threads_per_block < 1 || k->threads_per_block > m->max_threads_per_block)
        return dsmErrorInvalidValue;
    int largest = k->non_portable_allowed ? m->max_cluster_size_non_portable : m->max_cluster_size_portable;
    if (k->cluster_size < 1 || k->cluster_size > largest)
        return dsmErrorInvalidClusterSize;
    size_t max_dyn = k->max_dynamic_smem_attr ? k->max_dynamic_smem_attr : m->smem_per_block_default;
    if (k->dynamic_smem > max_dyn) {
        *clusters = 0;
        return dsmSuccess;
    }
    return dsm_model_occupancy_max_active_clusters(m, k->cluster_size, k->threads_per_block,
                                                   k->static_smem + k->dynamic_smem, k->regs_per_thread, clusters);
}

/* Asks the learner's function about k on gpu and fails with the shape unless it answers want_err / want_clusters. */
static void expect(const gpu_desc *gpu, const char *gpu_name, const kernel_shape *k, dsm_error_t want_err,
                   int want_clusters)
{
    int got = -12345;
    dsm_error_t err = occupancy_max_active_clusters(gpu, k, &got);
    if (err != want_err || (want_err == dsmSuccess && got != want_clusters))
        fail_msg("expected %d clusters (%s), got %d (%s) on %s: cluster %d, %d threads, %zu B static + %zu B "
                 "dynamic shared memory, %d registers/thread, max dynamic attribute %zu, non-portable %d",
                 want_clusters, dsm_error_name(want_err), got, dsm_error_name(err), gpu_name, k->cluster_size,
                 k->threads_per_block, k->static_smem, k->dynamic_smem, k->regs_per_thread,
                 k->max_dynamic_smem_attr, k->non_portable_allowed);
}

static void test_occupancy_matches_every_shape_measured_on_the_h200(void **state)
{
    (void)state;
    FILE *f = NULL;
    for (size_t i = 0; i < sizeof csv_paths / sizeof csv_paths[0] && f == NULL; i++)
        f = fopen(csv_paths[i], "r");
    if (f == NULL)
        fail_msg("cannot open bench/results/occupancy_h200.csv: run the test from the repository root");
    gpu_desc gpu = h200_desc();
    const dsm_device_model *m = dsm_model_find("H200");
    char line[1024];
    int rows = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (!header) {  /* gpu,driver,runtime,set,kernel,cluster_size,threads,dyn_smem,static_smem,regs,non_portable,status,max_active_clusters,... */
            header = 1;
            continue;
        }
        char kernel[64], status[64];
        int cluster, threads, regs, np, clusters;
        size_t dyn, stat;
        const char *p = strchr(line + 1, '"');        /* the GPU's name is quoted */
        if (p == NULL || sscanf(p + 1, ",%*d,%*d,%*[^,],%63[^,],%d,%d,%zu,%zu,%d,%d,%63[^,],%d", kernel, &cluster,
                                &threads, &dyn, &stat, &regs, &np, status, &clusters) != 9)
            fail_msg("occupancy_h200.csv: cannot read the row %s", line);
        /* The probe set the dynamic-memory attribute to the whole opt-in on every kernel but probe_bare. */
        kernel_shape k = {cluster, threads, stat, dyn, regs, strcmp(kernel, "probe_bare") == 0 ? 0 : m->smem_per_block_optin - stat,
                          np};
        if (strcmp(status, "cudaSuccess") == 0)
            expect(&gpu, "H200 (measured)", &k, dsmSuccess, clusters);
        else if (strcmp(status, "cudaErrorInvalidClusterSize") == 0)
            expect(&gpu, "H200 (measured)", &k, dsmErrorInvalidClusterSize, 0);
        else
            fail_msg("occupancy_h200.csv: unexpected status %s", status);
        rows++;
    }
    fclose(f);
    assert_true(rows >= 60);    /* the 62 measured shapes: a truncated file must not pass */
}

/* Random shapes on every device model: threads, shared memory (some above
 * the limits), registers, cluster sizes, attributes. */
static void test_occupancy_agrees_with_every_device_model_on_random_shapes(void **state)
{
    (void)state;
    for (int mi = 0; mi < test_model_count(); mi++) {
        const dsm_device_model *m = test_model_at(mi);
        gpu_desc gpu = desc_of(m);
        for (int i = 0; i < 400; i++) {
            kernel_shape k;
            k.cluster_size = 1 + (int)test_random_below(17);
            k.threads_per_block = 1 + (int)test_random_below(1024);
            k.static_smem = test_random_below(4) == 0 ? test_random_below(48 * 1024) : 0;
            k.dynamic_smem = test_random_below(240 * 1024);
            k.regs_per_thread = test_random_below(3) == 0 ? 0 : 1 + (int)test_random_below(255);
            k.max_dynamic_smem_attr = test_random_below(3) == 0 ? 0 : m->smem_per_block_optin - k.static_smem;
            k.non_portable_allowed = (int)test_random_below(2);
            int want = -1;
            dsm_error_t want_err = reference(m, &k, &want);
            expect(&gpu, m->name, &k, want_err, want);
        }
    }
}

/* Every boundary the rules name, on every model, with deterministic shapes: a block of exactly the
 * opt-in limit (fits once per SM) and one granule above it (never fits), static memory counted
 * against that limit too, an attribute below 48 KB (it lowers the limit, it is not a floor), an
 * attribute never set (48 KB: exactly 48 KB fits, 16 B more does not), a cluster of 8 and of 9
 * without the non-portable attribute, and 1024 and 1025 threads. */
static void test_occupancy_every_boundary_of_the_rules_on_every_model(void **state)
{
    (void)state;
    for (int mi = 0; mi < test_model_count(); mi++) {
        const dsm_device_model *m = test_model_at(mi);
        gpu_desc gpu = desc_of(m);
        size_t optin = m->smem_per_block_optin, dflt = m->smem_per_block_default, low = 16 * KB;
        const kernel_shape shapes[] = {
            {1, 128, 0, optin, 0, optin, 0},            /* the whole opt-in share */
            {1, 128, 0, optin + 128, 0, optin, 0},      /* one granule above the opt-in limit */
            {2, 128, 1 * KB, optin - 1 * KB, 0, optin, 0}, /* static + dynamic = the limit */
            {2, 128, 1 * KB, optin, 0, optin, 0},       /* static + dynamic above it */
            {1, 256, 0, low, 0, low, 0},                /* an attribute below 48 KB: up to it fits */
            {1, 256, 0, low + 16, 0, low, 0},           /* and 16 B above it does not, though < 48 KB */
            {1, 256, 0, dflt, 0, 0, 0},                 /* attribute never set: 48 KB fits */
            {1, 256, 0, dflt + 16, 0, 0, 0},            /* 16 B more does not */
            {8, 64, 0, 0, 0, 0, 0},                     /* the largest portable cluster */
            {9, 64, 0, 0, 0, 0, 0},                     /* one above: needs the attribute */
            {9, 64, 0, 0, 0, 0, 1},
            {1, 1024, 0, 0, 0, 0, 0},
            {1, 1025, 0, 0, 0, 0, 0},
        };
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            int want = -1;
            dsm_error_t want_err = reference(m, &shapes[i], &want);
            expect(&gpu, m->name, &shapes[i], want_err, want);
        }
    }
}

static void test_occupancy_counts_only_gpcs_at_least_as_large_as_the_cluster(void **state)
{
    (void)state;
    /* A made-up GPU with GPCs of 4, 3 and 2 SMs, one CTA per SM (1024 threads). */
    static const int small[] = {4, 3, 2};
    gpu_desc gpu = h200_desc();
    gpu.gpc_count = 3;
    gpu.sms_per_gpc = small;
    kernel_shape k = {1, 1024, 0, 0, 0, 0, 0};
    int want[] = {0, 18, 9, 4, 2, 0, 0, 0, 0};  /* by cluster size 1..8: floor(2 * sms / size) over GPCs >= size */
    for (int c = 1; c <= 8; c++) {
        k.cluster_size = c;
        expect(&gpu, "a GPU with GPCs of 4, 3, 2 SMs and 2 CTAs per SM", &k, dsmSuccess, want[c]);
    }
    /* A one-GPC slice of 8 SMs (as a small part or a MIG slice may be): nothing above 8 is resident. */
    static const int slice[] = {8};
    gpu.gpc_count = 1;
    gpu.sms_per_gpc = slice;
    k.non_portable_allowed = 1;
    k.cluster_size = 8;
    expect(&gpu, "one GPC of 8 SMs", &k, dsmSuccess, 2);
    k.cluster_size = 9;
    expect(&gpu, "one GPC of 8 SMs", &k, dsmSuccess, 0);
}

static void test_occupancy_rejects_sizes_above_8_without_the_non_portable_attribute(void **state)
{
    (void)state;
    gpu_desc gpu = h200_desc();
    kernel_shape k = {9, 128, 0, 0, 0, 0, 0};
    expect(&gpu, "H200", &k, dsmErrorInvalidClusterSize, 0);
    k.non_portable_allowed = 1;
    expect(&gpu, "H200", &k, dsmSuccess, 2 * (16 * 18 / 9) + 5 * (16 * 16 / 9)); /* 16 CTAs per SM, GPCs of 18 and 16 */
    k.cluster_size = 17;
    expect(&gpu, "H200", &k, dsmErrorInvalidClusterSize, 0);
    k.cluster_size = 0;
    expect(&gpu, "H200", &k, dsmErrorInvalidClusterSize, 0);
    k.cluster_size = 2;
    k.threads_per_block = 1025;
    expect(&gpu, "H200", &k, dsmErrorInvalidValue, 0);
}

static void test_occupancy_needs_the_attribute_above_48_kb_and_fits_nothing_above_227_kb(void **state)
{
    (void)state;
    gpu_desc gpu = h200_desc();
    kernel_shape k = {2, 1024, 0, 48 * KB, 0, 0, 0};
    expect(&gpu, "H200", &k, dsmSuccess, 132);            /* 48 KB: allowed without the attribute */
    k.dynamic_smem = 48 * KB + 16;
    expect(&gpu, "H200", &k, dsmSuccess, 0);              /* above it: the launch could not run */
    k.max_dynamic_smem_attr = 227 * KB;
    expect(&gpu, "H200", &k, dsmSuccess, 132);
    k.dynamic_smem = 227 * KB;
    expect(&gpu, "H200", &k, dsmSuccess, 66);             /* one CTA per SM */
    k.static_smem = 64;
    expect(&gpu, "H200", &k, dsmSuccess, 0);              /* 64 B over the per-block limit */
}

static void test_occupancy_rounds_shared_memory_and_adds_the_reserved_kilobyte(void **state)
{
    (void)state;
    gpu_desc gpu = h200_desc();
    /* A third of an SM is 77824 B. 76800 B + the reserved 1 KB is exactly that: 3 per SM. */
    kernel_shape k = {1, 32, 0, 76800, 0, 227 * KB, 0};
    expect(&gpu, "H200", &k, dsmSuccess, 3 * 132);
    k.dynamic_smem = 76801;      /* 77825 B, allocated as 77952 (128 B units): only 2 fit */
    expect(&gpu, "H200", &k, dsmSuccess, 2 * 132);
    /* The rounding alone decides here: 45600 B + 1 KB = 46624 B would fit 5 times in
     * 228 KB (233120 B), but allocated as 46720 B (128 B units) only 4 times. */
    k.dynamic_smem = 45600;
    expect(&gpu, "H200", &k, dsmSuccess, 4 * 132);   /* 528; without the rounding 660 */
    /* And without the reserved kilobyte 45600 B (45696 B rounded) would fit 5 times too. */
    for (int i = 0; i < 20; ++i) {   /* random sizes where the rounding changes the count */
        size_t per = 2 + test_random_below(7);                     /* 2..8 CTAs per SM */
        size_t alloc = gpu.smem_per_sm / per;                      /* the most one of per CTAs may take */
        alloc -= alloc % 128;                                      /* a multiple of 128 B that fits per times */
        size_t dynamic = alloc + 1 - 1024;                         /* one byte more: rounds up to alloc + 128 */
        if ((alloc + 128) * per <= gpu.smem_per_sm || (alloc + 1) * per > gpu.smem_per_sm)
            continue;                                              /* the rounding does not decide this size */
        k.dynamic_smem = dynamic;
        expect(&gpu, "H200", &k, dsmSuccess, (int)(per - 1) * 132);
    }
}

static void test_occupancy_registers_limit_by_whole_warps_per_sub_partition(void **state)
{
    (void)state;
    gpu_desc gpu = h200_desc();
    kernel_shape k = {1, 1024, 0, 0, 64, 0, 0};
    expect(&gpu, "H200", &k, dsmSuccess, 132);            /* 64 x 1024 = the whole register file */
    k.regs_per_thread = 65;                               /* 2080 per warp, rounded to 2304: 32 warps need 73728 */
    expect(&gpu, "H200", &k, dsmSuccess, 0);
    k.threads_per_block = 256;
    k.regs_per_thread = 40;                               /* 1280 per warp: 12 warps per quarter, 48 per SM, 6 CTAs */
    expect(&gpu, "H200", &k, dsmSuccess, 6 * 132);
    k.regs_per_thread = 0;                                /* unknown: 8 CTAs by threads */
    expect(&gpu, "H200", &k, dsmSuccess, 8 * 132);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_occupancy_matches_every_shape_measured_on_the_h200),
    cmocka_unit_test(test_occupancy_agrees_with_every_device_model_on_random_shapes),
    cmocka_unit_test(test_occupancy_every_boundary_of_the_rules_on_every_model),
    cmocka_unit_test(test_occupancy_counts_only_gpcs_at_least_as_large_as_the_cluster),
    cmocka_unit_test(test_occupancy_rejects_sizes_above_8_without_the_non_portable_attribute),
    cmocka_unit_test(test_occupancy_needs_the_attribute_above_48_kb_and_fits_nothing_above_227_kb),
    cmocka_unit_test(test_occupancy_rounds_shared_memory_and_adds_the_reserved_kilobyte),
    cmocka_unit_test(test_occupancy_registers_limit_by_whole_warps_per_sub_partition),
};

DSM_TEST_MAIN(tests)
