/* test_pingpong_flags_probe.h: force-included into ch05.pingpong_flags's kernels on the emulator: routes their flag stores through pingpong_probe.h, which adds a number to every token stored into the peer's mailbox. */
#ifndef __CUDACC__
#define dsm_emu_flag_store probe_pp_flag_store
#endif
