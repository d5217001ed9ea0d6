/* test_ref_sum.c - reference sums of every dtype, the float bound and the
 * check: integers against __int128, the bound against real rounded sums
 * and at its exact edge, NaN and infinities.
 *
 *   ctest --test-dir build -R test_ref_sum --output-on-failure
 */
#include "ref_sum.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static __int128 exact_of(const cured_ref_sum *s)
{
    return (__int128)(((unsigned __int128)s->exact_hi << 64) | s->exact_lo);
}

static void test_integers_wrap_as_the_kernels_and_stay_exact_in_128_bits(void **state)
{
    (void)state;
    cured_ref_sum s;
    int32_t i32[] = {INT32_MAX, 1};
    assert_int_equal(cured_ref_sum_of(CURED_I32, i32, 2, &s), 0);
    assert_int_equal(cured_ref_sum_wrapped(&s), 0x80000000u);   /* INT32_MIN */
    assert_true(exact_of(&s) == (__int128)INT32_MAX + 1);
    int32_t got = INT32_MIN, wrong = INT32_MAX;
    assert_int_equal(cured_ref_sum_check(&s, &got, 1, NULL, 0), 1);
    char msg[200] = "";
    assert_int_equal(cured_ref_sum_check(&s, &wrong, 1, msg, sizeof msg), 0);
    assert_string_equal(msg, "got 2147483647 want -2147483648 (exact, modulo 2^32)");

    uint64_t u64[] = {UINT64_MAX, UINT64_MAX, 2};
    cured_ref_sum_of(CURED_U64, u64, 3, &s);
    assert_true(cured_ref_sum_wrapped(&s) == 0);
    assert_true(s.exact_hi == 2 && s.exact_lo == 0);            /* 2^65 */

    int64_t i64[] = {INT64_MIN, INT64_MIN, -1};
    cured_ref_sum_of(CURED_I64, i64, 3, &s);
    assert_true(cured_ref_sum_wrapped(&s) == UINT64_MAX);       /* -1 mod 2^64 */
    assert_true(exact_of(&s) == 2 * (__int128)INT64_MIN - 1);
    int64_t minus_one = -1;
    assert_int_equal(cured_ref_sum_check(&s, &minus_one, 1, NULL, 0), 1);

    uint32_t u32[] = {0xffffffffu, 0xffffffffu};
    cured_ref_sum_of(CURED_U32, u32, 2, &s);
    assert_true(cured_ref_sum_wrapped(&s) == 0xfffffffeu);
    assert_true(exact_of(&s) == 2 * (__int128)0xffffffffu);
    assert_int_equal(cured_ref_sum_init(&s, CURED_DTYPE_COUNT), -1);
}

/* Long arrays of full-range integers (every bit random) against __int128. */
static void test_long_integer_sums_match_int128(void **state)
{
    (void)state;
    enum { N = 200001 };
    static const cured_dtype dtypes[] = {CURED_I32, CURED_I64, CURED_U32, CURED_U64};
    uint64_t *buf = malloc(N * 8);
    assert_non_null(buf);
    for (int d = 0; d < 4; d++) {
        cured_ref_fill f = {.kind = CURED_REF_FILL_UNIFORM, .seed = 40 + d, .int_bits = 64};
        assert_int_equal(cured_ref_fill_buffer(&f, dtypes[d], buf, N), 0);
        __int128 want = 0;
        for (int i = 0; i < N; i++) {
            switch (dtypes[d]) {
            case CURED_I32: want += ((int32_t *)buf)[i]; break;
            case CURED_I64: want += ((int64_t *)buf)[i]; break;
            case CURED_U32: want += ((uint32_t *)buf)[i]; break;
            default: want += ((uint64_t *)buf)[i]; break;
            }
        }
        cured_ref_sum s;
        cured_ref_sum_of(dtypes[d], buf, N, &s);
        assert_true(exact_of(&s) == want);
        uint64_t mask = dtypes[d] == CURED_I32 || dtypes[d] == CURED_U32 ? 0xffffffffu
                                                                         : UINT64_MAX;
        assert_true(cured_ref_sum_wrapped(&s) == ((uint64_t)want & mask));
        /* the same sum made from the fill without a buffer */
        cured_ref_sum t;
        cured_ref_sum_init(&t, dtypes[d]);
        cured_ref_sum_add_fill(&t, &f, 0, N / 2);
        cured_ref_sum_add_fill(&t, &f, N / 2, N);
        assert_true(t.exact_lo == s.exact_lo && t.exact_hi == s.exact_hi && t.n == N);
    }
    free(buf);
}

static void test_float_reference_is_the_exact_sum_rounded(void **state)
{
    (void)state;
    cured_ref_sum s;
    float xs[] = {1e8f, 1, -1e8f, 0.5f};        /* float32 and float64 lose the 1 */
    cured_ref_sum_of(CURED_F32, xs, 4, &s);
    assert_true(cured_ref_sum_double(&s) == 1.5);
    assert_true(cured_ref_sum_float(&s) == 1.5f);
    assert_true(cured_ref_sum_abs(&s) == 2e8 + 1.5);
    float e;
    cured_ref_sum_element(&s, &e);
    assert_true(e == 1.5f);
    double ds[] = {1e300, 1e-300, -1e300};
    cured_ref_sum_of(CURED_F64, ds, 3, &s);
    assert_true(cured_ref_sum_double(&s) == 1e-300);
    assert_true(cured_ref_sum_abs(&s) == 2 * ds[0]);
    assert_true(isnan(cured_ref_sum_double(&(cured_ref_sum){.dtype = CURED_I32})));
}

static void test_gamma_is_h_u_over_one_minus_h_u(void **state)
{
    (void)state;
    assert_true(cured_ref_gamma(CURED_F32, 0) == 0);
    assert_true(cured_ref_gamma(CURED_F32, 1) == 0x1p-24 / (1 - 0x1p-24));
    assert_true(cured_ref_gamma(CURED_F64, 35) == 35 * 0x1p-53 / (1 - 35 * 0x1p-53));
    assert_true(isinf(cured_ref_gamma(CURED_F32, 1u << 24)));
    assert_true(cured_ref_gamma(CURED_F32, (1u << 24) - 1) > 1e6);
    assert_true(cured_ref_gamma(CURED_I32, 100) == 0);
}

/* Recursive summation of n values is a chain of n - 1 roundings: its error
 * must lie within the bound for h = n - 1, on the standard fill and on data
 * made to be hard: 1 + 2^-12 each, whose 2^-12 every add past 2^13 drops. */
static void test_bound_holds_for_real_rounded_sums(void **state)
{
    (void)state;
    enum { N = 50000 };
    float *xs = malloc(N * sizeof *xs);
    assert_non_null(xs);
    for (int kind = 0; kind < 2; kind++) {
        cured_ref_fill f = cured_ref_fill_standard(123 + kind);
        for (int i = 0; i < N; i++)
            xs[i] = kind == 0 ? cured_ref_fill_f32(&f, (uint64_t)i) : 1 + 0x1p-12f;
        cured_ref_sum s;
        cured_ref_sum_of(CURED_F32, xs, N, &s);
        float serial = 0;
        for (int i = 0; i < N; i++)
            serial += xs[i];
        double err = cured_ref_sum_error(&s, &serial);
        double bound = cured_ref_sum_bound(&s, N - 1);
        assert_true(err > 0 && err <= bound);
        assert_int_equal(cured_ref_sum_check(&s, &serial, N - 1, NULL, 0), 1);
        /* the drift (about 10) is far past one rounding's bound: h matters */
        if (kind == 1)
            assert_int_equal(cured_ref_sum_check(&s, &serial, 1, NULL, 0), 0);
    }
    free(xs);

    /* f64 and h = 1, the worst case: 1 + 2^-53 rounds to 1, an error of
     * exactly u sum|x| / (1 + u); the small-h bound must still cover it */
    double two[] = {1, 0x1p-53}, computed = 1.0;
    cured_ref_sum s;
    cured_ref_sum_of(CURED_F64, two, 2, &s);
    assert_true(cured_ref_sum_error(&s, &computed) <= cured_ref_sum_bound(&s, 1));
    assert_int_equal(cured_ref_sum_check(&s, &computed, 1, NULL, 0), 1);
}

/* The check is exact at the bound's edge: the float just inside it passes,
 * the next float out fails. */
static void test_check_accepts_within_and_rejects_past_the_bound(void **state)
{
    (void)state;
    enum { N = 1000 };
    float xs[N];
    cured_ref_fill f = cured_ref_fill_standard(7);
    cured_ref_fill_buffer(&f, CURED_F32, xs, N);
    cured_ref_sum s;
    cured_ref_sum_of(CURED_F32, xs, N, &s);
    uint64_t h = 12;
    double bound = cured_ref_sum_bound(&s, h), exact = cured_ref_sum_double(&s);
    assert_true(bound > 0);
    float want = cured_ref_sum_float(&s);
    assert_int_equal(cured_ref_sum_check(&s, &want, h, NULL, 0), 1);
    assert_int_equal(cured_ref_sum_check(&s, &want, 0, NULL, 0),
                     cured_ref_sum_error(&s, &want) == 0);
    for (int side = -1; side <= 1; side += 2) {
        /* walk out float by float until past the bound */
        float inside = want, out = want;
        while (cured_ref_sum_error(&s, &out) <= bound) {
            inside = out;
            out = nextafterf(out, side * INFINITY);
        }
        assert_true(fabs((double)inside - exact) <= bound * (1 + 1e-12));
        assert_int_equal(cured_ref_sum_check(&s, &inside, h, NULL, 0), 1);
        char msg[300] = "";
        assert_int_equal(cured_ref_sum_check(&s, &out, h, msg, sizeof msg), 0);
        assert_non_null(strstr(msg, "got "));
        assert_non_null(strstr(msg, " bound "));
        assert_non_null(strstr(msg, "(h=12, sum|x| "));
    }
    float nan = NAN;
    assert_int_equal(cured_ref_sum_check(&s, &nan, h, NULL, 0), 0);
    float inf = INFINITY;
    assert_int_equal(cured_ref_sum_check(&s, &inf, 1u << 30, NULL, 0), 0);
    /* h u >= 1: no bound, any finite value passes */
    float far = 1e30f;
    assert_int_equal(cured_ref_sum_check(&s, &far, 1u << 24, NULL, 0), 1);
}

/* Integer-valued floats with sum|x| <= 2^24 have exact partial sums: bound
 * 0, so even the nearest wrong float fails. */
static void test_exact_data_has_bound_zero(void **state)
{
    (void)state;
    enum { N = 70001 };
    float *xs = malloc(N * sizeof *xs);
    assert_non_null(xs);
    cured_ref_fill f = {.kind = CURED_REF_FILL_SPARSE, .seed = 3, .sparsity = 1,
                        .max_magnitude = 4};
    cured_ref_fill_buffer(&f, CURED_F32, xs, N);
    cured_ref_sum s;
    cured_ref_sum_of(CURED_F32, xs, N, &s);
    assert_int_equal(cured_ref_sum_exactly_representable(&s), 1);
    assert_true(cured_ref_sum_bound(&s, 1000) == 0);
    float want = cured_ref_sum_float(&s), next = nextafterf(want, INFINITY);
    assert_true((double)want == cured_ref_sum_double(&s));
    assert_int_equal(cured_ref_sum_check(&s, &want, 1000, NULL, 0), 1);
    char msg[300];
    assert_int_equal(cured_ref_sum_check(&s, &next, 1000, msg, sizeof msg), 0);
    assert_non_null(strstr(msg, "every partial sum exact"));
    free(xs);

    /* 2^24 + 1 as the sum of ones and a 2^24: a partial sum of 2^24 + 1 is
     * not a float, so a bound applies */
    float big[] = {0x1p24f, 1, 1};
    cured_ref_sum_of(CURED_F32, big, 3, &s);
    assert_int_equal(cured_ref_sum_exactly_representable(&s), 0);
    assert_true(cured_ref_sum_bound(&s, 2) > 0);
    float edge[] = {0x1p23f, 0x1p23f - 1, 1};       /* sum|x| = 2^24 exactly */
    cured_ref_sum_of(CURED_F32, edge, 3, &s);
    assert_int_equal(cured_ref_sum_exactly_representable(&s), 1);
    /* the f32 uniform fill: multiples of 2^-24, exact while sum|x| <= 1 */
    float few[] = {0.25f, -0.125f, 0x1p-24f};
    cured_ref_sum_of(CURED_F32, few, 3, &s);
    assert_int_equal(cured_ref_sum_exactly_representable(&s), 1);
}

static void test_nan_and_infinity_inputs(void **state)
{
    (void)state;
    cured_ref_sum s;
    float with_inf[] = {1, INFINITY, 2};
    cured_ref_sum_of(CURED_F32, with_inf, 3, &s);
    assert_true(isinf(cured_ref_sum_float(&s)));
    assert_true(isnan(cured_ref_sum_bound(&s, 2)));
    assert_true(cured_ref_sum_abs(&s) == 3);      /* the finite inputs */
    float inf = INFINITY, minus_inf = -INFINITY, three = 3, nan = NAN;
    assert_int_equal(cured_ref_sum_check(&s, &inf, 2, NULL, 0), 1);
    assert_int_equal(cured_ref_sum_check(&s, &minus_inf, 2, NULL, 0), 0);
    assert_int_equal(cured_ref_sum_check(&s, &three, 2, NULL, 0), 0);
    assert_int_equal(cured_ref_sum_check(&s, &nan, 2, NULL, 0), 0);

    double with_nan[] = {1, NAN};
    cured_ref_sum_of(CURED_F64, with_nan, 2, &s);
    double dnan = NAN, one = 1;
    assert_int_equal(cured_ref_sum_check(&s, &dnan, 1, NULL, 0), 1);
    assert_int_equal(cured_ref_sum_check(&s, &one, 1, NULL, 0), 0);

    /* finite inputs whose sum is beyond float: the reference is inf, and
     * a kernel's inf matches it */
    float huge[] = {FLT_MAX, FLT_MAX};
    cured_ref_sum_of(CURED_F32, huge, 2, &s);
    assert_true(isinf(cured_ref_sum_float(&s)));
    assert_true(cured_ref_sum_double(&s) == 2.0 * FLT_MAX);
    assert_int_equal(cured_ref_sum_check(&s, &inf, 1, NULL, 0), 1);
    float max = FLT_MAX;
    assert_int_equal(cured_ref_sum_check(&s, &max, 1, NULL, 0), 0);
}

/* Sums merged from parts (threads) equal the whole, floats included. */
static void test_merged_parts_are_the_whole(void **state)
{
    (void)state;
    enum { N = 100000 };
    cured_ref_fill f = cured_ref_fill_standard(77);
    cured_ref_sum whole, a, b;
    cured_ref_sum_init(&whole, CURED_F64);
    cured_ref_sum_init(&a, CURED_F64);
    cured_ref_sum_init(&b, CURED_F64);
    cured_ref_sum_add_fill(&whole, &f, 0, N);
    cured_ref_sum_add_fill(&a, &f, 0, 12345);
    cured_ref_sum_add_fill(&b, &f, 12345, N);
    cured_ref_sum_merge(&a, &b);
    assert_true(a.n == N);
    assert_true(cured_ref_sum_double(&a) == cured_ref_sum_double(&whole));
    assert_true(cured_ref_sum_abs(&a) == cured_ref_sum_abs(&whole));
    double w = cured_ref_sum_double(&whole);
    assert_true(cured_ref_sum_error(&a, &w) == cured_ref_sum_error(&whole, &w));
}

static void test_elements_print_with_every_digit(void **state)
{
    (void)state;
    char buf[48];
    float f = 0.1f;
    double d = 0.1;
    int32_t i = -5;
    uint64_t u = UINT64_MAX;
    assert_string_equal(cured_ref_format_element(CURED_F32, &f, buf, sizeof buf),
                        "0.100000001");
    assert_string_equal(cured_ref_format_element(CURED_F64, &d, buf, sizeof buf),
                        "0.10000000000000001");
    assert_string_equal(cured_ref_format_element(CURED_I32, &i, buf, sizeof buf), "-5");
    assert_string_equal(cured_ref_format_element(CURED_U64, &u, buf, sizeof buf),
                        "18446744073709551615");
    assert_string_equal(cured_ref_format_element(CURED_DTYPE_COUNT, &u, buf, sizeof buf),
                        "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers_wrap_as_the_kernels_and_stay_exact_in_128_bits),
        cmocka_unit_test(test_long_integer_sums_match_int128),
        cmocka_unit_test(test_float_reference_is_the_exact_sum_rounded),
        cmocka_unit_test(test_gamma_is_h_u_over_one_minus_h_u),
        cmocka_unit_test(test_bound_holds_for_real_rounded_sums),
        cmocka_unit_test(test_check_accepts_within_and_rejects_past_the_bound),
        cmocka_unit_test(test_exact_data_has_bound_zero),
        cmocka_unit_test(test_nan_and_infinity_inputs),
        cmocka_unit_test(test_merged_parts_are_the_whole),
        cmocka_unit_test(test_elements_print_with_every_digit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
