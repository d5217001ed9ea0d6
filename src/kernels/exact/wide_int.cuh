/* wide_int.cuh - the exact kernels' wide integers: 128- and 160-bit two's
 * complement values in 32-bit words, their adds, words, pieces on the
 * digit grid, one rounding to f32 or f64, and their sums over a warp.
 *
 * defines: FULL_WARP, u128, u128_add, u128_add_s64, u128_add_s64_shl,
 *          u128_is_zero, u160, u160_of, u160_add, u160_is_zero,
 *          u160_add_s64_shl, u160_word, u160_magnitude_words, u160_piece,
 *          u160_round_short, u160_round, warp_sum_words, warp_sum, pow2
 *
 * Words are plain registers (w0 the lowest), picked by selects rather than
 * indexing, which would put them in local memory. The pieces and the
 * rounding follow xacc.h's digits (units of the format's smallest
 * subnormal, 32 bits a digit), so a value rounded here gives the bits the
 * CPU path gives for the same sum.
 */
#ifndef CURED_WIDE_INT_CUH
#define CURED_WIDE_INT_CUH

#include <stdint.h>

#include "xacc.h"

#define FULL_WARP 0xffffffffu

// ----------------------------------------------------------------------------
// 128-bit integers in four 32-bit words

struct u128 {
    unsigned w0, w1, w2, w3;
};

/* a += b, modulo 2^128. */
__device__ inline void u128_add(u128 &a, const u128 &b)
{
    asm("add.cc.u32 %0, %0, %4;\n\t"
        "addc.cc.u32 %1, %1, %5;\n\t"
        "addc.cc.u32 %2, %2, %6;\n\t"
        "addc.u32 %3, %3, %7;"
        : "+r"(a.w0), "+r"(a.w1), "+r"(a.w2), "+r"(a.w3)
        : "r"(b.w0), "r"(b.w1), "r"(b.w2), "r"(b.w3));
}

/* a += v, v a signed 64-bit integer. */
__device__ inline void u128_add_s64(u128 &a, long long v)
{
    unsigned s = (unsigned)(v >> 63);
    u128 b = {(unsigned)v, (unsigned)((unsigned long long)v >> 32), s, s};
    u128_add(a, b);
}

__device__ inline bool u128_is_zero(const u128 &a)
{
    return (a.w0 | a.w1 | a.w2 | a.w3) == 0;
}

/* a += v * 2^S (v signed, 0 < S < 64), modulo 2^128. */
template <int S>
__device__ inline void u128_add_s64_shl(u128 &a, long long v)
{
    unsigned long long lo = (unsigned long long)v << S;
    long long hi = v >> (64 - S);
    u128 b = {(unsigned)lo, (unsigned)(lo >> 32), (unsigned)hi,
              (unsigned)((unsigned long long)hi >> 32)};
    u128_add(a, b);
}

// ----------------------------------------------------------------------------
// 160-bit integers: a warp's sum of 128-bit ones, and f64's accumulator

struct u160 {
    unsigned w0, w1, w2, w3, w4;
};

/* a, sign-extended. */
__device__ inline u160 u160_of(const u128 &a)
{
    return u160{a.w0, a.w1, a.w2, a.w3, (unsigned)((int)a.w3 >> 31)};
}

/* a += b, modulo 2^160. */
__device__ inline void u160_add(u160 &a, const u160 &b)
{
    asm("add.cc.u32 %0, %0, %5;\n\t"
        "addc.cc.u32 %1, %1, %6;\n\t"
        "addc.cc.u32 %2, %2, %7;\n\t"
        "addc.cc.u32 %3, %3, %8;\n\t"
        "addc.u32 %4, %4, %9;"
        : "+r"(a.w0), "+r"(a.w1), "+r"(a.w2), "+r"(a.w3), "+r"(a.w4)
        : "r"(b.w0), "r"(b.w1), "r"(b.w2), "r"(b.w3), "r"(b.w4));
}

__device__ inline bool u160_is_zero(const u160 &a)
{
    return (a.w0 | a.w1 | a.w2 | a.w3 | a.w4) == 0;
}

/* a += v * 2^S (v signed, 0 <= S < 96), modulo 2^160. */
template <int S>
__device__ inline void u160_add_s64_shl(u160 &a, long long v)
{
    unsigned s = (unsigned)(v >> 63);
    const unsigned x[5] = {(unsigned)v, (unsigned)((unsigned long long)v >> 32), s, s, s};
    unsigned w[5]; /* x shifted left by S */
#pragma unroll
    for (int i = 0; i < 5; i++) {
        int j = i - S / 32;
        unsigned hi = j >= 0 ? x[j] : 0u, lo = j >= 1 ? x[j - 1] : 0u;
        w[i] = S % 32 ? __funnelshift_l(lo, hi, S % 32) : hi;
    }
    u160_add(a, u160{w[0], w[1], w[2], w[3], w[4]});
}

/* Word j (0..4) of a, by selects (an indexed pick would put a in local
 * memory). */
__device__ inline unsigned u160_word(const u160 &a, unsigned j)
{
    return j == 0 ? a.w0 : j == 1 ? a.w1 : j == 2 ? a.w2 : j == 3 ? a.w3 : a.w4;
}

/* a's magnitude (a two's complement, |a| < 2^159) shifted left by
 * pos % 32, as six words v on the digit grid from digit pos >> 5 up.
 * Returns whether a is negative. */
__device__ inline bool u160_magnitude_words(const u160 &a, int pos, unsigned (&v)[6])
{
    unsigned m[5] = {a.w0, a.w1, a.w2, a.w3, a.w4};
    bool neg = (int)a.w4 < 0;
    if (neg) { /* magnitude = ~a + 1 */
        unsigned carry = 1;
#pragma unroll
        for (int i = 0; i < 5; i++) {
            unsigned x = ~m[i];
            m[i] = x + carry;
            carry = carry && m[i] == 0;
        }
    }
    unsigned r = (unsigned)pos & 31u;
#pragma unroll
    for (int j = 0; j < 6; j++)
        v[j] = j == 0 ? m[0] << r
               : j < 5 ? __funnelshift_l(m[j - 1], m[j], r)
                       : __funnelshift_l(m[4], 0u, r);
    return neg;
}

/* Piece `which` (0..5) of the two's complement a in units 2^pos: a's
 * magnitude shifted left by pos % 32, word `which`, with a's sign (as
 * xacc_pieces, one word more); *k gets the digit of piece 0, pos >> 5.
 * |a| < 2^159. */
__device__ inline int64_t u160_piece(const u160 &a, int pos, unsigned which, int *k)
{
    unsigned v[6];
    bool neg = u160_magnitude_words(a, pos, v);
    unsigned w = 0;
#pragma unroll
    for (int j = 0; j < 6; j++)
        if (which == (unsigned)j)
            w = v[j];
    *k = pos >> 5;
    return neg ? -(int64_t)w : (int64_t)w;
}

/* The short way of u160_round, for the common sum: a nonzero a that
 * fits in a signed 128-bit integer and whose rounded value is normal. The
 * magnitude's top 64 bits (leading bit at bit 63) with every bit below
 * them folded into bit 0 are rounded by the hardware's u64 conversion
 * (cvt.rn, to nearest, ties to even): bit 0 lies below the round bit of
 * a 24- or 53-bit result (bit 39 or 10), so folding keeps what rounding
 * reads (the kept bits, the round bit, whether anything below is set).
 * The result is that rounded value times 2^(64 - s + pos + emin) (s: the
 * magnitude's leading zeros in 128 bits), made by adding to its exponent
 * field: exact while the field stays in 1 .. max; above it the exact sum
 * rounds to infinity (so does this), below it the result is subnormal,
 * where rounding to fewer bits could differ, and it declines. Returns
 * whether it took the sum; *bits then holds what u160_round gives. */
__device__ inline bool u160_round_short(xacc_family f, const u160 &a, int pos, int to_f64,
                                        uint64_t *bits)
{
    long long hi = (long long)((unsigned long long)a.w3 << 32 | a.w2);
    unsigned long long lo = (unsigned long long)a.w1 << 32 | a.w0;
    if ((int)a.w4 != ((int)a.w3 >> 31) || (hi | (long long)lo) == 0)
        return false;
    bool neg = hi < 0;
    unsigned long long mh = (unsigned long long)hi, ml = lo;
    if (neg) { /* magnitude = -a, below 2^127 */
        ml = 0ull - lo;
        mh = ~mh + (lo == 0);
    }
    int s = mh ? __clzll((long long)mh) : 64 + __clzll((long long)ml);
    unsigned long long top, rest;
    if (s == 0) {
        top = mh;
        rest = ml;
    } else if (s < 64) {
        top = mh << s | ml >> (64 - s);
        rest = ml << s;
    } else {
        top = ml << (s - 64);
        rest = 0;
    }
    top |= rest != 0;
    int e2 = 64 - s + pos + xacc_family_of(f).emin; /* the value: top 2^e2 */
    if (to_f64) {
        long long b = __double_as_longlong(__ull2double_rn(top));
        int field = (int)(b >> 52) + e2;
        if (field < 1)
            return false;
        *bits = field > 2046 ? 0x7ff0000000000000ull : (uint64_t)(b + (long long)e2 * (1ll << 52));
        *bits |= neg ? 0x8000000000000000ull : 0ull;
    } else {
        int b = __float_as_int(__ull2float_rn(top));
        int field = (b >> 23) + e2;
        if (field < 1)
            return false;
        *bits = field > 254 ? 0x7f800000u : (unsigned)(b + e2 * (1 << 23));
        *bits |= neg ? 0x80000000u : 0u;
    }
    return true;
}

/* The two's complement a in units 2^pos (pos >= 0, |a| < 2^159), family
 * f, rounded once to f32 (to_f64 == 0: the bits in the low 32) or f64, as
 * warp_round rounds the same value held in digits: by u160_round_short
 * where it takes the sum, else from the six words of
 * u160_magnitude_words, of which xacc_round_top takes the top nonzero one,
 * the two below it and whether any bit under those is set. A zero gives
 * +0. */
__device__ inline uint64_t u160_round(xacc_family f, const u160 &a, int pos, int to_f64)
{
    uint64_t bits;
    if (u160_round_short(f, a, pos, to_f64, &bits))
        return bits;
    unsigned v[6];
    int neg = u160_magnitude_words(a, pos, v);
    /* words moved up until the top one is nonzero (selects, no indexed
     * access, which would put v in local memory); t its digit */
    int t = (pos >> 5) + 5;
#pragma unroll
    for (int k = 0; k < 5; k++) {
        bool up = v[5] == 0;
#pragma unroll
        for (int j = 5; j > 0; j--)
            v[j] = up ? v[j - 1] : v[j];
        v[0] = up ? 0u : v[0];
        t -= up;
    }
    if (v[5] == 0)
        return 0; /* +0 */
    return xacc_round_top(f, v[5], v[4], v[3], t, (v[2] | v[1] | v[0]) != 0, neg, to_f64);
}

/* The sum over the warp's 32 lanes of a two's complement integer of N
 * 32-bit words w[0..N-1] (the top word signed), as M >= N words r[0..M-1]
 * (sign-extended above the N, modulo 2^(32 M)), in every lane. No
 * shuffles: the words' 16-bit chunks (the top one signed) are summed by
 * redux.sync, one instruction each and independent of one another; a
 * chunk's sum over 32 lanes lies below 2^21 in magnitude, chunk pairs
 * make 64-bit values below 2^38, and one carry chain adds them at their
 * word offsets. */
template <int N, int M>
__device__ inline void warp_sum_words(const unsigned (&w)[N], unsigned (&r)[M])
{
    static_assert(M >= N, "the sum's words fewer than the lanes'");
    long long pair[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        unsigned lo = __reduce_add_sync(FULL_WARP, w[j] & 0xffffu);
        long long hi = j == N - 1 ? (long long)__reduce_add_sync(FULL_WARP, (int)w[j] >> 16)
                                  : (long long)__reduce_add_sync(FULL_WARP, w[j] >> 16);
        pair[j] = (long long)lo + hi * 65536;
    }
    long long c = 0;
#pragma unroll
    for (int j = 0; j < M; j++) {
        c += j < N ? pair[j] : 0;
        r[j] = (unsigned)c;
        c >>= 32; /* arithmetic: the carry, or the sign above the last pair */
    }
}

/* warp_sum_words of N <= 5 words as a u160 (N = 4: a u128, sign-extended
 * to 160 bits; N = 5: a u160, modulo 2^160). */
template <int N>
__device__ inline u160 warp_sum_words(const unsigned (&w)[N])
{
    unsigned r[5];
    warp_sum_words<N, 5>(w, r);
    return u160{r[0], r[1], r[2], r[3], r[4]};
}

/* The warp's sum of a u128 (signed), sign-extended to 160 bits. */
__device__ inline u160 warp_sum(const u128 &a)
{
    const unsigned w[4] = {a.w0, a.w1, a.w2, a.w3};
    return warp_sum_words<4>(w);
}

/* The warp's sum of a u160, modulo 2^160. */
__device__ inline u160 warp_sum(const u160 &a)
{
    const unsigned w[5] = {a.w0, a.w1, a.w2, a.w3, a.w4};
    return warp_sum_words<5>(w);
}

/* 2^e as a double, -1022 <= e <= 1023: the unit of a word or window of
 * the integers above, to scale by. */
__device__ inline double pow2(int e)
{
    return __longlong_as_double((long long)(1023 + e) << 52);
}

#endif /* CURED_WIDE_INT_CUH */
