/* bench_ulps.c - how far a sum lies from the exact one, in units in the
 * last place of its format, and the exact sum rounded to f16 (the format
 * CUB sums f16 in; src/reference rounds to f32 and f64 only).
 *
 * defines: bench_ulp_distance, bench_half_to_double, bench_half_nearest
 *
 * The distance counts representable values: the floats' bits map to
 * integers in the order of their values (a sign-magnitude number to a
 * two's complement one), and the distance is the difference. So a
 * correctly rounded result is 0 ulps away, whatever the format, and the
 * next value either way is 1.
 */
#include "bench_api.h"

#include <math.h>

/* Width in bits of a float dtype, 0 for the others. */
static int float_width(cured_dtype d)
{
    switch (d) {
    case CURED_F16:
    case CURED_BF16: return 16;
    case CURED_F32: return 32;
    case CURED_F64: return 64;
    default: return 0;
    }
}

/* Whether bits of a float dtype of width w (and fraction bits f) are NaN. */
static int is_nan_bits(uint64_t bits, int w, int f)
{
    uint64_t mag = w == 64 ? bits & 0x7fffffffffffffffull : bits & ((1ull << (w - 1)) - 1);
    uint64_t inf = (((1ull << (w - 1 - f)) - 1) << f);
    return mag > inf;
}

/* The value's place in the order: magnitude, negated for a negative
 * number, as a sign and a magnitude (the magnitude alone overflows no
 * int64). */
static void order_key(uint64_t bits, int w, int *neg, uint64_t *mag)
{
    uint64_t sign = 1ull << (w - 1);
    *mag = bits & (sign - 1);
    *neg = (bits & sign) != 0 && *mag != 0;
}

uint64_t bench_ulp_distance(cured_dtype d, uint64_t got, uint64_t want)
{
    int w = float_width(d);
    if (w == 0) {
        size_t size = cured_dtype_size(d);
        if (size == 0)
            return UINT64_MAX;
        int is_signed = d == CURED_I32 || d == CURED_I64;
        if (size == 4) {
            got &= 0xffffffffull;
            want &= 0xffffffffull;
        }
        if (is_signed) {
            int64_t a = size == 4 ? (int32_t)(uint32_t)got : (int64_t)got;
            int64_t b = size == 4 ? (int32_t)(uint32_t)want : (int64_t)want;
            return a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
        }
        return got > want ? got - want : want - got;
    }
    if (w < 64) {
        got &= (1ull << w) - 1;
        want &= (1ull << w) - 1;
    }
    int f = d == CURED_F16 ? 10 : d == CURED_BF16 ? 7 : d == CURED_F32 ? 23 : 52;
    int nan_got = is_nan_bits(got, w, f), nan_want = is_nan_bits(want, w, f);
    if (nan_got || nan_want)
        return nan_got && nan_want ? 0 : UINT64_MAX;
    int ng, nw;
    uint64_t mg, mw;
    order_key(got, w, &ng, &mg);
    order_key(want, w, &nw, &mw);
    if (ng == nw)
        return mg > mw ? mg - mw : mw - mg;
    /* opposite signs: both magnitudes count, from one through zero */
    return mg > UINT64_MAX - mw ? UINT64_MAX : mg + mw;
}

double bench_half_to_double(uint16_t h)
{
    int e = h >> 10 & 0x1f;
    double frac = h & 0x3ff;
    double v = e == 0    ? ldexp(frac, -24)
               : e == 31 ? (frac != 0 ? NAN : INFINITY)
                         : ldexp(1024 + frac, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* f16 bits from the signed order key k (|k| <= 0x7c00). */
static uint16_t half_of_key(int k)
{
    return k >= 0 ? (uint16_t)k : (uint16_t)(0x8000 | -k);
}

/* The value of the f16 of key k, with the infinities taken as +-2^16: the
 * midpoint between 65504 and it is then 65520, where rounding to f16 goes
 * to infinity. */
static double key_value(int k)
{
    double v = bench_half_to_double(half_of_key(k));
    return isinf(v) ? copysign(65536.0, v) : v;
}

uint16_t bench_half_nearest(const cured_ref_exact *a)
{
    if (a->nans || (a->pos_infs && a->neg_infs))
        return 0x7e00;
    if (a->pos_infs)
        return 0x7c00;
    if (a->neg_infs)
        return 0xfc00;
    if (cured_ref_exact_sign(a) == 0)
        return 0;
    /* a candidate within one place: the f16 nearest the double nearest the
     * sum (two roundings, so possibly one off) */
    double d = cured_ref_exact_to_double(a);
    double mag = fabs(d);
    int k;
    if (mag >= 65520.0) {
        k = 0x7c00;
    } else {
        int e;
        frexp(mag, &e);           /* mag in [2^(e-1), 2^e) */
        double ulp = ldexp(1.0, (e - 1 < -14 ? -14 : e - 1) - 10);
        double q = nearbyint(mag / ulp) * ulp;
        k = 0;
        /* encode q: every f16 magnitude below 65520 is exact in double */
        int lo = 0, hi = 0x7c00;
        while (lo < hi) { /* the smallest key whose value is >= q */
            int mid = (lo + hi) / 2;
            if (key_value(mid) < q)
                lo = mid + 1;
            else
                hi = mid;
        }
        k = lo;
    }
    if (d < 0)
        k = -k;
    /* the correction: compare the exact sum with the midpoints around k */
    for (int step = 0; step < 2; step++) {
        if (k < 0x7c00) {
            double up = (key_value(k) + key_value(k + 1)) / 2;
            int c = cured_ref_exact_compare(a, up);
            if (c > 0 || (c == 0 && (half_of_key(k) & 1))) {
                k++;
                continue;
            }
        }
        if (k > -0x7c00) {
            double down = (key_value(k - 1) + key_value(k)) / 2;
            int c = cured_ref_exact_compare(a, down);
            if (c < 0 || (c == 0 && (half_of_key(k) & 1))) {
                k--;
                continue;
            }
        }
        break;
    }
    return half_of_key(k);
}
