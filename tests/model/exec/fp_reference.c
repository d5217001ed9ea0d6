/* fp_reference.c - independent float references for the interpreter's
 * tests (fp_reference.h).
 *
 * defines: ref_half_value, ref_half, ref_to_float, ref_f32,
 *          ref_int_to_float, ref_bits
 */
#include "fp_reference.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

static const int host_modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

double ref_half_value(uint32_t b, int bf)
{
    int mant = bf ? 7 : 10, exp = bf ? 8 : 5;
    int bias = (1 << (exp - 1)) - 1;
    int neg = (b >> 15) & 1;
    int e = (int)((b >> mant) & ((1u << exp) - 1));
    double f = (double)(b & ((1u << mant) - 1));
    double v;
    if (e == (1 << exp) - 1)
        v = f != 0 ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(f, 1 - bias - mant);
    else
        v = ldexp(f + ldexp(1, mant), e - bias - mant);
    return neg ? -v : v;
}

uint32_t ref_half(double v, int bf, int mode)
{
    if (isnan(v))
        return 0x7FFF;
    uint32_t inf = bf ? 0x7F80 : 0x7C00, maxf = inf - 1;
    double maxv = ref_half_value(maxf, bf);
    int neg = signbit(v) != 0;
    if (isinf(v))
        return neg ? inf | 0x8000 : inf;
    if (fabs(v) > maxv) {
        double ulp = maxv - ref_half_value(maxf - 1, bf);
        int to_inf;
        switch (mode) {
        case REF_RZ: to_inf = 0; break;
        case REF_RM: to_inf = neg; break;
        case REF_RP: to_inf = !neg; break;
        default: to_inf = fabs(v) >= maxv + ulp / 2; break;
        }
        uint32_t r = to_inf ? inf : maxf;
        return neg ? r | 0x8000 : r;
    }
    /* the neighbours among the non-negative values, for |v| */
    double a = fabs(v), lo = 0, hi = INFINITY;
    uint32_t blo = 0, bhi = inf;
    for (uint32_t b = 0; b < inf; b++) {
        double d = ref_half_value(b, bf);
        if (d <= a && d >= lo) {
            lo = d;
            blo = b;
        }
        if (d >= a && d < hi) {
            hi = d;
            bhi = b;
        }
    }
    uint32_t r;
    if (lo == a) {
        r = blo;
    } else {
        switch (mode) {
        case REF_RZ: r = blo; break;
        case REF_RM: r = neg ? bhi : blo; break;
        case REF_RP: r = neg ? blo : bhi; break;
        default:
            if (a - lo != hi - a)
                r = a - lo < hi - a ? blo : bhi;
            else
                r = (blo & 1) ? bhi : blo;
            break;
        }
    }
    return neg ? r | 0x8000 : r;
}

float ref_to_float(double v, int mode)
{
    volatile double in = v;
    volatile float out;
    fesetround(host_modes[mode]);
    out = (float)in;
    fesetround(FE_TONEAREST);
    return out;
}

float ref_f32(char op, float a, float b, float c, int mode)
{
    volatile float x = a, y = b, z = c, out;
    fesetround(host_modes[mode]);
    switch (op) {
    case '+': out = x + y; break;
    case '-': out = x - y; break;
    case '*': out = x * y; break;
    case '/': out = x / y; break;
    case 'f': out = fmaf(x, y, z); break;
    default: out = sqrtf(x); break;
    }
    fesetround(FE_TONEAREST);
    return out;
}

float ref_int_to_float(uint64_t v, int is_signed, int mode)
{
    volatile long double in = is_signed ? (long double)(int64_t)v : (long double)v;
    volatile float out;
    fesetround(host_modes[mode]);
    out = (float)in;
    fesetround(FE_TONEAREST);
    return out;
}

uint32_t ref_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
