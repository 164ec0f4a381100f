/* variants.c: bench_time_variants: check every variant, then time (or sample) them interleaved in rotating order, round by round, with the paired ratios. */
#include <stdio.h>
#include <string.h>

#include "bench_internal.h"

/* One variant's timed body, ready to run: its graph, or nothing (launched one by one). */
typedef struct prepared {
    dsm_graph_exec_t graph;
} prepared;

static dsm_error_t enqueue_calls(const bench_variant *v, dsm_stream_t s)
{
    dsm_error_t err = dsmSuccess;
    for (int i = 0; i < v->calls && err == dsmSuccess; ++i)
        err = v->call(v->ctx, i, s, v->pdl);
    return err;
}

/* Captures v's calls as a graph (v->graph) and runs it once; returns the first error. */
static dsm_error_t prepare(const bench_variant *v, dsm_stream_t s, prepared *p)
{
    p->graph = NULL;
    if (!v->graph)
        return dsmSuccess;
    dsm_error_t err = dsm_stream_begin_capture(s);
    if (err != dsmSuccess)
        return err;
    err = enqueue_calls(v, s);
    dsm_error_t end = dsm_stream_end_capture(s, &p->graph);
    return err != dsmSuccess ? err : end;
}

/* One timing of v's body: µs per call. */
static dsm_error_t time_events(const bench_variant *v, const prepared *p, dsm_stream_t s, dsm_event_t e0,
                               dsm_event_t e1, double *us)
{
    dsm_error_t err = dsm_event_record(e0, s);
    if (err == dsmSuccess)
        err = v->graph ? dsm_graph_launch(p->graph, s) : enqueue_calls(v, s);
    if (err == dsmSuccess)
        err = dsm_event_record(e1, s);
    if (err == dsmSuccess)
        err = dsm_event_synchronize(e1);
    if (err == dsmSuccess)
        err = dsm_stream_synchronize(s); /* execution errors of the calls */
    float ms = 0;
    if (err == dsmSuccess)
        err = dsm_event_elapsed_ms(&ms, e0, e1);
    *us = 1e3 * ms / (v->calls > 0 ? v->calls : 1);
    return err;
}

static void fail_variant(bench *b, const bench_variant *v, const char *what, const char *why)
{
    if (v->kernel != NULL)
        bench_fail_kernel(b, v->kernel, "%s: %s: %s [kernel %s]", v->name, what, why, v->kernel);
    else
        bench_fail(b, "%s: %s: %s", v->name, what, why);
}

/* One round of v (round -1: a warm-up): its event time, or the sample it reads itself. 0 when it
 * failed, reported (the variant's status is then set by the caller). */
static int run_once(bench *b, const bench_variant *v, const prepared *p, dsm_stream_t s, dsm_event_t e0,
                    dsm_event_t e1, int round, double *value)
{
    if (v->sample != NULL) {
        char why[600] = "";
        if (v->sample(v->ctx, round, value, why, sizeof why))
            return 1;
        if (why[0] != '\0')
            fail_variant(b, v, round < 0 ? "wrong result in a warm-up round" : "wrong result in a timed round", why);
        else if (v->kernel == NULL || bench_kernel_ok(b, v->kernel))
            fail_variant(b, v, "wrong result", "a round's check failed");
        return 0;
    }
    dsm_error_t err = time_events(v, p, s, e0, e1, value);
    if (err != dsmSuccess)
        fail_variant(b, v, round < 0 ? "a warm-up call failed" : "a timed call failed", dsm_error_name(err));
    return err == dsmSuccess;
}

int bench_time_variants(bench *b, dsm_stream_t stream, const bench_variant *v, int nv, int warmup, int rounds,
                        bench_variant_result *res)
{
    enum { MAX_VARIANTS = 64 };
    prepared prep[MAX_VARIANTS];
    dsm_event_t e0 = NULL, e1 = NULL;
    if (nv > MAX_VARIANTS) {
        bench_fail(b, "bench_time_variants: %d variants, at most %d", nv, MAX_VARIANTS);
        nv = MAX_VARIANTS;
    }
    rounds = bench_dry(b) ? 1 : rounds < 1 ? 1 : rounds > BENCH_ROUNDS_MAX ? BENCH_ROUNDS_MAX : rounds;
    warmup = bench_dry(b) ? 0 : warmup;
    memset(prep, 0, sizeof prep);
    if (dsm_event_create(&e0) != dsmSuccess || dsm_event_create(&e1) != dsmSuccess) {
        bench_fail(b, "bench_time_variants: creating two events");
        dsm_event_destroy(e0);
        return 0;
    }
    /* 1. check, and prepare the timed body */
    for (int i = 0; i < nv; ++i) {
        memset(&res[i], 0, sizeof res[i]);
        char why[600] = "";
        if (v[i].kernel != NULL && !bench_kernel_ok(b, v[i].kernel)) {
            res[i].status = BENCH_VARIANT_WRONG; /* failed an earlier check: one message is enough */
            continue;
        }
        if (!v[i].check(v[i].ctx, why, sizeof why)) {
            if (why[0] != '\0')
                fail_variant(b, &v[i], "wrong result", why);
            else if (v[i].kernel != NULL && bench_kernel_ok(b, v[i].kernel))
                fail_variant(b, &v[i], "wrong result", "its check failed");
            res[i].status = BENCH_VARIANT_WRONG;
            continue;
        }
        res[i].status = BENCH_VARIANT_TIMED;
        if (v[i].sample != NULL)
            continue; /* it measures itself: nothing to capture */
        dsm_error_t err = prepare(&v[i], stream, &prep[i]);
        if (err != dsmSuccess) {
            res[i].status = BENCH_VARIANT_NOT_CAPTURED; /* the family says what that means (PDL, a library) */
            dsm_graph_exec_destroy(prep[i].graph);
            prep[i].graph = NULL;
            dsm_stream_synchronize(stream);
        }
    }
    /* 2. warm up */
    for (int w = 0; w < warmup; ++w)
        for (int i = 0; i < nv; ++i) {
            double us;
            if (res[i].status != BENCH_VARIANT_TIMED)
                continue;
            res[i].bodies++;
            if (!run_once(b, &v[i], &prep[i], stream, e0, e1, -1, &us))
                res[i].status = v[i].sample != NULL ? BENCH_VARIANT_WRONG : BENCH_VARIANT_TIMING_FAILED;
        }
    /* 3. rounds in rotating order */
    for (int r = 0; r < rounds; ++r)
        for (int k = 0; k < nv; ++k) {
            int i = (r + k) % nv;
            if (res[i].status != BENCH_VARIANT_TIMED)
                continue;
            res[i].bodies++;
            if (!run_once(b, &v[i], &prep[i], stream, e0, e1, r, &res[i].us[r]))
                res[i].status = v[i].sample != NULL ? BENCH_VARIANT_WRONG : BENCH_VARIANT_TIMING_FAILED;
        }
    int timed = 0;
    for (int i = 0; i < nv; ++i) {
        dsm_graph_exec_destroy(prep[i].graph);
        if (res[i].status == BENCH_VARIANT_TIMED) {
            res[i].rounds = rounds;
            res[i].stats = bench_stats_of(res[i].us, rounds);
            ++timed;
        }
    }
    dsm_event_destroy(e0);
    dsm_event_destroy(e1);
    return timed;
}

const char *bench_variant_status_name(bench_variant_status s)
{
    static const char *const names[] = {"not_run", "timed", "wrong", "not_captured", "timing_failed"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

bench_stats bench_pair_ratio(const bench_variant_result *a, const bench_variant_result *b)
{
    bench_stats none = {0, 0, 0, 0};
    if (a->status != BENCH_VARIANT_TIMED || b->status != BENCH_VARIANT_TIMED || a->rounds != b->rounds)
        return none;
    double ratio[BENCH_ROUNDS_MAX];
    int n = 0;
    for (int r = 0; r < a->rounds; ++r)
        if (b->us[r] > 0)
            ratio[n++] = a->us[r] / b->us[r];
    return n ? bench_stats_of(ratio, n) : none;
}
