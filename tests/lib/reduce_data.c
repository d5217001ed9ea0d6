/* reduce_data.c - the exactness tests' inputs (reduce_data.h).
 *
 * defines: rd_kind_names, rd_random, rd_value, rd_max_finite, rd_put,
 *          rd_get, rd_fill
 */
#include "reduce_data.h"

#include <math.h>
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

