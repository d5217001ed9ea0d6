/* test_ref_exact.c - the exact accumulator: sums whose true value is known
 * by construction or by a second, independent method (128-bit integers),
 * and its correct rounding to double and to float.
 *
 *   ctest --test-dir build -R test_ref_exact --output-on-failure
 */
#include "ref_exact.h"
#include "ref_fill.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Fails unless a and b are the same double, bit for bit. */
#define assert_same_double(a, b)                                               \
    do {                                                                       \
        double a_ = (a), b_ = (b);                                             \
        if (memcmp(&a_, &b_, sizeof a_) != 0)                                  \
            fail_msg("%s = %a, expected %a", #a, a_, b_);                      \
    } while (0)

#define assert_same_float(a, b)                                                \
    do {                                                                       \
        float a_ = (a), b_ = (b);                                              \
        if (memcmp(&a_, &b_, sizeof a_) != 0)                                  \
            fail_msg("%s = %a, expected %a", #a, (double)a_, (double)b_);      \
    } while (0)

/* The exact sum of xs[0, n). */
static double sum_of(const double *xs, int n, cured_ref_exact *a)
{
    cured_ref_exact_clear(a);
    for (int i = 0; i < n; i++)
        cured_ref_exact_add(a, xs[i]);
    return cured_ref_exact_to_double(a);
}

static void test_catastrophic_cancellation_is_exact(void **state)
{
    (void)state;
    cured_ref_exact a;
    double xs[] = {1e16, 1, -1e16};
    assert_same_double(sum_of(xs, 3, &a), 1.0);        /* float64 gives 0 */
    double ys[] = {1, 1e100, 1, -1e100};
    assert_same_double(sum_of(ys, 4, &a), 2.0);
    double zs[] = {0x1p-1074, DBL_MAX, -DBL_MAX};
    assert_same_double(sum_of(zs, 3, &a), 0x1p-1074);
    /* 2 DBL_MAX is beyond double, yet held: minus one DBL_MAX leaves it */
    double ws[] = {DBL_MAX, DBL_MAX, -DBL_MAX, 0x1p-1074, -0x1p-1074};
    assert_same_double(sum_of(ws, 5, &a), DBL_MAX);
    double zeros[] = {0.0, -0.0, 5, -5};
    assert_same_double(sum_of(zeros, 4, &a), 0.0);
    assert_int_equal(cured_ref_exact_sign(&a), 0);
}

/* Values with exponents from -1000 to 1000, each added and later taken
 * away in another order, around a few small ones of known sum. */
static void test_huge_dynamic_range_cancels_to_the_known_rest(void **state)
{
    (void)state;
    enum { N = 4000 };
    double *xs = malloc(2 * N * sizeof *xs);
    assert_non_null(xs);
    cured_ref_fill f = {.kind = CURED_REF_FILL_UNIFORM, .seed = 99, .int_bits = 64};
    for (int i = 0; i < N; i++) {
        uint64_t r = cured_ref_random_bits(17, (uint64_t)i);
        int e = (int)(r % 2001) - 1000;
        xs[i] = ldexp(cured_ref_fill_f64(&f, (uint64_t)i) + 1.0, e);
        xs[2 * N - 1 - i] = -xs[i]; /* taken away in the reverse order */
    }
    cured_ref_exact a;
    cured_ref_exact_clear(&a);
    for (int i = 0; i < 2 * N; i++) {
        cured_ref_exact_add(&a, xs[i]);
        if (i == N / 2)
            cured_ref_exact_add(&a, 0x1p-1074);
        if (i == N + 7)
            cured_ref_exact_add(&a, 3.0);
        if (i == 2 * N - 5)
            cured_ref_exact_add(&a, -0x1p-40);
    }
    assert_same_double(cured_ref_exact_to_double(&a), 3.0 - 0x1p-40);
    assert_int_equal(cured_ref_exact_compare(&a, 3.0), -1);
    assert_int_equal(cured_ref_exact_compare(&a, 3.0 - 0x1p-40), 1); /* the 2^-1074 */
    free(xs);
}

static void test_rounding_is_to_nearest_ties_to_even(void **state)
{
    (void)state;
    cured_ref_exact a;
    double tie_down[] = {1, 0x1p-53};            /* halfway, 1 is even */
    assert_same_double(sum_of(tie_down, 2, &a), 1.0);
    double tie_up[] = {1 + 0x1p-52, 0x1p-53};    /* halfway, 1 + 2^-52 is odd */
    assert_same_double(sum_of(tie_up, 2, &a), 1 + 0x1p-51);
    double past_tie[] = {1, 0x1p-53, 0x1p-200};  /* a sticky bit far below */
    assert_same_double(sum_of(past_tie, 3, &a), 1 + 0x1p-52);
    double below_tie[] = {1, 0x1p-53, -0x1p-200};
    assert_same_double(sum_of(below_tie, 3, &a), 1.0);
    double negative[] = {-1 - 0x1p-52, -0x1p-53};
    assert_same_double(sum_of(negative, 2, &a), -1 - 0x1p-51);
    /* subnormal results: the quantum 2^-1074 is fixed, no rounding */
    double sub[] = {0x1p-1074, 0x1p-1074, 0x1p-1074, DBL_MIN, -DBL_MIN};
    assert_same_double(sum_of(sub, 5, &a), 0x1.8p-1073);
}

/* The float rounding is direct: through a double it would round twice. */
static void test_float_rounding_does_not_round_twice(void **state)
{
    (void)state;
    cured_ref_exact a;
    /* 1 + 2^-24 is halfway between floats; 2^-60 puts it past the middle */
    double xs[] = {1, 0x1p-24, 0x1p-60};
    assert_same_double(sum_of(xs, 3, &a), 1 + 0x1p-24);      /* the double */
    assert_same_float((float)cured_ref_exact_to_double(&a), 1.0f); /* rounded twice */
    assert_same_float(cured_ref_exact_to_float(&a), 1 + 0x1p-23f);
    double tie[] = {1, 0x1p-24};
    sum_of(tie, 2, &a);
    assert_same_float(cured_ref_exact_to_float(&a), 1.0f);
    /* float subnormals: 2^-150 ties to 0, 3 * 2^-150 to 2 * 2^-149 */
    double half[] = {0x1p-150};
    sum_of(half, 1, &a);
    assert_same_float(cured_ref_exact_to_float(&a), 0.0f);
    double three_halves[] = {0x1p-150, 0x1p-149};
    sum_of(three_halves, 2, &a);
    assert_same_float(cured_ref_exact_to_float(&a), 0x1p-148f);
}

static void test_overflow_rounds_to_infinity(void **state)
{
    (void)state;
    cured_ref_exact a;
    double xs[] = {DBL_MAX, DBL_MAX};
    assert_true(isinf(sum_of(xs, 2, &a)) && sum_of(xs, 2, &a) > 0);
    double ys[] = {-DBL_MAX, -0x1p970};          /* halfway to 2^1024: odd, up */
    assert_true(isinf(sum_of(ys, 2, &a)) && sum_of(ys, 2, &a) < 0);
    double zs[] = {DBL_MAX, 0x1p969};            /* below halfway */
    assert_same_double(sum_of(zs, 2, &a), DBL_MAX);
    double f_tie[] = {FLT_MAX, 0x1p103};         /* float's halfway to 2^128 */
    sum_of(f_tie, 2, &a);
    assert_true(isinf(cured_ref_exact_to_float(&a)));
    double f_below[] = {FLT_MAX, 0x1p102};
    sum_of(f_below, 2, &a);
    assert_same_float(cured_ref_exact_to_float(&a), FLT_MAX);
}

static void test_nan_and_infinities_as_ieee_sums_them(void **state)
{
    (void)state;
    cured_ref_exact a;
    double inf[] = {1, INFINITY, 2};
    assert_true(isinf(sum_of(inf, 3, &a)) && sum_of(inf, 3, &a) > 0);
    assert_true(isinf(cured_ref_exact_to_float(&a)));
    assert_int_equal(cured_ref_exact_compare(&a, 3.0), 0); /* finite part kept */
    double both[] = {-INFINITY, 1, INFINITY};
    assert_true(isnan(sum_of(both, 3, &a)));
    double nan[] = {1, NAN, 2};
    assert_true(isnan(sum_of(nan, 3, &a)));
    assert_true(isnan(cured_ref_exact_to_float(&a)));
    assert_int_equal(cured_ref_exact_compare(&a, NAN), 2);
}

/* A second method: values on the grid 2^-40 with |x| < 2^12, summed as
 * 128-bit integers (exact), then rounded by the compiler's own conversion
 * of __int128, against the accumulator, for long random arrays. */
static void test_long_random_sums_match_int128(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {1, 2, 1000, 100003, 1000000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        cured_ref_exact a;
        cured_ref_exact_clear(&a);
        __int128 exact = 0;
        for (uint64_t i = 0; i < sizes[s]; i++) {
            uint64_t r = cured_ref_random_bits(s, i);
            int64_t k = (int64_t)(r >> 12) - ((int64_t)1 << 51); /* |k| < 2^52 */
            exact += k;
            cured_ref_exact_add(&a, ldexp((double)k, -40));
        }
        assert_same_double(cured_ref_exact_to_double(&a), ldexp((double)exact, -40));
        assert_same_float(cured_ref_exact_to_float(&a), ldexpf((float)exact, -40));
        int sign = exact > 0 ? 1 : exact < 0 ? -1 : 0;
        assert_int_equal(cured_ref_exact_sign(&a), sign);
    }
}

/* Sums in parts, merged, are the whole sum; a run of the largest double
 * longer than the adds between renormalizations still cancels exactly. */
static void test_merge_and_long_runs_stay_exact(void **state)
{
    (void)state;
    enum { N = 300001 };
    cured_ref_fill f = cured_ref_fill_standard(5);
    cured_ref_exact whole, left, right;
    cured_ref_exact_clear(&whole);
    cured_ref_exact_clear(&left);
    cured_ref_exact_clear(&right);
    for (uint64_t i = 0; i < N; i++) {
        double x = ldexp(cured_ref_fill_f64(&f, i), (int)(i % 300) - 150);
        cured_ref_exact_add(&whole, x);
        cured_ref_exact_add(i < N / 3 ? &left : &right, x);
    }
    cured_ref_exact_merge(&left, &right);
    assert_same_double(cured_ref_exact_to_double(&left), cured_ref_exact_to_double(&whole));
    cured_ref_exact_add(&left, -cured_ref_exact_to_double(&whole));
    cured_ref_exact_add(&whole, -cured_ref_exact_to_double(&whole));
    assert_same_double(cured_ref_exact_to_double(&left), cured_ref_exact_to_double(&whole));

    /* (2^28 + 3) times DBL_MAX, the same taken away, plus 1: exactly 1 */
    cured_ref_exact big;
    cured_ref_exact_clear(&big);
    uint64_t count = (1ull << 28) + 3;
    for (uint64_t i = 0; i < count; i++)
        cured_ref_exact_add(&big, DBL_MAX);
    assert_true(isinf(cured_ref_exact_to_double(&big)));
    cured_ref_exact_add(&big, 1.0);
    for (uint64_t i = 0; i < count; i++)
        cured_ref_exact_add(&big, -DBL_MAX);
    assert_same_double(cured_ref_exact_to_double(&big), 1.0);
}

static void test_grain_is_the_coarsest_common_power_of_two(void **state)
{
    (void)state;
    cured_ref_exact a;
    cured_ref_exact_clear(&a);
    assert_int_equal(cured_ref_exact_grain(&a), 1024);
    cured_ref_exact_add(&a, 0.0);
    assert_int_equal(cured_ref_exact_grain(&a), 1024);
    cured_ref_exact_add(&a, 48.0);               /* 3 * 2^4 */
    assert_int_equal(cured_ref_exact_grain(&a), 4);
    cured_ref_exact_add(&a, -0.375);             /* 3 * 2^-3 */
    assert_int_equal(cured_ref_exact_grain(&a), -3);
    cured_ref_exact_add(&a, 0x1p-1074);
    assert_int_equal(cured_ref_exact_grain(&a), -1074);
    cured_ref_exact_clear(&a);
    cured_ref_exact_add(&a, 0x1p1000);
    assert_int_equal(cured_ref_exact_grain(&a), 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catastrophic_cancellation_is_exact),
        cmocka_unit_test(test_huge_dynamic_range_cancels_to_the_known_rest),
        cmocka_unit_test(test_rounding_is_to_nearest_ties_to_even),
        cmocka_unit_test(test_float_rounding_does_not_round_twice),
        cmocka_unit_test(test_overflow_rounds_to_infinity),
        cmocka_unit_test(test_nan_and_infinities_as_ieee_sums_them),
        cmocka_unit_test(test_long_random_sums_match_int128),
        cmocka_unit_test(test_merge_and_long_runs_stay_exact),
        cmocka_unit_test(test_grain_is_the_coarsest_common_power_of_two),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
