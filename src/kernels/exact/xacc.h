/* xacc.h - the exact accumulator: a fixed-point big integer that holds any
 * sum of up to 2^42 floats of one format exactly, and its correctly
 * rounded conversion to f32 or f64.
 *
 * defines: XACC_HD, XACC_NDIG_MAX, XACC_NDIG_F32, XACC_NDIG_F16, xacc_family, xacc_family_info,
 *          xacc_family_of, XACC_PINF, XACC_NINF, XACC_NAN, xacc_elem,
 *          xacc_decode, xacc_pieces, xacc_add_elem, xacc_carry_step,
 *          xacc_clz32, xacc_round_top, xacc_word, xacc_round,
 *          xacc_special_result
 *
 * Pure C99 used twice: by the GPU kernels (src/kernels/exact/, where
 * XACC_HD makes every function __host__ __device__) and by the CPU path
 * (src/lib/reduce_cpu.c), so their results are the same bits. The
 * representation (int64 carry-save digits in units of the format's
 * smallest subnormal) and why nothing overflows: docs/exact.md.
 */
#ifndef CURED_XACC_H
#define CURED_XACC_H

#include <stdint.h>

#ifdef __CUDACC__
#define XACC_HD static __host__ __device__ inline
#else
#define XACC_HD static inline
#endif

/* Digits of the largest family (f64): 2^-1074 .. 2^(1024 + 42) is 2140
 * bits, 67 digits; pieces of a 128-bit value at the highest base the GPU
 * uses reach digit 67; digit 71 stays untouched. */
#define XACC_NDIG_MAX 72
#define XACC_NDIG_F32 16
#define XACC_NDIG_F16 6

/* The float formats that share one representation: bf16 widens to f32
 * exactly (it is f32's top half), so it uses f32's. */
typedef enum xacc_family {
    XACC_F16 = 0,
    XACC_F32,
    XACC_F64
} xacc_family;

typedef struct xacc_family_info {
    int emin;     /* log2 of the smallest subnormal: the unit of the digits */
    int ndig;     /* digits of a sum */
    int ebits;    /* exponent field bits of the input format */
    int fbits;    /* fraction field bits */
} xacc_family_info;

/* f16: sums < 2^42 * 2^16 in units 2^-24 need 82 bits; 6 digits.
 * f32: < 2^42 * 2^128 in units 2^-149 needs 319 bits + sign; pieces reach
 * digit 11; 16 digits. f64: see XACC_NDIG_MAX. */
XACC_HD xacc_family_info xacc_family_of(xacc_family f)
{
    xacc_family_info i;
    if (f == XACC_F16) {
        i.emin = -24; i.ndig = XACC_NDIG_F16; i.ebits = 5; i.fbits = 10;
    } else if (f == XACC_F32) {
        i.emin = -149; i.ndig = XACC_NDIG_F32; i.ebits = 8; i.fbits = 23;
    } else {
        i.emin = -1074; i.ndig = XACC_NDIG_MAX; i.ebits = 11; i.fbits = 52;
    }
    return i;
}

/* Special values seen, as bits to OR together. */
#define XACC_PINF 1u
#define XACC_NINF 2u
#define XACC_NAN 4u

/* One decoded input: value = (neg ? -1 : 1) * mant * 2^(pos + EMIN), or a
 * special (special != 0: mant and pos are 0). Zero has mant 0. */
typedef struct xacc_elem {
    uint64_t mant; /* the significand with its hidden bit: < 2^53 */
    int pos;       /* where its lowest bit lies, in units of 2^EMIN */
    int neg;
    unsigned special;
} xacc_elem;

/* Decodes the bits of one element of family f (bf16 given as the f32 bits
 * it widens to: bits << 16). Can't fail. */
XACC_HD xacc_elem xacc_decode(xacc_family f, uint64_t bits)
{
    xacc_family_info info = xacc_family_of(f);
    uint64_t fmask = ((uint64_t)1 << info.fbits) - 1;
    unsigned emask = (1u << info.ebits) - 1;
    unsigned e = (unsigned)(bits >> info.fbits) & emask;
    xacc_elem x;
    x.neg = (int)(bits >> (info.fbits + info.ebits)) & 1;
    x.special = 0;
    x.mant = bits & fmask;
    if (e == emask) {
        x.special = x.mant != 0 ? XACC_NAN : x.neg ? XACC_NINF : XACC_PINF;
        x.mant = 0;
        x.pos = 0;
        return x;
    }
    /* A normal number 1.f * 2^(e - bias) is (2^fbits + f) * 2^(e - 1 + EMIN);
     * a subnormal f * 2^EMIN: the same with e = 1 and no hidden bit. */
    if (e != 0)
        x.mant |= fmask + 1;
    x.pos = e != 0 ? (int)e - 1 : 0;
    return x;
}

/* The signed pieces of (neg ? -1 : 1) * (mag_hi * 2^64 + mag_lo) * 2^pos,
 * pos >= 0: piece[j] goes to digit (pos >> 5) + j, j = 0..4, each of
 * magnitude < 2^32 (the magnitude shifted by pos % 32 is cut into 32-bit
 * words, each given the sign). A magnitude below 2^85 (an element) leaves
 * pieces 3 and 4 zero. Returns the first digit, pos >> 5. Can't fail. */
XACC_HD int xacc_pieces(uint64_t mag_hi, uint64_t mag_lo, int neg, int pos,
                        int64_t piece[5])
{
    int r = pos & 31;
    uint32_t w[5];
    w[0] = (uint32_t)(mag_lo << r);
    w[1] = (uint32_t)((mag_lo << r) >> 32);
    /* bits 64.. of the shifted value: mag_lo's top r bits, then mag_hi */
    uint64_t mid = r ? (mag_lo >> (64 - r)) | (mag_hi << r) : mag_hi;
    w[2] = (uint32_t)mid;
    w[3] = (uint32_t)(mid >> 32);
    w[4] = r ? (uint32_t)(mag_hi >> (64 - r)) : 0u;
    for (int j = 0; j < 5; j++)
        piece[j] = neg ? -(int64_t)w[j] : (int64_t)w[j];
    return pos >> 5;
}

/* d += the element x (finite: special == 0). Can't fail; the caller keeps
 * to the carry-save budget (fewer than 2^31 adds per digit between
 * xacc_carry_step calls). */
XACC_HD void xacc_add_elem(int64_t *d, xacc_elem x)
{
    if (x.mant == 0)
        return;
    int64_t piece[5];
    int k = xacc_pieces(0, x.mant, x.neg, x.pos, piece);
    d[k] += piece[0];
    d[k + 1] += piece[1];
    d[k + 2] += piece[2];
}

/* One parallel carry step over d[0..ndig): every digit but the top keeps its
 * low 32 bits plus the carry of the digit below (arithmetic shift), the top
 * digit adds the carry into itself. The value is unchanged as long as the
 * top digit's own carry is zero, which NDIG guarantees. Afterwards
 * -2^31 <= d[k] < 2^32 + 2^31 for k < ndig - 1. Can't fail. */
XACC_HD void xacc_carry_step(int64_t *d, int ndig)
{
    int64_t carry = 0;
    for (int k = 0; k < ndig - 1; k++) {
        int64_t next = d[k] >> 32;
        d[k] = (d[k] & 0xffffffffll) + carry;
        carry = next;
    }
    d[ndig - 1] += carry;
}

/* The NaN or infinity that the special bits give, as the bits of an f32
 * (to_f64 == 0) or an f64: any NaN, or both infinities -> the quiet NaN;
 * +inf; -inf. Call only with special != 0. Can't fail. */
XACC_HD uint64_t xacc_special_result(unsigned special, int to_f64)
{
    uint64_t inf = to_f64 ? 0x7ff0000000000000ull : 0x7f800000ull;
    uint64_t sign = to_f64 ? 0x8000000000000000ull : 0x80000000ull;
    uint64_t qnan = to_f64 ? 0x7ff8000000000000ull : 0x7fc00000ull;
    if ((special & XACC_NAN) || (special & (XACC_PINF | XACC_NINF)) ==
                                    (XACC_PINF | XACC_NINF))
        return qnan;
    return (special & XACC_NINF) ? inf | sign : inf;
}

/* Leading zeros of a nonzero 32-bit word. */
XACC_HD int xacc_clz32(uint32_t w)
{
#ifdef __CUDA_ARCH__
    return __clz((int)w);
#else
    return __builtin_clz(w);
#endif
}

/* A nonzero magnitude M, in units 2^EMIN of family f, rounded once (to
 * nearest, ties to even) to f32 (to_f64 == 0: the bits in the low 32) or
 * f64, with the sign neg; beyond the format's largest finite value it
 * gives +-inf. M is given by its top three 32-bit words and a sticky bit:
 *     M = (w2 2^64 + w1 2^32 + w0) 2^(32 (t - 2)) + R,  w2 != 0,
 *     0 <= R < 2^(32 (t - 2)),  sticky = (R != 0),
 * words below word 0 being zero (w0 = 0 when t < 2, w1 = 0 when t < 1).
 * Enough, since a result has at most 53 bits below the leading one: they,
 * the round bit and the sticky bit all lie in those words or in R. The
 * one rounding of the CPU path (xacc_round) and of the GPU kernels (whose
 * warps find the three words in parallel, round_warp.cuh). Can't fail. */
XACC_HD uint64_t xacc_round_top(xacc_family f, uint32_t w2, uint32_t w1, uint32_t w0,
                                int t, int sticky, int neg, int to_f64)
{
    int emin = xacc_family_of(f).emin;
    int p = to_f64 ? 53 : 24; /* significand bits */
    int emin_norm = to_f64 ? -1022 : -126;
    int emax = to_f64 ? 1023 : 127;
    int bias = emax;
    uint64_t sign_bit = to_f64 ? 0x8000000000000000ull : 0x80000000ull;
    uint64_t inf = to_f64 ? 0x7ff0000000000000ull : 0x7f800000ull;

    /* V = w2 2^64 + w1 2^32 + w0, whose bit 0 is M's bit 32 (t - 2) */
    int hb = 95 - xacc_clz32(w2);     /* V's leading bit: 64 .. 95 */
    int e = 32 * (t - 2) + hb + emin; /* the exponent of M's leading bit */
    uint64_t bits;
    if (e > emax) {
        bits = inf;
    } else {
        int subnormal = e < emin_norm;
        int qexp = subnormal ? emin_norm - (p - 1) : e - (p - 1);
        /* V's bits below the result's last bit: a normal result keeps p
         * bits from hb down, a subnormal one (then t <= 1) every bit from
         * M's bit 0, so 12 <= sr <= 95 */
        int sr = qexp - emin - 32 * (t - 2);
        uint64_t hi = w2, lo = (uint64_t)w1 << 32 | w0;
        uint64_t sig = sr >= 64 ? hi >> (sr - 64) : lo >> sr | hi << (64 - sr);
        int r = sr - 1; /* the round bit */
        int round = (int)((r >= 64 ? hi >> (r - 64) : lo >> r) & 1u);
        int below = r >= 64 ? lo != 0 || (hi & (((uint64_t)1 << (r - 64)) - 1)) != 0
                            : (lo & (((uint64_t)1 << r) - 1)) != 0;
        if (round && (sticky || below || (sig & 1)))
            sig++;
        /* For a normal result the hidden bit adds 1 to the exponent field,
         * and a significand that rounded up to 2^p carries into it: both
         * fall out of one addition, up to the infinity's bits exactly. */
        bits = subnormal ? sig : ((uint64_t)(e + bias - 1) << (p - 1)) + sig;
        if (bits > inf)
            bits = inf;
    }
    return neg ? bits | sign_bit : bits;
}

/* Word k of d[lo..hi) read as 32-bit words, c at word hi, zero elsewhere. */
XACC_HD uint32_t xacc_word(const int64_t *d, int lo, int hi, uint32_t c, int k)
{
    return k == hi ? c : (k >= lo && k < hi) ? (uint32_t)d[k] : 0u;
}

/* The sum d[lo..hi) (family f, carry-save digits with |d[k]| < 2^62, every
 * other digit zero) rounded once by xacc_round_top; a zero sum gives +0.
 * Works in place: d[lo..hi) is left holding the magnitude's words.
 * O(hi - lo) steps, no array of its own. Can't fail. */
XACC_HD uint64_t xacc_round(xacc_family f, int64_t *d, int lo, int hi, int to_f64)
{
    /* Normalise: d[k] in [0, 2^32), c the rest (|c| < 2^31: the top
     * digit's carry). S = sum d[k] 2^(32k) + c 2^(32 hi). */
    int64_t c = 0;
    for (int k = lo; k < hi; k++) {
        int64_t v = d[k] + c;
        d[k] = v & 0xffffffffll;
        c = v >> 32;
    }
    /* A negative S is c < 0: take -S = ~S + 1 (the +1 enters at lo, the
     * words below lo being zero), so c becomes a word in [0, 2^31]. */
    int neg = c < 0;
    if (neg) {
        uint64_t borrow = 1;
        for (int k = lo; k < hi; k++) {
            uint64_t t = (uint64_t)(uint32_t)~(uint32_t)d[k] + borrow;
            d[k] = (int64_t)(t & 0xffffffffu);
            borrow = t >> 32;
        }
        c = ~c + (int64_t)borrow;
    }
    uint32_t cw = (uint32_t)c;
    int top = hi;
    while (top >= lo && xacc_word(d, lo, hi, cw, top) == 0)
        top--;
    if (top < lo)
        return 0; /* +0 */
    int sticky = 0;
    for (int k = lo; k < top - 2; k++)
        sticky |= xacc_word(d, lo, hi, cw, k) != 0;
    return xacc_round_top(f, xacc_word(d, lo, hi, cw, top),
                          xacc_word(d, lo, hi, cw, top - 1),
                          xacc_word(d, lo, hi, cw, top - 2), top, sticky, neg, to_f64);
}

#endif /* CURED_XACC_H */
