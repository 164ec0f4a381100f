/* report_category.c: one row per emulator report kind: the hint category a learner's failure of that kind gets. */
#include "report_category.h"

#include <stdio.h>
#include <string.h>

/* Indexed by dsm_report_kind. A row is marked, so that a kind left out in
 * the middle is found by the grader's tests (tests/grader/run.sh, "report
 * kinds"); one added at the end of the enum without a row fails the build
 * (the static assertion below). */
static const struct { bool mapped; failure_kind category; } ROWS[] = {
#define ROW(kind, cat) [kind] = {true, cat}
    ROW(DSM_REPORT_NONE, KIND_NONE),
    ROW(DSM_REPORT_LIFETIME, KIND_LIFETIME),
    ROW(DSM_REPORT_LIFETIME_HAZARD, KIND_LIFETIME),
    ROW(DSM_REPORT_UNPUBLISHED_READ, KIND_UNPUBLISHED),
    ROW(DSM_REPORT_RACE_WRITE_WRITE, KIND_RACE),
    ROW(DSM_REPORT_RACE_READ_WRITE, KIND_RACE),
    ROW(DSM_REPORT_SCHEDULE_DEPENDENT, KIND_RACE),
    ROW(DSM_REPORT_UNINITIALIZED_READ, KIND_UNPUBLISHED),
    ROW(DSM_REPORT_RANK_OUT_OF_RANGE, KIND_CRASH),
    ROW(DSM_REPORT_OUT_OF_BOUNDS, KIND_CRASH),
    ROW(DSM_REPORT_DOUBLE_ARRIVE, KIND_DEADLOCK),
    ROW(DSM_REPORT_WAIT_WITHOUT_ARRIVE, KIND_DEADLOCK),
    ROW(DSM_REPORT_SYNCTHREADS_DIVERGENCE, KIND_DEADLOCK),
    ROW(DSM_REPORT_DEADLOCK, KIND_DEADLOCK),
    ROW(DSM_REPORT_BULK_ALIGNMENT, KIND_BULK),
    ROW(DSM_REPORT_BULK_SIZE, KIND_BULK),
    ROW(DSM_REPORT_BULK_SELF, KIND_BULK),
    ROW(DSM_REPORT_MBARRIER_UNINITIALIZED, KIND_MBARRIER),
    ROW(DSM_REPORT_MBARRIER_TX_MISMATCH, KIND_MBARRIER),
    ROW(DSM_REPORT_INVALID_LAUNCH, KIND_LAUNCH),
    ROW(DSM_REPORT_ILLEGAL_ADDRESS, KIND_CRASH),
    ROW(DSM_REPORT_TIMEOUT, KIND_TIMEOUT),
    ROW(DSM_REPORT_MBARRIER_STALE_PARITY, KIND_MBARRIER),
#undef ROW
};
_Static_assert(sizeof ROWS / sizeof ROWS[0] == DSM_REPORT_KIND_COUNT,
               "a dsm_report_kind has no hint category: add its ROW (tools/grade/report_category.c)");

failure_kind report_category(dsm_report_kind k)
{
    if ((unsigned)k >= DSM_REPORT_KIND_COUNT || !ROWS[k].mapped)
        return KIND_CRASH; /* not reached for the kinds of this emulator (the tests check every row) */
    return ROWS[k].category;
}

dsm_report_kind report_kind_from_name(const char *name)
{
    for (int k = 0; k < DSM_REPORT_KIND_COUNT; ++k)
        if (strcmp(name, dsm_report_kind_name((dsm_report_kind)k)) == 0)
            return (dsm_report_kind)k;
    return DSM_REPORT_KIND_COUNT;
}

int report_kinds_command(void)
{
    for (int k = 0; k < DSM_REPORT_KIND_COUNT; ++k)
        printf("%s\t%s\n", dsm_report_kind_name((dsm_report_kind)k),
               ROWS[k].mapped ? failure_kind_name(ROWS[k].category) : "(unmapped)");
    return 0;
}
