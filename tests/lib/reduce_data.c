/* reduce_data.c - the exactness tests' inputs (reduce_data.h).
 *
 * defines: rd_kind_names, rd_random, rd_value, rd_max_finite, rd_put,
 *          rd_get, rd_fill, rd_reference_sum
 *
 * The reference sum is a big integer of this file's own (value * 2^-1074),
 * written out in decimal and rounded by the C library's correctly rounded
 * strtof/strtod.
 */
#include "reduce_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t rd_random(uint64_t *state)
{
    uint64_t x = (*state += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static size_t elem_size(cured_dtype d) { return cured_dtype_size(d); }

double rd_value(cured_dtype d, uint64_t bits)
{
    if (d == CURED_F64) {
        double x;
        memcpy(&x, &bits, 8);
        return x;
    }
    if (d == CURED_F32 || d == CURED_BF16) {
        uint32_t u = d == CURED_BF16 ? (uint32_t)bits << 16 : (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    /* f16 by hand */
    int s = (int)(bits >> 15) & 1, e = (int)(bits >> 10) & 31, f = (int)bits & 1023;
    double v;
    if (e == 31)
        v = f ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp(f, -24);
    else
        v = ldexp(1024 + f, e - 25);
    return s ? -v : v;
}

/* Bits of a float dtype with sign s, unbiased exponent ex (clamped to the
 * normal range, or subnormal below it) and random fraction bits. */
static uint64_t make_float(cured_dtype d, int s, int ex, uint64_t *state)
{
    int fbits = d == CURED_F16 ? 10 : d == CURED_BF16 ? 7 : d == CURED_F32 ? 23 : 52;
    int ebits = d == CURED_F16 ? 5 : d == CURED_F64 ? 11 : 8;
    int bias = (1 << (ebits - 1)) - 1;
    int e = ex + bias;
    uint64_t f = rd_random(state) & (((uint64_t)1 << fbits) - 1);
    if (e < 1) { /* subnormal: shift the hidden bit in */
        uint64_t m = (((uint64_t)1 << fbits) | f) >> (1 - e);
        e = 0;
        f = m;
    }
    if (e > 2 * bias)
        e = 2 * bias;
    return (uint64_t)s << (fbits + ebits) | (uint64_t)e << fbits | f;
}

uint64_t rd_max_finite(cured_dtype d)
{
    switch (d) {
    case CURED_F16: return 0x7bffu;
    case CURED_BF16: return 0x7f7fu;
    case CURED_F32: return 0x7f7fffffu;
    default: return 0x7fefffffffffffffull;
    }
}

void rd_put(void *a, cured_dtype d, uint64_t i, uint64_t bits)
{
    memcpy((char *)a + i * elem_size(d), &bits, elem_size(d)); /* little-endian */
}

uint64_t rd_get(const void *a, cured_dtype d, uint64_t i)
{
    uint64_t bits = 0;
    memcpy(&bits, (const char *)a + i * elem_size(d), elem_size(d));
    return bits;
}

const char *const rd_kind_names[RD_KINDS] = {"uniform", "positive", "cancel",
                                             "wide", "huge-cancel", "overflow"};

void rd_fill(void *a, cured_dtype d, uint64_t n, rd_kind k, uint64_t *state)
{
    int lo, hi; /* exponent range of "wide" */
    switch (d) {
    case CURED_F16: lo = -24; hi = 15; break;
    case CURED_BF16: lo = -133; hi = 120; break;
    case CURED_F32: lo = -140; hi = 120; break;
    default: lo = -1060; hi = 1000; break;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = rd_random(state), bits;
        switch (k) {
        case RD_UNIFORM: bits = make_float(d, (int)(r & 1), -1 - (int)(r >> 8) % 12, state); break;
        case RD_POSITIVE: bits = make_float(d, 0, -(int)(r >> 8) % 20, state); break;
        case RD_WIDE:
            bits = make_float(d, (int)(r & 1), lo + (int)((r >> 8) % (uint64_t)(hi - lo + 1)), state);
            break;
        case RD_HUGE_CANCEL: {
            int big_e = d == CURED_F16 ? 15 : 100;
            int small_e = d == CURED_F16 ? -14 : 0;
            uint64_t one = make_float(d, 0, small_e, state) & ~(((uint64_t)1 << (d == CURED_F16 ? 10 : d == CURED_BF16 ? 7 : d == CURED_F32 ? 23 : 52)) - 1);
            uint64_t huge = make_float(d, 0, big_e, state) & ~(((uint64_t)1 << (d == CURED_F16 ? 10 : d == CURED_BF16 ? 7 : d == CURED_F32 ? 23 : 52)) - 1);
            uint64_t sign = (uint64_t)1 << (8 * elem_size(d) - 1);
            bits = i % 3 == 0 ? huge : i % 3 == 1 ? one : huge | sign;
            break;
        }
        case RD_OVERFLOW_DATA: bits = rd_max_finite(d); break;
        default: bits = 0; break;
        }
        rd_put(a, d, i, bits);
    }
    if (k == RD_CANCEL) { /* second half negates the first; a tiny odd one */
        uint64_t sign = (uint64_t)1 << (8 * elem_size(d) - 1);
        for (uint64_t i = 0; i < n / 2; i++)
            rd_put(a, d, n - 1 - i, rd_get(a, d, i) ^ sign);
        if (n % 2)
            rd_put(a, d, n / 2, 1); /* the smallest subnormal: the exact sum */
        if (n >= 4) /* and one more pair off by the smallest subnormal */
            rd_put(a, d, 0, rd_get(a, d, 0) + 1);
    }
}


// ----------------------------------------------------------------------------
// A small two's complement big integer: value * 2^-1074

#define LIMBS 160 /* 5120 bits: sums, and sums times 5^1074 */

typedef struct big {
    uint32_t w[LIMBS];
} big;

/* b += sign * m * 2^shift (m < 2^64, shift >= 0). */
static void big_add(big *b, uint64_t m, int shift, int negative)
{
    uint32_t add[4] = {0};
    int k = shift / 32, r = shift % 32;
    uint64_t lo = m << r, hi = r ? m >> (64 - r) : 0;
    add[0] = (uint32_t)lo;
    add[1] = (uint32_t)(lo >> 32);
    add[2] = (uint32_t)hi;
    uint64_t carry = 0;
    if (!negative) {
        for (int i = k; i < LIMBS; i++) {
            uint64_t t = (uint64_t)b->w[i] + (i - k < 4 ? add[i - k] : 0) + carry;
            b->w[i] = (uint32_t)t;
            carry = t >> 32;
            if (i - k >= 3 && carry == 0)
                break;
        }
    } else {
        uint64_t borrow = 0;
        for (int i = k; i < LIMBS; i++) {
            uint64_t sub = (i - k < 4 ? add[i - k] : 0) + borrow;
            borrow = b->w[i] < sub;
            b->w[i] = (uint32_t)((uint64_t)b->w[i] - sub);
            if (i - k >= 3 && borrow == 0)
                break;
        }
    }
}

static int big_negative(const big *b) { return b->w[LIMBS - 1] >> 31; }

static void big_negate(big *b)
{
    uint64_t carry = 1;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)(uint32_t)~b->w[i] + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

static int big_is_zero(const big *b)
{
    for (int i = 0; i < LIMBS; i++)
        if (b->w[i])
            return 0;
    return 1;
}

/* b = b * f + 0 (magnitude), f < 2^32. */
static void big_mul_small(big *b, uint32_t f)
{
    uint64_t carry = 0;
    for (int i = 0; i < LIMBS; i++) {
        uint64_t t = (uint64_t)b->w[i] * f + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
}

/* b /= d, returns the remainder (magnitude). */
static uint32_t big_div_small(big *b, uint32_t d)
{
    uint64_t rem = 0;
    for (int i = LIMBS - 1; i >= 0; i--) {
        uint64_t cur = rem << 32 | b->w[i];
        b->w[i] = (uint32_t)(cur / d);
        rem = cur % d;
    }
    return (uint32_t)rem;
}

/* Adds the finite double x (an element's exact value) to b. */
static void big_add_double(big *b, double x)
{
    if (x == 0)
        return;
    int e;
    double frac = frexp(fabs(x), &e);        /* |x| = frac 2^e, frac in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(frac, 53);  /* exact: 53 bits at most */
    int shift = e - 53 + 1074;
    while (shift < 0) { /* subnormals: m has trailing zeros */
        m >>= 1;
        shift++;
    }
    big_add(b, m, shift, x < 0);
}

/* The exact value of b * 2^-1074 as decimal text, "[-]D.e-1074" style. */
static char *big_decimal(const big *value)
{
    big b = *value;
    int neg = big_negative(&b);
    if (neg)
        big_negate(&b);
    for (int i = 0; i < 1074; i++) /* * 5^1074: now an integer / 10^1074 */
        big_mul_small(&b, 5);
    char digits[LIMBS * 10 + 8];
    int len = 0;
    do {
        uint32_t chunk = big_div_small(&b, 1000000000u);
        for (int i = 0; i < 9; i++) {
            digits[len++] = (char)('0' + chunk % 10);
            chunk /= 10;
        }
    } while (!big_is_zero(&b));
    char *text = malloc((size_t)len + 16);
    int p = 0;
    if (neg)
        text[p++] = '-';
    for (int i = len - 1; i >= 0; i--)
        text[p++] = digits[i];
    sprintf(text + p, "e-1074");
    return text;
}

// ----------------------------------------------------------------------------
// The reference

uint64_t rd_reference_sum(const void *a, cured_dtype d, uint64_t n, int to_f64)
{
    big b;
    memset(&b, 0, sizeof b);
    int pinf = 0, ninf = 0, nan = 0;
    for (uint64_t i = 0; i < n; i++) {
        double x = rd_value(d, rd_get(a, d, i));
        if (isnan(x))
            nan = 1;
        else if (isinf(x))
            *(x > 0 ? &pinf : &ninf) = 1;
        else
            big_add_double(&b, x);
    }
    double v;
    if (nan || (pinf && ninf)) {
        v = NAN;
    } else if (pinf || ninf) {
        v = pinf ? INFINITY : -INFINITY;
    } else if (big_is_zero(&b)) {
        v = 0.0; /* +0, the library's documented sign */
    } else {
        char *text = big_decimal(&b);
        if (to_f64) {
            v = strtod(text, NULL);
        } else {
            float f = strtof(text, NULL);
            free(text);
            uint32_t u;
            memcpy(&u, &f, 4);
            return u;
        }
        free(text);
    }
    if (!to_f64) {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (isnan(v))
            u = 0x7fc00000u;
        return u;
    }
    uint64_t u;
    memcpy(&u, &v, 8);
    if (isnan(v))
        u = 0x7ff8000000000000ull;
    return u;
}
