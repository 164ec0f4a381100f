/* test_split_barrier.c: ch03.split_barrier: the 3-point stencil with a split cluster barrier matches the CPU across CTA edges. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(halo_stencil);

/* Runs halo_stencil on `clusters` clusters of `cluster` CTAs with random tiles
 * of `tile` floats and compares with the stencil computed on the CPU. */
static void check_stencil(int cluster, int clusters, int tile, int threads)
{
    size_t seg = (size_t)cluster * (size_t)tile, elems = seg * (size_t)clusters;
    float *host_in = malloc(elems * sizeof(float)), *expected = malloc(elems * sizeof(float));
    float *host_out = malloc(elems * sizeof(float));
    test_fill_random_float(host_in, elems, -10.0f, 10.0f);
    for (size_t c = 0; c < (size_t)clusters; ++c) {
        const float *x = host_in + c * seg;
        for (size_t j = 0; j < seg; ++j) {
            float left = j > 0 ? x[j - 1] : 0.0f, right = j + 1 < seg ? x[j + 1] : 0.0f;
            expected[c * seg + j] = (left + x[j]) + right;
        }
    }

    float *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, elems * sizeof(float)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, elems * sizeof(float)), dsmSuccess);

    dsm_launch_config cfg = {DSM_DIM3(cluster * clusters, 1, 1), DSM_DIM3(threads, 1, 1),
                             DSM_DIM3(cluster, 1, 1), (size_t)tile * sizeof(float)};
    void *args[] = {&in, &out, &tile};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(halo_stencil), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");

    assert_int_equal(dsm_memcpy_to_host(host_out, out, elems * sizeof(float)), dsmSuccess);
    assert_float_array_near(expected, host_out, elems, 0.0);
    dsm_free(in);
    dsm_free(out);
    free(host_in);
    free(expected);
    free(host_out);
}

static void test_split_barrier_stencil_matches_the_cpu_in_clusters_of_2(void **state)
{
    (void)state;
    check_stencil(2, 2, 2 + (int)test_random_below(200), 64);
}

static void test_split_barrier_stencil_matches_the_cpu_in_clusters_of_8(void **state)
{
    (void)state;
    check_stencil(8, 1, 2 + (int)test_random_below(200), 32);
}

static void test_split_barrier_stencil_with_fewer_threads_than_elements(void **state)
{
    (void)state;
    check_stencil(4, 2, 300 + (int)test_random_below(200), 32);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_split_barrier_stencil_matches_the_cpu_in_clusters_of_2),
    cmocka_unit_test(test_split_barrier_stencil_matches_the_cpu_in_clusters_of_8),
    cmocka_unit_test(test_split_barrier_stencil_with_fewer_threads_than_elements),
};

DSM_TEST_MAIN(tests)
