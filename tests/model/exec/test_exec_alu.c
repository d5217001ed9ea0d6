/* test_exec_alu.c - the interpreter's arithmetic end to end: integer
 * corner cases (division by zero, INT_MIN / -1, shifts by the width and
 * more, bit fields, byte permutes), f32 (fma against mul+add, NaN rules of
 * min/max, .ftz, directed rounding, saturation) and cvt among integers,
 * f16, bf16, f32 and f64, each compared with a value computed in C.
 *
 *   ctest --test-dir build -R test_exec_alu
 *
 * Kernels: fixtures/alu.cu and fixtures/cvt.cu.
 */
#include "exec_fixture.h"
#include "fp_reference.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define INT_COLS 24
#define FLOAT_COLS 24
#define CVT_COLS 24

// ----------------------------------------------------------------------------
// Integers

/* What int_ops computes for one pair, with PTX's results where C's are
 * undefined. */
static void int_reference(int32_t x, int32_t y, int32_t *o)
{
    uint32_t ux = (uint32_t)x, uy = (uint32_t)y;
    int64_t p = (int64_t)x * y;
    o[0] = y == 0 ? -1 : (x == INT32_MIN && y == -1) ? INT32_MIN : x / y;
    o[1] = y == 0 ? x : (x == INT32_MIN && y == -1) ? 0 : x % y;
    o[2] = (int32_t)(uy == 0 ? 0xFFFFFFFFu : ux / uy);
    o[3] = (int32_t)(uy == 0 ? ux : ux % uy);
    o[4] = (int32_t)(p >> 32);
    o[5] = (int32_t)(((uint64_t)ux * uy) >> 32);
    int64_t x24 = (int64_t)((int32_t)(ux << 8) >> 8), y24 = (int64_t)((int32_t)(uy << 8) >> 8);
    o[6] = (int32_t)(uint32_t)(x24 * y24);
    o[7] = x < y ? x : y;
    o[8] = x > y ? x : y;
    o[9] = (int32_t)(ux < uy ? ux : uy);
    o[10] = (int32_t)(uy >= 32 ? 0 : ux << uy);
    o[11] = uy >= 32 ? (x < 0 ? -1 : 0) : x >> uy;
    o[12] = (int32_t)(uy >= 32 ? 0 : ux >> uy);
    o[13] = __builtin_popcount(ux);
    o[14] = ux == 0 ? 32 : __builtin_clz(ux);
    o[15] = ux == 0 ? 0 : __builtin_ctz(ux) + 1;
    uint32_t rev = 0;
    for (int i = 0; i < 32; i++)
        rev |= ((ux >> i) & 1u) << (31 - i);
    o[16] = (int32_t)rev;
    uint64_t pair = ((uint64_t)uy << 32) | ux;
    const int sel[4] = {1, 5, 3, 7};
    uint32_t perm = 0;
    for (int i = 0; i < 4; i++)
        perm |= (uint32_t)((pair >> (8 * sel[i])) & 0xFF) << (8 * i);
    o[17] = (int32_t)perm;
    unsigned pos = uy & 31, len = 9;
    unsigned top = pos + len - 1 > 31 ? 31 : pos + len - 1;
    uint32_t sbit = (ux >> top) & 1, field = 0;
    for (unsigned i = 0; i < 32; i++)
        field |= (i < len && pos + i <= 31 ? (ux >> (pos + i)) & 1 : sbit) << i;
    o[18] = (int32_t)field;
    o[19] = (int32_t)((uy & ~(0xFFFu << 4)) | ((ux & 0xFFFu) << 4));
    o[20] = (int32_t)(p >> 7);
    o[21] = x == INT32_MIN ? INT32_MIN : (x < 0 ? -x : x);
    o[22] = (int32_t)((x > y ? (uint32_t)((int64_t)x - y) : (uint32_t)((int64_t)y - x)) + 5u);
    int64_t w = p + (int64_t)uy;
    o[23] = (int32_t)(w >> 32) ^ (int32_t)w;
}

static void test_int_ops(void **state)
{
    (void)state;
    static const int32_t pairs[][2] = {
        {7, 2}, {-7, 2}, {7, -2}, {7, 0}, {-7, 0}, {INT32_MIN, -1}, {INT32_MIN, 1},
        {123456789, 987654}, {-1, 33}, {5, 32}, {0x12345678, 31}, {-100, 4},
        {INT32_MAX, INT32_MAX}, {-5, -3}, {1, 40}, {0, 0}, {-8388608, 8388607},
        {0x00800000, 3}, {-123456, 255}, {0x7F00FF00, 24}, {2, -1}, {0x55555555, 1},
    };
    enum { N = sizeof pairs / sizeof pairs[0] };
    exec_fixture fx;
    const int32_t *out = xf_run_pairs(&fx, "alu.ptx", "int_ops", pairs, N, INT_COLS);
    assert_int_equal(fx.result.findings.count, 0);
    assert_true(fx.result.completed);
    for (int i = 0; i < N; i++) {
        int32_t a = pairs[i][0], b = pairs[i][1], want[INT_COLS];
        int_reference(a, b, want);
        for (int c = 0; c < INT_COLS; c++)
            if (out[i * INT_COLS + c] != want[c])
                fail_msg("int_ops(%d, %d) column %d: got %d (0x%08x), want %d (0x%08x)", a, b,
                         c, out[i * INT_COLS + c], (uint32_t)out[i * INT_COLS + c], want[c],
                         (uint32_t)want[c]);
    }
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// f32

static float flush(float v)
{
    return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v;
}

/* PTX min/max: a NaN operand is ignored, -0 < +0; nan_wins: .NaN. */
static float ptx_minmax(float a, float b, int mx, int nan_wins)
{
    if (isnan(a) || isnan(b)) {
        if (nan_wins || (isnan(a) && isnan(b)))
            return NAN;
        return isnan(a) ? b : a;
    }
    if (a == b && a == 0)
        return (signbit(a) != 0) == (mx != 0) ? b : a;
    return mx ? (a > b ? a : b) : (a < b ? a : b);
}

/* What float_ops computes for one triple. */
static void float_reference(float x, float y, float z, float *o)
{
    volatile float p = x * y;
    o[0] = p + z;
    o[1] = fmaf(x, y, z);
    o[2] = ptx_minmax(x, y, 0, 0);
    o[3] = ptx_minmax(x, y, 1, 0);
    o[4] = x / y;
    o[5] = sqrtf(x);
    o[6] = ref_f32('+', x, y, 0, REF_RZ);
    o[7] = ref_f32('+', x, y, 0, REF_RM);
    o[8] = ref_f32('+', x, y, 0, REF_RP);
    o[9] = ref_f32('*', x, y, 0, REF_RZ);
    o[10] = ref_f32('/', x, y, 0, REF_RP);
    o[11] = ref_f32('f', x, y, z, REF_RM);
    o[12] = flush(flush(x) + flush(y));
    o[13] = isnan(x) ? 0.0f : x < 0 ? 0.0f : x > 1 ? 1.0f : x;
    o[14] = x < y ? 1.0f : 0.0f;
    o[15] = !(x >= y) ? 1.0f : 0.0f;
    o[16] = x - y;
    o[17] = 1.0f / x;
    o[18] = fabsf(x) + copysignf(z, y);
    uint32_t nb = ref_bits(x) ^ 0x80000000u;
    memcpy(&o[19], &nb, 4);
    o[20] = ptx_minmax(x, y, 0, 1);
    o[21] = flush(flush(x) * flush(y));
    o[22] = ref_f32('s', x, 0, 0, REF_RM);
    o[23] = (float)fma((double)x, (double)y, (double)z);
}

static void test_float_ops(void **state)
{
    (void)state;
    const float e = 1.0f + ldexpf(1, -12);
    const float triples[][3] = {
        {e, e, -1.0f},
        {NAN, 2.0f, 1.0f},
        {2.0f, NAN, 1.0f},
        {-0.0f, 0.0f, 0.0f},
        {0.0f, -0.0f, -0.0f},
        {1.0f, 3.0f, 0.0f},
        {1e-40f, 1e-40f, 0.0f},
        {-3e-39f, 2.0f, 1.0f},
        {2.0f, 0.0f, 0.0f},
        {-1.0f, 0.5f, 2.0f},
        {1e38f, 10.0f, -1e38f},
        {-1e38f, 10.0f, 1e38f},
        {3.5f, -2.25f, 1e-3f},
        {INFINITY, -INFINITY, 1.0f},
        {16777216.0f, 1.0f, 0.0f},
        {-16777216.0f, -1.0f, 0.5f},
        {0.1f, 0.2f, 0.3f},
        {0.75f, 1e-8f, -0.75f},
    };
    enum { N = sizeof triples / sizeof triples[0] };
    float a[N], b[N], c[N], *out;
    for (int i = 0; i < N; i++) {
        a[i] = triples[i][0];
        b[i] = triples[i][1];
        c[i] = triples[i][2];
    }
    exec_fixture fx;
    xf_load(&fx, "alu.ptx");
    xf_kernel(&fx, "float_ops");
    xf_param(&fx, 0, xf_buffer(&fx, "a", sizeof a, a, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "b", sizeof b, b, NULL));
    xf_param(&fx, 2, xf_buffer(&fx, "c", sizeof c, c, NULL));
    xf_param(&fx, 3, xf_buffer(&fx, "out", N * FLOAT_COLS * 4, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, 1, 1, 1, N, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    for (int i = 0; i < N; i++) {
        float want[FLOAT_COLS];
        float_reference(a[i], b[i], c[i], want);
        for (int k = 0; k < FLOAT_COLS; k++) {
            uint32_t got = ref_bits(out[i * FLOAT_COLS + k]), w = ref_bits(want[k]);
            /* NaN results are the canonical NaN; neg flips the sign bit */
            if (k != 19 && isnan(want[k]))
                w = 0x7FFFFFFFu;
            if (got != w)
                fail_msg("float_ops(%a, %a, %a) column %d: got %a (0x%08x), want %a (0x%08x)",
                         (double)a[i], (double)b[i], (double)c[i], k,
                         (double)out[i * FLOAT_COLS + k], got, (double)want[k], w);
        }
    }
    /* the point of row 0: one rounding (fma) differs from two (mul, add) */
    assert_true(out[0] != out[1]);
    xf_free(&fx);
}

// ----------------------------------------------------------------------------
// cvt

/* cvt.rXi.s32.f32 / u32 / s64: round, then clamp; NaN gives 0. */
static int64_t to_int(double v, int64_t lo, int64_t hi)
{
    if (isnan(v))
        return 0;
    if (v <= (double)lo)
        return lo;
    if (v >= (double)hi)
        return hi;
    return (int64_t)v;
}

static void cvt_reference(float x, double y, int64_t z, int i, uint32_t *o)
{
    for (int mode = REF_RN; mode <= REF_RP; mode++)
        o[mode] = ref_half(x, 0, mode);
    o[4] = ref_half(x, 1, REF_RN);
    o[5] = ref_half(x, 1, REF_RZ);
    o[6] = ref_half(y, 0, REF_RN);
    uint32_t h = (uint32_t)(i * 2477u) & 0xFFFF;
    o[7] = ref_bits((float)ref_half_value(h, 0));
    o[8] = h << 16;
    o[9] = (uint32_t)to_int(nearbyint(x), INT32_MIN, INT32_MAX);
    o[10] = (uint32_t)to_int(trunc(x), INT32_MIN, INT32_MAX);
    o[11] = (uint32_t)to_int(floor(x), INT32_MIN, INT32_MAX);
    o[12] = (uint32_t)to_int(ceil(x), INT32_MIN, INT32_MAX);
    o[13] = (uint32_t)to_int(trunc(x), 0, UINT32_MAX);
    o[14] = ref_bits(ref_int_to_float((uint64_t)z, 1, REF_RN));
    o[15] = ref_bits(ref_int_to_float((uint64_t)z, 1, REF_RZ));
    o[16] = ref_bits(ref_int_to_float((uint64_t)z, 0, REF_RP));
    o[17] = ref_bits(ref_to_float(y, REF_RN));
    o[18] = ref_bits(ref_to_float(y, REF_RZ));
    o[19] = ref_bits(ref_to_float(y, REF_RP));
    o[20] = (uint32_t)(int32_t)(int8_t)(uint8_t)(((uint32_t)z >> 3) & 0xFF);
    o[21] = (uint32_t)to_int(trunc(fabsf(x)), 0, UINT32_MAX) & 0xFFFF;
    o[22] = ref_bits(nearbyintf(x));
    double t = trunc(y);
    int64_t ll = isnan(y) ? 0 : t >= 0x1p63 ? INT64_MAX : t < -0x1p63 ? INT64_MIN : (int64_t)t;
    o[23] = (uint32_t)ll;
    /* NaN results of conversions to f32 are the canonical NaN */
    static const int float_cols[] = {7, 8, 14, 15, 16, 17, 18, 19, 22};
    for (int j = 0; j < (int)(sizeof float_cols / sizeof float_cols[0]); j++)
        if ((o[float_cols[j]] & 0x7FFFFFFFu) > 0x7F800000u)
            o[float_cols[j]] = 0x7FFFFFFFu;
}

static void test_cvt_ops(void **state)
{
    (void)state;
    const float xs[] = {0.1f, -2.5f, 3.5f, 65519.0f, 65520.0f, 1e-8f, -1e10f, NAN,
                        INFINITY, -0.0f, 2.5f, 1.00048828125f, 2147483648.0f, 4294967296.0f,
                        -1.5f, 0.5f, 33.7f, -3.0e9f, 1e-40f, 70000.5f};
    const double ys[] = {0.1, 1e300, -1e-300, 65504.00000001, 3.4028235677973366e38,
                         NAN, 0x1p70, -2.5, 1.0 / 3, -65535.9, 6.1e-5, -0x1p-149,
                         0x1.000001p0, 123456789.123, -0x1p63, 0x1p62, 5.9604644775390625e-8,
                         -1e-8, 65536.0, 2.9802322387695312e-8};
    const int64_t zs[] = {(1ll << 53) + 1, INT64_MAX, -(1ll << 62) - 3, 16777217, -16777217, 0,
                          -1, 3, 255, 1023, (1ll << 24) + 3, 1ll << 40, -(1ll << 40) - 1,
                          0x123456789abcll, 100000000000ll, 33554435, -33554435, 7, 8, 9};
    enum { N = sizeof xs / sizeof xs[0] };
    _Static_assert(sizeof ys / sizeof ys[0] == N && sizeof zs / sizeof zs[0] == N, "rows");
    uint32_t *out;
    exec_fixture fx;
    xf_load(&fx, "cvt.ptx");
    xf_kernel(&fx, "cvt_ops");
    xf_param(&fx, 0, xf_buffer(&fx, "f", sizeof xs, xs, NULL));
    xf_param(&fx, 1, xf_buffer(&fx, "d", sizeof ys, ys, NULL));
    xf_param(&fx, 2, xf_buffer(&fx, "ll", sizeof zs, zs, NULL));
    xf_param(&fx, 3, xf_buffer(&fx, "out", N * CVT_COLS * 4, NULL, (void **)&out));
    assert_int_equal(xf_run(&fx, 1, 1, 1, N, 1, 1), 0);
    assert_int_equal(fx.result.findings.count, 0);
    for (int i = 0; i < N; i++) {
        uint32_t want[CVT_COLS];
        cvt_reference(xs[i], ys[i], zs[i], i, want);
        for (int k = 0; k < CVT_COLS; k++)
            if (out[i * CVT_COLS + k] != want[k])
                fail_msg("cvt_ops(%a, %a, %lld) column %d: got 0x%08x, want 0x%08x",
                         (double)xs[i], ys[i], (long long)zs[i], k, out[i * CVT_COLS + k],
                         want[k]);
    }
    xf_free(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int_ops),
        cmocka_unit_test(test_float_ops),
        cmocka_unit_test(test_cvt_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
