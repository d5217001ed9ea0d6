/* test_bench_report.c - the derived columns and the three output formats
 * of a small fixed result set, checked field by field.
 *
 * CPU only. Two sizes: at 2^10 CUB takes 10 us, the read ceiling 5 us,
 * shuffle 20 us (so 25 % of the ceiling, 2x CUB) and divergent was
 * skipped; at 2^11 only CUB ran (no read row: no % read there).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "bench_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* A timed row. */
static bench_result row(const char *kernel, int log2n, double median, double q1,
                        double q3, double min, double max, int runs,
                        bench_check check)
{
    bench_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
    r.log2n = log2n;
    r.n = (uint64_t)1 << log2n;
    r.elem_bytes = 4;
    r.us = (bench_summary){median, q1, q3, min, max, runs};
    r.gbps = r.pct_read = r.x_cub = r.abs_diff = NAN;
    r.check = check;
    return r;
}

/* The fixed set, derived. */
static int setup(void **state)
{
    bench_results *res = calloc(1, sizeof *res);
    snprintf(res->device, sizeof res->device, "Test GPU");
    res->l2_bytes = 50u << 20;
    res->dtype = "f32";
    res->block_size = 256;
    bench_result r = row("cub", 10, 10, 9, 11, 8, 20, 20, BENCH_CHECK_OK);
    bench_results_add(res, &r);
    r = row("read", 10, 5, 4.9, 5.1, 4.8, 6, 30, BENCH_CHECK_NONE);
    bench_results_add(res, &r);
    r = row("shuffle", 10, 20, 19, 21, 18, 25, 25, BENCH_CHECK_OK);
    r.abs_diff = 1.5e-6;
    bench_results_add(res, &r);
    r = row("divergent", 10, NAN, NAN, NAN, NAN, NAN, 0, BENCH_CHECK_SKIPPED);
    snprintf(r.note, sizeof r.note, "n too large, or \"so\"");
    bench_results_add(res, &r);
    r = row("cub", 11, 12, 11.5, 12.5, 11, 13, 20, BENCH_CHECK_OK);
    bench_results_add(res, &r);
    bench_derive(res);
    *state = res;
    return 0;
}

static int teardown(void **state)
{
    bench_results_free(*state);
    free(*state);
    return 0;
}

/* Runs a printer into a string (caller frees). Not inlined: inlined, gcc 12
 * mistakes the returned heap pointer for the address of `buf`. */
__attribute__((noinline)) static char *print_to_string(void (*print)(FILE *, const bench_results *),
                             const bench_results *res)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    print(f, res);
    fclose(f);
    return buf;
}

static void test_derived_columns(void **state)
{
    const bench_results *res = *state;
    assert_int_equal(res->count, 5);
    const bench_result *cub = &res->items[0], *read = &res->items[1],
                       *shuffle = &res->items[2], *divergent = &res->items[3],
                       *cub11 = &res->items[4];
    /* 4096 bytes in 20 us = 0.2048 GB/s */
    assert_near(shuffle->gbps, 4096 / 20e3, 1e-12);
    assert_near(shuffle->pct_read, 25, 1e-12);
    assert_near(shuffle->x_cub, 2, 1e-12);
    assert_near(read->pct_read, 100, 1e-12);
    assert_near(read->x_cub, 0.5, 1e-12);
    assert_near(cub->pct_read, 50, 1e-12);
    assert_near(cub->x_cub, 1, 1e-12);
    assert_true(isnan(divergent->gbps) && isnan(divergent->pct_read) &&
                isnan(divergent->x_cub));
    /* 2^11: its own CUB row, and no read row */
    assert_near(cub11->gbps, 8192 / 12e3, 1e-12);
    assert_near(cub11->x_cub, 1, 1e-12);
    assert_true(isnan(cub11->pct_read));
}

static void test_csv_exact(void **state)
{
    char *csv = print_to_string(bench_print_csv, *state);
    const char *expected =
        "kernel,log2n,n,dtype,bytes,runs,median_us,q1_us,q3_us,min_us,max_us,"
        "noise_pct,gbps,pct_read,x_cub,check,exhibit,abs_diff,note\n"
        "cub,10,1024,f32,4096,20,10.000,9.000,11.000,8.000,20.000,20.00,0.41,50.00,1.0000,ok,0,,\n"
        "read,10,1024,f32,4096,30,5.000,4.900,5.100,4.800,6.000,4.00,0.82,100.00,0.5000,n/a,0,,\n"
        "shuffle,10,1024,f32,4096,25,20.000,19.000,21.000,18.000,25.000,10.00,0.20,25.00,2.0000,ok,0,1.5e-06,\n"
        "divergent,10,1024,f32,4096,0,,,,,,,,,,skipped,0,,\"n too large, or \"\"so\"\"\"\n"
        "cub,11,2048,f32,8192,20,12.000,11.500,12.500,11.000,13.000,8.33,0.68,,1.0000,ok,0,,\n";
    assert_string_equal(csv, expected);
    free(csv);
}

static void test_csv_fields_line_by_line(void **state)
{
    char *csv = print_to_string(bench_print_csv, *state);
    /* every line has the header's 19 fields (the quoted note holds one comma) */
    int lines = 0;
    for (char *line = strtok(csv, "\n"); line; line = strtok(NULL, "\n"), lines++) {
        int commas = 0, quoted = 0;
        for (char *p = line; *p; p++) {
            if (*p == '"')
                quoted = !quoted;
            else if (*p == ',' && !quoted)
                commas++;
        }
        assert_int_equal(commas, 18);
    }
    assert_int_equal(lines, 6);
    free(csv);
}

static void test_json_exact(void **state)
{
    char *json = print_to_string(bench_print_json, *state);
    const char *expected =
        "{\n"
        "  \"device\": \"Test GPU\",\n"
        "  \"dtype\": \"f32\",\n"
        "  \"block_size\": 256,\n"
        "  \"l2_bytes\": 52428800,\n"
        "  \"results\": [\n"
        "    {\"kernel\": \"cub\", \"log2n\": 10, \"n\": 1024, \"bytes\": 4096, \"runs\": 20, "
        "\"median_us\": 10.000, \"q1_us\": 9.000, \"q3_us\": 11.000, \"min_us\": 8.000, "
        "\"max_us\": 20.000, \"noise_pct\": 20.00, \"gbps\": 0.41, \"pct_read\": 50.00, "
        "\"x_cub\": 1.0000, \"check\": \"ok\", \"exhibit\": false, \"abs_diff\": null, "
        "\"note\": \"\"},\n"
        "    {\"kernel\": \"read\", \"log2n\": 10, \"n\": 1024, \"bytes\": 4096, \"runs\": 30, "
        "\"median_us\": 5.000, \"q1_us\": 4.900, \"q3_us\": 5.100, \"min_us\": 4.800, "
        "\"max_us\": 6.000, \"noise_pct\": 4.00, \"gbps\": 0.82, \"pct_read\": 100.00, "
        "\"x_cub\": 0.5000, \"check\": \"n/a\", \"exhibit\": false, \"abs_diff\": null, "
        "\"note\": \"\"},\n"
        "    {\"kernel\": \"shuffle\", \"log2n\": 10, \"n\": 1024, \"bytes\": 4096, \"runs\": 25, "
        "\"median_us\": 20.000, \"q1_us\": 19.000, \"q3_us\": 21.000, \"min_us\": 18.000, "
        "\"max_us\": 25.000, \"noise_pct\": 10.00, \"gbps\": 0.20, \"pct_read\": 25.00, "
        "\"x_cub\": 2.0000, \"check\": \"ok\", \"exhibit\": false, \"abs_diff\": 1.5e-06, "
        "\"note\": \"\"},\n"
        "    {\"kernel\": \"divergent\", \"log2n\": 10, \"n\": 1024, \"bytes\": 4096, \"runs\": 0, "
        "\"median_us\": null, \"q1_us\": null, \"q3_us\": null, \"min_us\": null, "
        "\"max_us\": null, \"noise_pct\": null, \"gbps\": null, \"pct_read\": null, "
        "\"x_cub\": null, \"check\": \"skipped\", \"exhibit\": false, \"abs_diff\": null, "
        "\"note\": \"n too large, or \\\"so\\\"\"},\n"
        "    {\"kernel\": \"cub\", \"log2n\": 11, \"n\": 2048, \"bytes\": 8192, \"runs\": 20, "
        "\"median_us\": 12.000, \"q1_us\": 11.500, \"q3_us\": 12.500, \"min_us\": 11.000, "
        "\"max_us\": 13.000, \"noise_pct\": 8.33, \"gbps\": 0.68, \"pct_read\": null, "
        "\"x_cub\": 1.0000, \"check\": \"ok\", \"exhibit\": false, \"abs_diff\": null, "
        "\"note\": \"\"}\n"
        "  ]\n"
        "}\n";
    assert_string_equal(json, expected);
    free(json);
}

static void test_json_of_no_rows_is_an_empty_array(void **state)
{
    (void)state;
    bench_results empty;
    memset(&empty, 0, sizeof empty);
    empty.dtype = "i32";
    char *json = print_to_string(bench_print_json, &empty);
    assert_string_equal(json, "{\n  \"device\": \"\",\n  \"dtype\": \"i32\",\n"
                              "  \"block_size\": 0,\n  \"l2_bytes\": 0,\n"
                              "  \"results\": []\n}\n");
    free(json);
}

static void test_table_rows(void **state)
{
    char *table = print_to_string(bench_print_table, *state);
    assert_non_null(strstr(table, "# cured bench: Test GPU, f32, block 256, L2 50 MiB"));
    /* the shuffle row, column by column */
    const char *line = strstr(table, "\nshuffle ");
    assert_non_null(line);
    char kernel[32], check[32];
    int log2n;
    double us, noise, gbps, pct, x;
    assert_int_equal(sscanf(line, "%31s %d %lf %lf %lf %lf %lf %31s", kernel, &log2n,
                            &us, &noise, &gbps, &pct, &x, check),
                     8);
    assert_string_equal(kernel, "shuffle");
    assert_int_equal(log2n, 10);
    assert_near(us, 20.00, 0);
    assert_near(noise, 10.0, 0);
    assert_near(gbps, 0.2, 0);
    assert_near(pct, 25.0, 0);
    assert_near(x, 2.00, 0);
    assert_string_equal(check, "ok");
    /* the skipped row: dashes and its reason */
    line = strstr(table, "\ndivergent ");
    assert_non_null(line);
    char d[5][8];
    assert_int_equal(sscanf(line, "%31s %d %7s %7s %7s %7s %7s %31s", kernel, &log2n,
                            d[0], d[1], d[2], d[3], d[4], check),
                     8);
    for (int i = 0; i < 5; i++)
        assert_string_equal(d[i], "-");
    assert_string_equal(check, "skipped");
    assert_non_null(strstr(line, "(n too large, or \"so\")"));
    /* a blank line between sizes; 2^11 has no % read */
    line = strstr(table, "\n\ncub ");
    assert_non_null(line);
    assert_int_equal(sscanf(line, "%31s %d %lf %lf %lf %7s %lf %31s", kernel, &log2n,
                            &us, &noise, &gbps, d[0], &x, check),
                     8);
    assert_int_equal(log2n, 11);
    assert_string_equal(d[0], "-");
    assert_string_equal(check, "ok");
    free(table);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_derived_columns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csv_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csv_fields_line_by_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_json_exact, setup, teardown),
        cmocka_unit_test(test_json_of_no_rows_is_an_empty_array),
        cmocka_unit_test_setup_teardown(test_table_rows, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
