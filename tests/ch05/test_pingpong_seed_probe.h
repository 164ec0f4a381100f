/* test_pingpong_seed_probe.h: force-included into ch05.pingpong_seed's kernels on the emulator: routes their device-API shared-memory accesses and their fences through pingpong_probe.h, which can add to a token on its way and records what the peer's slot held at each fence. */
#ifndef __CUDACC__
#define dsm_emu_access probe_pp_access
#define dsm_emu_fence probe_pp_fence
#endif
