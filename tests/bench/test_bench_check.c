/* test_bench_check.c - when a kernel's sum agrees with CUB's.
 *
 * CPU only. Integers must agree bit for bit; floats within a tolerance
 * that grows with n but stays far below the size of a lost tile.
 */
#include "bench_test.h"

#include <string.h>

#include "bench.h"

static void test_integers_have_no_tolerance(void **state)
{
    (void)state;
    assert_near(bench_tolerance(CURED_I32, 1u << 20), 0, 0);
    assert_near(bench_tolerance(CURED_U64, (uint64_t)1 << 30), 0, 0);
    int32_t a = 5, b = 5, c = 6;
    double diff = -1;
    assert_int_equal(bench_values_match(CURED_I32, &a, &b, 1024, &diff), 1);
    assert_near(diff, 0, 0);
    assert_int_equal(bench_values_match(CURED_I32, &a, &c, 1024, &diff), 0);
    assert_near(diff, 1, 0);
}

static void test_large_integers_compare_exactly_not_as_doubles(void **state)
{
    (void)state;
    /* 2^63 + 1 and 2^63 are the same double, not the same sum. */
    uint64_t a = ((uint64_t)1 << 63) + 1, b = (uint64_t)1 << 63;
    assert_int_equal(bench_values_match(CURED_U64, &a, &b, 1024, NULL), 0);
    assert_int_equal(bench_values_match(CURED_U64, &a, &a, 1024, NULL), 1);
}

static void test_float_tolerance_grows_with_n_within_bounds(void **state)
{
    (void)state;
    double t10 = bench_tolerance(CURED_F32, 1u << 10);
    double t20 = bench_tolerance(CURED_F32, 1u << 20);
    double t30 = bench_tolerance(CURED_F32, (uint64_t)1 << 30);
    assert_true(t10 < t20 && t20 < t30);
    /* 2^-24 * (16 sqrt(n log2 n) + n / 64) */
    assert_near(t10, ldexp(16 * sqrt(1024.0 * 10) + 16, -24), 1e-15);
    assert_true(t20 > 1e-3 && t20 < 1e-2);
    /* At 2^30 the sum's spread is sqrt(n/12) ~ 9459: the bound is ~1e-4 of
     * that, yet above float32's own step at that size (~1e-3). */
    assert_true(t30 > 0.5 && t30 < 2);
    assert_true(bench_tolerance(CURED_F64, (uint64_t)1 << 30) < 1e-8);
}

static void test_float_sums_match_within_the_tolerance(void **state)
{
    (void)state;
    uint64_t n = 1u << 20; /* tolerance ~5.3e-3 */
    float want = 123.25f, near = 123.25f + 0.004f, far = 123.25f + 0.01f;
    double diff;
    assert_int_equal(bench_values_match(CURED_F32, &near, &want, n, &diff), 1);
    assert_near(diff, 0.004, 1e-5);
    assert_int_equal(bench_values_match(CURED_F32, &far, &want, n, &diff), 0);
    assert_near(diff, 0.01, 1e-5);

    double w = 1.0, close = 1.0 + 1e-14, off = 1.0 + 1e-12; /* tol ~1.8e-13 */
    assert_int_equal(bench_values_match(CURED_F64, &close, &w, 1024, NULL), 1);
    assert_int_equal(bench_values_match(CURED_F64, &off, &w, 1024, NULL), 0);
}

static void test_nan_never_matches(void **state)
{
    (void)state;
    float nan = NAN, one = 1.0f;
    assert_int_equal(bench_values_match(CURED_F32, &nan, &one, 1024, NULL), 0);
    assert_int_equal(bench_values_match(CURED_F32, &nan, &nan, 1024, NULL), 0);
    /* The bench poisons the result with 0xff bytes: a NaN for floats. */
    unsigned char poison[4];
    memset(poison, 0xff, sizeof poison);
    assert_int_equal(bench_values_match(CURED_F32, poison, &one, 1024, NULL), 0);
}

static void test_values_print_with_all_their_digits(void **state)
{
    (void)state;
    char buf[48];
    float f = 1.5f;
    double d = 0.1;
    int64_t i = -5;
    uint64_t u = UINT64_MAX;
    uint32_t u32 = 4000000000u;
    assert_string_equal(bench_format_value(CURED_F32, &f, buf, sizeof buf), "1.5");
    assert_string_equal(bench_format_value(CURED_F64, &d, buf, sizeof buf),
                        "0.10000000000000001");
    assert_string_equal(bench_format_value(CURED_I64, &i, buf, sizeof buf), "-5");
    assert_string_equal(bench_format_value(CURED_U64, &u, buf, sizeof buf),
                        "18446744073709551615");
    assert_string_equal(bench_format_value(CURED_U32, &u32, buf, sizeof buf),
                        "4000000000");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers_have_no_tolerance),
        cmocka_unit_test(test_large_integers_compare_exactly_not_as_doubles),
        cmocka_unit_test(test_float_tolerance_grows_with_n_within_bounds),
        cmocka_unit_test(test_float_sums_match_within_the_tolerance),
        cmocka_unit_test(test_nan_never_matches),
        cmocka_unit_test(test_values_print_with_all_their_digits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
