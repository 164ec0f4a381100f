/* test_counters.c: the mechanism counters report, per CTA, exactly the bytes, accesses, barriers, flags and copies a kernel made (first schedule only). */
#include "runtime_test.h"

DSM_DECLARE_KERNEL(count_tiles);
DSM_DECLARE_KERNEL(count_signals);
DSM_DECLARE_KERNEL(count_bulk);

enum { TILE = 64 };

static void run_tiles(unsigned clusters, unsigned n, unsigned threads, int vec, float **in, float **out,
                      unsigned **hits)
{
    unsigned blocks = clusters * n;
    *in = dev_zeroed(blocks * TILE * 4);
    *out = dev_zeroed(blocks * TILE * 4);
    *hits = dev_zeroed(4);
    dsm_launch_config cfg = cluster_cfg(blocks, threads, n, 0);
    void *args[] = {in, out, hits, &vec};
    launch_clean(&cfg, DSM_KERNEL(count_tiles), args);
}

static void free3(void *a, void *b, void *c)
{
    dsm_free(a);
    dsm_free(b);
    dsm_free(c);
}

static void test_counters_count_dsmem_bytes_and_the_access_width(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    for (int vec = 0; vec <= 1; vec++) {
        float *in, *out;
        unsigned *hits;
        run_tiles(2, 4, 32, vec, &in, &out, &hits);
        for (uint32_t b = 0; b < 8; b++) {
            dsm_emu_counts k;
            assert_true(dsm_emu_last_counts(b, &k));
            assert_int_equal(k.dsmem_ld_bytes, TILE * 4);
            assert_int_equal(k.dsmem_ld_ops, vec ? TILE / 4 : TILE);
            assert_int_equal(k.dsmem_st_bytes, 0);
            assert_int_equal(k.smem_st_bytes, TILE * 4 + 4); /* the tile and `seen` */
            assert_int_equal(k.smem_st_ops, TILE + 1);
            assert_int_equal(k.smem_ld_bytes, 0);
            assert_int_equal(k.gmem_ld_bytes, TILE * 4);
            assert_int_equal(k.gmem_st_bytes, TILE * 4);
            assert_int_equal(k.gmem_st_ops, vec ? TILE / 4 : TILE);
            assert_int_equal(k.gmem_atom_ops, 1);
            assert_int_equal(k.smem_atom_ops, 1);
        }
        free3(in, out, hits);
    }
}

static void test_counters_say_which_part_of_a_global_buffer_each_block_touched(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    float *in, *out;
    unsigned *hits;
    run_tiles(3, 2, 64, 1, &in, &out, &hits);
    for (uint32_t b = 0; b < 6; b++) {
        dsm_emu_gmem_use u;
        assert_true(dsm_emu_last_gmem_use(b, in, &u));
        assert_int_equal(u.ld_bytes, TILE * 4);
        assert_int_equal(u.ld_lo, b * TILE * 4);
        assert_int_equal(u.ld_hi, (b + 1) * TILE * 4);
        assert_int_equal(u.st_bytes, 0);
        assert_int_equal(u.st_lo, u.st_hi);
        assert_true(dsm_emu_last_gmem_use(b, out, &u));
        assert_int_equal(u.st_lo, b * TILE * 4);
        assert_int_equal(u.st_hi, (b + 1) * TILE * 4);
        assert_int_equal(u.ld_bytes, 0);
        assert_true(dsm_emu_last_gmem_use(b, hits, &u));
        assert_int_equal(u.atom_ops, 1);
    }
    dsm_emu_gmem_use u;
    assert_false(dsm_emu_last_gmem_use(6, in, &u));
    assert_false(dsm_emu_last_gmem_use(0, (char *)in + 4, &u));
    free3(in, out, hits);
}

static void test_counters_count_the_first_schedule_only_and_sum_over_blocks(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    float *in, *out;
    unsigned *hits;
    run_tiles(2, 2, 32, 0, &in, &out, &hits);
    dsm_emu_counts t;
    assert_true(dsm_emu_last_counts_total(&t));
    assert_int_equal(t.dsmem_ld_bytes, 4 * TILE * 4);
    assert_int_equal(t.gmem_atom_ops, 4);
    /* two cluster syncs per thread, 32 threads per CTA, in every CTA */
    assert_int_equal(t.cluster_arrives_release, 4 * 32 * 2);
    assert_int_equal(t.cluster_arrives_relaxed, 0);
    assert_int_equal(t.cluster_waits_min, 2);
    assert_int_equal(t.cluster_waits_max, 2);
    unsigned h;
    assert_int_equal(dsm_memcpy_to_host(&h, hits, 4), dsmSuccess);
    assert_int_equal(h, 4); /* the last schedule's own run: the counts are not summed over schedules */
    free3(in, out, hits);
}

static void test_counters_classify_flags_by_semantics_scope_and_space(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *gflag = dev_zeroed(4), *out = dev_zeroed(4);
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&gflag, &out};
    launch_clean(&cfg, DSM_KERNEL(count_signals), args);
    dsm_emu_counts r0, r1;
    assert_true(dsm_emu_last_counts(0, &r0));
    assert_true(dsm_emu_last_counts(1, &r1));
    assert_int_equal(r0.flags[DSM_FLAG_STORE][DSM_FLAG_STRONG][DSM_FLAG_CLUSTER][DSM_FLAG_PEER_SMEM], 1);
    assert_int_equal(r0.flags[DSM_FLAG_STORE][DSM_FLAG_RELAXED][DSM_FLAG_GPU][DSM_FLAG_GLOBAL], 1);
    assert_int_equal(r0.flags[DSM_FLAG_LOAD][DSM_FLAG_STRONG][DSM_FLAG_CLUSTER][DSM_FLAG_OWN_SMEM], 0);
    /* the pollers load at least once each (how often depends on the schedule) */
    assert_true(r1.flags[DSM_FLAG_LOAD][DSM_FLAG_STRONG][DSM_FLAG_CLUSTER][DSM_FLAG_OWN_SMEM] >= 1);
    assert_true(r1.flags[DSM_FLAG_LOAD][DSM_FLAG_RELAXED][DSM_FLAG_GPU][DSM_FLAG_GLOBAL] >= 1);
    assert_int_equal(r1.flags[DSM_FLAG_STORE][DSM_FLAG_STRONG][DSM_FLAG_CLUSTER][DSM_FLAG_PEER_SMEM], 0);
    assert_int_equal(r1.fences, r0.fences + 1); /* both ran fence.mbarrier_init; rank 1 one fence.acq_rel more */
    assert_int_equal(r1.mbarrier_remote_arrives, 1);
    assert_int_equal(r0.mbarrier_remote_arrives, 0);
    assert_int_equal(r0.mbarrier_phases, 1);
    assert_int_equal(r1.mbarrier_phases, 0);
    assert_int_equal(r1.cluster_arrives_relaxed, 32);
    assert_int_equal(r1.cluster_arrives_release, 32);
    assert_int_equal(r0.cluster_arrives_release, 64);
    dsm_free(gflag);
    dsm_free(out);
}

static void test_counters_count_bulk_copy_bytes_on_both_sides(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    uint32_t *out = dev_zeroed(64);
    dsm_launch_config cfg = cluster_cfg(2, 32, 2, 0);
    void *args[] = {&out};
    launch_clean(&cfg, DSM_KERNEL(count_bulk), args);
    dsm_emu_counts r0, r1;
    assert_true(dsm_emu_last_counts(0, &r0));
    assert_true(dsm_emu_last_counts(1, &r1));
    assert_int_equal(r0.async_out_bytes, 64);
    assert_int_equal(r0.async_in_bytes, 0);
    assert_int_equal(r1.async_in_bytes, 64);
    assert_int_equal(r1.async_out_bytes, 0);
    assert_int_equal(r1.mbarrier_phases, 1);
    assert_int_equal(r0.dsmem_ld_bytes + r0.dsmem_st_bytes, 0);
    uint32_t h[16];
    assert_int_equal(dsm_memcpy_to_host(h, out, sizeof h), dsmSuccess);
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(h[i], i);
    dsm_free(out);
}

static void test_counters_answer_false_for_a_block_that_does_not_exist(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    float *in, *out;
    unsigned *hits;
    run_tiles(1, 2, 32, 0, &in, &out, &hits);
    dsm_emu_counts k;
    assert_false(dsm_emu_last_counts(2, &k));
    assert_int_equal(k.dsmem_ld_bytes, 0);
    free3(in, out, hits);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counters_count_dsmem_bytes_and_the_access_width),
        cmocka_unit_test(test_counters_say_which_part_of_a_global_buffer_each_block_touched),
        cmocka_unit_test(test_counters_count_the_first_schedule_only_and_sum_over_blocks),
        cmocka_unit_test(test_counters_classify_flags_by_semantics_scope_and_space),
        cmocka_unit_test(test_counters_count_bulk_copy_bytes_on_both_sides),
        cmocka_unit_test(test_counters_answer_false_for_a_block_that_does_not_exist),
    };
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    dsm_emu_set_schedules(EIGHT_SCHEDULES);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
