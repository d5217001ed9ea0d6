/* acc_narrow.cuh - the thread layer's accumulator for f32 and bf16 (read
 * as f32's top half): two adjacent windows of f64 accumulators.
 *
 * defines: narrow_bits, vec_word, vmax_u16x2, vmin_s16x2, bf16x2_to_f64,
 *          add_either, pow2, narrow_acc
 *
 * The visitor interface of reduce_load.cuh (trip, scalars) plus init,
 * finish, base, warp_total and special, as sum_block.cuh's layers use it;
 * the windows and why every addition is exact: the comment above
 * narrow_acc, and docs/exact.md ("The GPU kernel").
 */
#ifndef CURED_ACC_NARROW_CUH
#define CURED_ACC_NARROW_CUH

#include <stdint.h>
#include <string.h>

#include "reduce_load.cuh"
#include "sacc.cuh"
#include "wide_int.cuh"
#include "xacc.h"

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
 *   one conversion and one DADD per element (bf16 in A's top PRESUM
 *   binades: one of each per vector, add_a_presum);
 * - all in A and B: a compare and two predicated DADDs per element;
 * - else the slow path: an element above A raises the windows (warp-
 *   uniform, after sending what is held to sacc); if the trip then fits
 *   A, or A and B, as above; else every finite element goes to the
 *   lane's bins (bin_vector), a special to the flags (in the
 *   one-trip kernels, or a launch without the bins' memory, element by
 *   element to A, B or sacc: add_one).
 * Every FLUSH_TRIPS trips, a[j] and b[j] go into the 128-bit integer acc
 * in units of B's: b[j] / 2^uB + (a[j] / 2^uA) * 2^BINADES. */
template <bool BF16>
struct narrow_acc {
    static const int W = BF16 ? 8 : 4;           /* elements per vector */
    static const bool SACC_ELEMENTS = true; /* those outside both windows */
    static const bool LANE_BINS = true;     /* main loops: those, to bins */
    static const bool SACC_SPLIT = false;   /* main loops: the bins instead */
    static const int BINADES = BF16 ? 40 : 24;   /* per window */
    /* the slow trip's vectors into the bins: unrolled for bf16, one by
     * one for f32, the ways both kernels' fast loops kept their code
     * (either way, the other kernel's changed) */
    static const int BIN_UNROLL = BF16 ? RL_VECS : 1;
    static const int FLUSH_TRIPS = 64 / W;       /* 64 adds per accumulator */
    static const int SHIFT = BF16 ? 16 : 0;      /* unit of a bf16 above f32's */
    static const int EPOS = BF16 ? 7 : 23;       /* exponent field in a key lane */
    static const unsigned ABS = BF16 ? 0x7fff7fffu : 0x7fffffffu;
    static const unsigned BIAS = BF16 ? 0x7fff7fffu : 0x7fffffffu;
    static const unsigned LANE_BIAS = BF16 ? 0x7fffu : 0x7fffffffu;
    static const unsigned KEY_INF = (BF16 ? 0x7f80u : 0x7f800000u) + LANE_BIAS;
    /* bf16: A's top PRESUM binades, whose eight elements a vector sums
     * exactly in f32 (add_a_presum); topA - PRESUM_KEYS is the smallest
     * key there, in both halves */
    static const int PRESUM = 14;
    static const unsigned PRESUM_KEYS = ((PRESUM << EPOS) - 1) * 0x10001u;
    static const int PRESUM_TOP_MAX = 252; /* A's top binade + 1, at most */

    double a[RL_VECS];  /* window A */
    double b[RL_VECS];  /* window B */
    u128 acc;           /* units 2^(q + EMIN), q = base() */
    unsigned topA;      /* keys (bf16: in both halves): the largest in A, */
    unsigned botA;      /* the smallest nonzero in A, */
    unsigned botB;      /* the smallest nonzero in B */
    int wa;             /* A's lowest binade; 0 while no window is set */
    int trips;
    unsigned special;
    sacc_ref sacc;
    unsigned bin_adds;  /* elements in the thread's bins (bin_vector) */

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

    __device__ void init(sacc_ref s)
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
        bin_adds = 0;
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

    /* Moves the windows (warp-uniform, every lane) so that A's top binade
     * is et, after sending what the warp holds at the old base to sacc:
     * the warp's sum (below 2^117) from lane 0, where 32 lanes adding into
     * the same digits would contend. */
    __device__ void rebase(int et)
    {
        if (wa) { /* else nothing is held yet: the first trip sets the windows */
            flush();
            u160 w = warp_sum(acc);
            if (lane_first())
                sacc_add_u160(sacc, w, base());
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

    /* bf16, every element in A's top PRESUM binades (biased binades
     * [T - 14, T), T = wa + BINADES <= PRESUM_TOP_MAX): a vector's eight
     * elements summed in f32 first, then one conversion and one DADD into
     * a[j] instead of eight of each (conversions to f64 issue at a
     * quarter of the DADD rate, in NVIDIA's throughput table). Exact: with t = T - 127, each element is below
     * 2^t and, with 8 significant bits from binade t - 14 up, a multiple
     * of 2^(t - 21); so is every partial sum of at most eight, below
     * 2^(t + 3): 24 bits, exact in f32, and finite for T <= 252 (below
     * 2^128). a[j] holds the same exact sum as add_a would give it. */
    __device__ void add_a_presum(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            float s[4];
#pragma unroll
            for (int c = 0; c < 4; c++) {
                unsigned w = vec_word(t.v[j], c);
                s[c] = __uint_as_float(w << 16) + __uint_as_float(w & 0xffff0000u);
            }
            a[j] += (double)((s[0] + s[1]) + (s[2] + s[3]));
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

    /* One element (f32 bits u) where it belongs: A, B, sacc or the flags
     * (a launch without the bins: bin_vector's way otherwise). Converted to
     * f64 only on the ways that add it as one. */
    __device__ void add_one(double &aj, double &bj, unsigned u)
    {
        unsigned x = u & 0x7fffffffu;
        int e = max((int)(x >> 23), 1); /* subnormals: binade 1's unit */
        if (x == 0 || (e >= wa && e < wa + BINADES))
            aj += (double)__uint_as_float(u);
        else if (x < 0x7f800000u && e >= wa - BINADES && e < wa &&
                 (x >= 0x00800000u || wa - BINADES == 1))
            bj += (double)__uint_as_float(u);
        else
            sacc_add_elem(sacc, XACC_F32, u, &special);
    }

    /* A vector's elements (v) into the thread's bins, a zero or a
     * special value as 0, and where the thread's trip holds a special
     * value (specials) its flags: the slow trip's one way for every lane
     * where the launch gave the bins, with no branch per element. The
     * elements unrolled (no element picked from v at run time), the bins
     * opened and their count checked once a vector. */
    __device__ void bin_vector(const uint4 &v, bool specials)
    {
        lane_bins_open(bin_adds);
        unsigned stride;
        int64_t *row = lane_bins_row(&stride);
#pragma unroll
        for (int c = 0; c < W; c++) {
            unsigned u = narrow_bits<BF16>(v, c), x = u & 0x7fffffffu;
            lane_bin_put(x < 0x7f800000u ? x : 0, u >> 31, row, stride);
        }
        if (specials)
#pragma unroll 1
            for (int c = 0; c < W; c++) {
                unsigned u = narrow_bits<BF16>(v, c), x = u & 0x7fffffffu;
                if (x > 0x7f800000u)
                    special |= XACC_NAN;
                else if (x == 0x7f800000u)
                    special |= (u >> 31) ? XACC_NINF : XACC_PINF;
            }
        bin_adds = lane_bins_close(sacc, bin_adds + W);
    }

    /* Every lane's bins into sacc (lane_bins_send), where the launch
     * gave them and a lane used them. Every lane calls it. */
    __device__ void send_bins()
    {
        bool used = bin_adds != 0;
        if (!sacc.lane_bins || !__any_sync(FULL_WARP, used))
            return;
        lane_bins_send(sacc, used);
    }

    /* The slow trip (warp-uniform): raise the windows if a finite element
     * is above A, then add the trip by the fastest rule that fits. */
    __device__ void slow_trip(const rl_trip &t, unsigned mx, unsigned mn)
    {
        unsigned hm = BF16 ? max(mx & 0xffffu, mx >> 16) : mx;
        bool specials = hm >= KEY_INF; /* this thread's trip holds one */
        if (__any_sync(FULL_WARP, specials))
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
        } else if (sacc.lane_bins && lane_bins_given()) {
            /* every element to the thread's bins, A's and B's too (as
             * exact there): one way for all lanes, where add_one's three
             * ran one after another for a warp whose lanes mix them */
#pragma unroll(BIN_UNROLL)
            for (int j = 0; j < RL_VECS; j++)
                bin_vector(t.reload(j), specials);
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
        /* invalid vectors are zeros already (rl_visit_array); bf16's min
         * starts at the PRESUM binades' bottom, above botA and botB, so
         * that it answers that test as well as the windows' */
        unsigned mx = topA, mn = BF16 ? topA - PRESUM_KEYS : botA;
        keys(t, mx, mn);
        if (__all_sync(FULL_WARP, all_le(mx, topA) && all_ge(mn, botA))) {
            if (BF16 && wa + BINADES <= PRESUM_TOP_MAX &&
                __all_sync(FULL_WARP, all_ge(mn, topA - PRESUM_KEYS)))
                add_a_presum(t);
            else
                add_a(t);
        } else if (__all_sync(FULL_WARP, all_le(mx, topA) && all_ge(mn, botB)))
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
        sacc_add_scalars(sacc, XACC_F32, ua, va, ub, vb, &special);
    }

    /* Ends the thread's work: everything into acc, at base(), and the
     * lanes' bins into sacc. Every lane calls it. */
    __device__ void finish()
    {
        if (wa)
            flush();
        send_bins();
    }

    /* The warp's sum, in units 2^(base() + EMIN), in every lane: each
     * thread's is below 2^112, the warp's below 2^117, so 128 bits hold it
     * (then sign-extended). */
    __device__ u160 warp_total() const { return warp_sum(acc); }
};

#endif /* CURED_ACC_NARROW_CUH */
