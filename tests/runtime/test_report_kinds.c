/* test_report_kinds.c: before every report it prints, the emulator prints "dsm-emu-report: kind=<name>", and the name read back is the report's kind (the grader's only source of the kind). */
#include <stdlib.h>
#include <unistd.h>

#include "runtime_test.h"
#ifndef DSM_BACKEND_CUDA
#include "emu/diagnostics/emu_diagnostics.h" /* emu_report_begin/end: one report of each kind, no kernel */
#endif

DSM_DECLARE_KERNEL(kinds_arrive_twice);
DSM_DECLARE_KERNEL(kinds_early_return);

/* stderr goes to a temporary file between capture_start and capture_end, which returns its text (malloc'd). */
static char path[64];
static int saved_fd = -1;

static void capture_start(void)
{
    snprintf(path, sizeof path, "/tmp/report_kinds_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stderr);
    saved_fd = dup(2);
    dup2(fd, 2);
    close(fd);
}

static char *capture_end(void)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static const size_t cap = 1 << 16;
    char *text = calloc(1, cap);
    assert_non_null(text);
    size_t n = fread(text, 1, cap - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(path);
    return text;
}

/* The kind a "dsm-emu-report: kind=<name>" line names (read back by name, as the grader does), or -1 when
 * `line` is not such a line or names no kind. */
static int kind_of_line(const char *line)
{
    size_t np = strlen(DSM_REPORT_KIND_LINE_PREFIX);
    if (strncmp(line, DSM_REPORT_KIND_LINE_PREFIX, np) != 0)
        return -1;
    const char *name = line + np;
    size_t len = strcspn(name, "\n");
    for (int k = 0; k < DSM_REPORT_KIND_COUNT; k++) {
        const char *kn = dsm_report_kind_name((dsm_report_kind)k);
        if (strlen(kn) == len && strncmp(kn, name, len) == 0)
            return k;
    }
    return -1;
}

/* Asserts that every "dsm-emu: ..." report line that starts a block in `text` comes right after a kind line
 * naming `kind`, and that there is at least one. */
static void assert_kind_lines(const char *text, dsm_report_kind kind)
{
    int blocks = 0;
    const char *prev = NULL;
    for (const char *l = text; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
        if (strncmp(l, "dsm-emu: ", 9) == 0) {
            if (!prev || kind_of_line(prev) != (int)kind)
                print_error("report block without a kind line naming '%s' before it:\n%s\n",
                            dsm_report_kind_name(kind), text);
            assert_non_null(prev);
            assert_int_equal(kind_of_line(prev), kind);
            blocks++;
        }
        prev = l;
    }
    assert_true(blocks > 0);
}

static void test_every_kind_has_its_own_name(void **state)
{
    (void)state;
    EMULATOR_ONLY(); /* the GPU backend names no kind */
    for (int a = 0; a < DSM_REPORT_KIND_COUNT; a++) {
        assert_string_not_equal(dsm_report_kind_name((dsm_report_kind)a), "unknown");
        for (int b = a + 1; b < DSM_REPORT_KIND_COUNT; b++)
            assert_string_not_equal(dsm_report_kind_name((dsm_report_kind)a), dsm_report_kind_name((dsm_report_kind)b));
    }
}

static void test_every_report_kind_is_printed_as_a_line_that_reads_back_to_it(void **state)
{
    (void)state;
    EMULATOR_ONLY();
#ifndef DSM_BACKEND_CUDA
    for (int k = 1; k < DSM_REPORT_KIND_COUNT; k++) {
        capture_start();
        emu_report_reset();
        assert_true(emu_report_begin((dsm_report_kind)k, dsmErrorUnknown, "a report of kind %d", k));
        emu_report_line("what", "nothing ran");
        emu_report_end();
        char *text = capture_end();
        assert_int_equal(dsm_emu_last_report()->kind, k);
        /* the kind line first, then the report exactly as recorded */
        assert_int_equal(kind_of_line(text), k);
        assert_string_equal(strchr(text, '\n') + 1, dsm_emu_last_report()->text);
        assert_kind_lines(text, (dsm_report_kind)k);
        free(text);
    }
    emu_report_reset();
#endif
}

static void test_a_kernel_report_is_printed_after_its_kind_line(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out;
    assert_int_equal(dsm_malloc((void **)&out, 64 * sizeof(int)), dsmSuccess);
    void *args[] = {&out};
    dsm_launch_config cluster = {DSM_DIM3(2, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(2, 1, 1), 0};
    dsm_launch_config block = {DSM_DIM3(1, 1, 1), DSM_DIM3(32, 1, 1), DSM_DIM3(1, 1, 1), 0};
    struct { const dsm_launch_config *cfg; dsm_kernel_t k; dsm_report_kind kind; } cases[] = {
        {&cluster, DSM_KERNEL(kinds_arrive_twice), DSM_REPORT_DOUBLE_ARRIVE},
        {&block, DSM_KERNEL(kinds_early_return), DSM_REPORT_SYNCTHREADS_DIVERGENCE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        capture_start();
        (void)dsm_launch_sync(cases[i].cfg, cases[i].k, args);
        (void)dsm_launch_sync(cases[i].cfg, cases[i].k, args); /* repeated: "the same report again", kind first */
        char *text = capture_end();
        assert_int_equal(dsm_emu_last_report()->kind, cases[i].kind);
        assert_non_null(strstr(text, "dsm-emu: the same report again"));
        assert_kind_lines(text, cases[i].kind);
        free(text);
    }
    dsm_free(out);
}

static void test_an_invalid_launch_is_printed_after_its_kind_line(void **state)
{
    (void)state;
    EMULATOR_ONLY();
    int *out;
    assert_int_equal(dsm_malloc((void **)&out, 64 * sizeof(int)), dsmSuccess);
    void *args[] = {&out};
    dsm_launch_config too_big = {DSM_DIM3(2, 1, 1), DSM_DIM3(2048, 1, 1), DSM_DIM3(2, 1, 1), 0};
    capture_start();
    dsm_error_t e = dsm_launch(&too_big, DSM_KERNEL(kinds_arrive_twice), args);
    char *text = capture_end();
    assert_int_not_equal(e, dsmSuccess);
    assert_int_equal(dsm_emu_last_report()->kind, DSM_REPORT_INVALID_LAUNCH);
    assert_kind_lines(text, DSM_REPORT_INVALID_LAUNCH);
    free(text);
    dsm_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_kind_has_its_own_name),
        cmocka_unit_test(test_every_report_kind_is_printed_as_a_line_that_reads_back_to_it),
        cmocka_unit_test(test_a_kernel_report_is_printed_after_its_kind_line),
        cmocka_unit_test(test_an_invalid_launch_is_printed_after_its_kind_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
