/* exchange_cost.c: the cost model of exchange_cost.h: two L2 trips, a fence and a barrier against one DSMEM trip and a barrier. */
#include "exchange_cost.h"

double exchange_global_cycles(const exchange_params *p, double bytes)
{
    // TODO(ch01.exchange_cost): store (an L2 trip), fence, barrier, load (a second L2 trip).
    (void)p;
    (void)bytes;
    return 0.0;
}

double exchange_dsmem_cycles(const exchange_params *p, double bytes)
{
    // TODO(ch01.exchange_cost): barrier, then one remote load of all the bytes.
    (void)p;
    (void)bytes;
    return 0.0;
}

double exchange_speedup(const exchange_params *p, double bytes)
{
    // TODO(ch01.exchange_cost): the ratio of the two costs above.
    (void)p;
    (void)bytes;
    return 0.0;
}
