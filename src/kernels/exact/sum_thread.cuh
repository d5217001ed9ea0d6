/* sum_thread.cuh - the thread layer of cured_reduce's exact float sums: what
 * one thread does with each element it loads.
 *
 * defines: sacc_add_pieces, sacc_add_elem, u128, u160 (and their adds,
 *          words, pieces, rounding and warp sums: u160_word,
 *          u160_magnitude_words, u160_piece, u160_round, warp_sum_words,
 *          warp_sum), narrow_acc (f32, bf16), half_acc (f16), wide_acc
 *          (f64), plain_acc (the not-exact variant)
 *
 * Every accumulator keeps, per thread, an exact integer sum in registers
 * (two's complement, in units 2^(base() + EMIN), base() its window's) and
 * sends what does not fit its fast path to the block's superaccumulator
 * `sacc` in shared memory (xacc.h's digits, 64-bit shared atomics), which
 * is rare for real data. A trip is tested whole (the max and min of its
 * elements' keys against the window, one warp vote). f32 and bf16 keep two
 * adjacent windows of f64 accumulators, f16 needs none, f64 one 64-binade
 * window split over three f64 accumulators (slices); docs/exact.md ("The
 * GPU kernel") argues each accumulator's exactness; plain_acc adds in the
 * output type, as a non-exact kernel would.
 */
#ifndef CURED_SUM_THREAD_CUH
#define CURED_SUM_THREAD_CUH

#include <stdint.h>
#include <string.h>

#include "reduce_load.cuh"
#include "xacc.h"

#define FULL_WARP 0xffffffffu

// ----------------------------------------------------------------------------
// The block's superaccumulator in shared memory

/* Adds the pieces of (neg ? -1 : 1) * mag * 2^pos (xacc_pieces) to the
 * shared digits with 64-bit atomics; zero pieces are skipped. */
__device__ inline void sacc_add_pieces(int64_t *sacc, uint64_t mag_hi,
                                       uint64_t mag_lo, int neg, int pos)
{
    if ((mag_hi | mag_lo) == 0)
        return;
    int64_t piece[5];
    int k = xacc_pieces(mag_hi, mag_lo, neg, pos, piece);
#pragma unroll
    for (int j = 0; j < 5; j++)
        if (piece[j] != 0)
            atomicAdd((unsigned long long *)&sacc[k + j],
                      (unsigned long long)piece[j]);
}

/* Adds one element (its bits in family f) to sacc, or its special bits to
 * *special. */
__device__ inline void sacc_add_elem(int64_t *sacc, xacc_family f,
                                     uint64_t bits, unsigned *special)
{
    xacc_elem x = xacc_decode(f, bits);
    if (x.special) {
        *special |= x.special;
        return;
    }
    if (x.mant == 0)
        return;
    /* mant < 2^53 shifted by pos % 32 < 2^85: three 32-bit pieces */
    int r = x.pos & 31, k = x.pos >> 5;
    uint64_t low = x.mant << r;
    uint64_t top = r ? x.mant >> (64 - r) : 0;
    uint64_t w[3] = {low & 0xffffffffu, low >> 32, top};
#pragma unroll
    for (int j = 0; j < 3; j++)
        if (w[j] != 0)
            atomicAdd((unsigned long long *)&sacc[k + j],
                      x.neg ? (unsigned long long)-(long long)w[j]
                            : (unsigned long long)w[j]);
}

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

/* The two's complement a in units 2^pos (pos >= 0, |a| < 2^159), family
 * f, rounded once to f32 (to_f64 == 0: the bits in the low 32) or f64, as
 * warp_round rounds the same value held in digits: the six words of
 * u160_magnitude_words, of which xacc_round_top takes the top nonzero one,
 * the two below it and whether any bit under those is set. A zero gives
 * +0. */
__device__ inline uint64_t u160_round(xacc_family f, const u160 &a, int pos, int to_f64)
{
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

/* Sends a (two's complement, units 2^pos) to sacc: six pieces. */
__device__ inline void sacc_add_u160(int64_t *sacc, const u160 &a, int pos)
{
    if (u160_is_zero(a))
        return;
#pragma unroll
    for (unsigned j = 0; j < 6; j++) {
        int k;
        int64_t p = u160_piece(a, pos, j, &k);
        if (p != 0)
            atomicAdd((unsigned long long *)&sacc[k + (int)j], (unsigned long long)p);
    }
}

/* The sum over the warp's 32 lanes of a two's complement integer of N
 * 32-bit words w[0..N-1] (N = 4: a u128, sign-extended to 160 bits; N = 5:
 * a u160, modulo 2^160), in every lane. No shuffles: the words' 16-bit
 * chunks (the top one signed) are summed by redux.sync, one instruction
 * each and independent of one another; a chunk's sum over 32 lanes lies
 * below 2^21 in magnitude, chunk pairs make 64-bit values below 2^38,
 * and one carry chain adds them at their word offsets. */
template <int N>
__device__ inline u160 warp_sum_words(const unsigned (&w)[N])
{
    long long pair[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        unsigned lo = __reduce_add_sync(FULL_WARP, w[j] & 0xffffu);
        long long hi = j == N - 1 ? (long long)__reduce_add_sync(FULL_WARP, (int)w[j] >> 16)
                                  : (long long)__reduce_add_sync(FULL_WARP, w[j] >> 16);
        pair[j] = (long long)lo + hi * 65536;
    }
    unsigned r[5];
    long long c = 0;
#pragma unroll
    for (int j = 0; j < 5; j++) {
        c += j < N ? pair[j] : 0;
        r[j] = (unsigned)c;
        c >>= 32; /* arithmetic: the carry, or the sign above the last pair */
    }
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

// ----------------------------------------------------------------------------
// f32 and bf16: two adjacent f64 windows

/* The f32 bits of element c of a 16-byte vector: 4 f32, or 8 bf16 each
 * widened to f32 (bf16 is f32's top half). */
template <bool BF16>
__device__ inline unsigned narrow_bits(const uint4 &v, int c)
{
    unsigned w = c / (BF16 ? 2 : 1) == 0   ? v.x
                 : c / (BF16 ? 2 : 1) == 1 ? v.y
                 : c / (BF16 ? 2 : 1) == 2 ? v.z
                                           : v.w;
    if (!BF16)
        return w;
    return (c & 1) ? (w & 0xffff0000u) : (w << 16);
}

/* Word c (0..3) of a vector. */
__device__ inline unsigned vec_word(const uint4 &v, int c)
{
    return c == 0 ? v.x : c == 1 ? v.y : c == 2 ? v.z : v.w;
}

/* Packed 16-bit lanes: unsigned max, signed min (one instruction each;
 * ptxas fuses two into a three-input VIMNMX3). With CURED_REDUCE_SIMD16_C
 * defined they are plain C, for the model (tests/kernels/exact), which
 * has no .u16x2/.s16x2 integer types. */
__device__ inline unsigned vmax_u16x2(unsigned a, unsigned b)
{
#ifdef CURED_REDUCE_SIMD16_C
    return max(a & 0xffffu, b & 0xffffu) | max(a >> 16, b >> 16) << 16;
#else
    unsigned d;
    asm("max.u16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#endif
}

__device__ inline unsigned vmin_s16x2(unsigned a, unsigned b)
{
#ifdef CURED_REDUCE_SIMD16_C
    int lo = min((int)(short)(a & 0xffffu), (int)(short)(b & 0xffffu));
    int hi = min((int)(short)(a >> 16), (int)(short)(b >> 16));
    return ((unsigned)lo & 0xffffu) | (unsigned)hi << 16;
#else
    unsigned d;
    asm("min.s16x2 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));
    return d;
#endif
}

/* The two bf16 of a word as f64 (exact: F2F.F64.BF16 reads either half). */
__device__ inline void bf16x2_to_f64(unsigned w, double &lo, double &hi)
{
    asm("{.reg .b16 l, h; mov.b32 {l, h}, %2; cvt.f64.bf16 %0, l; cvt.f64.bf16 %1, h;}"
        : "=d"(lo), "=d"(hi)
        : "r"(w));
}

/* d (finite) added to a when x >= lim, else to b, with no branch: d times
 * 1 into one and times 0 into the other, by two fused multiply-adds. Each
 * is exact where the plain addition is: fma(d, 1, a) rounds d + a once,
 * fma(d, 0, b) is b. (ptxas turns predicated adds into four selects.) */
__device__ inline void add_either(double &a, double &b, double d, unsigned x,
                                  unsigned lim)
{
    unsigned one = x >= lim ? 0x3ff00000u : 0u; /* high word of 1.0 or 0.0 */
    a = fma(d, __hiloint2double((int)one, 0), a);
    b = fma(d, __hiloint2double((int)(one ^ 0x3ff00000u), 0), b);
}

/* 2^e as a double, -1022 <= e <= 1023. */
__device__ inline double pow2(int e)
{
    return __longlong_as_double((long long)(1023 + e) << 52);
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

/* f32, and bf16 read as f32's top half. An element's *key* is |bits| plus
 * a bias, per 32-bit word (f32) or per 16-bit half (bf16, both halves of
 * a word at once):
 *     key = (bits & 0x7fff..) + 0x7fff..
 * so that zero's key (the bias) is the smallest unsigned key and the
 * largest signed one: the unsigned max of keys is the largest |x|, the
 * signed min is the smallest nonzero |x|, zeros count for neither, and a
 * window test of a whole trip is a max, a min and two compares.
 *
 * Windows (biased exponents): A = [wa, wa + BINADES), B = [wa - BINADES,
 * wa), B's bottom clamped at 1 (then A = [1 + BINADES, 1 + 2 BINADES) and B
 * also takes subnormals, whose unit is binade 1's). An element of A is a
 * multiple of A's unit 2^uA (uA = wa - 150, bf16: wa - 134) below
 * 2^(uA + BINADES + p - 1) (p = 24, bf16 8); FLUSH adds of such elements
 * stay below 2^(uA + 53) when BINADES + p - 1 + log2(FLUSH) <= 53: f32
 * 24 + 23 + 6, bf16 40 + 7 + 6. So every f64 addition into a[j] (b[j]
 * alike) is exact, and a[j] / 2^uA is an integer below 2^53.
 *
 * A trip is
 * - all in A (the common case: A's top binade is the largest element's):
 *   one conversion and one DADD per element;
 * - all in A and B: a compare and two predicated DADDs per element;
 * - else the slow path: an element above A raises the windows (warp-
 *   uniform, after sending what is held to sacc), and what then lies
 *   below B, a special, goes element by element to sacc / the flags.
 * Every FLUSH_TRIPS trips, a[j] and b[j] go into the 128-bit integer acc
 * in units of B's: b[j] / 2^uB + (a[j] / 2^uA) * 2^BINADES. */
template <bool BF16>
struct narrow_acc {
    static const int W = BF16 ? 8 : 4;           /* elements per vector */
    static const int BINADES = BF16 ? 40 : 24;   /* per window */
    static const int FLUSH_TRIPS = 64 / W;       /* 64 adds per accumulator */
    static const int SHIFT = BF16 ? 16 : 0;      /* unit of a bf16 above f32's */
    static const int EPOS = BF16 ? 7 : 23;       /* exponent field in a key lane */
    static const unsigned ABS = BF16 ? 0x7fff7fffu : 0x7fffffffu;
    static const unsigned BIAS = BF16 ? 0x7fff7fffu : 0x7fffffffu;
    static const unsigned LANE_BIAS = BF16 ? 0x7fffu : 0x7fffffffu;
    static const unsigned KEY_INF = (BF16 ? 0x7f80u : 0x7f800000u) + LANE_BIAS;

    double a[RL_VECS];  /* window A */
    double b[RL_VECS];  /* window B */
    u128 acc;           /* units 2^(q + EMIN), q = base() */
    unsigned topA;      /* keys (bf16: in both halves): the largest in A, */
    unsigned botA;      /* the smallest nonzero in A, */
    unsigned botB;      /* the smallest nonzero in B */
    int wa;             /* A's lowest binade; 0 while no window is set */
    int trips;
    unsigned special;
    int64_t *sacc;

    /* The key of lane value x (|bits| of one element), replicated to both
     * halves for bf16. */
    __device__ static unsigned key_of(unsigned x)
    {
        unsigned k = x + LANE_BIAS;
        return BF16 ? (k | k << 16) : k;
    }

    /* Every key lane of mx at most top's (unsigned), of mn at least bot's
     * (signed). */
    __device__ static bool all_le(unsigned mx, unsigned top)
    {
        return BF16 ? vmax_u16x2(mx, top) == top : mx <= top;
    }
    __device__ static bool all_ge(unsigned mn, unsigned bot)
    {
        return BF16 ? vmin_s16x2(mn, bot) == bot : (int)mn >= (int)bot;
    }

    __device__ static unsigned kmax(unsigned x, unsigned y)
    {
        return BF16 ? vmax_u16x2(x, y) : max(x, y);
    }
    __device__ static unsigned kmin(unsigned x, unsigned y)
    {
        return BF16 ? vmin_s16x2(x, y) : (unsigned)min((int)x, (int)y);
    }

    __device__ void init(int64_t *s)
    {
        for (int j = 0; j < RL_VECS; j++)
            a[j] = b[j] = 0.0;
        acc = u128{0, 0, 0, 0};
        topA = 0;        /* below every key: the first trip sets the windows */
        botA = BIAS;     /* the largest signed key lanes: min starts there */
        botB = BIAS;
        wa = 0;
        trips = 0;
        special = 0;
        sacc = s;
    }

    /* acc's base in units of 2^EMIN (B's unit), -1 with no window yet. */
    __device__ int base() const { return wa ? wa - BINADES - 1 + SHIFT : -1; }

    /* a[j], b[j] into acc (exact: see above; each is an integer below
     * 2^53 in its window's unit, so the four of a window add in 64 bits). */
    __device__ void flush()
    {
        int ua = wa - 150 + SHIFT, ub = ua - BINADES;
        double sa = pow2(-ua), sb = pow2(-ub);
        long long ia = 0, ib = 0;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            ia += __double2ll_rz(a[j] * sa);
            ib += __double2ll_rz(b[j] * sb);
            a[j] = b[j] = 0.0;
        }
        u128_add_s64_shl<BINADES>(acc, ia);
        u128_add_s64(acc, ib);
        trips = 0;
    }

    /* Moves the windows (warp-uniform) so that A's top binade is et, after
     * sending everything held at the old base to sacc. */
    __device__ void rebase(int et)
    {
        if (wa) { /* else nothing is held yet: the first trip sets the windows */
            flush();
            sacc_add_u160(sacc, u160_of(acc), base());
            acc = u128{0, 0, 0, 0};
        }
        int na = et - BINADES + 1;
        if (na - BINADES < 1)
            na = 1 + BINADES;
        /* et <= 254: A's top stays below the specials */
        wa = na;
        int wb = na - BINADES;
        topA = key_of(((unsigned)(na + BINADES) << EPOS) - 1);
        botA = key_of((unsigned)na << EPOS);
        botB = key_of(wb == 1 ? 1u : (unsigned)wb << EPOS);
    }

    /* The keys of a trip folded into mx (max) and mn (min). */
    __device__ static void keys(const rl_trip &t, unsigned &mx, unsigned &mn)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++)
#pragma unroll
            for (int c = 0; c < 4; c++) {
                unsigned k = (vec_word(t.v[j], c) & ABS) + BIAS;
                mx = kmax(mx, k);
                mn = kmin(mn, k);
            }
    }

    /* Every element into A. */
    __device__ void add_a(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++)
#pragma unroll
            for (int c = 0; c < 4; c++) {
                unsigned w = vec_word(t.v[j], c);
                if (BF16) {
                    double lo, hi;
                    bf16x2_to_f64(w, lo, hi);
                    a[j] += lo;
                    a[j] += hi;
                } else {
                    a[j] += (double)__uint_as_float(w);
                }
            }
    }

    /* Every element into A or B by its exponent. The test shifts the sign
     * out (rather than masking it, as keys() does), so that the compiler
     * does not keep keys()'s masked words alive for it. */
    __device__ void add_split(const rl_trip &t)
    {
        unsigned lim = (unsigned)wa << 24; /* A's smallest |f32 bits|, doubled */
#pragma unroll
        for (int j = 0; j < RL_VECS; j++)
#pragma unroll
            for (int c = 0; c < 4; c++) {
                unsigned w = vec_word(t.v[j], c);
                if (BF16) {
                    double lo, hi;
                    bf16x2_to_f64(w, lo, hi);
                    add_either(a[j], b[j], lo, w << 17, lim);
                    add_either(a[j], b[j], hi, (w >> 16) << 17, lim);
                } else {
                    add_either(a[j], b[j], (double)__uint_as_float(w), w << 1, lim);
                }
            }
    }

    /* The largest key of a lane of this thread's elements that is not a
     * special (0 if none): reloads, for the slow path. */
    __device__ static unsigned finite_max(const rl_trip &t)
    {
        unsigned m = 0;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
#pragma unroll
            for (int c = 0; c < W; c++) {
                unsigned x = narrow_bits<BF16>(v, c) & 0x7fffffffu;
                unsigned k = (x >> (23 - EPOS)) + LANE_BIAS;
                if (x < 0x7f800000u)
                    m = max(m, k);
            }
        }
        return m;
    }

    /* One element (f32 bits u) where it belongs: A, B, sacc or the flags. */
    __device__ void add_one(double &aj, double &bj, unsigned u)
    {
        unsigned x = u & 0x7fffffffu;
        int e = max((int)(x >> 23), 1); /* subnormals: binade 1's unit */
        double d = (double)__uint_as_float(u);
        if (x == 0 || (e >= wa && e < wa + BINADES))
            aj += d;
        else if (x < 0x7f800000u && e >= wa - BINADES && e < wa &&
                 (x >= 0x00800000u || wa - BINADES == 1))
            bj += d;
        else
            sacc_add_elem(sacc, XACC_F32, u, &special);
    }

    /* The slow trip (warp-uniform): raise the windows if a finite element
     * is above A, then add the trip by the fastest rule that fits. */
    __device__ void slow_trip(const rl_trip &t, unsigned mx, unsigned mn)
    {
        unsigned hm = BF16 ? max(mx & 0xffffu, mx >> 16) : mx;
        if (__any_sync(FULL_WARP, hm >= KEY_INF))
            hm = finite_max(t);
        unsigned M = __reduce_max_sync(FULL_WARP, hm);
        unsigned top = BF16 ? topA & 0xffffu : topA;
        if (M > top) {
            int et = (int)((M - LANE_BIAS) >> EPOS);
            rebase(et < 1 ? 1 : et);
        }
        bool fits = all_le(mx, topA);
        if (__all_sync(FULL_WARP, fits && all_ge(mn, botA))) {
            add_a(t);
        } else if (__all_sync(FULL_WARP, fits && all_ge(mn, botB))) {
            add_split(t);
        } else {
#pragma unroll
            for (int j = 0; j < RL_VECS; j++) {
                uint4 v = t.reload(j);
#pragma unroll 1
                for (int c = 0; c < W; c++)
                    add_one(a[j], b[j], narrow_bits<BF16>(v, c));
            }
        }
    }

    __device__ void trip(const rl_trip &t)
    {
        /* invalid vectors are zeros already (rl_visit_array) */
        unsigned mx = topA, mn = botA;
        keys(t, mx, mn);
        if (__all_sync(FULL_WARP, all_le(mx, topA) && all_ge(mn, botA)))
            add_a(t);
        else if (__all_sync(FULL_WARP, all_le(mx, topA) && all_ge(mn, botB)))
            add_split(t);
        else
            slow_trip(t, mx, mn);
        if (++trips == FLUSH_TRIPS)
            flush();
    }

    __device__ void scalars(uint64_t a_, bool va, unsigned long long, uint64_t b_,
                            bool vb, unsigned long long)
    {
        unsigned ua = BF16 ? (unsigned)a_ << 16 : (unsigned)a_;
        unsigned ub = BF16 ? (unsigned)b_ << 16 : (unsigned)b_;
        if (va)
            sacc_add_elem(sacc, XACC_F32, ua, &special);
        if (vb)
            sacc_add_elem(sacc, XACC_F32, ub, &special);
    }

    /* Ends the thread's work: everything into acc, at base(). */
    __device__ void finish()
    {
        if (wa)
            flush();
    }

    /* The warp's sum, in units 2^(base() + EMIN), in every lane: each
     * thread's is below 2^112, the warp's below 2^117, so 128 bits hold it
     * (then sign-extended). */
    __device__ u160 warp_total() const { return warp_sum(acc); }
};

// ----------------------------------------------------------------------------
// f16: f64 accumulators, no window

struct half_acc {
    static const int W = 8;
    /* 8 additions per accumulator per trip; 2^13 are exact */
    static const int FLUSH_TRIPS = 512;

    double f[RL_VECS];
    u128 acc; /* units 2^-24: q = 0 */
    int q;
    int trips;
    unsigned special;
    int64_t *sacc;

    __device__ void init(int64_t *s)
    {
        for (int j = 0; j < RL_VECS; j++)
            f[j] = 0.0;
        acc = u128{0, 0, 0, 0};
        q = 0;
        trips = 0;
        special = 0;
        sacc = s;
    }

    __device__ static double to_double(unsigned short h)
    {
        double d;
        asm("cvt.f64.f16 %0, %1;" : "=d"(d) : "h"(h));
        return d;
    }

    __device__ void flush()
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            double v = f[j];
            if (isfinite(v)) {
                if (v != 0.0)
                    u128_add_s64(acc, __double2ll_rz(v * 16777216.0)); /* 2^24 */
            } else {
                /* a finite f16 sum cannot overflow here, so this is an
                 * input infinity or NaN, kept by IEEE arithmetic */
                special |= isnan(v) ? XACC_NAN : v > 0 ? XACC_PINF : XACC_NINF;
            }
            f[j] = 0.0;
        }
        trips = 0;
    }

    __device__ void trip(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            const unsigned w[4] = {t.v[j].x, t.v[j].y, t.v[j].z, t.v[j].w};
#pragma unroll
            for (int c = 0; c < 4; c++) {
                f[j] += to_double((unsigned short)(w[c] & 0xffffu));
                f[j] += to_double((unsigned short)(w[c] >> 16));
            }
        }
        if (++trips == FLUSH_TRIPS)
            flush();
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        if (va)
            sacc_add_elem(sacc, XACC_F16, a, &special);
        if (vb)
            sacc_add_elem(sacc, XACC_F16, b, &special);
    }

    __device__ void finish() { flush(); }

    __device__ int base() const { return q; }

    /* The warp's sum in every lane: a thread adds at most 2^25 elements
     * below 2^16 (in units 2^-24: 2^41), so the warp's is below 2^71 and
     * 128 bits hold it (then sign-extended). */
    __device__ u160 warp_total() const { return warp_sum(acc); }
};

// ----------------------------------------------------------------------------
// f64: three f64 slices in one window

/* f64: a window of 64 binades [wlo, wlo + 64) (biased exponents, 1 <= wlo
 * <= WLO_MAX), its top the largest element's binade. With u = 2^(wlo -
 * 1075), the unit of binade wlo, an element x of the window is a multiple
 * of u with |x| < 2^116 u. It is added into three f64 accumulators, the
 * slices a0, a1, a2, with ulps U0 = 2^78 u, U1 = 2^39 u, U2 = u: slice k
 * starts (and restarts after every flush) at its bias M_k = 1.5 2^52 U_k,
 * in the binade whose doubles are the multiples of U_k. Per element
 *     t = a0 + x;  x = x - (t - a0);  a0 = t;   now |x| <= U0 / 2
 *     t = a1 + x;  x = x - (t - a1);  a1 = t;   now |x| <= U1 / 2
 *     a2 = a2 + x;
 * Each operation is exact while a_k + x stays in [2^52 U_k, 2^53 U_k]: t
 * is the multiple of U_k nearest a_k + x, t - a_k a small multiple of
 * U_k, x - (t - a_k) the rounding error of t (a double, Fast2Sum), and a2
 * + x a multiple of u below 2^53 u. Slice k's input is at most 2^38 U_k
 * (the element below 2^38 U0, the errors at most U0 / 2 = 2^38 U1 and U1 /
 * 2 = 2^38 U2), so 2^13 additions keep it within 2^51 U_k of its bias:
 * FLUSH_TRIPS. The flush reads (a_k - M_k) / U_k as the difference of the
 * two doubles' bits (up to and including 2^53 U_k they step by one per
 * U_k) and adds s0 2^78 + s1 2^39 + s2 to a 160-bit two's complement acc,
 * units u: a thread adds at most 2^25 elements, so |acc| < 2^141. Slice
 * 0's binade stays finite while wlo <= WLO_MAX; an element above the
 * highest window or below the window goes to sacc. The lowest window (wlo
 * = 1, u = 2^-1074) takes the subnormals too: multiples of u below 2^52 u.
 * docs/exact.md ("Thread, f64") argues each step; the additions have no
 * products, so nothing can be contracted into an FMA.
 *
 * Keys as narrow_acc's, from the high word with bit 0 set when the low
 * word is not zero (a subnormal whose high word is zero is then not taken
 * for a zero; a normal number's exponent is unchanged):
 *     key = ((hi & 0x7fffffff) | min(lo, 1)) + 0x7fffffff. */
struct wide_acc {
    static const int W = 2;
    static const int BINADES = 64;
    static const int WLO_MAX = 1967; /* 2^53 U0 = 2^(wlo - 944) <= 2^1023 */
    static const int FLUSH_TRIPS = (1 << 13) / (RL_VECS * W); /* 2^13 adds a slice */
    static const unsigned BIAS = 0x7fffffffu;
    static const unsigned KEY_INF = 0x7ff00000u + BIAS;

    double slice[3];   /* a0, a1, a2; zeros while no window is set */
    u160 acc;          /* units u = 2^(base() + EMIN) */
    unsigned top, bot; /* keys: the largest and the smallest in the window */
    int wlo;           /* 0 while no window is set */
    int trips;         /* since the last flush */
    unsigned special;
    int64_t *sacc;

    __device__ void init(int64_t *s)
    {
        for (int k = 0; k < 3; k++)
            slice[k] = 0.0; /* only zeros are added before a window: they stay 0 */
        acc = u160{0, 0, 0, 0, 0};
        top = 0;    /* below every key: the first trip sets the window */
        bot = BIAS; /* the largest signed key */
        wlo = 0;
        trips = 0;
        special = 0;
        sacc = s;
    }

    __device__ int base() const { return wlo - 1; }

    /* The key of the element of words lo, hi (above). min(lo, 1) is PTX's
     * min.u32, one VIMNMX: written in C it becomes a compare and a select. */
    __device__ static unsigned key(unsigned lo, unsigned hi)
    {
        unsigned nz;
        asm("min.u32 %0, %1, 1;" : "=r"(nz) : "r"(lo));
        return ((hi & 0x7fffffffu) | nz) + BIAS;
    }

    /* The bits of slice k's bias M_k = 1.5 2^52 U_k = 1.5 2^(wlo - 1023 +
     * 39 (2 - k)): biased exponent wlo + 39 (2 - k), the top fraction bit. */
    __device__ long long bias_bits(int k) const
    {
        return (long long)(wlo + 39 * (2 - k)) << 52 | 1ll << 51;
    }

    /* Every slice to its bias (wlo set). */
    __device__ void reset_slices()
    {
#pragma unroll
        for (int k = 0; k < 3; k++)
            slice[k] = __longlong_as_double(bias_bits(k));
    }

    /* Adds the element of words lo, hi (in the window, or a zero): exact. */
    __device__ void add(unsigned lo, unsigned hi)
    {
        double x = __hiloint2double((int)hi, (int)lo);
#pragma unroll
        for (int k = 0; k < 2; k++) {
            double t = slice[k] + x;
            x = x - (t - slice[k]); /* t's rounding error, for the next slice */
            slice[k] = t;
        }
        slice[2] = slice[2] + x;
    }

    /* The slices into acc, and back to their biases. */
    __device__ void flush()
    {
        trips = 0;
        if (!wlo)
            return; /* no window: the slices hold zeros */
        long long s[3]; /* (a_k - M_k) / U_k, |s[k]| <= 2^51 */
#pragma unroll
        for (int k = 0; k < 3; k++)
            s[k] = __double_as_longlong(slice[k]) - bias_bits(k);
        u160_add_s64_shl<78>(acc, s[0]);
        u160_add_s64_shl<39>(acc, s[1]);
        u160_add_s64_shl<0>(acc, s[2]);
        reset_slices();
    }

    /* Sends everything held to sacc and clears it. */
    __device__ void spill()
    {
        if (!wlo)
            return; /* nothing held yet: the first trip sets the window */
        flush();
        sacc_add_u160(sacc, acc, base());
        acc = u160{0, 0, 0, 0, 0};
    }

    /* The bottom of the window whose top binade is et (a finite element's),
     * clamped to [1, WLO_MAX]. */
    __device__ static int window_for(int et)
    {
        return min(max(et - (BINADES - 1), 1), WLO_MAX);
    }

    /* Moves the warp's window to [w, w + BINADES), after spilling. */
    __device__ void rebase(int w)
    {
        spill();
        wlo = w;
        top = ((unsigned)(w + BINADES) << 20) - 1 + BIAS;
        /* the lowest window takes the subnormals: bot is 2^-1074's key */
        bot = w == 1 ? 1 + BIAS : ((unsigned)w << 20) + BIAS;
        reset_slices();
    }

    __device__ static void keys(const rl_trip &t, unsigned &mx, unsigned &mn)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            unsigned k0 = key(t.v[j].x, t.v[j].y), k1 = key(t.v[j].z, t.v[j].w);
            mx = max(mx, max(k0, k1));
            mn = (unsigned)min((int)mn, min((int)k0, (int)k1));
        }
    }

    __device__ void add_all(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            add(t.v[j].x, t.v[j].y);
            add(t.v[j].z, t.v[j].w);
        }
    }

    /* The largest key of this thread's finite elements (0 if none). */
    __device__ static unsigned finite_max(const rl_trip &t)
    {
        unsigned m = 0;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
            unsigned k0 = key(v.x, v.y), k1 = key(v.z, v.w);
            if (k0 < KEY_INF)
                m = max(m, k0);
            if (k1 < KEY_INF)
                m = max(m, k1);
        }
        return m;
    }

    /* The slow trip (warp-uniform): flush if the slices are due, raise the
     * window if a finite element is above it (and it can rise), then add
     * the trip whole if it fits, else element by element. */
    __device__ void slow_trip(const rl_trip &t, unsigned mx, unsigned mn)
    {
        unsigned hm = mx;
        if (__any_sync(FULL_WARP, hm >= KEY_INF))
            hm = finite_max(t);
        unsigned M = __reduce_max_sync(FULL_WARP, hm);
        if (trips == FLUSH_TRIPS)
            flush();
        if (M > top && M > BIAS) { /* a finite nonzero element above the window */
            int w = window_for((int)((M - BIAS) >> 20));
            if (w != wlo) /* else the window is at WLO_MAX already */
                rebase(w);
        }
        if (__all_sync(FULL_WARP, mx <= top && (int)mn >= (int)bot)) {
            add_all(t);
            return;
        }
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
#pragma unroll 1
            for (int c = 0; c < 2; c++) {
                unsigned lo = c ? v.z : v.x, hi = c ? v.w : v.y;
                unsigned k = key(lo, hi);
                if (k == BIAS || (wlo && k <= top && (int)k >= (int)bot))
                    add(lo, hi);
                else
                    sacc_add_elem(sacc, XACC_F64, (uint64_t)hi << 32 | lo, &special);
            }
        }
    }

    /* A trip: the fast path when it all lies in the window and the slices
     * are not due for a flush (trips is warp-uniform), so that the flush
     * costs the common trip nothing. */
    __device__ void trip(const rl_trip &t)
    {
        /* invalid vectors are zeros already (rl_visit_array) */
        unsigned mx = top, mn = bot;
        keys(t, mx, mn);
        if (__all_sync(FULL_WARP, mx <= top && (int)mn >= (int)bot && trips < FLUSH_TRIPS))
            add_all(t);
        else
            slow_trip(t, mx, mn);
        trips++;
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        if (va)
            sacc_add_elem(sacc, XACC_F64, a, &special);
        if (vb)
            sacc_add_elem(sacc, XACC_F64, b, &special);
    }

    /* Ends the thread's work: everything into acc, at base(). */
    __device__ void finish() { flush(); }

    /* The warp's sum, in units 2^(base() + EMIN), in every lane: a
     * thread's is below 2^141, so the warp's is below 2^146. */
    __device__ u160 warp_total() const { return warp_sum(acc); }
};

// ----------------------------------------------------------------------------
// The plain variant: not exact, for comparison

/* Adds in OUT (float or double), one accumulator per vector of a trip. */
template <typename OUT, int KIND> /* KIND: 0 f32, 1 bf16, 2 f16, 3 f64 */
struct plain_acc {
    OUT f[RL_VECS];

    __device__ void init()
    {
        for (int j = 0; j < RL_VECS; j++)
            f[j] = 0;
    }

    __device__ static OUT value(uint64_t bits)
    {
        if (KIND == 0)
            return (OUT)__uint_as_float((unsigned)bits);
        if (KIND == 1)
            return (OUT)__uint_as_float((unsigned)bits << 16);
        if (KIND == 2)
            return (OUT)half_acc::to_double((unsigned short)bits);
        return (OUT)__longlong_as_double((long long)bits);
    }

    __device__ void trip(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            const unsigned w[4] = {t.v[j].x, t.v[j].y, t.v[j].z, t.v[j].w};
            if (KIND == 3) {
                f[j] += value((uint64_t)w[1] << 32 | w[0]);
                f[j] += value((uint64_t)w[3] << 32 | w[2]);
            } else if (KIND == 0) {
#pragma unroll
                for (int c = 0; c < 4; c++)
                    f[j] += value(w[c]);
            } else {
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    f[j] += value(w[c] & 0xffffu);
                    f[j] += value(w[c] >> 16);
                }
            }
        }
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        if (va)
            f[0] += value(a);
        if (vb)
            f[1] += value(b);
    }

    __device__ OUT total() const { return (f[0] + f[1]) + (f[2] + f[3]); }
};

#endif /* CURED_SUM_THREAD_CUH */
