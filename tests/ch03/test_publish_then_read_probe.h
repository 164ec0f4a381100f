/* test_publish_then_read_probe.h: force-included into ch03.publish_then_read's kernel on the emulator: count its cluster barriers. */
#include "ch01/barrier_probe.h"
