/* test_ncu_csv.c - reading Nsight Compute's CSV (src/model/host/ncu_csv.c)
 * on hand-written text in ncu's layouts: the raw page with its units row
 * and thousands separators, the details page with a scaled unit, opcode
 * instances, ncu's log lines, kernel names mangled and demangled, and text
 * that is not such a CSV.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cured_model_host.h"

#include <string.h>

static const char raw[] =
    "==PROF== Connected to process 7 (x)\n"
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"launch__grid_size\","
    "\"smsp__inst_executed.sum\",\"sass__inst_executed_per_opcode\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"inst\",\"\"\n"
    "\"0\",\"void sequential_kernel<float>(const float *, float *, unsigned int)\","
    "\"(64, 1, 1)\",\"(1, 1, 1)\",\"1 (1)\",\"3,072\",\"1,940 (BAR: 64; EXIT: 32, SHFL: 8)\"\n"
    "\"1\",\"other\",\"(32, 1, 1)\",\"(2, 1, 1)\",\"2\",\"n/a\",\"\"\n";

static void test_raw_page(void **state)
{
    (void)state;
    cured_model_ncu_report r;
    char err[200];
    assert_int_equal(cured_model_ncu_report_parse(raw, strlen(raw), &r, err, sizeof err), 0);
    assert_int_equal(r.nkernels, 2);
    const cured_model_ncu_kernel *k = &r.kernels[0];
    assert_int_equal(k->grid.x, 1);
    assert_int_equal(k->block.x, 64);
    double lo = 0, hi = 0;
    assert_int_equal(cured_model_ncu_values(k, "smsp__inst_executed.sum", &lo, &hi), 1);
    assert_true(lo == 3072 && hi == 3072);
    assert_int_equal(cured_model_ncu_values(k, "launch__grid_size", &lo, &hi), 1);
    assert_true(lo == 1);
    assert_int_equal(cured_model_ncu_values(k, "sass__inst_executed_per_opcode [BAR]", &lo,
                                            &hi), 1);
    assert_true(lo == 64);
    assert_int_equal(cured_model_ncu_values(k, "sass__inst_executed_per_opcode [SHFL]", &lo,
                                            &hi), 1);
    assert_true(lo == 8);
    assert_int_equal(cured_model_ncu_values(k, "sass__inst_executed_per_opcode", &lo, &hi), 1);
    assert_true(lo == 1940);
    /* n/a is no value */
    assert_int_equal(cured_model_ncu_values(&r.kernels[1], "smsp__inst_executed.sum", &lo,
                                            &hi), 0);
    /* the mangled name finds the demangled kernel, with its launch */
    cured_model_dim3 g = {1, 1, 1}, b = {64, 1, 1}, b2 = {128, 1, 1};
    int named;
    assert_int_equal(cured_model_ncu_find(&r, "_Z17sequential_kernelIfEvPKT_PS0_j", g, b,
                                          &named), 0);
    assert_int_equal(named, 1);
    assert_int_equal(cured_model_ncu_find(&r, "_Z17sequential_kernelIfEvPKT_PS0_j", g, b2,
                                          &named), -1);
    assert_int_equal(named, 1);
    assert_int_equal(cured_model_ncu_find(&r, "sequential", g, b, &named), -1);
    assert_int_equal(named, 0);
    cured_model_ncu_report_free(&r);
}

static const char details[] =
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Section Name\",\"Metric Name\","
    "\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"k\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"S\",\"smsp__inst_executed.sum\",\"Kinst\","
    "\"1.50\"\n"
    "\"0\",\"k\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"S\",\"l1tex__t_sectors.sum\",\"sector\","
    "\"12\"\n";

static void test_details_page(void **state)
{
    (void)state;
    cured_model_ncu_report r;
    char err[200];
    assert_int_equal(cured_model_ncu_report_parse(details, strlen(details), &r, err,
                                                  sizeof err), 0);
    assert_int_equal(r.nkernels, 1);
    double lo = 0, hi = 0;
    assert_int_equal(cured_model_ncu_values(&r.kernels[0], "smsp__inst_executed.sum", &lo,
                                            &hi), 1);
    assert_true(lo == 1500);
    assert_int_equal(cured_model_ncu_values(&r.kernels[0], "l1tex__t_sectors.sum", &lo, &hi),
                     1);
    assert_true(lo == 12);
    cured_model_ncu_report_free(&r);
}

static void expect_error(const char *text, const char *want)
{
    cured_model_ncu_report r;
    char err[200];
    assert_int_equal(cured_model_ncu_report_parse(text, strlen(text), &r, err, sizeof err),
                     -1);
    if (strstr(err, want) == NULL)
        fail_msg("error '%s' lacks '%s'", err, want);
    assert_int_equal(r.nkernels, 0);
}

static void test_not_a_csv(void **state)
{
    (void)state;
    expect_error("hello\n", "no CSV rows");
    expect_error("\"a\",\"b\"\n\"1\",\"2\"\n", "line 1: no ID column");
    expect_error("\"ID\",\"x\"\n\"0\",\"1\n", "line 2: unterminated quote");
    expect_error("\"ID\",\"x\"\n\"0\",\"1\",\"2\"\n", "line 2: 3 fields where the header has 2");
    expect_error("\"ID\",\"x\"\n\"\",\"inst\"\n", "no kernel rows");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_raw_page),
        cmocka_unit_test(test_details_page),
        cmocka_unit_test(test_not_a_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
