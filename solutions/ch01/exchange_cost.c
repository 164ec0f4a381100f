/* exchange_cost.c: the cost model of exchange_cost.h: two L2 trips, a fence and a barrier against one DSMEM trip and a barrier. */
#include "exchange_cost.h"

double exchange_global_cycles(const exchange_params *p, double bytes)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.exchange_cost): T_global of the chapter's model.
    //~ (void)p;
    //~ (void)bytes;
    //~ return 0.0;
    double one_trip = p->l2_latency + bytes / p->l2_bytes_per_cycle;
    return one_trip + p->fence + p->barrier + one_trip;
    // END SOLUTION
}

double exchange_dsmem_cycles(const exchange_params *p, double bytes)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.exchange_cost): T_DSMEM of the chapter's model.
    //~ (void)p;
    //~ (void)bytes;
    //~ return 0.0;
    return p->barrier + p->dsmem_latency + bytes / p->dsmem_bytes_per_cycle;
    // END SOLUTION
}

double exchange_speedup(const exchange_params *p, double bytes)
{
    // BEGIN SOLUTION
    //~ // TODO(ch01.exchange_cost): the ratio of the two costs above.
    //~ (void)p;
    //~ (void)bytes;
    //~ return 0.0;
    return exchange_global_cycles(p, bytes) / exchange_dsmem_cycles(p, bytes);
    // END SOLUTION
}
