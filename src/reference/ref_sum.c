/* ref_sum.c - reference sums of inputs of every dtype, the bound of a
 * computed float sum, and the check of a result (see ref_sum.h).
 *
 * defines: cured_ref_sum_init, cured_ref_sum_add, cured_ref_sum_add_fill,
 *          cured_ref_sum_merge, cured_ref_sum_of, cured_ref_sum_wrapped,
 *          cured_ref_sum_element, cured_ref_sum_double, cured_ref_sum_float,
 *          cured_ref_sum_abs, cured_ref_sum_exactly_representable,
 *          cured_ref_gamma, cured_ref_sum_bound, cured_ref_sum_error,
 *          cured_ref_sum_check, cured_ref_format_element
 */
#include "ref_sum.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

// ----------------------------------------------------------------------------
// Element types

static int is_float(cured_dtype d)
{
    return d == CURED_F32 || d == CURED_F64;
}

static size_t elem_size(cured_dtype d)
{
    return d == CURED_F64 || d == CURED_I64 || d == CURED_U64 ? 8 : 4;
}

/* The precision p of a float type: 24 or 53 bits (u = 2^-p). */
static int precision(cured_dtype d)
{
    return d == CURED_F32 ? 24 : 53;
}

/* The element of float dtype d at p, as a double (exact). */
static double float_at(cured_dtype d, const void *p)
{
    if (d == CURED_F32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    double x;
    memcpy(&x, p, 8);
    return x;
}

/* The element of integer dtype d at p: its value's 64-bit two's complement
 * (sign-extended for i32), and whether it is negative. */
static uint64_t int_at(cured_dtype d, const void *p, int *negative)
{
    switch (d) {
    case CURED_I32: {
        int32_t v;
        memcpy(&v, p, 4);
        *negative = v < 0;
        return (uint64_t)(int64_t)v;
    }
    case CURED_U32: {
        uint32_t v;
        memcpy(&v, p, 4);
        *negative = 0;
        return v;
    }
    case CURED_I64: {
        int64_t v;
        memcpy(&v, p, 8);
        *negative = v < 0;
        return (uint64_t)v;
    }
    default: {
        uint64_t v;
        memcpy(&v, p, 8);
        *negative = 0;
        return v;
    }
    }
}

/* The integer element at p as a double (signed types signed). */
static double int_as_double(cured_dtype d, const void *p)
{
    int negative;
    uint64_t v = int_at(d, p, &negative);
    if (negative)
        return -(double)(~v + 1); /* |v| as unsigned: no signed overflow */
    return (double)v;
}

// ----------------------------------------------------------------------------
// Summing

int cured_ref_sum_init(cured_ref_sum *s, cured_dtype d)
{
    memset(s, 0, sizeof *s);
    if ((unsigned)d >= CURED_DTYPE_COUNT)
        return -1;
    s->dtype = d;
    cured_ref_exact_clear(&s->exact);
    cured_ref_exact_clear(&s->abs);
    return 0;
}

/* Adds one integer value v (64-bit two's complement; negative: its 128-bit
 * sign extension is all ones above) to the 128-bit sum. */
static void add_int(cured_ref_sum *s, uint64_t v, int negative)
{
    uint64_t lo = s->exact_lo + v;
    s->exact_hi += (lo < v) + (negative ? UINT64_MAX : 0);
    s->exact_lo = lo;
}

void cured_ref_sum_add(cured_ref_sum *s, const void *in, uint64_t n)
{
    if (s->dtype == CURED_F32) {
        cured_ref_exact_add_floats(&s->exact, &s->abs, in, (size_t)n);
    } else if (s->dtype == CURED_F64) {
        cured_ref_exact_add_doubles(&s->exact, &s->abs, in, (size_t)n);
    } else {
        const uint8_t *p = in;
        size_t es = elem_size(s->dtype);
        for (uint64_t i = 0; i < n; i++, p += es) {
            int negative;
            uint64_t v = int_at(s->dtype, p, &negative);
            add_int(s, v, negative);
        }
    }
    s->n += n;
}

/* Values of a fill go through a small buffer, for the batch adds. */
#define FILL_CHUNK 256

void cured_ref_sum_add_fill(cured_ref_sum *s, const cured_ref_fill *f,
                            uint64_t begin, uint64_t end)
{
    union {
        float f32[FILL_CHUNK];
        double f64[FILL_CHUNK];
        uint8_t bytes[FILL_CHUNK * 8];
    } chunk;
    size_t es = elem_size(s->dtype);
    for (uint64_t i = begin; i < end;) {
        size_t count = end - i < FILL_CHUNK ? (size_t)(end - i) : FILL_CHUNK;
        if (s->dtype == CURED_F32)          /* the common cases, inlined */
            for (size_t j = 0; j < count; j++)
                chunk.f32[j] = cured_ref_fill_f32(f, i + j);
        else if (s->dtype == CURED_F64)
            for (size_t j = 0; j < count; j++)
                chunk.f64[j] = cured_ref_fill_f64(f, i + j);
        else
            for (size_t j = 0; j < count; j++)
                cured_ref_fill_element(f, s->dtype, i + j, chunk.bytes + j * es);
        cured_ref_sum_add(s, chunk.bytes, count);
        i += count;
    }
}

void cured_ref_sum_merge(cured_ref_sum *s, const cured_ref_sum *o)
{
    uint64_t lo = s->exact_lo + o->exact_lo;
    s->exact_hi += o->exact_hi + (lo < o->exact_lo);
    s->exact_lo = lo;
    cured_ref_exact_merge(&s->exact, &o->exact);
    cured_ref_exact_merge(&s->abs, &o->abs);
    s->n += o->n;
}

int cured_ref_sum_of(cured_dtype d, const void *in, uint64_t n, cured_ref_sum *s)
{
    if (cured_ref_sum_init(s, d) != 0)
        return -1;
    cured_ref_sum_add(s, in, n);
    return 0;
}

// ----------------------------------------------------------------------------
// Values

uint64_t cured_ref_sum_wrapped(const cured_ref_sum *s)
{
    if (is_float(s->dtype))
        return 0;
    return elem_size(s->dtype) == 4 ? s->exact_lo & 0xffffffffull : s->exact_lo;
}

void cured_ref_sum_element(const cured_ref_sum *s, void *out)
{
    if (s->dtype == CURED_F32) {
        float v = cured_ref_exact_to_float(&s->exact);
        memcpy(out, &v, 4);
    } else if (s->dtype == CURED_F64) {
        double v = cured_ref_exact_to_double(&s->exact);
        memcpy(out, &v, 8);
    } else {
        uint64_t v = cured_ref_sum_wrapped(s); /* little-endian low bytes */
        for (size_t b = 0; b < elem_size(s->dtype); b++)
            ((uint8_t *)out)[b] = (uint8_t)(v >> (8 * b));
    }
}

double cured_ref_sum_double(const cured_ref_sum *s)
{
    return is_float(s->dtype) ? cured_ref_exact_to_double(&s->exact) : NAN;
}

float cured_ref_sum_float(const cured_ref_sum *s)
{
    return is_float(s->dtype) ? cured_ref_exact_to_float(&s->exact) : NAN;
}

double cured_ref_sum_abs(const cured_ref_sum *s)
{
    return is_float(s->dtype) ? cured_ref_exact_to_double(&s->abs) : 0;
}

static int has_specials(const cured_ref_sum *s)
{
    const cured_ref_exact *e = &s->exact;
    return e->nans + e->pos_infs + e->neg_infs > 0;
}

int cured_ref_sum_exactly_representable(const cured_ref_sum *s)
{
    if (!is_float(s->dtype))
        return 1;
    if (has_specials(s))
        return 0;
    int g = cured_ref_exact_grain(&s->abs), p = precision(s->dtype);
    double largest = s->dtype == CURED_F32 ? FLT_MAX : DBL_MAX;
    if (g == 1024)
        return 1;                            /* only zeros */
    if (cured_ref_exact_compare(&s->abs, largest) > 0)
        return 0;                            /* a partial sum could overflow */
    /* 2^(p+g) beyond the double range is beyond every sum that passed */
    return p + g > 1023 || cured_ref_exact_compare(&s->abs, ldexp(1.0, p + g)) <= 0;
}

// ----------------------------------------------------------------------------
// The bound

double cured_ref_gamma(cured_dtype d, uint64_t h)
{
    if (!is_float(d) || h == 0)
        return 0;
    int p = precision(d);
    if (h >= (1ull << p))
        return INFINITY;                     /* h u >= 1: no bound */
    double hu = ldexp((double)h, -p);        /* exact: h < 2^53 */
    return hu / (1 - hu);                    /* 1 - hu exact: a multiple of 2^-p */
}

/* Why B = fl(fl(gamma_h) * fl(S)), all rounded to nearest, is a bound (S =
 * sum|x_i|, u the element's unit roundoff, v = 2^-53 the double's). Each
 * input reaches the result multiplied by at most h factors (1 + d), |d| <=
 * u, so the error is at most ((1 + u)^h - 1) S <= (e^x - 1) S, x = h u.
 * For x <= 1/2: e^x - 1 <= x + 0.6 x^2, while gamma_h = x / (1 - x) >= x +
 * x^2 and gamma_h <= 2x. The three roundings lose at most a factor
 * (1 + v)^-3 >= 1 - 3v, so B >= gamma_h S (1 - 3v) >= (x + x^2 - 6 v x) S,
 * which is >= (x + 0.6 x^2) S once 0.4 x >= 6 v, i.e. x >= 15 v. For x in
 * (1/2, 1), gamma_h / (e^x - 1) >= 1.5 dwarfs 3v. So B is safe whenever h u
 * >= 15 * 2^-53, always for f32 (u = 2^-24, h >= 1); that leaves f64 with h
 * < 15, and a product that is subnormal (whose rounding is not relative):
 * there each step is rounded upward instead. Keeping the round-to-nearest
 * form elsewhere keeps the bound the number gamma_h * S prints as. */
double cured_ref_sum_bound(const cured_ref_sum *s, uint64_t h)
{
    if (!is_float(s->dtype))
        return 0;
    if (has_specials(s))
        return NAN;
    if (cured_ref_sum_exactly_representable(s))
        return 0;
    double gamma = cured_ref_gamma(s->dtype, h), sum_abs = cured_ref_sum_abs(s);
    if (gamma == 0 || isinf(gamma))
        return gamma;
    double bound = gamma * sum_abs;
    if (ldexp((double)h, -precision(s->dtype)) >= 15 * 0x1p-53 && bound >= DBL_MIN)
        return bound;
    if (cured_ref_exact_compare(&s->abs, sum_abs) > 0)
        sum_abs = nextafter(sum_abs, INFINITY);
    return nextafter(nextafter(gamma, INFINITY) * sum_abs, INFINITY);
}

// ----------------------------------------------------------------------------
// Checking a result

double cured_ref_sum_error(const cured_ref_sum *s, const void *got)
{
    if (!is_float(s->dtype)) {
        uint8_t want[8];
        cured_ref_sum_element(s, want);
        return fabs(int_as_double(s->dtype, got) - int_as_double(s->dtype, want));
    }
    double g = float_at(s->dtype, got);
    if (!isfinite(g) || has_specials(s))
        return fabs(g - cured_ref_sum_double(s));
    cured_ref_exact d = s->exact;
    cured_ref_exact_add(&d, -g);
    return fabs(cured_ref_exact_to_double(&d));
}

/* Whether a finite g is within a bound b of the exact sum: exact - g - b
 * <= 0 <= exact - g + b, both signs found exactly. */
static int within(const cured_ref_sum *s, double g, double b)
{
    if (isinf(b))
        return 1;
    if (!(b >= 0))
        return 0;
    cured_ref_exact d = s->exact;
    cured_ref_exact_add(&d, -g);
    return cured_ref_exact_compare(&d, b) <= 0 && cured_ref_exact_compare(&d, -b) >= 0;
}

int cured_ref_sum_check(const cured_ref_sum *s, const void *got, uint64_t h,
                        char *msg, size_t cap)
{
    char got_s[48], want_s[48];
    uint8_t want[8];
    cured_ref_sum_element(s, want);
    if (!is_float(s->dtype)) {
        size_t es = elem_size(s->dtype);
        if (memcmp(got, want, es) == 0)
            return 1;
        if (msg != NULL)
            snprintf(msg, cap, "got %s want %s (exact, modulo 2^%zu)",
                     cured_ref_format_element(s->dtype, got, got_s, sizeof got_s),
                     cured_ref_format_element(s->dtype, want, want_s, sizeof want_s),
                     8 * es);
        return 0;
    }
    double g = float_at(s->dtype, got), w = float_at(s->dtype, want);
    double bound = cured_ref_sum_bound(s, h);
    int ok;
    if (isnan(g))
        ok = isnan(w);
    else if (isinf(g))
        ok = g == w;
    else
        ok = !has_specials(s) && within(s, g, bound);
    if (!ok && msg != NULL)
        snprintf(msg, cap, "got %s want %.17g |diff| %.3g bound %.3g (h=%" PRIu64
                 "%s, sum|x| %.6g)",
                 cured_ref_format_element(s->dtype, got, got_s, sizeof got_s),
                 cured_ref_sum_double(s), cured_ref_sum_error(s, got), bound, h,
                 bound == 0 && !has_specials(s) ? ", every partial sum exact" : "",
                 cured_ref_sum_abs(s));
    return ok;
}

char *cured_ref_format_element(cured_dtype d, const void *p, char *out, size_t cap)
{
    switch (d) {
    case CURED_F32: snprintf(out, cap, "%.9g", float_at(d, p)); break;
    case CURED_F64: snprintf(out, cap, "%.17g", float_at(d, p)); break;
    case CURED_I32: { int32_t v; memcpy(&v, p, 4); snprintf(out, cap, "%" PRId32, v); break; }
    case CURED_U32: { uint32_t v; memcpy(&v, p, 4); snprintf(out, cap, "%" PRIu32, v); break; }
    case CURED_I64: { int64_t v; memcpy(&v, p, 8); snprintf(out, cap, "%" PRId64, v); break; }
    case CURED_U64: { uint64_t v; memcpy(&v, p, 8); snprintf(out, cap, "%" PRIu64, v); break; }
    default: snprintf(out, cap, "?"); break;
    }
    return out;
}
