/* round_warp.cuh - one warp finishes an exact sum: its carry-save digits,
 * spread over the lanes, carried, normalised and rounded in parallel.
 *
 * defines: warp_digit_count, digit_below, warp_carry_step, warp_carry_in,
 *          warp_normal, warp_normalize, warp_word, warp_round
 *
 * Digit D = lane + 32 i of a sum with NDIG digits lives in register i
 * (i < PER = ceil(NDIG / 32)) of lane D % 32; lanes past NDIG hold zero.
 * Carries move between digits by shuffles and between all digits at once
 * by ballots (a carry chain over 32 digits is one 32-bit addition of
 * masks), so a sum of any NDIG is normalised in a few dozen instructions
 * rather than one thread's O(NDIG) loop through shared memory. The
 * rounding itself is xacc_round_top, the function the CPU path rounds
 * with, fed the magnitude's top three words and its sticky bit: the GPU's
 * and the CPU's bits agree by construction. Why it is exact:
 * docs/exact.md, "Grid".
 */
#ifndef CURED_ROUND_WARP_CUH
#define CURED_ROUND_WARP_CUH

#include <stdint.h>

#include "xacc.h"

#ifndef FULL_WARP
#define FULL_WARP 0xffffffffu
#endif

/* Registers a lane holds for NDIG digits. */
template <int NDIG>
struct warp_digit_count {
    static const int PER = (NDIG + 31) / 32;
};

/* Digit D - 1 of x for this lane's digit D = lane + 32 i (0 for D = 0).
 * Every lane calls it. */
template <int PER>
__device__ inline int64_t digit_below(const int64_t (&x)[PER], int i)
{
    int64_t up = __shfl_up_sync(FULL_WARP, x[i], 1);
    /* lane 0's: lane 31's of the register below (none for register 0) */
    int64_t wrap = __shfl_sync(FULL_WARP, x[i > 0 ? i - 1 : 0], 31);
    if ((threadIdx.x & 31u) != 0)
        return up;
    return i > 0 ? wrap : 0;
}

/* One carry step: every digit but the top keeps its low 32 bits and takes
 * the carry (arithmetic shift) of the digit below; the top digit keeps all
 * of its own. The sum is unchanged. Afterwards a digit below the top lies
 * in [-2^31, 2^32 + 2^31) when every digit was below 2^63 in magnitude,
 * in [-1, 2^32] when every one was in [-2^31, 2^32 + 2^31). Every lane
 * calls it. */
template <int NDIG>
__device__ inline void warp_carry_step(int64_t (&d)[warp_digit_count<NDIG>::PER])
{
    const int PER = warp_digit_count<NDIG>::PER;
    int64_t carry[PER];
#pragma unroll
    for (int i = 0; i < PER; i++)
        carry[i] = d[i] >> 32;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)(threadIdx.x & 31u) + 32 * i;
        int64_t c = digit_below<PER>(carry, i);
        if (D < NDIG - 1)
            d[i] = (d[i] & 0xffffffffll) + c;
        else if (D == NDIG - 1)
            d[i] += c;
    }
}

/* The carries into every digit of one chain, a mask per register: digit D
 * generates a carry (gen) or passes one on (pass), never both; the carry
 * into D is set when some digit below generates and every digit between
 * passes. As in one binary addition: (g + (g | p)) ^ p, over PER words. */
template <int PER>
__device__ inline void warp_carry_in(const unsigned (&g)[PER], const unsigned (&p)[PER],
                                     unsigned (&c)[PER])
{
    unsigned long long carry = 0;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        unsigned long long s = (unsigned long long)g[i] + (g[i] | p[i]) + carry;
        c[i] = (unsigned)s ^ p[i];
        carry = s >> 32;
    }
}

/* A sum normalised: words w (digits below the top, each in [0, 2^32)) and
 * the top digit's value, which holds the sign: 0 or -1. */
template <int NDIG>
struct warp_normal {
    unsigned w[warp_digit_count<NDIG>::PER];
    int64_t top; /* in every lane */
};

/* Normalises the digits d (|d| < 2^63, a sum below 2^(32 (NDIG - 1) - 1)
 * in magnitude, as NDIG guarantees: xacc.h). Two carry steps leave each
 * digit below the top in [-1, 2^32]: a word a = d mod 2^32 and a carry
 * c = d >> 32 in {-1, 0, 1} into the next digit. The +1 carries are added
 * as one chain (a digit then generates when it reaches 2^32, passes at
 * 2^32 - 1), the -1 carries subtracted as another (generates at -1,
 * passes at 0); what leaves the digit below the top goes into the top.
 * Every lane calls it. */
template <int NDIG>
__device__ inline warp_normal<NDIG> warp_normalize(int64_t (&d)[warp_digit_count<NDIG>::PER])
{
    const int PER = warp_digit_count<NDIG>::PER;
    const int TOP = NDIG - 1;
    unsigned lane = threadIdx.x & 31u;
    warp_carry_step<NDIG>(d);
    warp_carry_step<NDIG>(d);
    int64_t cin[PER]; /* the carry from the digit below: -1, 0 or 1 */
    {
        int64_t c[PER];
#pragma unroll
        for (int i = 0; i < PER; i++)
            c[i] = (int)lane + 32 * i < TOP ? d[i] >> 32 : 0;
#pragma unroll
        for (int i = 0; i < PER; i++)
            cin[i] = digit_below<PER>(c, i);
    }
    int64_t top = 0;
    int64_t v[PER];
    unsigned g[PER], p[PER], carry[PER];
    /* the +1 chain */
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        v[i] = D < TOP ? (d[i] & 0xffffffffll) + (cin[i] > 0) : 0;
        if (D == TOP)
            top = d[i] + cin[i];
        g[i] = __ballot_sync(FULL_WARP, v[i] == 0x100000000ll);
        p[i] = __ballot_sync(FULL_WARP, v[i] == 0xffffffffll);
    }
    warp_carry_in<PER>(g, p, carry);
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        v[i] = D < TOP ? ((v[i] + (carry[i] >> lane & 1u)) & 0xffffffffll) - (cin[i] < 0) : 0;
        if (D == TOP)
            top += carry[i] >> lane & 1u;
        g[i] = __ballot_sync(FULL_WARP, v[i] == -1);
        p[i] = __ballot_sync(FULL_WARP, D < TOP && v[i] == 0);
    }
    /* the -1 chain: borrows */
    warp_carry_in<PER>(g, p, carry);
    warp_normal<NDIG> r;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        r.w[i] = D < TOP ? (unsigned)(v[i] - (carry[i] >> lane & 1u)) : 0u;
        if (D == TOP)
            top -= carry[i] >> lane & 1u;
    }
    r.top = __shfl_sync(FULL_WARP, top, TOP & 31);
    return r;
}

/* Word k of x (warp-uniform k; 0 outside [0, 32 PER)), in every lane.
 * The register is picked with masks, not x[k >> 5] or a chain of ifs
 * (which ptxas turned back into an indexed load, x in local memory). */
template <int PER>
__device__ inline unsigned warp_word(const unsigned (&x)[PER], int k)
{
    unsigned v = x[0];
#pragma unroll
    for (int i = 1; i < PER; i++)
        v ^= (x[i] ^ v) & (0u - (unsigned)(k >> 5 == i));
    v = __shfl_sync(FULL_WARP, v, k & 31);
    return k >= 0 && k < 32 * PER ? v : 0u;
}

/* The sum of the digits d (as warp_normalize takes them), family f,
 * rounded once to f32 (to_f64 == 0: the bits in the low 32) or f64; a
 * zero sum gives +0. In every lane; d is left normalised in n. A negative
 * sum is negated word-wise: words below the lowest nonzero one stay zero,
 * that one becomes 2^32 - w, those above ~w. Every lane calls it. */
template <int NDIG>
__device__ inline uint64_t warp_round(xacc_family f, warp_normal<NDIG> &n, int to_f64)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    unsigned m[PER], w[PER];
    int neg = n.top < 0;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        w[i] = n.w[i];
        m[i] = __ballot_sync(FULL_WARP, w[i] != 0);
    }
    if (neg) {
        int low = -1; /* the lowest nonzero word */
#pragma unroll
        for (int i = PER - 1; i >= 0; i--)
            if (m[i])
                low = 32 * i + __ffs((int)m[i]) - 1;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            w[i] = D < low ? 0u : D == low ? 0u - w[i] : ~w[i];
            if (D >= NDIG - 1)
                w[i] = 0;
            m[i] = __ballot_sync(FULL_WARP, w[i] != 0);
        }
    }
    int t = -1; /* the top nonzero word */
#pragma unroll
    for (int i = 0; i < PER; i++)
        if (m[i])
            t = 32 * i + 31 - __clz((int)m[i]);
    if (t < 0)
        return 0; /* +0 */
    int sticky = 0;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int below = t - 2 - 32 * i; /* words of register i under t - 2 */
        unsigned under = below <= 0 ? 0u : below >= 32 ? ~0u : (1u << below) - 1;
        sticky |= (m[i] & under) != 0;
    }
    return xacc_round_top(f, warp_word<PER>(w, t), warp_word<PER>(w, t - 1),
                          warp_word<PER>(w, t - 2), t, sticky, neg, to_f64);
}

#endif /* CURED_ROUND_WARP_CUH */
