/* test_pingpong_mbarrier_probe.h: force-included into ch05.pingpong_mbarrier's kernels on the emulator: routes their device-API shared-memory stores and st.async through pingpong_probe.h, which adds a number to every token on its way. */
#ifndef __CUDACC__
#define dsm_emu_access probe_pp_access
#define dsm_emu_st_async probe_pp_st_async
#endif
