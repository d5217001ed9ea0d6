/* test_bench_check.c - when a job's sum counts as right: against the exact
 * sum of its input (src/reference), integers bit for bit, floats within
 * the proven bound of the job's longest chain of roundings.
 *
 * CPU only.
 */
#include "bench_test.h"

#include <string.h>

#include "bench.h"

static void test_integers_must_be_exact(void **state)
{
    (void)state;
    int32_t in[] = {INT32_MAX, 5, -3}, right = INT32_MIN + 1, wrong = INT32_MIN;
    cured_ref_sum ref;
    cured_ref_sum_of(CURED_I32, in, 3, &ref);
    double diff = -1;
    char note[96] = "";
    assert_int_equal(bench_check_sum(&ref, &right, 0, &diff, note, sizeof note), 1);
    assert_near(diff, 0, 0);
    assert_int_equal(bench_check_sum(&ref, &wrong, 1000, &diff, note, sizeof note), 0);
    assert_near(diff, 1, 0);
    assert_string_equal(note, "-2147483648, exact -2147483647");
}

static void test_large_integers_compare_exactly_not_as_doubles(void **state)
{
    (void)state;
    /* 2^63 + 1 and 2^63 are the same double, not the same sum. */
    uint64_t in[] = {(uint64_t)1 << 63, 1}, right = ((uint64_t)1 << 63) + 1,
             wrong = (uint64_t)1 << 63;
    cured_ref_sum ref;
    cured_ref_sum_of(CURED_U64, in, 2, &ref);
    assert_int_equal(bench_check_sum(&ref, &right, 0, NULL, NULL, 0), 1);
    assert_int_equal(bench_check_sum(&ref, &wrong, 0, NULL, NULL, 0), 0);
}

/* The bench's own input: the standard fill, summed without a buffer. */
static void test_floats_match_within_the_bound_of_their_chain(void **state)
{
    (void)state;
    uint64_t n = 1u << 16, h = 100;
    cured_ref_fill fill = cured_ref_fill_standard(0x6375726564ull);
    cured_ref_sum ref;
    cured_ref_sum_init(&ref, CURED_F32);
    cured_ref_sum_add_fill(&ref, &fill, 0, n);
    double bound = cured_ref_sum_bound(&ref, h), exact = cured_ref_sum_double(&ref);
    /* gamma_100 * sum|x|, sum|x| about n / 4 */
    assert_true(bound > 100 * 0x1p-24 * n / 4 * 0.9 && bound < 100 * 0x1p-24 * n / 4 * 1.1);
    float near = (float)(exact + 0.5 * bound), far = (float)(exact + 2 * bound);
    double diff;
    char note[96];
    assert_int_equal(bench_check_sum(&ref, &near, h, &diff, note, sizeof note), 1);
    assert_near(diff, fabs((double)near - exact), 1e-12);
    assert_int_equal(bench_check_sum(&ref, &far, h, &diff, note, sizeof note), 0);
    assert_near(diff, fabs((double)far - exact), 1e-12);
    assert_non_null(strstr(note, ", bound "));
    assert_non_null(strstr(note, " (h 100)"));
    /* a chain of 1 would not allow `near` */
    assert_int_equal(bench_check_sum(&ref, &near, 1, NULL, NULL, 0), 0);
}

static void test_nan_never_matches(void **state)
{
    (void)state;
    float in[] = {1, 2}, nan = NAN;
    cured_ref_sum ref;
    cured_ref_sum_of(CURED_F32, in, 2, &ref);
    assert_int_equal(bench_check_sum(&ref, &nan, 1u << 30, NULL, NULL, 0), 0);
    /* The bench poisons the result with 0xff bytes: a NaN for floats. */
    unsigned char poison[8];
    memset(poison, 0xff, sizeof poison);
    assert_int_equal(bench_check_sum(&ref, poison, 1u << 30, NULL, NULL, 0), 0);
    double dn[] = {1, 2};
    cured_ref_sum_of(CURED_F64, dn, 2, &ref);
    assert_int_equal(bench_check_sum(&ref, poison, 1, NULL, NULL, 0), 0);
}

/* CUB's order is unknown: n - 1, the longest any order of n values has. A
 * catalogue kernel's chain grows with n (each thread's serial share) and
 * covers at least its block's tree. */
static void test_chain_lengths(void **state)
{
    (void)state;
    static const cured_device_shape h200 = {132, 2048, 32};
    assert_true(bench_chain_length(-1, CURED_F32, 1u << 20, 256, &h200) == (1u << 20) - 1);
    assert_true(bench_chain_length(-1, CURED_F32, 0, 256, &h200) == 0);
    int k;
    assert_int_equal(cured_catalogue_find("two_pass", &k), CURED_SUCCESS);
    uint64_t small = bench_chain_length(k, CURED_F32, 1u << 12, 256, &h200);
    uint64_t large = bench_chain_length(k, CURED_F32, (uint64_t)1 << 30, 256, &h200);
    assert_true(small >= 8 && small < large && large < ((uint64_t)1 << 30) / 1000);
    /* the plan's own derivation, for the same plan */
    cured_plan plan;
    assert_int_equal(cured_catalogue_plan_on(k, CURED_F32, (uint64_t)1 << 30, 256, &h200,
                                             &plan), CURED_SUCCESS);
    assert_true(large == cured_catalogue_chain_length(k, &plan));
    assert_true(bench_chain_length(k, CURED_F32, 0, 256, &h200) == 0);
    assert_true(bench_chain_length(k, CURED_F32, 1024, 100, &h200) == 0); /* refused block */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers_must_be_exact),
        cmocka_unit_test(test_large_integers_compare_exactly_not_as_doubles),
        cmocka_unit_test(test_floats_match_within_the_bound_of_their_chain),
        cmocka_unit_test(test_nan_never_matches),
        cmocka_unit_test(test_chain_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
