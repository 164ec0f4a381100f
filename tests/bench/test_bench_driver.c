/* test_bench_driver.c: the benchmark driver's own pieces: statistics, summary.json (nesting, refused keys, reading back), the repeatability check, the report's reference column, the ncu import (the seed's exchange and chapter 7's streams). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_internal.h"
#include "test_support.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A fresh temporary folder for one test's files, under $TMPDIR (make bench-driver-test
 * points it into build/ and empties it first). */
static const char *temp_dir(void)
{
    static char dir[512];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/bench-driver-test-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    return dir;
}

static void test_stats_median_min_max_of_random_samples_leaves_them_in_order(void **state)
{
    (void)state;
    for (int n = 1; n <= 40; ++n) {
        double s[40], copy[40], sorted[40];
        for (int i = 0; i < n; ++i)
            s[i] = copy[i] = sorted[i] = test_random_float(-100.0f, 100.0f);
        qsort(sorted, (size_t)n, sizeof sorted[0], cmp_double);
        bench_stats st = bench_stats_of(s, n);
        double median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        assert_int_equal(st.n, n);
        assert_true(st.min == sorted[0] && st.max == sorted[n - 1] && st.median == median);
        assert_memory_equal(s, copy, (size_t)n * sizeof s[0]); /* the caller's order is kept */
    }
}

/* summary.json of the given numbers, written to a file; returns its path. */
static const char *write_summary(const char *dir, const char *name, const bench_number *numbers, int count)
{
    static char path[256];
    bench_machine m;
    memset(&m, 0, sizeof m);
    snprintf(m.gpu, sizeof m.gpu, "NVIDIA \"Test\" GPU");
    snprintf(m.commit, sizeof m.commit, "abc");
    text failures = {0};
    text_printf(&failures, "fam: one\nfam: two \"quoted\"\n");
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    summary_write_json(f, &m, numbers, count, 2, &failures, "{}", 0);
    fclose(f);
    text_free(&failures);
    return path;
}

static void test_summary_dotted_keys_nest_and_read_back_as_written(void **state)
{
    (void)state;
    bench_number in[] = {{"latency_cycles.local_shared", 29.0}, {"dsmem_exchange_tbps_best", 5.1},
                         {"latency_cycles.dsmem", 181.5},       {"a.b.c", 1.0},
                         {"a.b.d", 2.0},                        {"a.e", 3.0}};
    int n = (int)(sizeof in / sizeof in[0]);
    const char *path = write_summary(temp_dir(), "summary.json", in, n);
    char text_buf[8192];
    FILE *f = fopen(path, "r");
    size_t len = fread(text_buf, 1, sizeof text_buf - 1, f);
    fclose(f);
    text_buf[len] = '\0';
    /* One object per group, not one per key. */
    assert_non_null(strstr(text_buf, "\"latency_cycles\": {"));
    assert_null(strstr(strstr(text_buf, "\"latency_cycles\": {") + 1, "\"latency_cycles\""));
    assert_non_null(strstr(text_buf, "\"b\": {"));

    bench_number out[64];
    int got = json_read_numbers(path, out, 64);
    assert_true(got >= n);
    for (int i = 0; i < n; ++i) {
        int found = 0;
        for (int j = 0; j < got; ++j)
            found |= strcmp(out[j].key, in[i].key) == 0 && out[j].value == in[i].value;
        if (!found)
            fail_msg("%s = %g did not read back", in[i].key, in[i].value);
    }
}

static void test_summary_refuses_duplicates_reserved_names_and_number_group_clashes(void **state)
{
    (void)state;
    bench_number have[] = {{"latency_cycles.dsmem", 1}, {"x", 2}};
    const char *why = NULL;
    assert_true(summary_key_clashes(have, 2, "latency_cycles.dsmem", &why));
    assert_true(summary_key_clashes(have, 2, "latency_cycles", &why)); /* a group already */
    assert_true(summary_key_clashes(have, 2, "x.y", &why));            /* a number already */
    assert_true(summary_key_clashes(have, 2, "gpu", &why));
    assert_true(summary_key_clashes(have, 2, "failures.count", &why));
    assert_true(summary_key_clashes(have, 2, "a..b", &why));
    assert_true(summary_key_clashes(have, 2, "trailing.", &why));
    assert_false(summary_key_clashes(have, 2, "latency_cycles.l2", &why));
    assert_false(summary_key_clashes(have, 2, "xy", &why));
}

static void test_compare_passes_within_tolerance_and_fails_beyond_or_on_a_missing_headline(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    bench_number a[] = {{"latency_cycles.dsmem", 100.0}, {"dsmem_exchange_tbps_best", 5.0}, {"other", 1.0}};
    bench_number near[] = {{"latency_cycles.dsmem", 102.0}, {"dsmem_exchange_tbps_best", 5.05}, {"other", 2.0}};
    bench_number far[] = {{"latency_cycles.dsmem", 104.0}, {"dsmem_exchange_tbps_best", 5.0}, {"other", 1.0}};
    bench_number fewer[] = {{"latency_cycles.dsmem", 100.0}, {"other", 1.0}};
    char pa[256], pn[256], pf[256], pm[256];
    snprintf(pa, sizeof pa, "%s", write_summary(dir, "a.json", a, 3));
    snprintf(pn, sizeof pn, "%s", write_summary(dir, "near.json", near, 3));
    snprintf(pf, sizeof pf, "%s", write_summary(dir, "far.json", far, 3));
    snprintf(pm, sizeof pm, "%s", write_summary(dir, "fewer.json", fewer, 2));
    assert_int_equal(compare_runs(pa, pn, 3.0, 0), 0); /* "other" doubled, but it is no headline */
    assert_int_equal(compare_runs(pa, pn, 3.0, 1), 1); /* ... unless every number counts */
    assert_int_equal(compare_runs(pa, pf, 3.0, 0), 1);
    assert_int_equal(compare_runs(pa, pf, 5.0, 0), 0);
    assert_int_equal(compare_runs(pa, pm, 3.0, 0), 1);
    assert_int_equal(compare_runs(pm, pa, 3.0, 0), 1);
    assert_int_equal(compare_runs(pa, "/nonexistent/summary.json", 3.0, 0), 2);
}

static void test_headline_tables_set_reference_and_seed_beside_each_number_headlines_first(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    bench_number ref[] = {{"pingpong_dsmem_cycles_per_hop_best", 400.0}};
    bench_number mine[] = {{"pingpong_dsmem_cycles_per_hop_best", 380.0}, {"new_key", 1.0}};
    const char *refpath = write_summary(dir, "ref.json", ref, 1);
    text t = {0};
    report_headline(&t, mine, 2, refpath);
    assert_non_null(strstr(t.s, "| `pingpong_dsmem_cycles_per_hop_best` | 380 | 400 | 0.950 | 736.1 cycles"));
    assert_non_null(strstr(t.s, "| `new_key` | 1 | not in reference |"));
    /* Headline numbers first, every other number in a table of its own below. */
    const char *others = strstr(t.s, "Every other number");
    assert_non_null(others);
    assert_true(strstr(t.s, "`pingpong_dsmem_cycles_per_hop_best`") < others);
    assert_true(strstr(t.s, "`new_key`") > others);
    text_free(&t);
    report_headline(&t, mine, 2, "/nonexistent/summary.json");
    assert_non_null(strstr(t.s, "no reference yet"));
    text_free(&t);
}

static void test_ncu_import_reads_units_separators_and_counts_missing_counters(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char csv[256];
    snprintf(csv, sizeof csv, "%s/ncu-details.csv", dir);
    FILE *f = fopen(csv, "w");
    fputs("==PROF== Disconnected\n"
          "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
          "\"0\",\"xchg_seed_dsmem\",\"lts__t_bytes.sum\",\"byte\",\"5,540,000\"\n"
          "\"0\",\"xchg_seed_dsmem\",\"dram__bytes_read.sum\",\"byte\",\"121\"\n"
          "\"0\",\"xchg_seed_dsmem\",\"dram__bytes_write.sum\",\"Kbyte\",\"262\"\n"
          "\"1\",\"xchg_seed_gmem\",\"lts__t_bytes.sum\",\"Gbyte\",\"29.74\"\n"
          "\"1\",\"xchg_seed_gmem\",\"dram__bytes_read.sum\",\"byte\",\"4,600\"\n"
          "\"2\",\"other_kernel\",\"lts__t_bytes.sum\",\"byte\",\"7\"\n",
          f);
    fclose(f);
    static bench b;
    memset(&b, 0, sizeof b);
    b.run_dir = dir;
    b.family = "ncu";
    assert_int_not_equal(ncu_import(&b, csv), 0); /* gmem's DRAM write is missing */
    assert_int_equal(b.failures, 1);
    int seen = 0;
    for (int i = 0; i < b.number_count; ++i) {
        if (strcmp(b.numbers[i].key, "ncu_seed_exchange.dsmem.l2_bytes") == 0)
            seen += b.numbers[i].value == 5540000.0;
        if (strcmp(b.numbers[i].key, "ncu_seed_exchange.dsmem.dram_write_bytes") == 0)
            seen += b.numbers[i].value == 262000.0;
        if (strcmp(b.numbers[i].key, "ncu_seed_exchange.gmem.l2_bytes") == 0)
            seen += fabs(b.numbers[i].value - 29.74e9) < 1.0;
    }
    assert_int_equal(seen, 3);
    assert_int_equal(b.number_count, 5);
    assert_non_null(strstr(b.report.s, "139.65 MB"));
    text_free(&b.report);
    text_free(&b.failure_log);
}

/* Chapter 7: each profiled launch of bulk_stream / mcast_stream is named from the family's launch log, and
 * multicast's L2 reads are judged against 1/n of per-CTA loading. */
static void test_ncu_import_names_chapter_7_launches_and_judges_one_read_per_cluster(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char path[300];
    snprintf(path, sizeof path, "%s/ch07-launches.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("gpu,sm_clock_mhz,date,commit,kernel,mode,data,cluster\n"
          "h200,1980,d,c,bulk_stream,per-CTA,L2,2\n"
          "h200,1980,d,c,bulk_stream,per-CTA,L2,2\n"
          "h200,1980,d,c,mcast_stream,multicast,L2,2\n"
          "h200,1980,d,c,mcast_stream,multicast,L2,2\n"
          "h200,1980,d,c,bulk_stream,per-CTA,L2,4\n"
          "h200,1980,d,c,mcast_stream,multicast,L2,4\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/ch07.csv", dir);
    f = fopen(path, "w");
    fputs("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
          "\"0\",\"bulk_stream\",\"lts__t_sectors_op_read.sum\",\"sector\",\"1,000,000\"\n"
          "\"1\",\"bulk_stream\",\"lts__t_sectors_op_read.sum\",\"sector\",\"1,000,000\"\n"
          "\"2\",\"mcast_stream\",\"lts__t_sectors_op_read.sum\",\"sector\",\"502,000\"\n"
          "\"3\",\"mcast_stream\",\"lts__t_sectors_op_read.sum\",\"sector\",\"498,000\"\n"
          "\"4\",\"bulk_stream\",\"lts__t_sectors_op_read.sum\",\"sector\",\"1,000,000\"\n"
          "\"5\",\"mcast_stream\",\"lts__t_sectors_op_read.sum\",\"sector\",\"300,000\"\n",
          f);
    fclose(f);
    char ncu_csv[300];
    snprintf(ncu_csv, sizeof ncu_csv, "%s/ncu.csv", dir);   /* the seed's counters are missing: one failure */
    static bench b;
    memset(&b, 0, sizeof b);
    b.run_dir = dir;
    b.family = "ncu";
    ncu_import(&b, ncu_csv);
    assert_int_equal(b.failures, 1);
    double c2 = 0, c4 = 0;
    for (int i = 0; i < b.number_count; ++i) {
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.l2_read_ratio_times_n.c2") == 0)
            c2 = b.numbers[i].value;
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.l2_read_ratio_times_n.c4") == 0)
            c4 = b.numbers[i].value;
    }
    assert_true(fabs(c2 - 1.0) < 1e-9);   /* (502 + 498) / 2 / 1000 x 2 */
    assert_true(fabs(c4 - 1.2) < 1e-9);
    assert_non_null(strstr(b.report.s, "within 5 % of 1/n of per-CTA loading in 1 of 2 configurations"));
    text_free(&b.report);
    text_free(&b.failure_log);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stats_median_min_max_of_random_samples_leaves_them_in_order),
    cmocka_unit_test(test_summary_dotted_keys_nest_and_read_back_as_written),
    cmocka_unit_test(test_summary_refuses_duplicates_reserved_names_and_number_group_clashes),
    cmocka_unit_test(test_compare_passes_within_tolerance_and_fails_beyond_or_on_a_missing_headline),
    cmocka_unit_test(test_headline_tables_set_reference_and_seed_beside_each_number_headlines_first),
    cmocka_unit_test(test_ncu_import_reads_units_separators_and_counts_missing_counters),
    cmocka_unit_test(test_ncu_import_names_chapter_7_launches_and_judges_one_read_per_cluster),
};

DSM_TEST_MAIN(tests)
