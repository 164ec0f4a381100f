/* xent_plan.cu: the build unit of ch09.xent_plan: the fused kernel (whose occupancy the plan asks about) with the plan beside it. */
#include "xent_cluster.cu"
#include "xent_plan.h"
