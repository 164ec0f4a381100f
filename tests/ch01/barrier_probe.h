/* barrier_probe.h: force-included into an exercise's kernel on the emulator (as tests/chNN/test_<name>_probe.h): routes its cluster-barrier arrivals through a counter of the test. */
#ifndef CH01_BARRIER_PROBE_H
#define CH01_BARRIER_PROBE_H

/* mk/course.mk compiles the kernel with -include tests/chNN/test_<name>_probe.h
 * when that file exists (emulator builds only). The kernel's
 * dsm_barrier_cluster_arrive() (and dsm_cluster_sync(), which arrives then
 * waits) then calls probe_cluster_arrive, defined by barrier_count.h in the
 * test, which counts and calls the emulator. Nothing else of the kernel changes. */
#ifndef __CUDACC__
#define dsm_emu_barrier_cluster_arrive probe_cluster_arrive
#endif

#endif
