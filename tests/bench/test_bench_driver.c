/* test_bench_driver.c: the benchmark driver's own pieces: statistics, summary.json (nesting, refused keys, nulls and their reasons, reading back), failed kernels leaving no number, the audit, the repeatability check, the report's reference column, the ncu import (the seed's exchange, chapter 7's streams, chapter 9's DRAM bytes; FAMILY= imports those alone), the check-then-time helper (rotating rounds, failed checks, paired ratios). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_internal.h"
#include "test_support.h"

/* The kernels this test pretends the build has (the bench build generates the real table). */
const bench_kernel_entry bench_kernel_table[] = {{"xchg_vec_dsmem", "ch06/xchg_vec.cu", "ch06.xchg_vec"},
                                                 {"xchg_vec_gmem", "ch06/xchg_vec.cu", "ch06.xchg_vec"},
                                                 {"ring_global", "ch06/ring_global.cu", ""},
                                                 {0, 0, 0}};
const int bench_kernel_count = 3;

/* The families this test pretends the build has: only their tables of keys are read (keys.c). */
static const bench_key_info fake_keys[] = {
    {"latency_cycles.", 1, NULL},
    {"dsmem_exchange_tbps_best", 1, NULL},
    {"bandwidth_pairs.", 1, NULL},
    {"pingpong_dsmem_cycles_per_hop_best", 1, "736.1 cycles (store + cluster.sync per hop)"},
    {NULL, 0, NULL},
};
/* The families' counter imports are linked in (bench/families/<family>/ncu_counters.c); chapter 9's is
 * called on its own. */
extern const bench_counters bench_counters_ch06_exchange, bench_counters_ch07_multicast, bench_counters_ch09_xent;
const bench_family_entry bench_family_table[] = {{"fake", NULL, fake_keys, NULL},
                                                 {"ch06_exchange", NULL, NULL, &bench_counters_ch06_exchange},
                                                 {"ch07_multicast", NULL, NULL, &bench_counters_ch07_multicast},
                                                 {0, 0, 0, 0}};
const int bench_family_count = 3;

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
    summary_write_json(f, &m, numbers, count, 2, &failures, " xchg_vec_gmem ", "{}", 0);
    fclose(f);
    text_free(&failures);
    return path;
}

static void test_summary_dotted_keys_nest_and_read_back_as_written(void **state)
{
    (void)state;
    bench_number in[] = {{.key = "latency_cycles.local_shared", .value = 29.0},
                         {.key = "dsmem_exchange_tbps_best", .value = 5.1},
                         {.key = "latency_cycles.dsmem", .value = 181.5},
                         {.key = "a.b.c", .value = 1.0},
                         {.key = "a.b.d", .value = 2.0},
                         {.key = "a.e", .value = 3.0}};
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
    bench_number have[] = {{.key = "latency_cycles.dsmem", .value = 1}, {.key = "x", .value = 2}};
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
#define ROW(l, e, o) {{.key = "latency_cycles.dsmem", .value = l}, {.key = "dsmem_exchange_tbps_best", .value = e}, \
                      {.key = "other", .value = o}}
    bench_number a[] = ROW(100.0, 5.0, 1.0), near[] = ROW(102.0, 5.05, 2.0), far[] = ROW(104.0, 5.0, 1.0);
#undef ROW
    bench_number fewer[] = {{.key = "latency_cycles.dsmem", .value = 100.0}, {.key = "other", .value = 1.0}};
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
    bench_number ref[] = {{.key = "pingpong_dsmem_cycles_per_hop_best", .value = 400.0}};
    bench_number mine[] = {{.key = "pingpong_dsmem_cycles_per_hop_best", .value = 380.0},
                           {.key = "new_key", .value = 1.0}};
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
    snprintf(csv, sizeof csv, "%s/ncu_seed_dsmem.csv", dir);   /* one profile's file holds both kernels here */
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
    assert_int_not_equal(ncu_import(&b, dir, NULL, 0), 0); /* gmem's DRAM write is missing */
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

/* A whole file into buf (NUL-terminated). */
static const char *read_file(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t len = fread(buf, 1, size - 1, f);
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static void test_summary_writes_null_with_its_reason_texts_and_failed_kernels_with_their_exercise(void **state)
{
    (void)state;
    bench_number in[3];
    memset(in, 0, sizeof in);
    snprintf(in[0].key, sizeof in[0].key, "bandwidth_pairs.vec.gmem_tbps");
    in[0].value = NAN;
    snprintf(in[0].why, sizeof in[0].why, "xchg_vec_gmem failed a check in this run");
    snprintf(in[1].key, sizeof in[1].key, "bandwidth_pairs.best.dsmem_mechanism");
    snprintf(in[1].text, sizeof in[1].text, "ring_push");
    snprintf(in[2].key, sizeof in[2].key, "bandwidth_pairs.vec.dsmem_tbps");
    in[2].value = 3.5;
    char buf[8192];
    read_file(write_summary(temp_dir(), "summary.json", in, 3), buf, sizeof buf);
    assert_non_null(strstr(buf, "\"gmem_tbps\": null"));
    assert_non_null(strstr(buf, "\"dsmem_mechanism\": \"ring_push\""));
    assert_non_null(strstr(buf, "\"bandwidth_pairs.vec.gmem_tbps\": \"xchg_vec_gmem failed a check in this run\""));
    assert_non_null(strstr(buf, "{\"kernel\": \"xchg_vec_gmem\", \"exercise\": \"ch06.xchg_vec\", \"file\": "
                                "\"ch06/xchg_vec.cu\"}"));
}

/* A family's CSV with rows of two kernels, written through the driver. */
static void write_family_csv(bench *b)
{
    bench_csv *csv = bench_csv_open(b, "t", "path,kernel,threads,launch,iters,ms_median,crossing_tbps");
    bench_csv_row(csv, "dsmem,xchg_vec_dsmem,128,cudaSuccess,7,1.5000,2.2000");
    bench_csv_row(csv, "gmem,xchg_vec_gmem,128,cudaSuccess,7,1.9000,1.8000");
    bench_csv_row(csv, "gmem,xchg_vec_gmem,512,failed,failed,failed,failed");
    bench_csv_close(csv);
}

static void test_a_kernel_that_fails_once_keeps_no_number_in_summary_or_csv(void **state)
{
    (void)state;
    static bench b;
    memset(&b, 0, sizeof b);
    b.run_dir = temp_dir();
    b.family = "ch06_exchange";
    write_family_csv(&b);
    bench_summary_measured(&b, "bandwidth_pairs.vec.dsmem_tbps", 2.2, "xchg_vec_dsmem");
    bench_summary_measured(&b, "bandwidth_pairs.vec.gmem_tbps", 1.8, "xchg_vec_gmem");
    bench_summary_measured(&b, "bandwidth_pairs.vec.dsmem_over_gmem", 2.2 / 1.8, "xchg_vec_dsmem xchg_vec_gmem");
    assert_true(bench_kernel_ok(&b, "xchg_vec_gmem"));
    /* a message that names a kernel fails no kernel: only bench_fail_kernel does, even after the numbers */
    bench_fail(&b, "xchg_vec_gmem, neighbour, clusters of 2: the pool could not be allocated");
    assert_true(bench_kernel_ok(&b, "xchg_vec_gmem"));
    bench_fail_kernel(&b, "xchg_vec_gmem", "neighbour, clusters of 2: CTA 0, word 3: got 0x1, want 0x2");
    assert_false(bench_kernel_ok(&b, "xchg_vec_gmem"));
    assert_true(bench_kernel_ok(&b, "xchg_vec_dsmem"));
    bench_finish_family(&b);
    assert_true(isfinite(b.numbers[0].value));
    assert_false(isfinite(b.numbers[1].value));
    assert_false(isfinite(b.numbers[2].value));
    assert_non_null(strstr(b.numbers[2].why, "xchg_vec_gmem"));
    char path[600], buf[4096];
    snprintf(path, sizeof path, "%s/t.csv", b.run_dir);
    read_file(path, buf, sizeof buf);
    assert_non_null(strstr(buf, ",dsmem,xchg_vec_dsmem,128,cudaSuccess,7,1.5000,2.2000\n"));
    assert_non_null(strstr(buf, ",gmem,xchg_vec_gmem,128,failed,failed,failed,failed\n"));
    assert_null(strstr(buf, "1.9000"));
    int audited = 0;
    assert_int_equal(csv_audit_file(path, b.failed_kernels.s, stderr, &audited), 0);
    assert_int_equal(audited, 1);
    text_free(&b.failed_kernels);
    text_free(&b.failure_log);
}

static void test_audit_finds_a_number_in_a_row_of_a_failed_kernel_and_a_missing_expected_failure(void **state)
{
    (void)state;
    static bench b;
    memset(&b, 0, sizeof b);
    b.run_dir = temp_dir();
    write_family_csv(&b);
    bench_finish_family(&b);    /* no kernel failed: the table is written as it is */
    char path[600];
    snprintf(path, sizeof path, "%s/t.csv", b.run_dir);
    int audited = 0;
    assert_int_equal(csv_audit_file(path, " xchg_vec_gmem ", stderr, &audited), 1); /* its 128-thread row */
    assert_int_equal(csv_audit_file(path, " ring_global ", stderr, &audited), 0);
    snprintf(path, sizeof path, "%s/failed_kernels.txt", b.run_dir);
    FILE *f = fopen(path, "w");
    fputs("xchg_vec_dsmem ch06.xchg_vec ch06/xchg_vec.cu\n", f);
    fclose(f);
    assert_int_equal(audit_run(b.run_dir, "xchg_vec_dsmem"), 1);  /* its row still has numbers */
    assert_int_equal(audit_run(b.run_dir, "xchg_vec_gmem"), 1);   /* and gmem was not named */
}

static void test_compare_counts_a_null_headline_as_not_measured_and_judges_no_value_of_a_dry_run(void **state)
{
    (void)state;
    const char *dir = temp_dir();
#define ROW(r, e) {{.key = "bandwidth_pairs.ring.dsmem_over_gmem", .value = r}, {.key = "dsmem_exchange_tbps_best", .value = e}}
    bench_number a[] = ROW(1.5, 5.0), b[] = ROW(NAN, 5.0), d[] = ROW(0.001, 1e-6);
#undef ROW
    char pa[256], pb[256], pd[256];
    snprintf(pa, sizeof pa, "%s", write_summary(dir, "a.json", a, 2));
    snprintf(pb, sizeof pb, "%s", write_summary(dir, "b.json", b, 2));
    assert_int_equal(compare_runs(pa, pb, 3.0, 0), 1);
    /* a dry run with other values but every headline measured: nothing to judge */
    snprintf(pd, sizeof pd, "%s", write_summary(dir, "d.json", d, 2));
    char buf[8192];
    read_file(pd, buf, sizeof buf);
    char *p = strstr(buf, "\"dry_run\": false");
    assert_non_null(p);
    memcpy(p, "\"dry_run\": true ", strlen("\"dry_run\": true "));
    FILE *f = fopen(pd, "w");
    fputs(buf, f);
    fclose(f);
    assert_true(summary_is_dry_run(pd));
    assert_int_equal(compare_runs(pd, pa, 3.0, 0), 0);
    assert_int_equal(compare_runs(pd, pb, 3.0, 0), 1); /* the reference did not measure one */
}

/* Chapter 7: each profiled launch of bulk_stream / mcast_stream is named from the family's launch log, and
 * multicast's L2 reads are judged against delivered / n, with per-CTA loading's reads (merged below what it
 * delivers) and the multicast / per-CTA ratio beside them. */
static void test_ncu_import_names_chapter_7_launches_and_judges_one_read_per_cluster(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char path[300];
    snprintf(path, sizeof path, "%s/run-ch07", dir);    /* the profiled run's folder: its launch log */
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/run-ch07/ch07-ncu-launches.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("gpu,sm_clock_mhz,date,commit,kernel,mode,data,cluster,delivered_bytes\n"
          "h200,1980,d,c,bulk_stream,per-CTA,L2,2,64000000\n"
          "h200,1980,d,c,bulk_stream,per-CTA,L2,2,64000000\n"
          "h200,1980,d,c,mcast_stream,multicast,L2,2,64000000\n"
          "h200,1980,d,c,mcast_stream,multicast,L2,2,64000000\n"
          "h200,1980,d,c,bulk_stream,per-CTA,L2,4,64000000\n"
          "h200,1980,d,c,mcast_stream,multicast,L2,4,64000000\n",
          f);
    fclose(f);
    snprintf(path, sizeof path, "%s/ch07.csv", dir);
    f = fopen(path, "w");
    /* per CTA: 1,000,000 sectors = 32 MB, half of the 64 MB delivered (merged requests); multicast at n = 2:
     * 32 MB = delivered / 2; at n = 4: 9.6 MB, 1.2 x delivered / 4 */
    fputs("\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
          "\"0\",\"bulk_stream\",\"lts__t_sectors_srcunit_tex_op_read.sum\",\"sector\",\"1,000,000\"\n"
          "\"1\",\"bulk_stream\",\"lts__t_sectors_srcunit_tex_op_read.sum\",\"sector\",\"1,000,000\"\n"
          "\"2\",\"mcast_stream\",\"lts__t_sectors_srcunit_tex_op_read.sum\",\"sector\",\"1,004,000\"\n"
          "\"3\",\"mcast_stream\",\"lts__t_sectors_srcunit_tex_op_read.sum\",\"sector\",\"996,000\"\n"
          "\"4\",\"bulk_stream\",\"lts__t_sectors_srcunit_tex_op_read.sum\",\"sector\",\"1,000,000\"\n"
          "\"5\",\"mcast_stream\",\"lts__t_sectors_srcunit_tex_op_read.sum\",\"sector\",\"600,000\"\n",
          f);
    fclose(f);
    static bench b;     /* the tile exchange's counters are missing: one failure */
    memset(&b, 0, sizeof b);
    b.run_dir = dir;
    b.family = "ncu";
    ncu_import(&b, dir, NULL, 0);
    assert_int_equal(b.failures, 1);
    double c2 = 0, c4 = 0, pc2 = 0, mc2 = 0, mc4 = 0;
    for (int i = 0; i < b.number_count; ++i) {
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.l2_read_ratio_times_n.c2") == 0)
            c2 = b.numbers[i].value;
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.l2_read_ratio_times_n.c4") == 0)
            c4 = b.numbers[i].value;
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.per_cta_l2_read_of_delivered.c2") == 0)
            pc2 = b.numbers[i].value;
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.multicast_l2_read_times_n_of_delivered.c2") == 0)
            mc2 = b.numbers[i].value;
        if (strcmp(b.numbers[i].key, "ncu_multicast.l2.multicast_l2_read_times_n_of_delivered.c4") == 0)
            mc4 = b.numbers[i].value;
    }
    assert_true(fabs(pc2 - 0.5) < 1e-9);   /* 32 MB read for 64 MB delivered */
    assert_true(fabs(mc2 - 1.0) < 1e-9);   /* (1.004 + 0.996) / 2 x 32 MB x 2 / 64 MB */
    assert_true(fabs(mc4 - 1.2) < 1e-9);
    assert_true(fabs(c2 - 2.0) < 1e-9);    /* against per-CTA's merged counter: twice 1/n */
    assert_true(fabs(c4 - 2.4) < 1e-9);
    assert_non_null(strstr(b.report.s, "within 5 % of delivered / n in 1 of 2 configurations"));
    assert_non_null(strstr(b.report.s, "within 5 % of 1/n of per-CTA loading's counter in 0 of 2"));
    text_free(&b.report);
    text_free(&b.failure_log);
}

/* Writes text into dir/name. */
static void write_text(const char *dir, const char *name, const char *text)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The value of summary key `key` (NAN when absent or not measured). */
static double number_of(const bench *b, const char *key)
{
    for (int i = 0; i < b->number_count; ++i)
        if (strcmp(b->numbers[i].key, key) == 0)
            return b->numbers[i].value;
    return NAN;
}

/* Chapter 9: each profiled launch named from the family's launch log (ncu's name may carry the
 * parameters), two kernels' two launches summed, DRAM bytes over the bytes of logits; a design whose
 * check failed gives no number, a launch ncu did not read is a failure. With FAMILY=, ncu_import calls
 * only the named families' imports (here not the tile exchange's, which would fail). */
static void test_ncu_import_names_chapter_9_launches_and_gives_dram_bytes_per_logit_byte(void **state)
{
    (void)state;
    const char *dir = temp_dir();
    char path[300];
    snprintf(path, sizeof path, "%s/run-ch09", dir);
    assert_int_equal(mkdir(path, 0755), 0);
    write_text(dir, "run-ch09/ch09-ncu-launches.csv",
               "gpu,sm_clock_mhz,date,commit,dtype,V,M,variant,config,kernel,status,logit_bytes\n"
               "h200,1980,d,c,bf16,1000,4,copy,-,xent_copy,ok,8000\n"
               "h200,1980,d,c,bf16,1000,4,cluster,c2_t128,xent_cluster_bf16,ok,8000\n"
               "h200,1980,d,c,bf16,1000,4,twokernel,c2_t256,xent_split_stat_bf16,ok,8000\n"
               "h200,1980,d,c,bf16,1000,4,twokernel,c2_t256,xent_split_grad_bf16,ok,8000\n"
               "h200,1980,d,c,bf16,1000,4,gmem_cluster,c2_t128,xent_gmem_bf16,failed,failed\n"
               "h200,1980,d,c,f32,1000,4,copy,-,xent_copy,ok,16000\n");
    write_text(dir, "ch09.csv",
               "==PROF== a line of ncu's own\n"
               "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
               "\"0\",\"xent_copy\",\"dram__bytes_read.sum\",\"byte\",\"8,000\"\n"
               "\"0\",\"xent_copy\",\"dram__bytes_write.sum\",\"byte\",\"8,000\"\n"
               "\"1\",\"xent_cluster_bf16(const void *, int)\",\"dram__bytes_read.sum\",\"Kbyte\",\"8.4\"\n"
               "\"1\",\"xent_cluster_bf16(const void *, int)\",\"dram__bytes_write.sum\",\"byte\",\"7,600\"\n"
               "\"2\",\"xent_split_stat_bf16\",\"dram__bytes_read.sum\",\"byte\",\"8,000\"\n"
               "\"2\",\"xent_split_stat_bf16\",\"dram__bytes_write.sum\",\"byte\",\"64\"\n"
               "\"3\",\"xent_split_grad_bf16\",\"dram__bytes_read.sum\",\"byte\",\"8,000\"\n"
               "\"3\",\"xent_split_grad_bf16\",\"dram__bytes_write.sum\",\"byte\",\"8,000\"\n"
               "\"4\",\"xent_gmem_bf16\",\"dram__bytes_read.sum\",\"byte\",\"8,000\"\n"
               "\"4\",\"xent_gmem_bf16\",\"dram__bytes_write.sum\",\"byte\",\"8,000\"\n"
               "\"5\",\"xent_copy\",\"dram__bytes_read.sum\",\"byte\",\"16,000\"\n");
    static bench b;
    memset(&b, 0, sizeof b);
    b.run_dir = dir;
    b.family = "ncu";
    assert_int_not_equal(bench_counters_ch09_xent.import(&b, dir), 0);   /* the f32 copy's write is missing */
    assert_int_equal(b.failures, 1);
    assert_true(fabs(number_of(&b, "xent.ncu.dram_read_per_logit_byte.copy.bf16_v1000_m4") - 1.0) < 1e-9);
    assert_true(fabs(number_of(&b, "xent.ncu.dram_read_per_logit_byte.cluster.bf16_v1000_m4") - 1.05) < 1e-9);
    assert_true(fabs(number_of(&b, "xent.ncu.dram_write_per_logit_byte.cluster.bf16_v1000_m4") - 0.95) < 1e-9);
    assert_true(fabs(number_of(&b, "xent.ncu.dram_read_per_logit_byte.twokernel.bf16_v1000_m4") - 2.0) < 1e-9);
    assert_true(fabs(number_of(&b, "xent.ncu.dram_write_per_logit_byte.twokernel.bf16_v1000_m4") - 1.008) < 1e-9);
    assert_true(isnan(number_of(&b, "xent.ncu.dram_read_per_logit_byte.gmem_cluster.bf16_v1000_m4")));
    assert_true(isnan(number_of(&b, "xent.ncu.dram_write_per_logit_byte.copy.f32_v1000_m4")));
    assert_non_null(strstr(b.report.s, "| bf16_v1000_m4 | gmem_cluster | c2_t128 | failed | failed |"));
    assert_non_null(strstr(b.report.s, "in 3 of 3 designs x shapes"));
    text_free(&b.report);
    text_free(&b.failure_log);

    static bench only;  /* FAMILY=ch07_multicast: no ch07.csv (nothing to do), the tile exchange not asked */
    memset(&only, 0, sizeof only);
    only.run_dir = dir;
    only.family = "ncu";
    const char *families[] = {"ch07_multicast"};
    assert_int_equal(ncu_import(&only, dir, families, 1), 0);
    assert_int_equal(only.failures, 0);
    text_free(&only.report);
    text_free(&only.failure_log);
}

/* ---- bench_time_variants: check, then time, interleaved ---- */

static int call_log[64], call_count;

typedef struct fake_variant {
    int id, right;
} fake_variant;

static int fake_check(void *ctx, char *why, size_t why_len)
{
    fake_variant *f = ctx;
    if (!f->right)
        snprintf(why, why_len, "y[3] = 1, the reference 2");
    return f->right;
}

static dsm_error_t fake_call(void *ctx, int i, dsm_stream_t stream, int pdl)
{
    (void)i, (void)stream, (void)pdl;
    if (call_count < 64)
        call_log[call_count++] = ((fake_variant *)ctx)->id;
    return dsmSuccess;
}

static void test_variants_are_timed_once_per_round_in_rotating_order(void **state)
{
    (void)state;
    static bench b;
    memset(&b, 0, sizeof b);
    b.family = "ch08_gemv";
    dsm_stream_t s = NULL;
    assert_int_equal(dsm_stream_create(&s), dsmSuccess);
    fake_variant f[3] = {{0, 1}, {1, 1}, {2, 1}};
    bench_variant v[3];
    for (int i = 0; i < 3; ++i)
        v[i] = (bench_variant){"fake", NULL, &f[i], fake_check, fake_call, 0, 0, 1, NULL}; /* host launches, one call */
    bench_variant_result res[3];
    call_count = 0;
    assert_int_equal(bench_time_variants(&b, s, v, 3, 0, 4, res), 3);
    assert_int_equal(call_count, 12);
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 3; ++k)
            assert_int_equal(call_log[3 * r + k], (r + k) % 3);
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(res[i].status, BENCH_VARIANT_TIMED);
        assert_int_equal(res[i].rounds, 4);
        assert_int_equal(res[i].stats.n, 4);
    }
    assert_int_equal(b.failures, 0);
    dsm_stream_destroy(s);
}

static void test_a_variant_whose_check_fails_is_never_timed_and_fails_its_kernel_at_once(void **state)
{
    (void)state;
    static bench b;
    memset(&b, 0, sizeof b);
    b.family = "ch06_exchange";
    dsm_stream_t s = NULL;
    assert_int_equal(dsm_stream_create(&s), dsmSuccess);
    fake_variant f[2] = {{0, 1}, {1, 0}};
    bench_variant v[2] = {{"right", "xchg_vec_dsmem", &f[0], fake_check, fake_call, 0, 0, 1, NULL},
                          {"wrong", "xchg_vec_gmem", &f[1], fake_check, fake_call, 0, 0, 1, NULL}};
    bench_variant_result res[2];
    call_count = 0;
    assert_int_equal(bench_time_variants(&b, s, v, 2, 1, 3, res), 1);
    assert_int_equal(res[0].status, BENCH_VARIANT_TIMED);
    assert_int_equal(res[1].status, BENCH_VARIANT_WRONG);
    assert_int_equal(res[1].stats.n, 0);
    for (int i = 0; i < call_count; ++i)
        assert_int_equal(call_log[i], 0);   /* the wrong one never ran its timed body */
    assert_int_equal(b.failures, 1);
    assert_false(bench_kernel_ok(&b, "xchg_vec_gmem"));
    assert_true(bench_kernel_ok(&b, "xchg_vec_dsmem"));
    assert_non_null(strstr(b.failure_log.s, "the reference 2"));
    bench_stats none = bench_pair_ratio(&res[1], &res[0]);
    assert_int_equal(none.n, 0);
    text_free(&b.failed_kernels);
    text_free(&b.failure_log);
    dsm_stream_destroy(s);
}

/* A sampling variant's round: its value is 10 x round + id, logged; wrong from round `right` on
 * (fake_variant.right: the first wrong round, or a large number). */
static int fake_sample(void *ctx, int round, double *value, char *why, size_t why_len)
{
    fake_variant *f = ctx;
    if (call_count < 64)
        call_log[call_count++] = f->id;
    if (round >= f->right) {
        snprintf(why, why_len, "round %d: the token is 7, the contract says 9", round);
        return 0;
    }
    *value = 10.0 * round + f->id;
    return 1;
}

static void test_a_sampling_variant_keeps_its_values_in_rotating_rounds_and_fails_at_its_first_wrong_round(void **state)
{
    (void)state;
    static bench b;
    memset(&b, 0, sizeof b);
    b.family = "ch05_pingpong";
    fake_variant f[2] = {{0, 1000}, {1, 2}};
    bench_variant v[2] = {{"right", "pp_flag_relaxed", &f[0], fake_check, NULL, 0, 0, 0, fake_sample},
                          {"wrong later", "pp_flag_global_relaxed", &f[1], fake_check, NULL, 0, 0, 0, fake_sample}};
    bench_variant_result res[2];
    call_count = 0;
    assert_int_equal(bench_time_variants(&b, NULL, v, 2, 0, 4, res), 1);
    int want[] = {0, 1, 1, 0, 0, 1, 0}; /* rounds 0 and 1 rotate; the wrong one samples no more after round 2 */
    assert_int_equal(call_count, 7);
    for (int i = 0; i < 7; ++i)
        assert_int_equal(call_log[i], want[i]);
    assert_int_equal(res[0].status, BENCH_VARIANT_TIMED);
    assert_int_equal(res[0].stats.n, 4);
    assert_true(res[0].us[3] == 30.0 && res[0].stats.min == 0.0 && res[0].stats.max == 30.0);
    assert_int_equal(res[1].status, BENCH_VARIANT_WRONG);
    assert_int_equal(res[1].stats.n, 0);
    assert_int_equal(bench_pair_ratio(&res[1], &res[0]).n, 0);
    assert_int_equal(b.failures, 1);
    assert_false(bench_kernel_ok(&b, "pp_flag_global_relaxed"));
    assert_true(bench_kernel_ok(&b, "pp_flag_relaxed"));
    assert_non_null(strstr(b.failure_log.s, "round 2: the token is 7"));
    text_free(&b.failed_kernels);
    text_free(&b.failure_log);
}

static void test_a_pair_ratio_is_the_median_of_the_per_round_ratios_not_the_ratio_of_medians(void **state)
{
    (void)state;
    bench_variant_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.status = b.status = BENCH_VARIANT_TIMED;
    a.rounds = b.rounds = 3;
    double ua[] = {2, 4, 6}, ub[] = {1, 1, 3};  /* ratios 2, 4, 2; medians 4 and 1 */
    memcpy(a.us, ua, sizeof ua);
    memcpy(b.us, ub, sizeof ub);
    bench_stats r = bench_pair_ratio(&a, &b);
    assert_int_equal(r.n, 3);
    assert_true(r.median == 2.0 && r.min == 2.0 && r.max == 4.0);
    b.status = BENCH_VARIANT_WRONG;
    assert_int_equal(bench_pair_ratio(&a, &b).n, 0);
}

static void test_the_ncu_plan_lists_every_profile_of_the_families_counter_tables(void **state)
{
    (void)state;
    char buf[4096] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    ncu_print_plan(f);
    fclose(f);
    assert_non_null(strstr(buf, "ch06_exchange\tncu_seed_dsmem\txchg_seed_dsmem\t"));
    assert_non_null(strstr(buf, "ch06_exchange\tncu_seed_gmem\txchg_seed_gmem\t"));
    assert_non_null(strstr(buf, "ch07_multicast\tch07\tregex:^(bulk_stream|mcast_stream)$\t"));
    assert_non_null(strstr(buf, "\tBENCH_CH07_NCU=1\n"));
    assert_null(strstr(buf, "fake"));   /* a family without counters has no line */
}

static void test_a_family_key_table_names_headlines_by_key_or_prefix_and_the_longest_prefix_wins(void **state)
{
    (void)state;
    assert_true(compare_is_headline("latency_cycles.dsmem"));
    assert_true(compare_is_headline("bandwidth_pairs.best.dsmem_over_gmem"));
    assert_true(compare_is_headline("dsmem_exchange_tbps_best"));
    assert_false(compare_is_headline("dsmem_exchange_tbps_best_of_all"));  /* a key is not a prefix */
    assert_false(compare_is_headline("latency_cycles"));                   /* nor is a prefix a key */
    assert_false(compare_is_headline("gemv.headline.anything"));           /* no family of this build says so */
    assert_non_null(bench_key_lookup("pingpong_dsmem_cycles_per_hop_best"));
    assert_string_equal(bench_key_lookup("pingpong_dsmem_cycles_per_hop_best")->source_figure,
                        "736.1 cycles (store + cluster.sync per hop)");
    assert_null(bench_key_lookup("other"));
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_stats_median_min_max_of_random_samples_leaves_them_in_order),
    cmocka_unit_test(test_summary_dotted_keys_nest_and_read_back_as_written),
    cmocka_unit_test(test_summary_refuses_duplicates_reserved_names_and_number_group_clashes),
    cmocka_unit_test(test_compare_passes_within_tolerance_and_fails_beyond_or_on_a_missing_headline),
    cmocka_unit_test(test_headline_tables_set_reference_and_seed_beside_each_number_headlines_first),
    cmocka_unit_test(test_ncu_import_reads_units_separators_and_counts_missing_counters),
    cmocka_unit_test(test_summary_writes_null_with_its_reason_texts_and_failed_kernels_with_their_exercise),
    cmocka_unit_test(test_a_kernel_that_fails_once_keeps_no_number_in_summary_or_csv),
    cmocka_unit_test(test_audit_finds_a_number_in_a_row_of_a_failed_kernel_and_a_missing_expected_failure),
    cmocka_unit_test(test_compare_counts_a_null_headline_as_not_measured_and_judges_no_value_of_a_dry_run),
    cmocka_unit_test(test_ncu_import_names_chapter_7_launches_and_judges_one_read_per_cluster),
    cmocka_unit_test(test_ncu_import_names_chapter_9_launches_and_gives_dram_bytes_per_logit_byte),
    cmocka_unit_test(test_a_family_key_table_names_headlines_by_key_or_prefix_and_the_longest_prefix_wins),
    cmocka_unit_test(test_the_ncu_plan_lists_every_profile_of_the_families_counter_tables),
    cmocka_unit_test(test_variants_are_timed_once_per_round_in_rotating_order),
    cmocka_unit_test(test_a_variant_whose_check_fails_is_never_timed_and_fails_its_kernel_at_once),
    cmocka_unit_test(test_a_sampling_variant_keeps_its_values_in_rotating_rounds_and_fails_at_its_first_wrong_round),
    cmocka_unit_test(test_a_pair_ratio_is_the_median_of_the_per_round_ratios_not_the_ratio_of_medians),
};

DSM_TEST_MAIN(tests)
