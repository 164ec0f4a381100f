/* test_split_barrier_probe.h: force-included into ch03.split_barrier's kernel on the emulator: tells the test which thread calls each cluster arrive and wait, so that it can check where the interior was computed. */
#ifndef TEST_SPLIT_BARRIER_PROBE_H
#define TEST_SPLIT_BARRIER_PROBE_H

#ifndef __CUDACC__
#include "dsm.h"

/* Defined by test_split_barrier.c: called just before thread `thread` of
 * block `block` (blockDim.x threads) arrives (wait == 0) or waits (1). */
void split_probe(int wait, unsigned block, unsigned thread, unsigned threads);

/* dsm_cluster_sync() is built from these two, so it is seen too. */
#undef dsm_barrier_cluster_arrive
#undef dsm_barrier_cluster_arrive_relaxed
#undef dsm_barrier_cluster_wait
#define dsm_barrier_cluster_arrive()                                                              \
    __extension__({                                                                               \
        split_probe(0, blockIdx.x, threadIdx.x, blockDim.x);                                      \
        DSM__SYNC_CALL(dsm_emu_barrier_cluster_arrive(0, DSM__HERE));                             \
    })
#define dsm_barrier_cluster_arrive_relaxed()                                                      \
    __extension__({                                                                               \
        split_probe(0, blockIdx.x, threadIdx.x, blockDim.x);                                      \
        DSM__SYNC_CALL(dsm_emu_barrier_cluster_arrive(1, DSM__HERE));                             \
    })
#define dsm_barrier_cluster_wait()                                                                \
    __extension__({                                                                               \
        split_probe(1, blockIdx.x, threadIdx.x, blockDim.x);                                      \
        DSM__SYNC_CALL(dsm_emu_barrier_cluster_wait(DSM__HERE));                                  \
    })
#endif

#endif
