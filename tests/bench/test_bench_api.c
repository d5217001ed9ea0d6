/* test_bench_api.c - the rows of `cured bench --api`: derived columns, the
 * table, CSV, JSON and the short summary of a small fixed set, field by
 * field.
 *
 * CPU only. f32 at 2^10: warm cured 4 us, CUB 6, launch 3, read 2; cold
 * cured 8, CUB 10, launch 5, read 4; f16 at 2^10: warm cured 5 us, CUB 5,
 * launch 2.5 (no read row); CUB's f16 sum 3 ulps off, one NaN-versus-
 * number row.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_api.h"

/* A timed row. */
static bench_api_row row(const char *job, const char *mode, cured_dtype d,
                         cured_dtype out, double median, double ulps)
{
    bench_api_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.job, sizeof r.job, "%s", job);
    snprintf(r.mode, sizeof r.mode, "%s", mode);
    r.dtype = d;
    r.out = out;
    r.log2n = 10;
    r.n = 1024;
    r.us = (bench_summary){median, median * 0.9, median * 1.1, median * 0.8, median * 1.5, 9};
    r.calls = strcmp(mode, BENCH_API_WARM) == 0 ? 100 : 1;
    r.gbps = r.pct_read = r.cub_over = NAN;
    r.ulps = ulps;
    return r;
}

static int setup(void **state)
{
    bench_api_results *res = calloc(1, sizeof *res);
    snprintf(res->device, sizeof res->device, "Test \"GPU\"");
    res->l2_bytes = 50u << 20;
    const char *W = BENCH_API_WARM, *C = BENCH_API_COLD;
    bench_api_row rows[] = {
        row(BENCH_API_CURED, W, CURED_F32, CURED_F32, 4, 0),
        row(BENCH_API_CUB, W, CURED_F32, CURED_F32, 6, 2),
        row(BENCH_API_LAUNCH, W, CURED_F32, CURED_F32, 3, NAN),
        row(BENCH_API_READ, W, CURED_F32, CURED_F32, 2, NAN),
        row(BENCH_API_CURED, C, CURED_F32, CURED_F32, 8, 0),
        row(BENCH_API_CUB, C, CURED_F32, CURED_F32, 10, 2),
        row(BENCH_API_LAUNCH, C, CURED_F32, CURED_F32, 5, NAN),
        row(BENCH_API_READ, C, CURED_F32, CURED_F32, 4, NAN),
        row(BENCH_API_CURED, W, CURED_F16, CURED_F32, 5, 0),
        row(BENCH_API_CUB, W, CURED_F16, CURED_F16, 5, INFINITY),
        row(BENCH_API_LAUNCH, W, CURED_F16, CURED_F32, 2.5, NAN),
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        bench_api_add(res, &rows[i]);
    bench_api_derive(res);
    *state = res;
    return 0;
}

static int teardown(void **state)
{
    bench_api_free(*state);
    free(*state);
    return 0;
}

/* Runs a printer into a string (caller frees). Not inlined, as in
 * test_bench_report.c. */
__attribute__((noinline)) static char *print_to_string(
    void (*print)(FILE *, const bench_api_results *), const bench_api_results *res)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    print(f, res);
    fclose(f);
    return buf;
}

static void test_derived(void **state)
{
    bench_api_results *res = *state;
    const bench_api_row *cured = &res->items[0], *cub = &res->items[1];
    assert_near(cured->gbps, 1024 * 4 / (4 * 1e3), 1e-12);
    assert_near(cured->pct_read, 50.0, 1e-12);        /* read 2 us / 4 us */
    assert_near(cured->cub_over, 1.5, 1e-12);         /* CUB 6 us / 4 us */
    assert_true(isnan(cub->cub_over));                /* only cured rows */
    assert_near(res->items[4].pct_read, 50.0, 1e-12); /* cold: 4 / 8 */
    assert_near(res->items[4].cub_over, 1.25, 1e-12);
    assert_true(isnan(res->items[8].pct_read));       /* f16: no read row */
    assert_near(res->items[8].gbps, 1024 * 2 / (5 * 1e3), 1e-12);
    assert_near(res->items[8].cub_over, 1.0, 1e-12);
    /* the floor: the median of the warm launch rows, 3 and 2.5 */
    assert_near(res->floor_us, 2.75, 1e-12);
    /* an empty list derives nothing, and has no floor */
    bench_api_results empty;
    memset(&empty, 0, sizeof empty);
    bench_api_derive(&empty);
    assert_true(isnan(empty.floor_us));
}

static void test_csv(void **state)
{
    char *s = print_to_string(bench_api_print_csv, *state);
    const char *header = "job,mode,dtype,out,log2n,n,bytes,calls,runs,median_us,q1_us,q3_us,"
                         "min_us,max_us,noise_pct,gbps,pct_read,cub_over,ulps,note\n";
    assert_memory_equal(s, header, strlen(header));
    assert_non_null(strstr(s, "\ncured,warm,f32,f32,10,1024,4096,100,9,4.000,3.600,4.400,"
                              "3.200,6.000,20.00,1.02,50.00,1.5000,0,\n"));
    assert_non_null(strstr(s, "\ncub,warm,f16,f16,10,1024,2048,100,9,5.000,"));
    assert_non_null(strstr(s, ",nan,\n"));            /* NaN against a number */
    assert_non_null(strstr(s, "\nlaunch,cold,f32,f32,10,1024,4096,1,9,5.000,"));
    int lines = 0;
    for (const char *p = s; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 12);
    free(s);
}

static void test_json(void **state)
{
    char *s = print_to_string(bench_api_print_json, *state);
    assert_non_null(strstr(s, "\"bench\": \"api\""));
    assert_non_null(strstr(s, "\"device\": \"Test \\\"GPU\\\"\""));
    assert_non_null(strstr(s, "\"launch_floor_us\": 2.750"));
    assert_non_null(strstr(s, "{\"job\": \"cured\", \"mode\": \"warm\", \"dtype\": \"f32\", "
                              "\"out\": \"f32\", \"log2n\": 10, \"n\": 1024, \"calls\": 100, "
                              "\"runs\": 9, \"median_us\": 4.000"));
    assert_non_null(strstr(s, "\"cub_over\": 1.5000, \"ulps\": 0, \"note\": \"\"}"));
    assert_non_null(strstr(s, "\"ulps\": \"nan\""));
    assert_non_null(strstr(s, "\"pct_read\": null"));
    assert_string_equal(s + strlen(s) - 8, "}\n  ]\n}\n");
    free(s);
}

static void test_table_and_summary(void **state)
{
    char *t = print_to_string(bench_api_print_table, *state);
    assert_non_null(strstr(t, "# cured bench --api: Test \"GPU\", L2 50 MiB"));
    assert_non_null(strstr(t, "dtype mode log2n job"));
    assert_non_null(strstr(t, "# launch floor (an empty kernel, back to back): 2.75 us"));
    assert_non_null(strstr(t, "\n\nf16   warm    10 cured "));
    free(t);
    char *s = print_to_string(bench_api_print_summary, *state);
    assert_non_null(strstr(s, "at the same n; its run median 2.75 us)\n"));
    /* cured 4, CUB 6, 1.5x, 4 / 3 (f32's own launch row, not the run's
     * median 2.75) = 1.33x the floor; cold 8, 10, 1.25 */
    assert_non_null(strstr(s, "\nf32      10 |     4.00     6.00      1.50    1.33 |     "
                              "8.00    10.00      1.25 |     0         2\n"));
    assert_non_null(strstr(s, "\nf16      10 |     5.00     5.00      1.00    2.00 |        "
                              "-        -         - |     0       nan\n"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_derived),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_table_and_summary),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
