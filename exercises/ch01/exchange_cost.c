/* exchange_cost.c: the cost model of exchange_cost.h: two L2 trips, a fence and a barrier against one DSMEM trip and a barrier. */
#include "exchange_cost.h"

double exchange_global_cycles(const exchange_params *p, double bytes)
{
    // TODO(ch01.exchange_cost): T_global of the chapter's model.
    (void)p;
    (void)bytes;
    return 0.0;
}

double exchange_dsmem_cycles(const exchange_params *p, double bytes)
{
    // TODO(ch01.exchange_cost): T_DSMEM of the chapter's model.
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
