/* test_xchg_seed_probe.h: force-included into ch06.xchg_seed's kernels on the emulator: routes their cluster-barrier arrivals and fences through test_xchg_seed.c, which records the order of both for every thread. */
#ifndef __CUDACC__
#define dsm_emu_barrier_cluster_arrive probe_seed_arrive
#define dsm_emu_fence probe_seed_fence
#endif
