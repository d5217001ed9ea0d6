/* test_bench_ulps.c - the distance in ulps between a sum and the exact one,
 * and the exact sum rounded to f16, against brute force.
 *
 * CPU only. bench_half_nearest is checked on sums whose value is k 2^-30
 * (exact in a double and in int64), against a scan of every finite f16 in
 * integer arithmetic, and on sums a double cannot hold (a midpoint plus
 * 2^-100), where rounding through a double would tie.
 */
#include "bench_test.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "bench_api.h"

static uint64_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

static void test_distance_floats(void **state)
{
    (void)state;
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(1.0f), f32_bits(1.0f)) == 0);
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(nextafterf(1.0f, 2.0f)),
                                   f32_bits(1.0f)) == 1);
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(1.0f),
                                   f32_bits(nextafterf(1.0f, 0.0f))) == 1);
    /* +0 and -0 are one value; the smallest subnormals either side are 2 apart */
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(-0.0f), f32_bits(0.0f)) == 0);
    assert_true(bench_ulp_distance(CURED_F32, 0x80000001u, 0x00000001u) == 2);
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(INFINITY), 0x7f7fffffu) == 1);
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(NAN), f32_bits(1.0f)) == UINT64_MAX);
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(NAN), f32_bits(NAN)) == 0);
    /* 1.0 and 2.0 are 2^23 floats apart */
    assert_true(bench_ulp_distance(CURED_F32, f32_bits(2.0f), f32_bits(1.0f)) == 1u << 23);
    assert_true(bench_ulp_distance(CURED_F64, f64_bits(2.0), f64_bits(1.0)) ==
                (uint64_t)1 << 52);
    assert_true(bench_ulp_distance(CURED_F64, f64_bits(-DBL_MAX), f64_bits(DBL_MAX)) ==
                2 * 0x7fefffffffffffffull);
    assert_true(bench_ulp_distance(CURED_F16, 0x3c01, 0x3c00) == 1);
    assert_true(bench_ulp_distance(CURED_F16, 0xbc00, 0x3c00) == 2 * 0x3c00);
    assert_true(bench_ulp_distance(CURED_BF16, 0x3f81, 0x3f80) == 1);
    /* only the low bits of a narrow format count */
    assert_true(bench_ulp_distance(CURED_F16, 0xffff3c00ull, 0x3c00) == 0);
}

static void test_distance_integers(void **state)
{
    (void)state;
    assert_true(bench_ulp_distance(CURED_I32, (uint32_t)-5, 3) == 8);
    assert_true(bench_ulp_distance(CURED_I32, 7, 7) == 0);
    assert_true(bench_ulp_distance(CURED_I64, (uint64_t)INT64_MIN, 0) == (uint64_t)1 << 63);
    assert_true(bench_ulp_distance(CURED_U32, 3, 10) == 7);
    assert_true(bench_ulp_distance(CURED_U64, 10, 3) == 7);
    assert_true(bench_ulp_distance(CURED_DTYPE_COUNT, 1, 1) == UINT64_MAX);
}

static void test_half_to_double(void **state)
{
    (void)state;
    assert_true(bench_half_to_double(0x3c00) == 1.0);
    assert_true(bench_half_to_double(0xc000) == -2.0);
    assert_true(bench_half_to_double(0x7bff) == 65504.0);
    assert_true(bench_half_to_double(0x0001) == ldexp(1.0, -24));
    assert_true(bench_half_to_double(0x03ff) == ldexp(1023.0, -24));
    assert_true(bench_half_to_double(0x0400) == ldexp(1.0, -14));
    assert_true(isinf(bench_half_to_double(0x7c00)) && bench_half_to_double(0xfc00) < 0);
    assert_true(isnan(bench_half_to_double(0x7e00)));
    assert_true(signbit(bench_half_to_double(0x8000)));
}

/* The f16 nearest k 2^-30 by scanning every finite f16 in units of 2^-30
 * (ties to even; 65520 and beyond: infinity). */
static uint16_t brute_half(int64_t k)
{
    int64_t mag = k < 0 ? -k : k;
    uint16_t sign = k < 0 ? 0x8000 : 0;
    if (mag >= (int64_t)65520 << 30)
        return sign | 0x7c00;
    int64_t best_d = INT64_MAX;
    uint16_t best = 0;
    for (uint16_t h = 0; h < 0x7c00; h++) {
        int64_t v = (int64_t)ldexp(bench_half_to_double(h), 30);
        int64_t d = v > mag ? v - mag : mag - v;
        if (d < best_d || (d == best_d && (h & 1) == 0)) {
            best_d = d;
            best = h;
        }
    }
    return best == 0 ? 0 : (uint16_t)(sign | best); /* a zero sum is +0 */
}

static uint16_t nearest_of(double x, double tiny)
{
    cured_ref_exact a;
    cured_ref_exact_clear(&a);
    cured_ref_exact_add(&a, x);
    if (tiny != 0)
        cured_ref_exact_add(&a, tiny);
    return bench_half_nearest(&a);
}

static void test_half_nearest(void **state)
{
    (void)state;
    uint64_t r = 12345;
    for (int i = 0; i < 400; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int64_t k;
        switch (i % 4) {
        case 0: k = (int64_t)(r >> 17) % ((int64_t)1 << 46); break; /* anywhere */
        case 1: k = (int64_t)(r >> 40) % ((int64_t)1 << 17); break; /* subnormals */
        case 2: k = ((int64_t)65504 << 30) + (int64_t)(r >> 36) % ((int64_t)32 << 30); break;
        default: k = ((int64_t)(r >> 44) << 6) | 32; break; /* ties at 2^-24 */
        }
        if (r & 1)
            k = -k;
        uint16_t want = brute_half(k);
        uint16_t got = nearest_of(ldexp((double)k, -30), 0);
        if (got != want)
            fail_msg("k = %lld: got %#x, want %#x", (long long)k, got, want);
    }
    /* a midpoint plus a little: through a double it would tie to even */
    double mid = (1.0 + bench_half_to_double(0x3c01)) / 2; /* between 1 and 1 + 2^-10 */
    assert_int_equal(nearest_of(mid, 0), 0x3c00);
    assert_int_equal(nearest_of(mid, ldexp(1.0, -100)), 0x3c01);
    assert_int_equal(nearest_of(-mid, -ldexp(1.0, -100)), 0xbc01);
    double mid_odd = (bench_half_to_double(0x3c01) + bench_half_to_double(0x3c02)) / 2;
    assert_int_equal(nearest_of(mid_odd, 0), 0x3c02);
    assert_int_equal(nearest_of(mid_odd, -ldexp(1.0, -100)), 0x3c01);
    assert_int_equal(nearest_of(65520.0, 0), 0x7c00);
    assert_int_equal(nearest_of(65520.0, -ldexp(1.0, -60)), 0x7bff);
    assert_int_equal(nearest_of(1e300, 0), 0x7c00);
    /* zero, NaN and infinities */
    cured_ref_exact a;
    cured_ref_exact_clear(&a);
    assert_int_equal(bench_half_nearest(&a), 0);
    cured_ref_exact_add(&a, 1.0);
    cured_ref_exact_add(&a, -1.0);
    assert_int_equal(bench_half_nearest(&a), 0);
    cured_ref_exact_add(&a, INFINITY);
    assert_int_equal(bench_half_nearest(&a), 0x7c00);
    cured_ref_exact_add(&a, -INFINITY);
    assert_int_equal(bench_half_nearest(&a), 0x7e00);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_floats),
        cmocka_unit_test(test_distance_integers),
        cmocka_unit_test(test_half_to_double),
        cmocka_unit_test(test_half_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
