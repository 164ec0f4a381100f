/* test_support.h: helpers shared by exercise tests: the run's seed, random inputs, array assertions that print what differs, and a main() that can run one test by name. */
#ifndef TEST_SUPPORT_H
#define TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* The seed of this test binary: DSM_SEED when set (decimal or 0x hex),
 * otherwise taken from the clock and the process id. Fixed at the first call;
 * DSM_TEST_MAIN prints it once, as "seed N (repeat with DSM_SEED=N)". */
uint32_t test_seed(void);

/* Restarts the random generator from seed. DSM_TEST_MAIN restarts it from
 * test_seed() before each test that has no setup function of its own, so a
 * test run alone (argv[1]) sees the same inputs as in a full run. */
void test_random_seed(uint32_t seed);

/* The next 32 random bits of the generator. */
uint32_t test_random_u32(void);

/* A random integer in [0, n); n must be positive. */
uint32_t test_random_below(uint32_t n);

/* A random float in [lo, hi). */
float test_random_float(float lo, float hi);

/* Fills a[0..n) with random integers in [lo, hi] (both ends included). */
void test_fill_random_u32(uint32_t *a, size_t n, uint32_t lo, uint32_t hi);

/* Fills a[0..n) with random floats in [lo, hi). */
void test_fill_random_float(float *a, size_t n, float lo, float hi);

/* True when the test runs on the CPU emulator, false on a real GPU: guard
 * emulator-only assertions (dsm_emu_last_report()) with it. */
bool test_on_emulator(void);

/* Fails the running test unless every actual[i] is within tolerance of
 * expected[i]: |expected - actual| <= tolerance * max(1, |expected|); NaN only
 * matches NaN. On failure it prints how many elements differ, the first few
 * indices with expected and actual values, and the seed. */
#define assert_float_array_near(expected, actual, n, tolerance)                                   \
    test_assert_float_array_near((expected), (actual), (n), (tolerance), #actual, __FILE__, __LINE__)

/* Fails the running test unless actual[i] == expected[i] for every i < n; on
 * failure it prints the first differing indices with both values, and the seed. */
#define assert_u32_array_equal(expected, actual, n)                                               \
    test_assert_u32_array_equal((expected), (actual), (n), #actual, __FILE__, __LINE__)

void test_assert_float_array_near(const float *expected, const float *actual, size_t n,
                                  double tolerance, const char *what, const char *file, int line);
void test_assert_u32_array_equal(const uint32_t *expected, const uint32_t *actual, size_t n,
                                 const char *what, const char *file, int line);

/* Runs the cmocka tests in tests[0..count): only the one named argv[1] when
 * given (a cmocka filter: * and ? match anything), all of them otherwise;
 * `--list` prints their names. Prints the seed first. With DSM_TEST_FAIL_FAST
 * set (not "0"; the grader sets it), stops after the first failed test.
 * Returns main's status: 0 when every test ran passed, 2 when argv[1] names
 * no test. */
int test_main(int argc, char **argv, const struct CMUnitTest *tests, size_t count,
              const char *group_name);

/* The main() of a test file: DSM_TEST_MAIN(tests) with tests an array of
 * cmocka_unit_test(...). */
#define DSM_TEST_MAIN(tests)                                                                      \
    int main(int argc, char **argv)                                                               \
    {                                                                                             \
        return test_main(argc, argv, (tests), sizeof(tests) / sizeof((tests)[0]), #tests);       \
    }

#endif
