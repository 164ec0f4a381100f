/* test_support.c: the seed, random generator, array assertions and test runner declared in test_support.h. */
#ifndef _GNU_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "test_support.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How many differing elements an array assertion lists before "...". */
#define SHOWN_DIFFERENCES 4

static uint32_t seed_value;
static bool seed_fixed;
static uint64_t random_state;
static bool random_started;

uint32_t test_seed(void)
{
    if (!seed_fixed) {
        const char *env = getenv("DSM_SEED");
        if (env != NULL && *env != '\0') {
            seed_value = (uint32_t)strtoul(env, NULL, 0);
        } else {
            /* Any value will do, as long as two runs a second apart differ. */
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            uint64_t mix = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20);
            seed_value = (uint32_t)(mix ^ (mix >> 32)) % 1000000000u;
        }
        seed_fixed = true;
    }
    return seed_value;
}

void test_random_seed(uint32_t seed)
{
    random_state = (uint64_t)seed * 0x9e3779b97f4a7c15ull;
    random_started = true;
}

uint32_t test_random_u32(void)
{
    if (!random_started)
        test_random_seed(test_seed());
    /* splitmix64: a full-period generator with well-mixed output. */
    uint64_t z = (random_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

uint32_t test_random_below(uint32_t n)
{
    return (uint32_t)(((uint64_t)test_random_u32() * n) >> 32);
}

float test_random_float(float lo, float hi)
{
    float unit = (float)(test_random_u32() >> 8) * (1.0f / 16777216.0f); /* [0, 1) */
    float x = lo + (hi - lo) * unit;
    return x < hi ? x : lo; /* rounding can reach hi when the range is wide */
}

void test_fill_random_u32(uint32_t *a, size_t n, uint32_t lo, uint32_t hi)
{
    uint64_t span = (uint64_t)hi - lo + 1;
    for (size_t i = 0; i < n; ++i)
        a[i] = span > UINT32_MAX ? test_random_u32()
                                 : lo + test_random_below((uint32_t)span);
}

void test_fill_random_float(float *a, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; ++i)
        a[i] = test_random_float(lo, hi);
}

bool test_on_emulator(void)
{
#ifdef DSM_BACKEND_CUDA
    return false;
#else
    return true;
#endif
}

static bool float_near(float expected, float actual, double tolerance)
{
    if (isnan(expected) || isnan(actual))
        return isnan(expected) && isnan(actual);
    double scale = fabs((double)expected) > 1.0 ? fabs((double)expected) : 1.0;
    return fabs((double)expected - (double)actual) <= tolerance * scale;
}

void test_assert_float_array_near(const float *expected, const float *actual, size_t n,
                                  double tolerance, const char *what, const char *file, int line)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (float_near(expected[i], actual[i], tolerance))
            continue;
        if (bad == 0)
            print_error("%s differs from the expected values (tolerance %g):\n", what, tolerance);
        if (bad < SHOWN_DIFFERENCES)
            print_error("  [%zu] expected %.9g, actual %.9g\n", i, (double)expected[i],
                        (double)actual[i]);
        ++bad;
    }
    if (bad == 0)
        return;
    print_error("  %zu of %zu elements differ (seed %u: repeat with DSM_SEED=%u)\n", bad, n,
                test_seed(), test_seed());
    _fail(file, line);
}

void test_assert_u32_array_equal(const uint32_t *expected, const uint32_t *actual, size_t n,
                                 const char *what, const char *file, int line)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (expected[i] == actual[i])
            continue;
        if (bad == 0)
            print_error("%s differs from the expected values:\n", what);
        if (bad < SHOWN_DIFFERENCES)
            print_error("  [%zu] expected %u (0x%x), actual %u (0x%x)\n", i, expected[i],
                        expected[i], actual[i], actual[i]);
        ++bad;
    }
    if (bad == 0)
        return;
    print_error("  %zu of %zu elements differ (seed %u: repeat with DSM_SEED=%u)\n", bad, n,
                test_seed(), test_seed());
    _fail(file, line);
}

/* The setup DSM_TEST_MAIN gives tests that have none: restart the generator,
 * so that every test sees the same inputs however it is run. */
static int restart_random(void **state)
{
    (void)state;
    test_random_seed(test_seed());
    return 0;
}

int test_main(int argc, char **argv, const struct CMUnitTest *tests, size_t count,
              const char *group_name)
{
    /* Line-buffered, so that cmocka's stdout and the errors on stderr stay in
     * order when both go to one log file. */
    setvbuf(stdout, NULL, _IOLBF, 0);

    const char *only = argc > 1 ? argv[1] : NULL;
    if (only != NULL && strcmp(only, "--list") == 0) {
        for (size_t i = 0; i < count; ++i)
            printf("%s\n", tests[i].name);
        return 0;
    }
    if (only != NULL) {
        bool found = false;
        for (size_t i = 0; i < count && !found; ++i)
            found = fnmatch(only, tests[i].name, 0) == 0;
        if (!found) {
            fprintf(stderr, "%s: no test named '%s'; the tests are:\n", argv[0], only);
            for (size_t i = 0; i < count; ++i)
                fprintf(stderr, "  %s\n", tests[i].name);
            return 2;
        }
        cmocka_set_test_filter(only);
    }

    struct CMUnitTest *run = malloc(count * sizeof *run);
    if (run == NULL) {
        fprintf(stderr, "%s: out of memory\n", argv[0]);
        return 1;
    }
    for (size_t i = 0; i < count; ++i) {
        run[i] = tests[i];
        if (run[i].setup_func == NULL)
            run[i].setup_func = restart_random;
    }
    printf("seed %u (repeat with DSM_SEED=%u)\n", test_seed(), test_seed());
    int failed = 0;
    const char *fast = getenv("DSM_TEST_FAIL_FAST");
    if (fast != NULL && *fast != '\0' && strcmp(fast, "0") != 0) {
        /* One test at a time, stopping at the first failure: one failed test
         * costs an exercise its points, and a hang in a later test would only
         * push the run past the grader's time limit, hiding the first report. */
        for (size_t i = 0; i < count && failed == 0; ++i)
            failed = _cmocka_run_group_tests(group_name, &run[i], 1, NULL, NULL);
    } else {
        failed = _cmocka_run_group_tests(group_name, run, count, NULL, NULL);
    }
    free(run);
    return failed == 0 ? 0 : 1;
}
