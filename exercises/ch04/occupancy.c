/* occupancy.c: ch04.occupancy: cudaOccupancyMaxActiveClusters by hand, from a GPU description (occupancy.h). */
#include "occupancy.h"

// TODO(ch04.occupancy): write occupancy_max_active_clusters as occupancy.h
// and chapter 4 describe it. Work per SM first (how many CTAs of this shape
// one SM holds, limited by each resource in turn), then per GPC.
dsm_error_t occupancy_max_active_clusters(const gpu_desc *gpu, const kernel_shape *k, int *clusters)
{
    (void)gpu;
    (void)k;
    (void)clusters;
    return dsmErrorNotSupported;
}
