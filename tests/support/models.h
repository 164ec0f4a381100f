/* models.h: every device model a test checks a rule on: the GPUs of runtime/model first, then the hypothetical ones (uneven and small GPCs, other per-SM limits) where a rule that holds on the real parts by luck fails. */
#ifndef TEST_SUPPORT_MODELS_H
#define TEST_SUPPORT_MODELS_H

#include "model/device_model.h"

static inline int test_model_count(void) { return dsm_model_count() + dsm_model_hypothetical_count(); }

/* Model i, 0 <= i < test_model_count(); NULL otherwise. */
static inline const dsm_device_model *test_model_at(int i)
{
    return i < dsm_model_count() ? dsm_model_at(i) : dsm_model_hypothetical_at(i - dsm_model_count());
}

#endif
