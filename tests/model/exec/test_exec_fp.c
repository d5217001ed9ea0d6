/* test_exec_fp.c - the interpreter's float formats and rounding
 * (src/model/exec_fp.c) against independent references: a brute-force
 * search over every f16 and bf16 value for the nearest (or directed)
 * neighbour, and the host's own float arithmetic under fesetround.
 *
 *   ctest --test-dir build -R test_exec_fp
 */
#include "exec_fp.h"
#include "fp_reference.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

// ----------------------------------------------------------------------------
// References

/* A small deterministic generator (xorshift64*). */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static uint32_t f32_bits(float f)
{
    return ref_bits(f);
}

// ----------------------------------------------------------------------------
// Tests

static void test_half_formats_against_brute_force(void **state)
{
    (void)state;
    uint64_t s = 0x1234567;
    for (int i = 0; i < 400; i++) {
        double v;
        switch (i % 5) {
        case 0: v = ldexp((double)(next_random(&s) >> 11), -53 - (int)(next_random(&s) % 30)); break;
        case 1: v = (double)(int64_t)(next_random(&s) % 200000) / 3.0; break;
        case 2: v = ldexp(1.0 + (double)(next_random(&s) % 1024) / 1024.0, -25); break;
        case 3: v = 65504.0 + (double)(next_random(&s) % 64); break;
        default: v = ldexp((double)(next_random(&s) % 4096) + 0.5, -(int)(next_random(&s) % 24)); break;
        }
        if (next_random(&s) & 1)
            v = -v;
        for (int fmt = EXEC_FMT_F16; fmt <= EXEC_FMT_BF16; fmt++)
            for (int mode = EXEC_RND_RN; mode <= EXEC_RND_RP; mode++) {
                uint64_t got = exec_fp_from_double(v, fmt, mode);
                uint64_t want = ref_half(v, fmt == EXEC_FMT_BF16, mode);
                if (got != want)
                    fail_msg("%.17g to %s mode %d: got 0x%04llx want 0x%04llx", v,
                             fmt == EXEC_FMT_F16 ? "f16" : "bf16", mode,
                             (unsigned long long)got, (unsigned long long)want);
            }
    }
    /* exact ties and specials */
    assert_int_equal(exec_fp_from_double(1.0 + ldexp(1, -11), EXEC_FMT_F16, EXEC_RND_RN), 0x3C00);
    assert_int_equal(exec_fp_from_double(1.0 + 3 * ldexp(1, -11), EXEC_FMT_F16, EXEC_RND_RN), 0x3C02);
    assert_int_equal(exec_fp_from_double(65520.0, EXEC_FMT_F16, EXEC_RND_RN), 0x7C00);
    assert_int_equal(exec_fp_from_double(65519.0, EXEC_FMT_F16, EXEC_RND_RN), 0x7BFF);
    assert_int_equal(exec_fp_from_double(1e9, EXEC_FMT_F16, EXEC_RND_RZ), 0x7BFF);
    assert_int_equal(exec_fp_from_double(NAN, EXEC_FMT_F16, EXEC_RND_RN), 0x7FFF);
    assert_int_equal(exec_fp_from_double(-0.0, EXEC_FMT_BF16, EXEC_RND_RN), 0x8000);
    assert_int_equal(exec_fp_from_double(ldexp(1, -25), EXEC_FMT_F16, EXEC_RND_RN), 0x0000);
    assert_int_equal(exec_fp_from_double(ldexp(1.5, -25), EXEC_FMT_F16, EXEC_RND_RN), 0x0001);
    assert_int_equal(exec_fp_from_double(ldexp(1, -30), EXEC_FMT_F16, EXEC_RND_RP), 0x0001);
}

static void test_f32_conversion_matches_host(void **state)
{
    (void)state;
    uint64_t s = 99;
    for (int i = 0; i < 20000; i++) {
        uint64_t bits = next_random(&s);
        double v;
        memcpy(&v, &bits, sizeof v);
        if (i % 3 == 0)
            v = ldexp((double)(int64_t)next_random(&s), -(int)(next_random(&s) % 220));
        if (isnan(v))
            continue;
        for (int mode = EXEC_RND_RN; mode <= EXEC_RND_RP; mode++) {
            uint32_t got = (uint32_t)exec_fp_from_double(v, EXEC_FMT_F32, mode);
            uint32_t want = f32_bits(ref_to_float(v, mode));
            if (got != want)
                fail_msg("%.17g mode %d: got 0x%08x want 0x%08x", v, mode, got, want);
        }
    }
}

static void test_int_to_float(void **state)
{
    (void)state;
    uint64_t s = 7;
    for (int i = 0; i < 5000; i++) {
        uint64_t m = next_random(&s) >> (next_random(&s) % 64);
        for (int mode = EXEC_RND_RN; mode <= EXEC_RND_RP; mode++) {
            float want = ref_int_to_float(m, 0, mode);
            uint32_t got = (uint32_t)exec_fp_from_int(m, 0, EXEC_FMT_F32, mode);
            if (got != f32_bits(want))
                fail_msg("%llu mode %d: got 0x%08x want 0x%08x", (unsigned long long)m, mode, got,
                         f32_bits(want));
        }
    }
    assert_int_equal(exec_fp_from_int(16777217, 0, EXEC_FMT_F32, EXEC_RND_RN), 0x4B800000);
    assert_int_equal(exec_fp_from_int(16777217, 0, EXEC_FMT_F32, EXEC_RND_RP), 0x4B800001);
    assert_int_equal(exec_fp_from_int(16777217, 1, EXEC_FMT_F32, EXEC_RND_RM), 0xCB800001);
    assert_int_equal(exec_fp_from_int(~0ull, 0, EXEC_FMT_F64, EXEC_RND_RZ), 0x43EFFFFFFFFFFFFFull);
    for (int64_t v = -300; v <= 300; v += 7)
        for (int mode = EXEC_RND_RN; mode <= EXEC_RND_RP; mode++)
            assert_int_equal(exec_fp_from_int(v < 0 ? (uint64_t)-v : (uint64_t)v, v < 0,
                                              EXEC_FMT_F16, mode),
                             ref_half((double)v, 0, mode));
}

static void test_directed_f32_arithmetic(void **state)
{
    (void)state;
    uint64_t s = 4242;
    const char ops[] = {'+', '*', '/'};
    for (int i = 0; i < 30000; i++) {
        uint32_t ab = (uint32_t)next_random(&s), bb = (uint32_t)next_random(&s);
        if (i % 4 == 0)
            bb = (ab & 0xFF800000u) | (bb & 0x007FFFFFu);      /* close exponents */
        float a, b;
        memcpy(&a, &ab, sizeof a);
        memcpy(&b, &bb, sizeof b);
        if (isnan(a) || isnan(b))
            continue;
        char op = ops[i % 3];
        for (int mode = EXEC_RND_RZ; mode <= EXEC_RND_RP; mode++) {
            double hi, lo = 0;
            if (op == '+') {
                hi = (double)a + (double)b;
                double bv = hi - a;
                lo = (a - (hi - bv)) + (b - bv);
            } else if (op == '*') {
                hi = (double)a * (double)b;
            } else {
                hi = (double)a / (double)b;
                if (isfinite(hi) && b != 0)
                    lo = fma(-hi, b, a) / b;
            }
            float got = exec_f32_round(hi, lo, mode);
            float want = ref_f32(op, a, b, 0, mode);
            if (f32_bits(got) != f32_bits(want) && !(isnan(got) && isnan(want)))
                fail_msg("%a %c %a mode %d: got %a want %a", (double)a, op, (double)b, mode,
                         (double)got, (double)want);
        }
    }
}

static void test_directed_examples(void **state)
{
    (void)state;
    double tiny = ldexp(1, -30);
    assert_true(exec_f32_round(1.0 + tiny, 0, EXEC_RND_RZ) == 1.0f);
    assert_true(exec_f32_round(1.0 + tiny, 0, EXEC_RND_RP) == nextafterf(1.0f, 2.0f));
    assert_true(exec_f32_round(-1.0 - tiny, 0, EXEC_RND_RP) == -1.0f);
    assert_true(exec_f32_round(-1.0 - tiny, 0, EXEC_RND_RM) == -nextafterf(1.0f, 2.0f));
    assert_true(exec_f32_round(1e39, 0, EXEC_RND_RZ) == FLT_MAX);
    assert_true(isinf(exec_f32_round(1e39, 0, EXEC_RND_RN)));
    assert_true(exec_f64_round(1.0, tiny, EXEC_RND_RP, 1) == nextafter(1.0, 2.0));
    assert_true(exec_f64_round(INFINITY, 0, EXEC_RND_RZ, 1) == DBL_MAX);
    assert_true(isinf(exec_f64_round(INFINITY, 0, EXEC_RND_RZ, 0)));
}

static void test_ftz(void **state)
{
    (void)state;
    assert_true(exec_f32_ftz(FLT_MIN / 2) == 0.0f);
    assert_true(signbit(exec_f32_ftz(-FLT_MIN / 4)));
    assert_true(exec_f32_ftz(FLT_MIN) == FLT_MIN);
    assert_true(exec_f64_ftz(DBL_MIN / 8) == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_half_formats_against_brute_force),
        cmocka_unit_test(test_f32_conversion_matches_host),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_directed_f32_arithmetic),
        cmocka_unit_test(test_directed_examples),
        cmocka_unit_test(test_ftz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
