/* emu_control_stubs.c: dsm_emu_control.h on the GPU backend: no emulator, so no reports and no schedules. */
#include "dsm_emu_control.h"

/* Always kind NONE: hardware does not diagnose. */
const dsm_report *dsm_emu_last_report(void)
{
    static const dsm_report none = {DSM_REPORT_NONE, dsmSuccess, ""};
    return &none;
}

/* Hardware does not count mbarrier phases for us. */
uint32_t dsm_emu_last_mbarrier_phases(void) { return 0; }

/* Kind names belong to the emulator; tests read them only when the backend is "emulator". */
const char *dsm_report_kind_name(dsm_report_kind kind)
{
    (void)kind;
    return "n/a";
}

/* Schedules do not exist on hardware: accepted and ignored. */
dsm_error_t dsm_emu_set_schedules(const char *spec)
{
    (void)spec;
    return dsmSuccess;
}

/* Nothing is printed on hardware either way. */
void dsm_emu_set_verbose(int verbose) { (void)verbose; }

/* Hardware does not count barrier phases for us. */
uint32_t dsm_emu_last_cluster_barrier_phases(void) { return 0; }

/* Hardware counts nothing for us: false and zeros (tests check mechanisms only on the emulator). */
bool dsm_emu_last_counts(uint32_t block, dsm_emu_counts *out)
{
    (void)block;
    *out = (dsm_emu_counts){0};
    return false;
}

bool dsm_emu_last_counts_total(dsm_emu_counts *out)
{
    *out = (dsm_emu_counts){0};
    return false;
}

bool dsm_emu_last_gmem_use(uint32_t block, const void *buffer, dsm_emu_gmem_use *out)
{
    (void)block;
    (void)buffer;
    *out = (dsm_emu_gmem_use){0};
    return false;
}
