/* test_halo_2d_probe.h: force-included into ch02.halo_2d's kernel on the emulator: count its cluster barriers. */
#include "ch01/barrier_probe.h"
