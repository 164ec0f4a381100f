/* runtime_test.h: helpers for the runtime's own tests: run a launch under many schedules, expect (or forbid) an emulator report. */
#ifndef RUNTIME_TEST_H
#define RUNTIME_TEST_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dsm_emu_control.h"
#include "dsm_host.h"

/* Eight schedules: a fixed kernel must pass all of them with no report. */
#define EIGHT_SCHEDULES "asc,desc,random:1,random:2,random:3,random:4,random:5,interleave"

static inline int on_emulator(void) { return strcmp(dsm_backend_name(), "emulator") == 0; }

/* Skips the calling test on hardware (buggy kernels must not run there). */
#define EMULATOR_ONLY()         \
    do {                        \
        if (!on_emulator())     \
            skip();             \
    } while (0)

/* Launches and synchronises; asserts success and, on the emulator, that no
 * report was made (under the schedules set with dsm_emu_set_schedules). */
static inline void launch_clean(const dsm_launch_config *cfg, dsm_kernel_t k, void **args)
{
    dsm_error_t e = dsm_launch_sync(cfg, k, args);
    const dsm_report *r = dsm_emu_last_report();
    if (e != dsmSuccess || r->kind != DSM_REPORT_NONE)
        print_error("launch returned %s, report '%s':\n%s\n", dsm_error_name(e), dsm_report_kind_name(r->kind),
                    r->text ? r->text : "");
    assert_int_equal(e, dsmSuccess);
    assert_int_equal(r->kind, DSM_REPORT_NONE);
}

/* Launches and synchronises on the emulator; asserts the report's kind and the error. */
static inline void launch_reported(const dsm_launch_config *cfg, dsm_kernel_t k, void **args, dsm_report_kind kind,
                                   dsm_error_t err)
{
    dsm_emu_set_verbose(0);
    dsm_error_t e = dsm_launch_sync(cfg, k, args);
    dsm_emu_set_verbose(1);
    const dsm_report *r = dsm_emu_last_report();
    if (r->kind != kind || e != err)
        print_error("expected report '%s' with %s, got '%s' with %s:\n%s\n", dsm_report_kind_name(kind),
                    dsm_error_name(err), dsm_report_kind_name(r->kind), dsm_error_name(e), r->text ? r->text : "");
    assert_int_equal(r->kind, kind);
    assert_int_equal(e, err);
}

/* As launch_reported, for the lifetime trap: the access after the exit
 * (lifetime) or an access the exit was not ordered after (lifetime_hazard),
 * whichever the schedule shows first. */
static inline void launch_reported_lifetime(const dsm_launch_config *cfg, dsm_kernel_t k, void **args)
{
    dsm_emu_set_verbose(0);
    dsm_error_t e = dsm_launch_sync(cfg, k, args);
    dsm_emu_set_verbose(1);
    const dsm_report *r = dsm_emu_last_report();
    bool ok = (r->kind == DSM_REPORT_LIFETIME || r->kind == DSM_REPORT_LIFETIME_HAZARD) &&
              e == dsmErrorLaunchFailure;
    if (!ok)
        print_error("expected a lifetime report with cudaErrorLaunchFailure, got '%s' with %s:\n%s\n",
                    dsm_report_kind_name(r->kind), dsm_error_name(e), r->text ? r->text : "");
    assert_true(ok);
}

/* Asserts that the last report's text contains `needle`. */
static inline void report_mentions(const char *needle)
{
    const char *t = dsm_emu_last_report()->text;
    if (!t || !strstr(t, needle))
        print_error("report does not mention \"%s\":\n%s\n", needle, t ? t : "(none)");
    assert_non_null(t);
    assert_non_null(strstr(t, needle));
}

/* `bytes` of device memory, zeroed; the test fails if it cannot be had. */
static inline void *dev_zeroed(size_t bytes)
{
    void *p = NULL;
    assert_int_equal(dsm_malloc(&p, bytes), dsmSuccess);
    assert_int_equal(dsm_memset(p, 0, bytes), dsmSuccess);
    return p;
}

static inline dsm_launch_config cluster_cfg(unsigned grid, unsigned block, unsigned cluster, size_t dyn)
{
    dsm_launch_config c = {DSM_DIM3(grid, 1, 1), DSM_DIM3(block, 1, 1), DSM_DIM3(cluster, 1, 1), dyn};
    return c;
}

/* Runs only the test named by argv[1], when given. */
#define RUNTIME_TEST_MAIN(tests)                                        \
    int main(int argc, char **argv)                                     \
    {                                                                   \
        if (argc > 1)                                                   \
            cmocka_set_test_filter(argv[1]);                            \
        dsm_emu_set_schedules(EIGHT_SCHEDULES);                         \
        return cmocka_run_group_tests(tests, NULL, NULL);               \
    }

#endif
