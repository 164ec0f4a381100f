/* traffic_model.h: the L2 bytes and the "exchange bandwidth" of the tile-exchange test of chapter 1's deep dive (every CTA swaps a tile with its peer, many times). */
#ifndef TRAFFIC_MODEL_H
#define TRAFFIC_MODEL_H

#include <stdint.h>

/* One run of the tile exchange: `clusters` clusters of `ctas_per_cluster`
 * CTAs; each CTA hands a `tile_bytes` tile to its peer `iterations` times and
 * finally writes `verify_bytes_per_cta` bytes of result to global memory. */
typedef struct tile_exchange {
    uint32_t clusters;
    uint32_t ctas_per_cluster;
    uint32_t iterations;
    uint32_t tile_bytes;
    uint32_t verify_bytes_per_cta;
} tile_exchange;

/* Bytes that cross L2 on the global-memory path: every CTA, every iteration,
 * stores its tile and loads its peer's, plus the verify bytes. Exact in 64
 * bits: the deep dive's own run is past 2^32. */
uint64_t traffic_global_l2_bytes(const tile_exchange *t);

/* Bytes that cross L2 on the DSMEM path: the tiles never leave shared
 * memory, so only the verify bytes (launch traffic such as instruction
 * fetch is left out of both paths). */
uint64_t traffic_dsmem_l2_bytes(const tile_exchange *t);

/* The deep dive's "exchange bandwidth" in bytes per second for a run that took
 * `seconds`: 2 x tile bytes x CTAs x iterations / seconds. */
double traffic_exchange_bandwidth(const tile_exchange *t, double seconds);

#endif
