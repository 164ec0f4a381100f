/* exchange_cost.h: a first-order cost model of one exchange of B bytes between two CTAs, through global memory (L2) or through DSMEM. */
#ifndef EXCHANGE_COST_H
#define EXCHANGE_COST_H

/* The machine, in SM cycles and bytes per cycle as one CTA sees them. The
 * values are inputs: take them from the latency ladder you measured. */
typedef struct exchange_params {
    double l2_latency;            /* cycles of one L2 round trip: a load that hits L2, or a store until it is there */
    double l2_bytes_per_cycle;    /* bytes per cycle one CTA moves to or from L2 (> 0) */
    double dsmem_latency;         /* cycles of one remote shared-memory load (a DSMEM round trip) */
    double dsmem_bytes_per_cycle; /* bytes per cycle one CTA reads from a peer's shared memory (> 0) */
    double fence;                 /* cycles of the __threadfence() that pushes the stored bytes out */
    double barrier;               /* cycles of the cluster barrier that tells the reader the data is there */
} exchange_params;

/* Cycles to hand `bytes` from one CTA to another through global memory: the
 * writer stores them (one L2 trip plus bytes at L2 bandwidth), fences, both
 * meet at a barrier, and the reader loads them back (a second L2 trip). */
double exchange_global_cycles(const exchange_params *p, double bytes);

/* Cycles to hand `bytes` over through DSMEM: the data already sits in the
 * writer's shared memory, so both meet at the barrier and the reader loads it
 * from the peer (one DSMEM trip plus bytes at DSMEM bandwidth). */
double exchange_dsmem_cycles(const exchange_params *p, double bytes);

/* How many times faster the DSMEM exchange is: global cycles / DSMEM cycles. */
double exchange_speedup(const exchange_params *p, double bytes);

#endif
