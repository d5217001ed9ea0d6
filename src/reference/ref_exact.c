/* ref_exact.c - the exact sum of doubles in a fixed-point accumulator, and
 * its correct rounding (docs/reference.md says why it is exact).
 *
 * defines: cured_ref_exact_clear, cured_ref_exact_add,
 *          cured_ref_exact_add_doubles, cured_ref_exact_add_floats,
 *          cured_ref_exact_merge, cured_ref_exact_sign,
 *          cured_ref_exact_compare, cured_ref_exact_to_double,
 *          cured_ref_exact_to_float, cured_ref_exact_grain
 */
#include "ref_exact.h"

#include <math.h>
#include <string.h>

#define DIGITS CURED_REF_EXACT_DIGITS
#define TOP (DIGITS - 1)
#define MASK 0xffffffffull

/* Adds between normalizations: each add moves a digit by less than 2^33,
 * a normalized digit is below 2^32 (the top one far below 2^62), so 2^28
 * adds keep every digit below 2^62. */
#define PENDING_LIMIT (1u << 28)

/* The unit of the accumulator is 2^-1074: a double's value in units is its
 * 53-bit significand shifted left by this much. */
#define UNIT_EXP (-1074)

/* grain_low before any nonzero value: above every bit position */
#define NO_GRAIN (1 << 30)

// ----------------------------------------------------------------------------
// Digits

/* Brings digits 0 .. TOP-1 into [0, 2^32), carrying into the next; the top
 * digit keeps the sign. The value is unchanged. */
static void normalize(int64_t *d)
{
    int64_t carry = 0;
    for (int k = 0; k < TOP; k++) {
        int64_t t = d[k] + carry;
        int64_t low = (int64_t)((uint64_t)t & MASK); /* t mod 2^32, in [0, 2^32) */
        d[k] = low;
        carry = (t - low) / ((int64_t)1 << 32);      /* exact: t - low is a multiple */
    }
    d[TOP] += carry;
}

/* Adds (sign < 0: subtracts) the significand m (< 2^53) shifted left by
 * `shift` bits (0 .. 2045) into the digits. */
static inline void add_shifted(int64_t *d, uint64_t m, unsigned shift, int negative)
{
    unsigned k = shift / 32, o = shift % 32;
    uint64_t a = (m & MASK) << o;  /* < 2^63 */
    uint64_t b = (m >> 32) << o;   /* < 2^52: the part 32 bits up */
    int64_t c0 = (int64_t)(a & MASK);
    int64_t c1 = (int64_t)((a >> 32) + (b & MASK));
    int64_t c2 = (int64_t)(b >> 32);
    /* negated without a branch: the sign of random data is unpredictable */
    int64_t flip = -(int64_t)(negative != 0);
    d[k] += (c0 ^ flip) - flip;
    d[k + 1] += (c1 ^ flip) - flip;
    d[k + 2] += (c2 ^ flip) - flip;
}

/* A normalized copy of a's finite part with its sign: the digits of |sum|
 * (all in [0, 2^32) but the top, which is >= 0). Returns -1, 0 or 1. */
static int magnitude(const cured_ref_exact *a, int64_t *d)
{
    memcpy(d, a->digit, sizeof a->digit);
    normalize(d);
    if (d[TOP] < 0) {
        for (int k = 0; k < DIGITS; k++)
            d[k] = -d[k];
        normalize(d);
        return -1;
    }
    for (int k = 0; k < DIGITS; k++)
        if (d[k] != 0)
            return 1;
    return 0;
}

/* Bit `pos` of the magnitude digits d (positions past the 32 bits of the
 * lower digits read on into the top digit). */
static unsigned bit_at(const int64_t *d, int pos)
{
    int k = pos / 32;
    if (k >= TOP)
        return (unsigned)(((uint64_t)d[TOP] >> (pos - 32 * TOP)) & 1);
    return (unsigned)(((uint64_t)d[k] >> (pos % 32)) & 1);
}

/* The position of the highest set bit of nonzero magnitude digits d. */
static int highest_bit(const int64_t *d)
{
    int k = TOP;
    while (d[k] == 0)
        k--;
    uint64_t v = (uint64_t)d[k];
    int p = 0;
    while (v >> 1) {
        v >>= 1;
        p++;
    }
    return 32 * k + p;
}

/* Whether any bit below position pos is set. */
static int any_below(const int64_t *d, int pos)
{
    if (pos <= 0)
        return 0;
    int k = pos / 32;
    for (int j = 0; j < k && j < TOP; j++)
        if (d[j] != 0)
            return 1;
    if (k >= TOP)
        return pos - 32 * TOP >= 64 ? d[TOP] != 0
                                    : ((uint64_t)d[TOP] & ((1ull << (pos - 32 * TOP)) - 1)) != 0;
    return ((uint64_t)d[k] & ((1ull << (pos % 32)) - 1)) != 0;
}

/* The finite part rounded to nearest, ties to even, in a binary format of
 * `precision` bits whose smallest quantum is 2^min_quantum, as a double
 * (exact: precision <= 53, and the result's exponent is within the double
 * range or it overflows to inf, as the format would). */
static double round_finite(const cured_ref_exact *a, int precision, int min_quantum)
{
    int64_t d[DIGITS];
    int sign = magnitude(a, d);
    if (sign == 0)
        return 0.0;
    int top = highest_bit(d);
    int low = top - (precision - 1);        /* the result's last bit */
    if (low < min_quantum - UNIT_EXP)
        low = min_quantum - UNIT_EXP;       /* subnormal: a fixed quantum */
    if (low < 0)
        low = 0;
    uint64_t m = 0;
    for (int p = top; p >= low; p--)
        m = (m << 1) | bit_at(d, p);
    if (low > 0 && bit_at(d, low - 1) && (any_below(d, low - 1) || (m & 1)))
        m++;                                /* may reach 2^precision: fine */
    double v = ldexp((double)m, low + UNIT_EXP);
    return sign < 0 ? -v : v;
}

/* NaN or the infinity the special values make, or 0 when there are none
 * (*special says which). */
static double special_value(const cured_ref_exact *a, int *special)
{
    *special = 1;
    if (a->nans > 0 || (a->pos_infs > 0 && a->neg_infs > 0))
        return NAN;
    if (a->pos_infs > 0)
        return INFINITY;
    if (a->neg_infs > 0)
        return -INFINITY;
    *special = 0;
    return 0;
}

// ----------------------------------------------------------------------------
// The API

void cured_ref_exact_clear(cured_ref_exact *a)
{
    memset(a, 0, sizeof *a);
    a->grain_low = NO_GRAIN;
}

/* Adds the double x into sum and |x| into abs (when not NULL), counting
 * NaN and infinities in sum only; *pending and *grain_low are the
 * running copies of the two accumulators' own fields. */
static inline void add_one(cured_ref_exact *sum, cured_ref_exact *abs, double x,
                           uint32_t *pending, int *grain_low)
{
    uint64_t bits;
    memcpy(&bits, &x, 8);
    unsigned biased = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t m = bits & ((1ull << 52) - 1);
    int negative = (int)(bits >> 63);
    if (biased == 0x7ff) {
        if (m != 0)
            sum->nans++;
        else if (negative)
            sum->neg_infs++;
        else
            sum->pos_infs++;
        return;
    }
    if (biased != 0)
        m |= 1ull << 52;                    /* the hidden bit */
    if (m == 0)
        return;                             /* +-0 adds nothing */
    /* value = m * 2^(max(biased, 1) - 1075) = m units shifted left by: */
    unsigned shift = biased ? biased - 1 : 0;
    add_shifted(sum->digit, m, shift, negative);
    if (abs != NULL)
        add_shifted(abs->digit, m, shift, 0);
    /* the grain: the position of x's lowest set bit, m's lowest bit read
     * as the exponent of (double)(m & -m), an exact power of two */
    double lowest = (double)(int64_t)(m & (~m + 1)); /* < 2^53: signed converts in one instruction */
    uint64_t lowest_bits;
    memcpy(&lowest_bits, &lowest, 8);
    int low = (int)shift + (int)(lowest_bits >> 52) - 1023;
    if (low < *grain_low)
        *grain_low = low;
    if (++*pending >= PENDING_LIMIT) {
        normalize(sum->digit);
        if (abs != NULL)
            normalize(abs->digit);
        *pending = 0;
    }
}

/* The loop of the batch adds: x holds floats or doubles. The pending count
 * and grain live in locals (the digits' stores would otherwise force them
 * back to memory on every add); with abs, both share the larger count. */
static void add_many(cured_ref_exact *sum, cured_ref_exact *abs, const void *x,
                     size_t n, int floats)
{
    uint32_t pending = sum->pending;
    int grain_low = sum->grain_low;
    if (abs != NULL) {
        pending = abs->pending > pending ? abs->pending : pending;
        grain_low = abs->grain_low < grain_low ? abs->grain_low : grain_low;
    }
    if (floats)
        for (size_t i = 0; i < n; i++)
            add_one(sum, abs, ((const float *)x)[i], &pending, &grain_low);
    else
        for (size_t i = 0; i < n; i++)
            add_one(sum, abs, ((const double *)x)[i], &pending, &grain_low);
    sum->pending = pending;
    sum->grain_low = grain_low;
    if (abs != NULL) {
        abs->pending = pending;
        abs->grain_low = grain_low;
    }
}

void cured_ref_exact_add(cured_ref_exact *a, double x)
{
    add_many(a, NULL, &x, 1, 0);
}

void cured_ref_exact_add_doubles(cured_ref_exact *sum, cured_ref_exact *abs,
                                 const double *x, size_t n)
{
    add_many(sum, abs, x, n, 0);
}

void cured_ref_exact_add_floats(cured_ref_exact *sum, cured_ref_exact *abs,
                                const float *x, size_t n)
{
    add_many(sum, abs, x, n, 1);
}

void cured_ref_exact_merge(cured_ref_exact *a, const cured_ref_exact *b)
{
    int64_t d[DIGITS];
    memcpy(d, b->digit, sizeof d);
    normalize(d);
    normalize(a->digit);
    for (int k = 0; k < DIGITS; k++) {
        a->digit[k] += d[k];
    }
    if (b->grain_low < a->grain_low)
        a->grain_low = b->grain_low;
    normalize(a->digit);
    a->pending = 0;
    a->nans += b->nans;
    a->pos_infs += b->pos_infs;
    a->neg_infs += b->neg_infs;
}

int cured_ref_exact_sign(const cured_ref_exact *a)
{
    int64_t d[DIGITS];
    return magnitude(a, d);
}

int cured_ref_exact_compare(const cured_ref_exact *a, double x)
{
    if (!isfinite(x))
        return 2;
    cured_ref_exact t;
    memcpy(t.digit, a->digit, sizeof t.digit);
    t.pending = 0;
    normalize(t.digit);
    /* the finite part minus x: x's bits with the sign flipped */
    uint64_t bits;
    memcpy(&bits, &x, 8);
    unsigned biased = (unsigned)(bits >> 52) & 0x7ff;
    uint64_t m = bits & ((1ull << 52) - 1);
    if (biased != 0)
        m |= 1ull << 52;
    if (m != 0)
        add_shifted(t.digit, m, biased ? biased - 1 : 0, !(int)(bits >> 63));
    return cured_ref_exact_sign(&t);
}

double cured_ref_exact_to_double(const cured_ref_exact *a)
{
    int special;
    double s = special_value(a, &special);
    return special ? s : round_finite(a, 53, -1074);
}

float cured_ref_exact_to_float(const cured_ref_exact *a)
{
    int special;
    double s = special_value(a, &special);
    /* 24 bits, quantum 2^-149: the double holds the float's value exactly,
     * or is >= 2^128, which converts to inf as a float sum overflows */
    return (float)(special ? s : round_finite(a, 24, -149));
}

int cured_ref_exact_grain(const cured_ref_exact *a)
{
    return a->grain_low == NO_GRAIN ? 1024 : a->grain_low + UNIT_EXP;
}
