/* test_reduce_cpu.c - cured_reduce_cpu against an independent exact
 * reference: sums against reduce_data.c's (exact big integers, scaled by
 * 2^-1074, written out in decimal and rounded by the C library's correctly
 * rounded strtof/strtod); min/max/argmin/argmax against plain comparisons;
 * integer sums against 64-bit arithmetic; argument errors.
 *
 * Nothing here uses the library's xacc.h: elements are decoded with frexp
 * and ldexp, so a shared mistake cannot hide.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured.h"
#include "reduce_data.h"

// ----------------------------------------------------------------------------
// Elements and the reference (reduce_data.h)

static uint64_t rng_state;

static size_t elem_size(cured_dtype d) { return cured_dtype_size(d); }

// ----------------------------------------------------------------------------
// Sums

static const cured_dtype float_types[] = {CURED_F16, CURED_BF16, CURED_F32, CURED_F64};

static void check_sum(cured_dtype d, uint64_t n, int kind, unsigned flags,
                      int threads)
{
    void *a = malloc(n * elem_size(d) + 8);
    assert_non_null(a);
    rd_fill(a, d, n, kind, &rng_state);
    int to_f64 = d == CURED_F64 || (flags & CURED_REDUCE_F64);
    uint64_t want = rd_reference_sum(a, d, n, to_f64), got = 0;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, d, n ? a : NULL, n, &got,
                                      flags, threads),
                     CURED_SUCCESS);
    if (got != want)
        fail_msg("%s %s n=%llu threads %d: got %llx, want %llx",
                 cured_dtype_name(d), rd_kind_names[kind], (unsigned long long)n,
                 threads, (unsigned long long)got, (unsigned long long)want);
    free(a);
}

static void test_sums_are_correctly_rounded(void **state)
{
    (void)state;
    static const uint64_t sizes[] = {0, 1, 2, 3, 1000, (1u << 20) + 3};
    for (size_t t = 0; t < sizeof float_types / sizeof *float_types; t++)
        for (int k = 0; k < RD_KINDS; k++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                rng_state = 1000 * t + 10 * (uint64_t)k + s;
                check_sum(float_types[t], sizes[s], k, 0, 0);
                if (float_types[t] != CURED_F64 && sizes[s] == 1000)
                    check_sum(float_types[t], sizes[s], k, CURED_REDUCE_F64, 3);
            }
}

static void test_large_sums(void **state)
{
    (void)state;
    uint64_t n = (1u << 24) + 5;
    rng_state = 77;
    check_sum(CURED_F32, n, RD_UNIFORM, 0, 0);
    rng_state = 78;
    check_sum(CURED_F64, n, RD_WIDE, 0, 0);
    rng_state = 79;
    check_sum(CURED_F16, n, RD_CANCEL, 0, 0);
}

/* The cut into threads changes nothing. */
static void test_any_thread_count_same_bits(void **state)
{
    (void)state;
    uint64_t n = 300000;
    for (size_t t = 0; t < sizeof float_types / sizeof *float_types; t++) {
        void *a = malloc(n * 8);
        rng_state = 5 + t;
        rd_fill(a, float_types[t], n, RD_WIDE, &rng_state);
        uint64_t first = 0;
        for (int threads = 1; threads <= 9; threads += 2) {
            uint64_t got = 0;
            assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, float_types[t], a, n,
                                              &got, 0, threads),
                             CURED_SUCCESS);
            if (threads == 1)
                first = got;
            assert_int_equal(got, first);
        }
        free(a);
    }
}

static void test_specials(void **state)
{
    (void)state;
    float a[5] = {1, 2, INFINITY, 3, 4};
    float got;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a, 5, &got, 0, 1), 0);
    assert_true(isinf(got) && got > 0);
    a[4] = -INFINITY;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a, 5, &got, 0, 1), 0);
    assert_true(isnan(got));
    a[2] = NAN;
    a[4] = 1;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a, 5, &got, 0, 1), 0);
    assert_true(isnan(got));
    /* all -0: the sum is +0 */
    float z[3] = {-0.0f, -0.0f, -0.0f};
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, z, 3, &got, 0, 1), 0);
    assert_true(got == 0 && !signbit(got));
    /* n = 0 */
    got = 5;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, NULL, 0, &got, 0, 1), 0);
    assert_true(got == 0 && !signbit(got));
}

/* Ties to even decided by a bit far below the result: the sticky bit
 * lies dozens of digits under the leading one (the smallest subnormal
 * beside 1 + half an ulp). */
static void test_ties_and_far_sticky_bits(void **state)
{
    (void)state;
    const double tiny = ldexp(1, -1074), half = ldexp(1, -53), ulp = ldexp(1, -52);
    const double cases[][4] = {
        /* elements (3), the correctly rounded sum */
        {1, half, tiny, 1 + ulp},   /* above the tie: up */
        {1, half, 0, 1},            /* the tie, even: stays */
        {1, half, -tiny, 1},        /* below the tie: down */
        {1 + ulp, half, 0, 1 + 2 * ulp}, /* the tie, odd: up to even */
        {-1, -half, -tiny, -1 - ulp},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        double got = 0;
        assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F64, cases[i], 3, &got, 0, 1),
                         CURED_SUCCESS);
        if (got != cases[i][3])
            fail_msg("f64 case %zu: got %a, want %a", i, got, cases[i][3]);
    }
    const float ftiny = ldexpf(1, -149), fhalf = ldexpf(1, -24), fulp = ldexpf(1, -23);
    const float fcases[][4] = {
        {1, fhalf, ftiny, 1 + fulp},
        {1, fhalf, 0, 1},
        {1, fhalf, -ftiny, 1},
        {-1 - fulp, -fhalf, 0, -1 - 2 * fulp},
    };
    for (size_t i = 0; i < sizeof fcases / sizeof *fcases; i++) {
        float got = 0;
        assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, fcases[i], 3, &got, 0, 1),
                         CURED_SUCCESS);
        if (got != fcases[i][3])
            fail_msg("f32 case %zu: got %a, want %a", i, (double)got, (double)fcases[i][3]);
    }
}

// ----------------------------------------------------------------------------
// Integers

static void test_integer_sums_wrap_or_widen(void **state)
{
    (void)state;
    uint64_t n = 100003;
    int32_t *a = malloc(n * 8);
    int64_t want64 = 0;
    rng_state = 9;
    for (uint64_t i = 0; i < n; i++) {
        a[i] = (int32_t)(uint32_t)rd_random(&rng_state);
        want64 += a[i];
    }
    int32_t got32;
    int64_t got64;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_I32, a, n, &got32, 0, 0), 0);
    assert_int_equal((uint32_t)got32, (uint32_t)(uint64_t)want64);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_I32, a, n, &got64,
                                      CURED_REDUCE_WIDEN, 0), 0);
    assert_int_equal(got64, want64);
    uint64_t wantu = 0, gotu;
    for (uint64_t i = 0; i < n; i++)
        wantu += (uint32_t)a[i];
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_U32, a, n, &gotu,
                                      CURED_REDUCE_WIDEN, 0), 0);
    assert_int_equal(gotu, wantu);
    uint64_t *b = (uint64_t *)a, s = 0;
    for (uint64_t i = 0; i < n / 2; i++)
        s += b[i];
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_U64, b, n / 2, &gotu, 0, 0), 0);
    assert_int_equal(gotu, s);
    free(a);
}

// ----------------------------------------------------------------------------
// min, max, argmin, argmax

/* The reference order on doubles: NaN first, -0 below +0. */
static int less(double x, double y)
{
    if (x == 0 && y == 0)
        return signbit(x) && !signbit(y);
    return x < y;
}

static void check_minmax(cured_dtype d, const void *a, uint64_t n)
{
    int64_t want_min = -1, want_max = -1, nan_at = -1;
    for (uint64_t i = 0; i < n; i++) {
        double x = rd_value(d, rd_get(a, d, i));
        if (isnan(x)) {
            if (nan_at < 0)
                nan_at = (int64_t)i;
            continue;
        }
        if (want_min < 0 || less(x, rd_value(d, rd_get(a, d, (uint64_t)want_min))))
            want_min = (int64_t)i;
        if (want_max < 0 || less(rd_value(d, rd_get(a, d, (uint64_t)want_max)), x))
            want_max = (int64_t)i;
    }
    if (nan_at >= 0)
        want_min = want_max = nan_at;
    int64_t got;
    assert_int_equal(cured_reduce_cpu(CURED_OP_ARGMIN, d, a, n, &got, 0, 3), 0);
    assert_int_equal(got, want_min);
    assert_int_equal(cured_reduce_cpu(CURED_OP_ARGMAX, d, a, n, &got, 0, 3), 0);
    assert_int_equal(got, want_max);
    uint64_t bits = 0;
    assert_int_equal(cured_reduce_cpu(CURED_OP_MIN, d, a, n, &bits, 0, 3), 0);
    assert_int_equal(bits, rd_get(a, d, (uint64_t)want_min));
    bits = 0;
    assert_int_equal(cured_reduce_cpu(CURED_OP_MAX, d, a, n, &bits, 0, 3), 0);
    assert_int_equal(bits, rd_get(a, d, (uint64_t)want_max));
}

static void test_minmax_order_and_ties(void **state)
{
    (void)state;
    uint64_t n = 200001;
    for (size_t t = 0; t < sizeof float_types / sizeof *float_types; t++) {
        cured_dtype d = float_types[t];
        void *a = malloc(n * 8);
        rng_state = 40 + t;
        rd_fill(a, d, n, RD_WIDE, &rng_state);
        check_minmax(d, a, n);
        /* ties: the same extreme twice; zeros of both signs */
        rd_put(a, d, 7, rd_get(a, d, n - 3));
        check_minmax(d, a, n);
        uint64_t sign = (uint64_t)1 << (8 * elem_size(d) - 1);
        for (uint64_t i = 0; i < n; i++)
            rd_put(a, d, i, i % 2 ? 0 : sign);
        check_minmax(d, a, n);
        /* a NaN: it wins, the first one */
        rd_fill(a, d, n, RD_UNIFORM, &rng_state);
        uint64_t nan = rd_max_finite(d) + 2; /* exponent all ones, fraction != 0 */
        rd_put(a, d, 1234, nan);
        rd_put(a, d, 99999, nan);
        check_minmax(d, a, n);
        free(a);
    }
}

static void test_minmax_integers_and_empty(void **state)
{
    (void)state;
    int32_t a[6] = {5, -7, 3, -7, 9, 9};
    int64_t idx;
    int32_t v;
    assert_int_equal(cured_reduce_cpu(CURED_OP_ARGMIN, CURED_I32, a, 6, &idx, 0, 2), 0);
    assert_int_equal(idx, 1);
    assert_int_equal(cured_reduce_cpu(CURED_OP_ARGMAX, CURED_I32, a, 6, &idx, 0, 2), 0);
    assert_int_equal(idx, 4);
    assert_int_equal(cured_reduce_cpu(CURED_OP_MIN, CURED_U32, a, 6, &v, 0, 2), 0);
    assert_int_equal((uint32_t)v, 3u);
    assert_int_equal(cured_reduce_cpu(CURED_OP_ARGMIN, CURED_F32, NULL, 0, &idx, 0, 2), 0);
    assert_int_equal(idx, -1);
    float f;
    assert_int_equal(cured_reduce_cpu(CURED_OP_MIN, CURED_F32, NULL, 0, &f, 0, 2), 0);
    assert_true(isinf(f) && f > 0);
    assert_int_equal(cured_reduce_cpu(CURED_OP_MAX, CURED_I32, NULL, 0, &v, 0, 2), 0);
    assert_int_equal(v, INT32_MIN);
}

// ----------------------------------------------------------------------------
// Arguments

static void test_bad_arguments_write_nothing(void **state)
{
    (void)state;
    float a[4] = {1, 2, 3, 4};
    uint64_t out = 0x5a5a5a5a5a5a5a5aull;
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, NULL, 4, &out, 0, 1),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a, 4, NULL, 0, 1),
                     CURED_ERROR_NULL_POINTER);
    assert_int_equal(cured_reduce_cpu((cured_op)9, CURED_F32, a, 4, &out, 0, 1),
                     CURED_ERROR_UNSUPPORTED_OP);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, (cured_dtype)42, a, 4, &out, 0, 1),
                     CURED_ERROR_UNSUPPORTED_TYPE);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a, 4, &out,
                                      CURED_REDUCE_WIDEN, 1),
                     CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_reduce_cpu(CURED_OP_MIN, CURED_F32, a, 4, &out,
                                      CURED_REDUCE_F64, 1),
                     CURED_ERROR_INVALID_VALUE);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, (char *)a + 1, 3, &out, 0, 1),
                     CURED_ERROR_MISALIGNED);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F64, a, 2, (char *)&out + 4, 0, 1),
                     CURED_ERROR_MISALIGNED);
    assert_int_equal(cured_reduce_cpu(CURED_OP_SUM, CURED_F32, a,
                                      CURED_REDUCE_MAX_N + 1, &out, 0, 1),
                     CURED_ERROR_SIZE_TOO_LARGE);
    assert_int_equal(out, 0x5a5a5a5a5a5a5a5aull);
    cured_dtype r;
    assert_int_equal(cured_reduce_result_dtype(CURED_OP_SUM, CURED_BF16, 0, &r), 0);
    assert_int_equal(r, CURED_F32);
    assert_int_equal(cured_reduce_result_dtype(CURED_OP_ARGMAX, CURED_F16, 0, &r), 0);
    assert_int_equal(r, CURED_I64);
    assert_int_equal(cured_reduce_result_dtype(CURED_OP_SUM, CURED_U32,
                                               CURED_REDUCE_WIDEN, &r), 0);
    assert_int_equal(r, CURED_U64);
    for (int s = CURED_ERROR_UNSUPPORTED_OP; s <= CURED_ERROR_OUT_OF_MEMORY; s++)
        assert_string_not_equal(cured_status_string((cured_status)s), "unknown status");
    cured_op op;
    assert_int_equal(cured_op_from_name("argmax", &op), 0);
    assert_int_equal(op, CURED_OP_ARGMAX);
    assert_int_equal(cured_op_from_name("mean", &op), CURED_ERROR_UNSUPPORTED_OP);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sums_are_correctly_rounded),
        cmocka_unit_test(test_large_sums),
        cmocka_unit_test(test_any_thread_count_same_bits),
        cmocka_unit_test(test_specials),
        cmocka_unit_test(test_ties_and_far_sticky_bits),
        cmocka_unit_test(test_integer_sums_wrap_or_widen),
        cmocka_unit_test(test_minmax_order_and_ties),
        cmocka_unit_test(test_minmax_integers_and_empty),
        cmocka_unit_test(test_bad_arguments_write_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
