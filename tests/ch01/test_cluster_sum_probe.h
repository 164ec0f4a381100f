/* test_cluster_sum_probe.h: force-included into ch01.cluster_sum's kernel on the emulator: count its cluster barriers. */
#include "ch01/barrier_probe.h"
