/* test_device_model.c: the device models and their occupancy rules, checked against the H200 measurements in the anchors. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <cmocka.h>

#include "model/device_model.h"

#define KB ((size_t)1024)

/* One row of bench/results/anchors/occupancy-h200.md (cudaOccupancyMaxActiveClusters
 * on an H200, CUDA 13.0, 2026-11-29). Shared memory is static + dynamic. */
struct anchor_row {
    int cluster_size, threads;
    size_t dynamic_smem, static_smem;
    int clusters, ctas_resident;
};

static const struct anchor_row h200_rows[] = {
    {2, 256, 32 * KB, 0, 396, 792},
    {2, 512, 64 * KB, 0, 198, 396},
    {2, 1024, 64 * KB, 0, 132, 264},
    {2, 1024, 200 * KB, 0, 66, 132},
    {2, 1024, 128 * KB, 0, 66, 132},
    {2, 64, 40 * KB, 64, 330, 660},
    {2, 64, 80 * KB, 64, 132, 264},
    {2, 64, 160 * KB, 64, 66, 132},
    {4, 1024, 64 * KB, 0, 62, 248},
    {4, 64, 80 * KB, 64, 62, 248},
    {8, 1024, 64 * KB, 0, 30, 240},
    {8, 64, 80 * KB, 64, 30, 240},
    {16, 1024, 64 * KB, 0, 14, 224},
    {16, 64, 80 * KB, 64, 14, 224},
};

static const dsm_device_model *h200(void)
{
    const dsm_device_model *m = dsm_model_find("H200");
    assert_non_null(m);
    return m;
}

static void test_device_model_h200_reproduces_measured_cluster_occupancy(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof h200_rows / sizeof h200_rows[0]; i++) {
        const struct anchor_row *r = &h200_rows[i];
        int clusters = -1;
        dsm_error_t err = dsm_model_occupancy_max_active_clusters(
            h200(), r->cluster_size, r->threads, r->dynamic_smem + r->static_smem, 0, &clusters);
        if (err != dsmSuccess || clusters != r->clusters || clusters * r->cluster_size != r->ctas_resident) {
            fprintf(stderr,
                    "row %zu: cluster %d, %d threads, %zu B dyn + %zu B static: model %d clusters (error %d), "
                    "measured %d (%d CTAs)\n",
                    i + 1, r->cluster_size, r->threads, r->dynamic_smem, r->static_smem, clusters, (int)err,
                    r->clusters, r->ctas_resident);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

static void test_device_model_h200_gpc_layout_sums_to_132_sms_and_is_marked_calibrated(void **state)
{
    (void)state;
    const dsm_device_model *m = h200();
    int sum = 0;
    for (int g = 0; g < m->gpc_count; g++)
        sum += m->sms_per_gpc[g];
    assert_int_equal(m->sm_count, 132);
    assert_int_equal(sum, 132);
    assert_true(m->gpc_layout_calibrated);
}

static void test_device_model_every_gpc_layout_sums_to_its_sm_count(void **state)
{
    (void)state;
    assert_int_equal(dsm_model_count(), 4);
    for (int i = 0; i < dsm_model_count(); i++) {
        const dsm_device_model *m = dsm_model_at(i);
        assert_non_null(m);
        assert_in_range(m->gpc_count, 1, DSM_MODEL_MAX_GPCS);
        int sum = 0;
        for (int g = 0; g < m->gpc_count; g++)
            sum += m->sms_per_gpc[g];
        if (sum != m->sm_count)
            fprintf(stderr, "%s: GPCs hold %d SMs, model says %d\n", m->name, sum, m->sm_count);
        assert_int_equal(sum, m->sm_count);
    }
    assert_null(dsm_model_at(dsm_model_count()));
    assert_null(dsm_model_at(-1));
}

static void test_device_model_finds_models_by_short_and_cuda_names_case_insensitively(void **state)
{
    (void)state;
    static const struct { const char *name, *model; } cases[] = {
        {"H200", "H200"},
        {"h200", "H200"},
        {"NVIDIA H200", "H200"},
        {"nvidia h200", "H200"},
        {"NVIDIA H100 80GB HBM3", "H100 SXM"},
        {"h100 sxm", "H100 SXM"},
        {"NVIDIA H100 PCIe", "H100 PCIe"},
        {"H100 PCIE", "H100 PCIe"},
        {"NVIDIA H800", "H800"},
        {"h800", "H800"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dsm_device_model *m = dsm_model_find(cases[i].name);
        if (m == NULL)
            fprintf(stderr, "\"%s\" found nothing\n", cases[i].name);
        assert_non_null(m);
        assert_string_equal(m->name, cases[i].model);
    }
    assert_int_equal(dsm_model_find("H100 PCIe")->sm_count, 114);
    assert_int_equal(dsm_model_find("H100 SXM")->sm_count, 132);
}

static void test_device_model_unknown_or_partial_names_find_nothing(void **state)
{
    (void)state;
    assert_null(dsm_model_find("A100"));
    assert_null(dsm_model_find("H20"));
    assert_null(dsm_model_find("H2000"));
    assert_null(dsm_model_find(""));
    assert_null(dsm_model_find(NULL));
}

static void test_device_model_default_is_h200_and_honours_DSM_EMU_DEVICE(void **state)
{
    (void)state;
    unsetenv("DSM_EMU_DEVICE");
    assert_string_equal(dsm_model_default()->name, "H200");
    setenv("DSM_EMU_DEVICE", "", 1);
    assert_string_equal(dsm_model_default()->name, "H200");
    setenv("DSM_EMU_DEVICE", "h100 pcie", 1);
    assert_string_equal(dsm_model_default()->name, "H100 PCIe");
    setenv("DSM_EMU_DEVICE", "NVIDIA H800", 1);
    assert_string_equal(dsm_model_default()->name, "H800");
    setenv("DSM_EMU_DEVICE", "no such gpu", 1); /* warns on stderr, falls back */
    assert_string_equal(dsm_model_default()->name, "H200");
    unsetenv("DSM_EMU_DEVICE");
}

static void test_device_model_ctas_per_sm_names_the_binding_limit(void **state)
{
    (void)state;
    dsm_cta_occupancy occ;
    /* 32 KB + 1 KB reserved: 228 / 33 = 6 CTAs, while warps allow 8. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 256, 32 * KB, 0, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 6);
    assert_int_equal(occ.by_shared_memory, 6);
    assert_int_equal(occ.by_warps, 8);
    assert_int_equal(occ.by_registers, INT_MAX);
    assert_int_equal(occ.limit, DSM_OCC_LIMIT_SHARED_MEMORY);
    assert_int_equal(occ.smem_allocated_per_block, 33 * KB);
    assert_string_equal(dsm_occ_limit_name(occ.limit), "shared memory");

    /* 1024 threads, little shared memory: 2 CTAs by warps. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 1024, 0, 0, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 2);
    assert_int_equal(occ.limit, DSM_OCC_LIMIT_WARPS);

    /* 32 threads, no shared memory: 64 by warps, so the 32 CTA slots bind. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 32, 0, 0, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 32);
    assert_int_equal(occ.limit, DSM_OCC_LIMIT_CTA_SLOTS);
}

static void test_device_model_shared_memory_is_rounded_to_128_bytes_with_1kb_reserved(void **state)
{
    (void)state;
    dsm_cta_occupancy occ;
    /* 64 B static + 40 KB dynamic + 1 KB reserved = 42048 B -> 42112 B allocated. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 64, 40 * KB + 64, 0, &occ), dsmSuccess);
    assert_int_equal(occ.smem_allocated_per_block, 42112);
    assert_int_equal(occ.ctas_per_sm, 5);
    /* 113 KB + 1 KB = 114 KB: exactly two fit in 228 KB; one byte more and only one does. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 128, 113 * KB, 0, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 2);
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 128, 113 * KB + 1, 0, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 1);
}

static void test_device_model_block_fits_up_to_227kb_and_not_a_byte_more(void **state)
{
    (void)state;
    int clusters = -1;
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 2, 128, 227 * KB, 0, &clusters), dsmSuccess);
    assert_int_equal(clusters, 66);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 2, 128, 227 * KB + 1, 0, &clusters), dsmSuccess);
    assert_int_equal(clusters, 0);
}

static void test_device_model_register_limit_follows_256_register_warp_granularity(void **state)
{
    (void)state;
    dsm_cta_occupancy occ;
    /* 64 registers x 32 threads = 2048 per warp; 16 K per sub-partition hold 8 warps, 32 per SM: one 1024-thread CTA. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 1024, 0, 64, &occ), dsmSuccess);
    assert_int_equal(occ.by_registers, 1);
    assert_int_equal(occ.ctas_per_sm, 1);
    assert_int_equal(occ.limit, DSM_OCC_LIMIT_REGISTERS);
    /* 65 registers round up to 2304 per warp: a 1024-thread CTA does not fit at all. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 1024, 0, 65, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 0);
    /* 32 registers x 256 threads: 1024 per warp, 16 warps per sub-partition, 64 warps: 8 CTAs (warps tie; registers named first). */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 256, 0, 32, &occ), dsmSuccess);
    assert_int_equal(occ.by_registers, 8);
    assert_int_equal(occ.ctas_per_sm, 8);
    /* 40 registers x 256 threads: 1280 per warp, 12 warps per sub-partition, 48 warps: 6 CTAs. */
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 256, 0, 40, &occ), dsmSuccess);
    assert_int_equal(occ.ctas_per_sm, 6);
    assert_int_equal(occ.limit, DSM_OCC_LIMIT_REGISTERS);
}

/* Measured on an H200 with bench/hw/occupancy_probe (bench/results/occupancy_h200.csv):
 * cudaOccupancyMaxActiveClusters for cluster sizes 1..16 at one and at two CTAs per SM. */
static void test_device_model_h200_reproduces_the_measured_cluster_size_sweeps(void **state)
{
    (void)state;
    static const int one_per_sm[16] = {132, 66, 39, 30, 22, 17, 15, 15, 9, 7, 7, 7, 7, 7, 7, 7};
    static const int two_per_sm[16] = {264, 132, 79, 62, 47, 39, 32, 30, 23, 21, 16, 16, 14, 14, 14, 14};
    const dsm_device_model *m = h200();
    for (int c = 1; c <= 16; c++) {
        int one = -1, two = -1;
        assert_int_equal(dsm_model_occupancy_max_active_clusters(m, c, 1024, 160 * KB, 0, &one), dsmSuccess);
        assert_int_equal(dsm_model_occupancy_max_active_clusters(m, c, 1024, 64 * KB, 0, &two), dsmSuccess);
        if (one != one_per_sm[c - 1] || two != two_per_sm[c - 1])
            fail_msg("cluster size %d: model %d and %d clusters, H200 %d and %d", c, one, two, one_per_sm[c - 1],
                     two_per_sm[c - 1]);
    }
}

static void test_device_model_max_potential_cluster_size_is_8_portable_and_16_non_portable(void **state)
{
    (void)state;
    int size = -1;
    assert_int_equal(dsm_model_occupancy_max_potential_cluster_size(h200(), 0, 1024, 64 * KB, 0, &size), dsmSuccess);
    assert_int_equal(size, 8);
    assert_int_equal(dsm_model_occupancy_max_potential_cluster_size(h200(), 1, 1024, 64 * KB, 0, &size), dsmSuccess);
    assert_int_equal(size, 16);
    /* A block that fits nowhere: no cluster size works. */
    assert_int_equal(dsm_model_occupancy_max_potential_cluster_size(h200(), 1, 1024, 228 * KB, 0, &size), dsmSuccess);
    assert_int_equal(size, 0);
}

static void test_device_model_rejects_bad_arguments_with_cuda_error_codes(void **state)
{
    (void)state;
    int clusters = 0;
    dsm_cta_occupancy occ;
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 0, 128, 0, 0, &clusters), dsmErrorInvalidClusterSize);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 17, 128, 0, 0, &clusters), dsmErrorInvalidClusterSize);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 2, 0, 0, 0, &clusters), dsmErrorInvalidValue);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 2, 1025, 0, 0, &clusters), dsmErrorInvalidValue);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 2, 128, 0, 256, &clusters), dsmErrorInvalidValue);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(h200(), 2, 128, 0, 0, NULL), dsmErrorInvalidValue);
    assert_int_equal(dsm_model_occupancy_max_active_clusters(NULL, 2, 128, 0, 0, &clusters), dsmErrorInvalidValue);
    assert_int_equal(dsm_model_ctas_per_sm(h200(), 128, 0, -1, &occ), dsmErrorInvalidValue);
    assert_int_equal(dsm_model_occupancy_max_potential_cluster_size(h200(), 0, 2048, 0, 0, &clusters), dsmErrorInvalidValue);
}

static void test_device_model_cluster_dsmem_is_cluster_size_times_block_shared_memory(void **state)
{
    (void)state;
    assert_int_equal(dsm_model_cluster_dsmem_bytes(h200(), 4, 64 * KB), 256 * KB);
    assert_int_equal(dsm_model_cluster_dsmem_bytes(h200(), 17, 64 * KB), 0);
    assert_int_equal(dsm_model_cluster_dsmem_bytes(h200(), 2, 228 * KB), 0);
    /* 8 x 227 KB portable; 16 x 227 KB = 3632 KB (about 3.5 MiB) only with the non-portable attribute. */
    assert_int_equal(dsm_model_max_cluster_dsmem_bytes(h200(), 0), 8 * 227 * KB);
    assert_int_equal(dsm_model_max_cluster_dsmem_bytes(h200(), 1), 16 * 227 * KB);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_model_h200_reproduces_measured_cluster_occupancy),
        cmocka_unit_test(test_device_model_h200_gpc_layout_sums_to_132_sms_and_is_marked_calibrated),
        cmocka_unit_test(test_device_model_every_gpc_layout_sums_to_its_sm_count),
        cmocka_unit_test(test_device_model_finds_models_by_short_and_cuda_names_case_insensitively),
        cmocka_unit_test(test_device_model_unknown_or_partial_names_find_nothing),
        cmocka_unit_test(test_device_model_default_is_h200_and_honours_DSM_EMU_DEVICE),
        cmocka_unit_test(test_device_model_ctas_per_sm_names_the_binding_limit),
        cmocka_unit_test(test_device_model_shared_memory_is_rounded_to_128_bytes_with_1kb_reserved),
        cmocka_unit_test(test_device_model_block_fits_up_to_227kb_and_not_a_byte_more),
        cmocka_unit_test(test_device_model_register_limit_follows_256_register_warp_granularity),
        cmocka_unit_test(test_device_model_h200_reproduces_the_measured_cluster_size_sweeps),
        cmocka_unit_test(test_device_model_max_potential_cluster_size_is_8_portable_and_16_non_portable),
        cmocka_unit_test(test_device_model_rejects_bad_arguments_with_cuda_error_codes),
        cmocka_unit_test(test_device_model_cluster_dsmem_is_cluster_size_times_block_shared_memory),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    return cmocka_run_group_tests_name("device_model", tests, NULL, NULL);
}
