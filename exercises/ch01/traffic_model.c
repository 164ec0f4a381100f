/* traffic_model.c: counts the bytes of the deep dive's tile exchange, per path, as traffic_model.h defines them. */
#include "traffic_model.h"

uint64_t traffic_global_l2_bytes(const tile_exchange *t)
{
    // TODO(ch01.traffic_model): every CTA writes and reads one tile per iteration, then verifies.
    (void)t;
    return 0;
}

uint64_t traffic_dsmem_l2_bytes(const tile_exchange *t)
{
    // TODO(ch01.traffic_model): which bytes of this path still go through L2?
    (void)t;
    return 0;
}

double traffic_exchange_bandwidth(const tile_exchange *t, double seconds)
{
    // TODO(ch01.traffic_model): the deep dive's formula, 2 x tile bytes x CTAs x iterations / time.
    (void)t;
    (void)seconds;
    return 0.0;
}
