/* test_double_buffer.c: ch03.double_buffer: many rounds round a ring of CTAs match the CPU in clusters of 2, 4 and 8, the emulator finds no race and no lifetime error under all schedules, and each thread passes exactly rounds + 1 cluster barriers. */
#include <stdlib.h>
#include "dsm_host.h"
#include "dsm_emu_control.h"
#include "ch01/barrier_count.h"
#include "support/test_support.h"

DSM_DECLARE_KERNEL(ring_rounds);

typedef struct ring_shape {
    uint32_t cluster, clusters, threads, rounds;
} ring_shape;

static void check_rounds(const ring_shape *s)
{
    uint32_t blocks = s->cluster * s->clusters;
    size_t elems = (size_t)blocks * s->threads;
    uint32_t *v = malloc(elems * sizeof(uint32_t)), *next = malloc(elems * sizeof(uint32_t));
    uint32_t *host_in = malloc(elems * sizeof(uint32_t)), *host_out = malloc(elems * sizeof(uint32_t));
    test_fill_random_u32(host_in, elems, 0, 0xFFFFFFFFu);
    for (size_t i = 0; i < elems; ++i)
        v[i] = host_in[i];
    for (uint32_t k = 0; k < s->rounds; ++k) {
        for (uint32_t b = 0; b < blocks; ++b) {
            uint32_t r = b % s->cluster, left = b - r + (r + s->cluster - 1) % s->cluster;
            for (uint32_t t = 0; t < s->threads; ++t)
                next[(size_t)b * s->threads + t] = v[(size_t)left * s->threads + t] * 2654435761u + k;
        }
        uint32_t *swap = v;
        v = next;
        next = swap;
    }

    uint32_t *in, *out;
    assert_int_equal(dsm_malloc((void **)&in, elems * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_malloc((void **)&out, elems * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(in, host_in, elems * sizeof(uint32_t)), dsmSuccess);
    assert_int_equal(dsm_memset(out, 0xFF, elems * sizeof(uint32_t)), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(blocks, 1, 1), DSM_DIM3(s->threads, 1, 1), DSM_DIM3(s->cluster, 1, 1), 0};
    uint32_t rounds = s->rounds;
    void *args[] = {&in, &out, &rounds};
    dsm_error_t err = dsm_launch_sync(&cfg, DSM_KERNEL(ring_rounds), args);
    if (err != dsmSuccess)
        fail_msg("dsm_launch_sync returned %s (%s)", dsm_error_name(err), dsm_error_string(err));
    if (test_on_emulator())
        assert_string_equal(dsm_report_kind_name(dsm_emu_last_report()->kind), "none");
    assert_int_equal(dsm_memcpy_to_host(host_out, out, elems * sizeof(uint32_t)), dsmSuccess);
    assert_u32_array_equal(v, host_out, elems);
    dsm_free(in);
    dsm_free(out);
    free(v);
    free(next);
    free(host_in);
    free(host_out);
}

static ring_shape random_ring(uint32_t cluster)
{
    ring_shape s = {cluster, 1 + test_random_below(2), 32u << test_random_below(3), 2 + test_random_below(5)};
    return s;
}

static void test_double_buffer_rounds_match_the_cpu_in_clusters_of_2(void **state)
{
    (void)state;
    ring_shape s = random_ring(2);
    check_rounds(&s);
}

static void test_double_buffer_rounds_match_the_cpu_in_clusters_of_4(void **state)
{
    (void)state;
    ring_shape s = random_ring(4);
    check_rounds(&s);
}

static void test_double_buffer_rounds_match_the_cpu_in_clusters_of_8(void **state)
{
    (void)state;
    ring_shape s = random_ring(8);
    check_rounds(&s);
}

static void test_double_buffer_a_single_round_matches_the_cpu(void **state)
{
    (void)state;
    ring_shape s = {4, 1, 64, 1};
    check_rounds(&s);
}

static void launch_for_count(void *ctx)
{
    check_rounds((const ring_shape *)ctx);
}

static void test_double_buffer_every_thread_passes_rounds_plus_one_cluster_barriers(void **state)
{
    (void)state;
    if (!test_on_emulator())
        skip();
    ring_shape s = {4, 1, 32, 3 + test_random_below(4)};
    uint64_t arrivals = count_cluster_arrivals(launch_for_count, &s);
    uint64_t threads = (uint64_t)s.cluster * s.clusters * s.threads;
    if (arrivals != (s.rounds + 1) * threads)
        fail_msg("with %u rounds every thread passed %.2f cluster barriers (%llu arrivals of %llu threads); the "
                 "contract asks for exactly rounds + 1 = %u",
                 s.rounds, (double)arrivals / (double)threads, (unsigned long long)arrivals,
                 (unsigned long long)threads, s.rounds + 1);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_double_buffer_rounds_match_the_cpu_in_clusters_of_2),
    cmocka_unit_test(test_double_buffer_rounds_match_the_cpu_in_clusters_of_4),
    cmocka_unit_test(test_double_buffer_rounds_match_the_cpu_in_clusters_of_8),
    cmocka_unit_test(test_double_buffer_a_single_round_matches_the_cpu),
    cmocka_unit_test(test_double_buffer_every_thread_passes_rounds_plus_one_cluster_barriers),
};

DSM_TEST_MAIN(tests)
