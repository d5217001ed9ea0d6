/* exec_fp.c - float formats and rounding for the interpreter: f16, bf16,
 * f32, f64 encodings, conversions between them and from integers with any
 * PTX rounding mode, and directed rounding of f32/f64 arithmetic.
 *
 * defines: exec_fp_pack, exec_fp_from_double, exec_fp_from_int,
 *          exec_fp_to_double, exec_fp_nan, exec_f32_round, exec_f64_round,
 *          exec_f32_ftz, exec_f64_ftz
 *
 * Everything is computed in C with integer arithmetic on the bits (never
 * by changing the host's rounding mode), so results do not depend on the
 * host's floating-point environment. NaN results are the canonical NaN of
 * the format (all payload bits set, sign clear), as NVIDIA GPUs produce.
 */
#include "exec_fp.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Fraction and exponent bits of each format. */
static const int fmt_mant[] = {10, 7, 23, 52};
static const int fmt_exp[] = {5, 8, 8, 11};

uint64_t exec_fp_nan(int fmt)
{
    switch (fmt) {
    case EXEC_FMT_F16:
    case EXEC_FMT_BF16:
        return 0x7FFF;
    case EXEC_FMT_F32:
        return 0x7FFFFFFF;
    default:
        return 0x7FFFFFFFFFFFFFFFull;
    }
}

/* The bits of +infinity (inf = 1) or of the largest finite value. */
static uint64_t fmt_big(int fmt, int inf)
{
    int mant = fmt_mant[fmt], exp = fmt_exp[fmt];
    uint64_t emax = (1ull << exp) - 1;
    if (inf)
        return emax << mant;
    return ((emax - 1) << mant) | ((1ull << mant) - 1);
}

uint64_t exec_fp_pack(int neg, uint64_t m, int e, int sticky, int fmt, int mode)
{
    int mant = fmt_mant[fmt], exp = fmt_exp[fmt];
    uint64_t sign = (uint64_t)(neg != 0) << (mant + exp);
    if (m == 0) {
        if (!sticky)
            return sign;
        m = 1;                  /* a value far below anything representable */
        e = -4000;
        sticky = 0;
    }
    int bias = (1 << (exp - 1)) - 1;
    int emin = 1 - bias;
    int msb = 63 - __builtin_clzll(m);
    int top = msb + e;                          /* value in [2^top, 2^(top+1)) */
    int lsb = (top < emin ? emin : top) - mant; /* weight of the result's last bit */
    int shift = lsb - e;
    uint64_t q;
    int cmp;                    /* dropped part against half an ulp */
    int inexact;
    if (shift <= 0) {           /* every bit of m is kept */
        q = m << -shift;
        inexact = sticky;
        cmp = sticky ? -1 : -2;
    } else if (shift > 64) {    /* m < 2^64 <= half an ulp */
        q = 0;
        inexact = 1;
        cmp = -1;
    } else {
        uint64_t rem, half;
        if (shift == 64) {
            q = 0;
            rem = m;
            half = 1ull << 63;
        } else {
            q = m >> shift;
            rem = m & ((1ull << shift) - 1);
            half = 1ull << (shift - 1);
        }
        inexact = rem != 0 || sticky;
        if (!inexact)
            cmp = -2;           /* exact */
        else if (rem > half || (rem == half && sticky))
            cmp = 1;
        else if (rem == half)
            cmp = 0;
        else
            cmp = -1;
    }
    int up = 0;
    switch (mode) {
    case EXEC_RND_RZ:
        break;
    case EXEC_RND_RM:
        up = neg && inexact;
        break;
    case EXEC_RND_RP:
        up = !neg && inexact;
        break;
    case EXEC_RND_RNA:
        up = cmp >= 0;
        break;
    default:                    /* nearest, ties to even */
        up = cmp > 0 || (cmp == 0 && (q & 1));
        break;
    }
    q += (uint64_t)up;
    if (q >> (mant + 1)) {
        q >>= 1;
        lsb++;
    }
    if (q >> mant) {            /* normal */
        int64_t biased = (int64_t)lsb + mant + bias;
        if (biased >= (1 << exp) - 1) {
            int inf;
            switch (mode) {
            case EXEC_RND_RZ: inf = 0; break;
            case EXEC_RND_RM: inf = neg; break;
            case EXEC_RND_RP: inf = !neg; break;
            default: inf = 1; break;
            }
            return sign | fmt_big(fmt, inf);
        }
        return sign | ((uint64_t)biased << mant) | (q & ((1ull << mant) - 1));
    }
    return sign | q;            /* subnormal or zero */
}

uint64_t exec_fp_from_double(double v, int fmt, int mode)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    int neg = (int)(b >> 63);
    int ex = (int)((b >> 52) & 0x7FF);
    uint64_t frac = b & ((1ull << 52) - 1);
    if (ex == 0x7FF) {
        if (frac)
            return exec_fp_nan(fmt);
        return ((uint64_t)neg << (fmt_mant[fmt] + fmt_exp[fmt])) | fmt_big(fmt, 1);
    }
    if (fmt == EXEC_FMT_F64)
        return b;
    if (ex == 0)
        return exec_fp_pack(neg, frac, -1074, 0, fmt, mode);
    return exec_fp_pack(neg, frac | (1ull << 52), ex - 1075, 0, fmt, mode);
}

uint64_t exec_fp_from_int(uint64_t mag, int neg, int fmt, int mode)
{
    return exec_fp_pack(neg, mag, 0, 0, fmt, mode);
}

double exec_fp_to_double(uint64_t bits, int fmt)
{
    switch (fmt) {
    case EXEC_FMT_F16: {
        int neg = (int)((bits >> 15) & 1);
        int ex = (int)((bits >> 10) & 0x1F);
        int frac = (int)(bits & 0x3FF);
        double v;
        if (ex == 0x1F)
            v = frac ? NAN : INFINITY;
        else if (ex == 0)
            v = ldexp((double)frac, -24);
        else
            v = ldexp((double)(frac | 0x400), ex - 25);
        return neg ? -v : v;
    }
    case EXEC_FMT_BF16: {
        uint32_t u = (uint32_t)(bits & 0xFFFF) << 16;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    case EXEC_FMT_F32: {
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    default: {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    }
}

float exec_f32_round(double hi, double lo, int mode)
{
    float r = (float)hi;
    if (mode != EXEC_RND_RZ && mode != EXEC_RND_RM && mode != EXEC_RND_RP)
        return r;
    if (isnan(hi) || isinf(hi))
        return r;
    /* sign of (exact - r): hi - r is exact (no float lies between them) */
    double d = (hi - (double)r) + lo;
    if (d == 0 || isnan(d))
        return r;
    switch (mode) {
    case EXEC_RND_RZ:
        if ((r > 0 && d < 0) || (r < 0 && d > 0))
            r = nextafterf(r, 0.0f);
        break;
    case EXEC_RND_RM:
        if (d < 0)
            r = nextafterf(r, -INFINITY);
        break;
    default:
        if (d > 0)
            r = nextafterf(r, INFINITY);
        break;
    }
    return r;
}

double exec_f64_round(double r, double err, int mode, int finite_inputs)
{
    if (mode != EXEC_RND_RZ && mode != EXEC_RND_RM && mode != EXEC_RND_RP)
        return r;
    if (isnan(r))
        return r;
    if (isinf(r)) {
        if (!finite_inputs)
            return r;
        int neg = r < 0;
        if (mode == EXEC_RND_RZ || (mode == EXEC_RND_RM && !neg) ||
            (mode == EXEC_RND_RP && neg))
            return neg ? -DBL_MAX : DBL_MAX;
        return r;
    }
    if (err == 0 || isnan(err))
        return r;
    switch (mode) {
    case EXEC_RND_RZ:
        if ((r > 0 && err < 0) || (r < 0 && err > 0))
            r = nextafter(r, 0.0);
        else if (r == 0)
            r = copysign(0.0, err);
        break;
    case EXEC_RND_RM:
        if (err < 0)
            r = nextafter(r, -INFINITY);
        break;
    default:
        if (err > 0)
            r = nextafter(r, INFINITY);
        break;
    }
    return r;
}

float exec_f32_ftz(float v)
{
    return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v;
}

double exec_f64_ftz(double v)
{
    return fpclassify(v) == FP_SUBNORMAL ? copysign(0.0, v) : v;
}
