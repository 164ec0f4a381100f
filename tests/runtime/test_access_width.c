/* test_access_width.c: a 16-byte load counts as one 16-byte load however the kernel uses it (fields one by one, only some fields), whatever the compiler would split: kernel units are built with -fno-tree-sra (mk/runtime.mk). */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(fields_one_by_one);
DSM_DECLARE_KERNEL(two_fields);

/* Runs k on 2 CTAs of 64 threads over in[i] = (i, 2i, 3i, 4i); checks out[i] = want(i) and returns block 0's counts. */
static dsm_emu_counts run(dsm_kernel_t k, uint32_t mx, uint32_t my, uint32_t mz, uint32_t mw)
{
    uint32_t h[128 * 4], g[128];
    for (uint32_t i = 0; i < 128; i++)
        for (uint32_t w = 0; w < 4; w++)
            h[4 * i + w] = (w + 1u) * i;
    uint32_t *in = dev_zeroed(sizeof h), *out = dev_zeroed(sizeof g);
    assert_int_equal(dsm_memcpy_to_device(in, h, sizeof h), dsmSuccess);
    dsm_launch_config cfg = cluster_cfg(2, 64, 1, 0);
    void *args[] = {&in, &out};
    launch_clean(&cfg, k, args);
    assert_int_equal(dsm_memcpy_to_host(g, out, sizeof g), dsmSuccess);
    for (uint32_t i = 0; i < 128; i++)
        assert_int_equal(g[i], mx * i + my * 2u * i + mz * 3u * i + mw * 4u * i);
    dsm_emu_counts c = {0};
    assert_true(dsm_emu_last_counts(0, &c));
    dsm_free(in);
    dsm_free(out);
    return c;
}

static void test_access_width_a_uint4_whose_fields_are_used_one_by_one_is_one_16_byte_load(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_emu_counts c = run(DSM_KERNEL(fields_one_by_one), 1, 3, 5, 7);
    assert_int_equal(c.gmem_ld_ops, 64);
    assert_int_equal(c.gmem_ld_bytes, 64 * 16);
}

static void test_access_width_a_uint4_of_which_two_fields_are_used_is_still_a_16_byte_load(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    dsm_emu_counts c = run(DSM_KERNEL(two_fields), 1, 1, 0, 0);
    assert_int_equal(c.gmem_ld_ops, 64);
    assert_int_equal(c.gmem_ld_bytes, 64 * 16);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_access_width_a_uint4_whose_fields_are_used_one_by_one_is_one_16_byte_load),
    cmocka_unit_test(test_access_width_a_uint4_of_which_two_fields_are_used_is_still_a_16_byte_load),
};
RUNTIME_TEST_MAIN(tests)
