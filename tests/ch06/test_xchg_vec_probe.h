/* test_xchg_vec_probe.h: force-included into ch06.xchg_vec's kernels on the emulator: routes their device-API shared-memory accesses through test_xchg_vec.c, which counts each thread's 16-byte DSMEM loads. */
#ifndef __CUDACC__
#define dsm_emu_access probe_xv_access
#endif
