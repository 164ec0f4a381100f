/* report_category.h: the hint category (failure_kind) of each emulator report kind, and report kinds by name. */
#ifndef GRADE_REPORT_CATEGORY_H
#define GRADE_REPORT_CATEGORY_H

#include "course.h"
#include "dsm_emu_control.h"

/* The hint category of a report of kind k (DSM_REPORT_NONE: KIND_NONE). A
 * kind added to dsm_report_kind without a row here fails the build. */
failure_kind report_category(dsm_report_kind k);

/* The report kind whose dsm_report_kind_name is name, or DSM_REPORT_KIND_COUNT for an unknown name. */
dsm_report_kind report_kind_from_name(const char *name);

/* `grade kinds`: one line per report kind, "<name>\t<category>", in enum order. Returns 0. */
int report_kinds_command(void);

#endif
