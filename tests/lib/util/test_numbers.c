/* test_numbers.c - the command line's one number parser (src/lib/util/numbers.c):
 * decimal and 0x hex, never octal, ranges, and the error line for each kind
 * of bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "numbers.h"

/* Parses text as unsigned in [lo, hi]; expects success and `want`. */
static void expect_u(const char *text, uint64_t lo, uint64_t hi, uint64_t want)
{
    uint64_t v = 12345;
    char err[160] = "";
    if (cured_number_unsigned("--x", text, lo, hi, &v, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    if (v != want)
        fail_msg("'%s' read as %llu, not %llu", text, (unsigned long long)v,
                 (unsigned long long)want);
}

/* Expects unsigned text in [lo, hi] to fail with exactly `message`, and the
 * value untouched. */
static void refuse_u(const char *text, uint64_t lo, uint64_t hi, const char *message)
{
    uint64_t v = 12345;
    char err[160] = "";
    assert_int_equal(cured_number_unsigned("--x", text, lo, hi, &v, err, sizeof err), -1);
    assert_string_equal(err, message);
    assert_int_equal(v, 12345);
}

static void expect_s(const char *text, int64_t lo, int64_t hi, int64_t want)
{
    int64_t v = 12345;
    char err[160] = "";
    if (cured_number_signed("v", text, lo, hi, &v, err, sizeof err) != 0)
        fail_msg("'%s' refused: %s", text, err);
    if (v != want)
        fail_msg("'%s' read as %lld, not %lld", text, (long long)v, (long long)want);
}

static void refuse_s(const char *text, int64_t lo, int64_t hi, const char *message)
{
    int64_t v = 12345;
    char err[160] = "";
    assert_int_equal(cured_number_signed("v", text, lo, hi, &v, err, sizeof err), -1);
    assert_string_equal(err, message);
    assert_int_equal(v, 12345);
}

/* A leading zero is decimal, as --grid always read it; hex needs 0x. */
static void test_decimal_not_octal(void **state)
{
    (void)state;
    expect_u("010", 0, UINT64_MAX, 10);
    expect_u("0100", 0, UINT64_MAX, 100);
    expect_u("09", 0, UINT64_MAX, 9);         /* octal would refuse the 9 */
    expect_u("0", 0, UINT64_MAX, 0);
    expect_u("000", 0, UINT64_MAX, 0);
    expect_s("-010", INT64_MIN, INT64_MAX, -10);
}

static void test_hex(void **state)
{
    (void)state;
    expect_u("0x10", 0, UINT64_MAX, 16);
    expect_u("0X1f", 0, UINT64_MAX, 31);
    expect_u("0xFFFFFFFFFFFFFFFF", 0, UINT64_MAX, UINT64_MAX);
    expect_u("0x010", 0, UINT64_MAX, 16);
    expect_s("-0x10", INT64_MIN, INT64_MAX, -16);
    refuse_u("0x", 0, UINT64_MAX, "--x '0x': not a whole number (decimal, or hex after 0x)");
    refuse_u("0xg", 0, UINT64_MAX, "--x '0xg': not a whole number (decimal, or hex after 0x)");
    refuse_u("1f", 0, UINT64_MAX, "--x '1f': not a whole number (decimal, or hex after 0x)");
}

/* The 64-bit edges: the largest values read exactly, one more is out of
 * range (not wrapped). */
static void test_limits(void **state)
{
    (void)state;
    expect_u("18446744073709551615", 0, UINT64_MAX, UINT64_MAX);
    refuse_u("18446744073709551616", 0, UINT64_MAX,
             "--x '18446744073709551616': out of range (0 to 18446744073709551615)");
    refuse_u("0x10000000000000000", 0, UINT64_MAX,
             "--x '0x10000000000000000': out of range (0 to 18446744073709551615)");
    expect_s("9223372036854775807", INT64_MIN, INT64_MAX, INT64_MAX);
    expect_s("-9223372036854775808", INT64_MIN, INT64_MAX, INT64_MIN);
    refuse_s("9223372036854775808", INT64_MIN, INT64_MAX,
             "v '9223372036854775808': out of range (-9223372036854775808 to "
             "9223372036854775807)");
    refuse_s("-9223372036854775809", INT64_MIN, INT64_MAX,
             "v '-9223372036854775809': out of range (-9223372036854775808 to "
             "9223372036854775807)");
}

static void test_ranges(void **state)
{
    (void)state;
    expect_u("1", 1, 10, 1);
    expect_u("10", 1, 10, 10);
    refuse_u("0", 1, 10, "--x '0': out of range (1 to 10)");
    refuse_u("11", 1, 10, "--x '11': out of range (1 to 10)");
    refuse_u("0xb", 1, 10, "--x '0xb': out of range (1 to 10)");
    expect_s("-128", -128, 127, -128);
    refuse_s("-129", -128, 127, "v '-129': out of range (-128 to 127)");
    refuse_s("128", -128, 127, "v '128': out of range (-128 to 127)");
}

/* What strtoull lets through: spaces, signs, junk after the digits, the
 * empty string. */
static void test_junk(void **state)
{
    (void)state;
    const char *junk = "not a whole number (decimal, or hex after 0x)";
    const char *texts[] = {" 5", "5 ", "+5", "5x", "1e3", "1.0", "five", "--5", "0x 1"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char want[160];
        snprintf(want, sizeof want, "--x '%s': %s", texts[i], junk);
        refuse_u(texts[i], 0, UINT64_MAX, want);
    }
    refuse_u("", 0, UINT64_MAX, "--x '': no number");
    refuse_u(NULL, 0, UINT64_MAX, "--x '': no number");
    refuse_u("-5", 0, UINT64_MAX, "--x '-5': out of range (0 to 18446744073709551615)");
    refuse_u("-x", 0, UINT64_MAX, "--x '-x': not a whole number (decimal, or hex after 0x)");
    refuse_s("-", INT64_MIN, INT64_MAX, "v '-': not a whole number (decimal, or hex after 0x)");
    refuse_s("+5", INT64_MIN, INT64_MAX, "v '+5': not a whole number (decimal, or hex after 0x)");
    refuse_s("", INT64_MIN, INT64_MAX, "v '': no number");
}

/* err may be NULL or tiny: the parse still answers. */
static void test_small_err(void **state)
{
    (void)state;
    uint64_t v = 0;
    char err[8];
    assert_int_equal(cured_number_unsigned("--n", "x", 0, 9, &v, NULL, 0), -1);
    assert_int_equal(cured_number_unsigned("--n", "x", 0, 9, &v, err, sizeof err), -1);
    assert_string_equal(err, "--n 'x'");
    assert_int_equal(cured_number_unsigned("--n", "7", 0, 9, &v, NULL, 0), 0);
    assert_int_equal(v, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal_not_octal),
        cmocka_unit_test(test_hex),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_junk),
        cmocka_unit_test(test_small_err),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
