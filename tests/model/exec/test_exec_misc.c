/* test_exec_misc.c - instruction forms reached through inline PTX: prmt
 * modes, funnel shifts, bfind, dp4a, carry chains, 64-bit mul.hi, mad24,
 * testp, .relu, special registers, f64 directed rounding, f16 arithmetic
 * and vector atomics, each against a value computed in C.
 *
 *   ctest --test-dir build -R test_exec_misc
 *
 * Kernels: fixtures/misc.cu.
 */
#include "exec_fixture.h"
#include "fp_reference.h"

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define MISC_COLS 32

/* prmt's named modes as the PTX ISA tabulates them: for selector c[1:0],
 * the source bytes of result bytes 3, 2, 1, 0 (from {b, a}, a = 0..3). */
static const char *const prmt_table[6][4] = {
    {"3210", "4321", "5432", "6543"},  /* f4e */
    {"5670", "6701", "7012", "0123"},  /* b4e */
    {"0000", "1111", "2222", "3333"},  /* rc8 */
    {"3210", "3211", "3222", "3333"},  /* ecl */
    {"0000", "1110", "2210", "3210"},  /* ecr */
    {"1010", "3232", "1010", "3232"},  /* rc16 */
};

static uint32_t prmt_ref(uint32_t a, uint32_t b, int mode, unsigned c)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    const char *s = prmt_table[mode][c & 3];
    uint32_t d = 0;
    for (int k = 0; k < 4; k++)
        d |= (uint32_t)((t >> (8 * (s[k] - '0'))) & 0xFF) << (8 * (3 - k));
    return d;
}

static float as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint64_t double_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static double div_rz(double a, double b)
{
    volatile double x = a, y = b, r;
    fesetround(FE_TOWARDZERO);
    r = x / y;
    fesetround(FE_TONEAREST);
    return r;
}

static double add_rp(double a, double b)
{
    volatile double x = a, y = b, r;
    fesetround(FE_UPWARD);
    r = x + y;
    fesetround(FE_TONEAREST);
    return r;
}

static int msb(uint32_t v)
{
    return v == 0 ? -1 : 31 - __builtin_clz(v);
}

static void misc_reference(uint32_t x, uint32_t y, unsigned i, uint32_t *o)
{
    for (int mode = 0; mode < 6; mode++)
        o[mode] = prmt_ref(x, y, mode, i & 3);
    uint64_t pair = ((uint64_t)y << 32) | x;
    o[6] = (uint32_t)((pair << (i & 31)) >> 32);
    unsigned n = i * 3 > 32 ? 32 : i * 3;
    o[7] = (uint32_t)(pair >> n);
    o[8] = msb(x) < 0 ? 0xFFFFFFFFu : (uint32_t)msb(x);
    uint32_t nx = (int32_t)x < 0 ? ~x : x;
    o[9] = msb(nx) < 0 ? 0xFFFFFFFFu : (uint32_t)(31 - msb(nx));
    int32_t dot = 7;
    for (int k = 0; k < 4; k++)
        dot += (int32_t)((x >> (8 * k)) & 0xFF) * (int32_t)(int8_t)((y >> (8 * k)) & 0xFF);
    o[10] = (uint32_t)dot;
    o[11] = x + y;
    o[12] = (uint64_t)x + y > 0xFFFFFFFFu;
    o[13] = x - y;
    o[14] = x < y ? 0xFFFFFFFFu : 0;
    uint64_t p = ((uint64_t)x << 32) | y, q = ((uint64_t)y << 32) | x;
    unsigned __int128 up = (unsigned __int128)p * q;
    __int128 sp = (__int128)(int64_t)p * (int64_t)q;
    o[15] = (uint32_t)(up >> 64);
    o[16] = (uint32_t)(up >> 96);
    o[17] = (uint32_t)((unsigned __int128)sp >> 64);
    o[18] = (uint32_t)((unsigned __int128)sp >> 96);
    o[19] = (uint32_t)((((uint64_t)(x & 0xFFFFFF) * (y & 0xFFFFFF)) >> 16) + i);
    o[20] = (x & 0x7F800000u) == 0 && (x & 0x007FFFFFu) != 0;
    o[21] = isnan(as_float(x));
    float f = as_float(x);
    o[22] = isnan(f) ? 0x7FFF : ref_half(f > 0 ? f : 0.0, 0, REF_RN);
    int32_t mx = (int32_t)x > (int32_t)y ? (int32_t)x : (int32_t)y;
    o[23] = mx < 0 ? 0 : (uint32_t)mx;
    double hx = ref_half_value(x & 0xFFFF, 0), hy = ref_half_value(y & 0xFFFF, 0);
    double fr = fma(hx, hy, -1.0);
    o[24] = isnan(fr) ? 0x7FFF : ref_half(fr > 0 ? fr : 0.0, 0, REF_RN);
    double sum = hx + hy;
    o[25] = isnan(sum) ? 0x7FFF : ref_half(sum, 0, REF_RN);
    o[26] = 0;
    o[27] = 1;
    uint64_t qb = double_bits(div_rz((double)x, (double)(y | 1)));
    o[28] = (uint32_t)qb;
    o[29] = (uint32_t)(qb >> 32);
    uint64_t sb = double_bits(add_rp((double)x, 1e-30));
    o[30] = (uint32_t)sb;
    o[31] = (uint32_t)(sb >> 32);
}

static void test_misc_ops(void **state)
{
    (void)state;
    static const uint32_t pairs[][2] = {
        {0x12345678u, 0x9ABCDEF0u}, {0x3F800000u, 0x40000000u}, {0xBF800000u, 0x3C004000u},
        {0x00000010u, 0x00000001u}, {0x7FC00001u, 0x38003800u}, {0xFFFFFFFFu, 1u},
        {0u, 0u}, {0x80000000u, 0x7FFFFFFFu}, {0x3C003C00u, 0x4000BC00u},
        {0x00FFFFFFu, 0x00FFFFFFu}, {0x7F7FFFFFu, 0x477FE000u}, {123456789u, 987654321u},
        {0x0000FFFFu, 0xFFFF0000u}, {0xC0490FDBu, 0x35003500u}, {5u, 0xFFFFFFFBu},
        {0x00800000u, 0x80800000u},
    };
    enum { N = sizeof pairs / sizeof pairs[0] };
    exec_fixture fx;
    const uint32_t *out = xf_run_pairs(&fx, "misc.ptx", "misc_ops", pairs, N, MISC_COLS);
    if (fx.result.findings.count)
        fail_msg("%s", fx.result.findings.items[0].message);
    for (int i = 0; i < N; i++) {
        uint32_t a = pairs[i][0], b = pairs[i][1], want[MISC_COLS];
        misc_reference(a, b, (unsigned)i, want);
        for (int c = 0; c < MISC_COLS; c++)
            if (out[i * MISC_COLS + c] != want[c])
                fail_msg("misc_ops(0x%08x, 0x%08x) row %d column %d: got 0x%08x, want 0x%08x",
                         a, b, i, c, out[i * MISC_COLS + c], want[c]);
    }
    xf_free(&fx);
}

static void test_vector_atomics(void **state)
{
    (void)state;
    exec_fixture fx;
    xf_load(&fx, "misc.ptx");
    xf_kernel(&fx, "vec_atomics");
    float *acc, *old;
    xf_param(&fx, 0, xf_buffer(&fx, "acc", 8 * 4, NULL, (void **)&acc));
    xf_param(&fx, 1, xf_buffer(&fx, "old", 64 * 4, NULL, (void **)&old));
    assert_int_equal(xf_run(&fx, 1, 1, 1, 32, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    for (int k = 0; k < 4; k++)
        assert_true(acc[k] == 32.0f * (float)(k + 1));
    assert_true(acc[4] == 496.0f && acc[5] == 992.0f);
    /* lane order: lane i sees the sums of the lanes before it */
    for (int i = 0; i < 32; i++) {
        float before = (float)(i * (i - 1) / 2);
        assert_true(old[2 * i] == before);
        assert_true(old[2 * i + 1] == 2.0f * before);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// set, slct, fns, f64, f16x2 packing, 16- and 64-bit integers

#define MORE_COLS 24

static uint32_t fns_ref(uint32_t mask, uint32_t base, int offset)
{
    if (offset == 0)
        return (mask >> base & 1) ? base : 0xFFFFFFFFu;
    int count = (offset > 0 ? offset : -offset) - 1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += offset > 0 ? 1 : -1)
        if (mask >> pos & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
    return 0xFFFFFFFFu;
}

static void more_reference(uint32_t x, uint32_t y, unsigned i, uint32_t *o)
{
    float fx = as_float(x), fy = as_float(y);
    double dx = (double)(int32_t)x * 0.25, dy = (double)(int32_t)y;
    uint64_t lx = ((uint64_t)x << 32) | y;
    o[0] = (int32_t)x < (int32_t)y ? 0xFFFFFFFFu : 0;
    o[1] = (isnan(fx) || isnan(fy) || fx > fy) ? 0x3F800000u : 0;
    o[2] = fx >= 0 ? x : y;
    o[3] = (int32_t)y >= 0 ? x : y;
    o[4] = fns_ref(x, i & 31, (int)(i % 5) - 2);
    float sq = sqrtf(fabsf(fx));
    o[5] = isnan(sq) ? 0x7FFFFFFFu : ref_bits(sq);
    uint64_t sd = double_bits(sqrt(fabs(dx)));
    o[6] = (uint32_t)(sd >> 32);
    o[7] = (uint32_t)sd;
    o[8] = (uint32_t)(double_bits(i == 3 ? dy : (dx < dy ? dx : dy)) >> 32);
    o[9] = (uint32_t)(double_bits(i == 4 ? 0.0 : (dx > dy ? dx : dy)) >> 32);
    uint32_t hx = isnan(fx) ? 0x7FFF : ref_half(fx, 0, REF_RN);
    uint32_t hy = isnan(fy) ? 0x7FFF : ref_half(fy, 0, REF_RN);
    o[10] = hx << 16 | hy;
    double h = ref_half_value(x & 0xFFFF, 0);
    o[11] = isnan(h) ? 0x7FFFFFFFu : ref_bits((float)h);
    o[12] = (x & 0xFFFF) * (y & 0xFFFF);
    o[13] = ((x & 0xFFFF) * (y & 0xFFFF)) & 0xFFFF;
    unsigned n = i * 5;
    uint64_t shl = n >= 64 ? 0 : lx << n;
    int64_t shr = (int64_t)lx >> (n >= 64 ? 63 : n);
    o[14] = (uint32_t)shl;
    o[15] = (uint32_t)(shl >> 32);
    o[16] = (uint32_t)shr;
    o[17] = (uint32_t)((uint64_t)shr >> 32);
    int16_t s16 = (int16_t)(x & 0xFFFF);
    o[18] = s16 == INT16_MIN ? 0x8000u : (uint32_t)(uint16_t)(s16 < 0 ? -s16 : s16);
    o[19] = x;
    int64_t num = (int64_t)lx, den = i == 6 ? -1 : (int64_t)(y % 7);
    int64_t quo = den == 0 ? -1 : (num == INT64_MIN && den == -1) ? INT64_MIN : num / den;
    int64_t rem = den == 0 ? num : (num == INT64_MIN && den == -1) ? 0 : num % den;
    o[20] = (uint32_t)quo;
    o[21] = (uint32_t)((uint64_t)quo >> 32);
    o[22] = (uint32_t)rem;
    o[23] = (uint32_t)((uint64_t)rem >> 32);
}

static void test_misc_more(void **state)
{
    (void)state;
    static const uint32_t pairs[][2] = {
        {0x12345678u, 0x9ABCDEF0u}, {0x3F800000u, 0x40000000u}, {0xBF800000u, 0x80000000u},
        {0x7FC00000u, 0x3F000000u}, {0x80000000u, 0x00000000u}, {0xFFFF8000u, 14u},
        {0x80000000u, 0u}, {0x41200000u, 0x477FF000u}, {0x00000003u, 0xFFFFFFFDu},
        {0x3C005555u, 0x0000AAAAu}, {0xC2C80000u, 7u}, {0x7F800000u, 0xFF800000u},
    };
    enum { N = sizeof pairs / sizeof pairs[0] };
    exec_fixture fx;
    const uint32_t *out = xf_run_pairs(&fx, "misc.ptx", "misc_more", pairs, N, MORE_COLS);
    if (fx.result.findings.count)
        fail_msg("%s", fx.result.findings.items[0].message);
    for (int i = 0; i < N; i++) {
        uint32_t a = pairs[i][0], b = pairs[i][1], want[MORE_COLS];
        more_reference(a, b, (unsigned)i, want);
        for (int c = 0; c < MORE_COLS; c++)
            if (out[i * MORE_COLS + c] != want[c])
                fail_msg("misc_more(0x%08x, 0x%08x) row %d column %d: got 0x%08x, want 0x%08x",
                         a, b, i, c, out[i * MORE_COLS + c], want[c]);
    }
    xf_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_misc_ops),
        cmocka_unit_test(test_vector_atomics),
        cmocka_unit_test(test_misc_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
