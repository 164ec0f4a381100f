/* test_launch_options.c: dsm_launch_ex's options, streams, events and captured graphs: launches on a stream run in order, with PDL too, a graph runs what was captured, a refused launch spoils its capture, events time, a cooperative grid larger than the GPU holds is refused. */
#include <stdlib.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(affine_step);

#define N 256
#define STEPS 5

/* x after STEPS steps from x[i] = i, step s multiplying by s + 2 and adding s + 1 (order matters). */
static uint32_t expected(uint32_t i)
{
    uint32_t v = i;
    for (uint32_t s = 0; s < STEPS; s++)
        v = v * (s + 2u) + (s + 1u);
    return v;
}

static uint32_t *start_values(void)
{
    uint32_t h[N], *d = NULL;
    for (uint32_t i = 0; i < N; i++)
        h[i] = i;
    assert_int_equal(dsm_malloc((void **)&d, sizeof h), dsmSuccess);
    assert_int_equal(dsm_memcpy_to_device(d, h, sizeof h), dsmSuccess);
    return d;
}

/* STEPS launches of affine_step on opt's stream. */
static dsm_error_t enqueue_steps(uint32_t *d, const dsm_launch_options *opt)
{
    dsm_launch_config cfg = {DSM_DIM3(N / 64, 1, 1), DSM_DIM3(64, 1, 1), DSM_DIM3(0, 0, 0), 0};
    for (uint32_t s = 0; s < STEPS; s++) {
        int n = N;
        uint32_t mul = s + 2u, add = s + 1u;
        void *args[] = {&d, &n, &mul, &add};
        dsm_error_t e = dsm_launch_ex(&cfg, opt, DSM_KERNEL(affine_step), args);
        if (e != dsmSuccess)
            return e;
    }
    return dsmSuccess;
}

static void assert_steps_done(const uint32_t *d)
{
    uint32_t h[N];
    assert_int_equal(dsm_memcpy_to_host(h, d, sizeof h), dsmSuccess);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(h[i], expected(i));
}

static void run_on_stream(int pdl)
{
    uint32_t *d = start_values();
    dsm_stream_t s = NULL;
    assert_int_equal(dsm_stream_create(&s), dsmSuccess);
    dsm_launch_options opt = {s, pdl, 0};
    assert_int_equal(enqueue_steps(d, &opt), dsmSuccess);
    assert_int_equal(dsm_stream_synchronize(s), dsmSuccess);
    assert_steps_done(d);
    assert_int_equal(dsm_stream_destroy(s), dsmSuccess);
    dsm_free(d);
}

static void test_launch_options_launches_on_a_stream_run_in_order(void **state)
{
    (void)state;
    run_on_stream(0);
}

static void test_launch_options_pdl_launches_that_wait_give_the_in_order_result(void **state)
{
    (void)state;
    run_on_stream(1);
}

static void test_launch_options_no_options_is_the_default_stream(void **state)
{
    (void)state;
    uint32_t *d = start_values();
    assert_int_equal(enqueue_steps(d, NULL), dsmSuccess);
    assert_int_equal(dsm_device_synchronize(), dsmSuccess);
    assert_steps_done(d);
    dsm_free(d);
}

static void run_graph(int pdl)
{
    uint32_t *d = start_values();
    dsm_stream_t s = NULL;
    dsm_graph_exec_t g = NULL;
    assert_int_equal(dsm_stream_create(&s), dsmSuccess);
    dsm_launch_options opt = {s, pdl, 0};
    assert_int_equal(dsm_stream_begin_capture(s), dsmSuccess);
    assert_int_equal(enqueue_steps(d, &opt), dsmSuccess);
    assert_int_equal(dsm_stream_end_capture(s, &g), dsmSuccess);
    assert_non_null(g);
    assert_int_equal(dsm_graph_launch(g, s), dsmSuccess);
    assert_int_equal(dsm_stream_synchronize(s), dsmSuccess);
    assert_steps_done(d);
    assert_int_equal(dsm_graph_exec_destroy(g), dsmSuccess);
    assert_int_equal(dsm_stream_destroy(s), dsmSuccess);
    dsm_free(d);
}

static void test_launch_options_a_captured_graph_gives_the_launches_result_in_order(void **state)
{
    (void)state;
    run_graph(0);
}

static void test_launch_options_a_captured_graph_with_pdl_edges_gives_the_same_result(void **state)
{
    (void)state;
    run_graph(1);
}

static void test_launch_options_a_refused_launch_spoils_its_capture(void **state)
{
    (void)state;
    uint32_t *d = start_values();
    dsm_stream_t s = NULL;
    dsm_graph_exec_t g = (dsm_graph_exec_t)1;
    assert_int_equal(dsm_stream_create(&s), dsmSuccess);
    dsm_launch_options opt = {s, 0, 0};
    dsm_launch_config bad = {DSM_DIM3(1, 1, 1), DSM_DIM3(2048, 1, 1), DSM_DIM3(0, 0, 0), 0}; /* > 1024 threads */
    int n = N;
    uint32_t mul = 1, add = 0;
    void *args[] = {&d, &n, &mul, &add};
    assert_int_equal(dsm_stream_begin_capture(s), dsmSuccess);
    assert_int_not_equal(dsm_launch_ex(&bad, &opt, DSM_KERNEL(affine_step), args), dsmSuccess);
    assert_int_not_equal(dsm_stream_end_capture(s, &g), dsmSuccess);
    assert_null(g);
    assert_int_equal(dsm_stream_destroy(s), dsmSuccess);
    dsm_free(d);
}

static void test_launch_options_events_around_work_give_a_time_and_unrecorded_ones_an_error(void **state)
{
    (void)state;
    uint32_t *d = start_values();
    dsm_stream_t s = NULL;
    dsm_event_t e0 = NULL, e1 = NULL, never = NULL;
    assert_int_equal(dsm_stream_create(&s), dsmSuccess);
    assert_int_equal(dsm_event_create(&e0), dsmSuccess);
    assert_int_equal(dsm_event_create(&e1), dsmSuccess);
    assert_int_equal(dsm_event_create(&never), dsmSuccess);
    dsm_launch_options opt = {s, 0, 0};
    assert_int_equal(dsm_event_record(e0, s), dsmSuccess);
    assert_int_equal(enqueue_steps(d, &opt), dsmSuccess);
    assert_int_equal(dsm_event_record(e1, s), dsmSuccess);
    assert_int_equal(dsm_event_synchronize(e1), dsmSuccess);
    float ms = -1.0f;
    assert_int_equal(dsm_event_elapsed_ms(&ms, e0, e1), dsmSuccess);
    assert_true(ms >= 0.0f);
    assert_int_not_equal(dsm_event_elapsed_ms(&ms, e0, never), dsmSuccess);
    assert_steps_done(d);
    dsm_event_destroy(e0);
    dsm_event_destroy(e1);
    dsm_event_destroy(never);
    dsm_stream_destroy(s);
    dsm_free(d);
}

static void test_launch_options_a_cooperative_grid_that_fits_runs_and_a_larger_one_is_refused(void **state)
{
    (void)state;
    uint32_t *d = start_values();
    dsm_launch_options coop = {NULL, 0, 1};
    int n = N;
    uint32_t mul = 3, add = 1;
    void *args[] = {&d, &n, &mul, &add};
    dsm_launch_config fits = {DSM_DIM3(N / 64, 1, 1), DSM_DIM3(64, 1, 1), DSM_DIM3(0, 0, 0), 0};
    assert_int_equal(dsm_launch_ex(&fits, &coop, DSM_KERNEL(affine_step), args), dsmSuccess);
    assert_int_equal(dsm_device_synchronize(), dsmSuccess);
    uint32_t h[N];
    assert_int_equal(dsm_memcpy_to_host(h, d, sizeof h), dsmSuccess);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(h[i], 3u * i + 1u);
    /* 1024-thread blocks: at most two per SM, so 1 M of them never fit at once on any GPU */
    dsm_launch_config huge = {DSM_DIM3(1u << 20, 1, 1), DSM_DIM3(1024, 1, 1), DSM_DIM3(0, 0, 0), 0};
    assert_int_equal(dsm_launch_ex(&huge, &coop, DSM_KERNEL(affine_step), args), dsmErrorCooperativeLaunchTooLarge);
    assert_int_equal(dsm_device_synchronize(), dsmSuccess);
    dsm_free(d);
}

static void test_launch_options_the_l2_size_is_known(void **state)
{
    (void)state;
    size_t l2 = 0;
    assert_int_equal(dsm_device_l2_bytes(&l2), dsmSuccess);
    assert_true(l2 >= ((size_t)1 << 20));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_launch_options_launches_on_a_stream_run_in_order),
    cmocka_unit_test(test_launch_options_pdl_launches_that_wait_give_the_in_order_result),
    cmocka_unit_test(test_launch_options_no_options_is_the_default_stream),
    cmocka_unit_test(test_launch_options_a_captured_graph_gives_the_launches_result_in_order),
    cmocka_unit_test(test_launch_options_a_captured_graph_with_pdl_edges_gives_the_same_result),
    cmocka_unit_test(test_launch_options_a_refused_launch_spoils_its_capture),
    cmocka_unit_test(test_launch_options_events_around_work_give_a_time_and_unrecorded_ones_an_error),
    cmocka_unit_test(test_launch_options_a_cooperative_grid_that_fits_runs_and_a_larger_one_is_refused),
    cmocka_unit_test(test_launch_options_the_l2_size_is_known),
};
RUNTIME_TEST_MAIN(tests)
