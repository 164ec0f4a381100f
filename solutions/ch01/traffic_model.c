/* traffic_model.c: counts the bytes of the deep dive's tile exchange, per path, as traffic_model.h defines them. */
#include "traffic_model.h"

uint64_t traffic_global_l2_bytes(const tile_exchange *t)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.traffic_model): every CTA writes and reads one tile per iteration, then verifies.
    //~ (void)t;
    //~ return 0;
    uint64_t ctas = (uint64_t)t->clusters * t->ctas_per_cluster;
    uint64_t per_cta = (uint64_t)t->iterations * t->tile_bytes * 2 /* store + load */ + t->verify_bytes_per_cta;
    return ctas * per_cta;
    // END SOLUTION
}

uint64_t traffic_dsmem_l2_bytes(const tile_exchange *t)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.traffic_model): which bytes of this path still go through L2?
    //~ (void)t;
    //~ return 0;
    return (uint64_t)t->clusters * t->ctas_per_cluster * t->verify_bytes_per_cta;
    // END SOLUTION
}

double traffic_exchange_bandwidth(const tile_exchange *t, double seconds)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.traffic_model): the deep dive's formula, 2 x tile bytes x CTAs x iterations / time.
    //~ (void)t;
    //~ (void)seconds;
    //~ return 0.0;
    double ctas = (double)t->clusters * t->ctas_per_cluster;
    return 2.0 * t->tile_bytes * ctas * t->iterations / seconds;
    // END SOLUTION
}
