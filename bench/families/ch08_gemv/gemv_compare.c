/* gemv_compare.c: ch08_gemv's comparison: the best configuration of every variant timed interleaved round by round in rotating order (bench_time_variants), as a graph, as a graph with PDL and launched from the host, so that every ratio is a paired one. */
#include <string.h>

#include "gemv_bench.h"

enum { AS_GRAPH, AS_PDL, AS_HOST, AS_COUNT };

/* Times the best of every variant for p: three timings each (cuBLAS: two, it
 * takes no launch attributes), all in one interleaved set. Fills graph, pdl
 * and stream of every bests[v] that has a configuration; a wrong result is a
 * failed check (bench_time_variants reports it) and leaves no time. */
void gemv_compare_bests(ctx *c, const problem *p, best *bests)
{
    gemv_point pts[V_COUNT * AS_COUNT];
    bench_variant vars[V_COUNT * AS_COUNT];
    bench_variant_result res[V_COUNT * AS_COUNT];
    int slot[V_COUNT][AS_COUNT], n = 0;
    memset(slot, -1, sizeof slot);
    for (int v = 0; v < V_COUNT && !c->broken; ++v) {
        best *bs = &bests[v];
        if (!bs->have)
            continue;
        gemv_prepare_attrs(p, v, &bs->c);
        for (int as = 0; as < AS_COUNT; ++as) {
            if (as == AS_PDL && v == V_CUBLAS)
                continue;   /* cuBLAS's API has no launch attributes (bench.h, bench_blas_open) */
            config g = bs->c;
            g.pdl = as == AS_PDL;
            int graph = as != AS_HOST && !bs->no_graph;
            slot[v][as] = n;
            vars[n] = gemv_point_variant(&pts[n], c, p, v, &g, graph);
            ++n;
        }
    }
    if (n == 0)
        return;     /* nothing timed: every result stays NOT_RUN */
    bench_time_variants(c->b, c->s, vars, n, 1, c->quick ? 3 : 9, res);
    for (int v = 0; v < V_COUNT; ++v) {     /* a way a variant was not timed stays NOT_RUN */
        bench_variant_result *out[AS_COUNT] = {&bests[v].graph, &bests[v].pdl, &bests[v].stream};
        for (int as = 0; as < AS_COUNT; ++as) {
            memset(out[as], 0, sizeof *out[as]);
            if (slot[v][as] < 0)
                continue;
            *out[as] = res[slot[v][as]];
            if (res[slot[v][as]].status == BENCH_VARIANT_WRONG || res[slot[v][as]].status == BENCH_VARIANT_TIMING_FAILED)
                c->failed = 1;
        }
    }
}

bench_stats gemv_pair(const best *a, const best *b, int pdl)
{
    return bench_pair_ratio(pdl ? &a->pdl : &a->graph, pdl ? &b->pdl : &b->graph);
}

int gemv_best_noncluster(const best *bests)
{
    int win = -1;
    for (int v = V_ROWPAR; v <= V_TWOKERNEL; ++v)
        if (bests[v].graph.status == BENCH_VARIANT_TIMED &&
            (win < 0 || bests[v].graph.stats.median < bests[win].graph.stats.median))
            win = v;
    return win;
}
