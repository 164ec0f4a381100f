/* test_double_buffer_probe.h: force-included into ch03.double_buffer's kernel on the emulator: count its cluster barriers. */
#include "ch01/barrier_probe.h"
