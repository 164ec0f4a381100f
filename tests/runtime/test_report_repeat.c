/* test_report_repeat.c: a report that launch after launch repeats for one kernel is printed once (then one line saying so), and again after a clean launch; every launch still reports it. */
#include <stdlib.h>
#include <unistd.h>

#include "runtime_test.h"

DSM_DECLARE_KERNEL(read_unwritten);

/* Launches read_unwritten `times` times on 2 CTAs of 32 threads. */
static void launch(int write_first, int times)
{
    int *out = NULL;
    assert_int_equal(dsm_malloc((void **)&out, 64 * sizeof(int)), dsmSuccess);
    dsm_launch_config cfg = {DSM_DIM3(2, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(1, 1, 1), 0};
    void *args[] = {&out, &write_first};
    for (int i = 0; i < times; i++) {
        dsm_error_t e = dsm_launch_sync(&cfg, DSM_KERNEL(read_unwritten), args);
        assert_int_equal(e, write_first ? dsmSuccess : dsmErrorUninitializedRead);
        assert_int_equal(dsm_emu_last_report()->kind,
                         write_first ? DSM_REPORT_NONE : DSM_REPORT_UNINITIALIZED_READ);
    }
    dsm_free(out);
}

/* How many lines of `path` start with `prefix`. */
static int lines_starting(const char *path, const char *prefix)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    fclose(f);
    return n;
}

static void test_report_repeat_is_printed_once_per_run_of_repeats(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    char path[] = "/tmp/report_repeat_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    int saved = dup(2);
    dup2(fd, 2);
    launch(0, 12); /* twelve launches, one report each: printed once, then one line */
    launch(1, 1);  /* a clean launch ... */
    launch(0, 3);  /* ... and the report is printed again */
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    int reports = lines_starting(path, "dsm-emu: error: read of uninitialised shared memory");
    int again = lines_starting(path, "dsm-emu: the same report again for kernel read_unwritten");
    unlink(path);
    assert_int_equal(reports, 2);
    assert_int_equal(again, 2);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_report_repeat_is_printed_once_per_run_of_repeats),
};

int main(void)
{
    return cmocka_run_group_tests(tests, NULL, NULL);
}
