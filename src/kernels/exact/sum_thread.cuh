/* sum_thread.cuh - the thread layer of cured_reduce's exact float sums: what
 * one thread does with each element it loads.
 *
 * defines: SUM_SACC_*, sacc_add_pieces, sacc_add_elem, u128,
 *          narrow_acc (f32, bf16), half_acc (f16), wide_acc (f64),
 *          plain_acc (the not-exact variant)
 *
 * Every accumulator keeps, per thread, an exact integer sum in registers
 * (`acc`, 128 bits) and sends what does not fit its fast path to the
 * block's superaccumulator `sacc` in shared memory (xacc.h's digits, 64-bit
 * shared atomics), which is rare for real data. docs/exact.md ("The GPU
 * kernel") argues each accumulator's exactness; plain_acc adds in the
 * output type, as a non-exact kernel would.
 */
#ifndef CURED_SUM_THREAD_CUH
#define CURED_SUM_THREAD_CUH

#include <stdint.h>

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

/* Sends a (a two's complement number in units 2^pos) to sacc. */
__device__ inline void sacc_add_u128(int64_t *sacc, const u128 &a, int pos)
{
    if (u128_is_zero(a))
        return;
    uint64_t lo = (uint64_t)a.w1 << 32 | a.w0;
    uint64_t hi = (uint64_t)a.w3 << 32 | a.w2;
    int neg = (int)(a.w3 >> 31);
    if (neg) { /* magnitude = -a */
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
    }
    sacc_add_pieces(sacc, hi, lo, neg, pos);
}

/* The sum of a over the warp's 32 lanes, in every lane. */
__device__ inline u128 warp_sum_u128(u128 a)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        u128 b;
        b.w0 = __shfl_xor_sync(FULL_WARP, a.w0, off);
        b.w1 = __shfl_xor_sync(FULL_WARP, a.w1, off);
        b.w2 = __shfl_xor_sync(FULL_WARP, a.w2, off);
        b.w3 = __shfl_xor_sync(FULL_WARP, a.w3, off);
        u128_add(a, b);
    }
    return a;
}

// ----------------------------------------------------------------------------
// f32 and bf16: the f64 window

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

template <bool BF16>
struct narrow_acc {
    static const int W = BF16 ? 8 : 4;          /* elements per vector */
    static const int FLUSH_TRIPS = 64 / W;      /* 64 additions per f64 */
    static const int BINADES = 24;

    double f[RL_VECS];
    u128 acc;          /* units 2^(q - 149) */
    unsigned lo_bits;  /* window: (hb - lo_bits) < span, or hb == 0 */
    unsigned span;
    int q;             /* wlo - 1; -1 while the window is unset */
    double scale;      /* 2^(150 - wlo): f64 accumulator -> integer */
    int trips;
    unsigned special;
    int64_t *sacc;

    __device__ void init(int64_t *s)
    {
        for (int j = 0; j < RL_VECS; j++)
            f[j] = 0.0;
        acc = u128{0, 0, 0, 0};
        lo_bits = 0;
        span = 0;
        q = -1;
        scale = 1.0;
        trips = 0;
        special = 0;
        sacc = s;
    }

    __device__ bool in_window(unsigned hb) const
    {
        return hb - lo_bits < span || hb == 0;
    }

    /* The four f64 accumulators into acc (exact: see the file's header). */
    __device__ void flush()
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            if (f[j] != 0.0)
                u128_add_s64(acc, __double2ll_rz(f[j] * scale));
            f[j] = 0.0;
        }
        trips = 0;
    }

    /* Moves the warp's window so that its top binade is et (warp-uniform),
     * after sending everything held at the old base to sacc. */
    __device__ void rebase(int et)
    {
        flush();
        if (q >= 0)
            sacc_add_u128(sacc, acc, q);
        acc = u128{0, 0, 0, 0};
        int wlo = et - (BINADES - 1);
        if (wlo < 1)
            wlo = 1;
        /* wlo <= 254 - 23 = 231: the window never reaches the specials */
        lo_bits = wlo == 1 ? 0u : (unsigned)wlo << 23;
        span = ((unsigned)(wlo + BINADES) << 23) - lo_bits;
        q = wlo - 1;
        scale = __longlong_as_double((long long)(1023 + 150 - wlo) << 52);
    }

    /* The slow trip (warp-uniform): raise the window if an element is
     * above it, then add each element where it belongs. */
    __device__ void slow_trip(const rl_trip &t)
    {
        unsigned m = 0;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
#pragma unroll 1
            for (int c = 0; c < W; c++) {
                unsigned hb = narrow_bits<BF16>(v, c) & 0x7fffffffu;
                if (hb < 0x7f800000u && !in_window(hb) && hb > m)
                    m = hb;
            }
        }
        unsigned M = __reduce_max_sync(FULL_WARP, m);
        if (M >= lo_bits + span) {
            int et = (int)(M >> 23) + 1;
            rebase(et > 254 ? 254 : et);
        }
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
#pragma unroll 1
            for (int c = 0; c < W; c++) {
                unsigned u = narrow_bits<BF16>(v, c);
                if (in_window(u & 0x7fffffffu))
                    f[j] += (double)__uint_as_float(u);
                else
                    sacc_add_elem(sacc, XACC_F32, u, &special);
            }
        }
    }

    __device__ void trip(const rl_trip &t)
    {
        /* invalid vectors are zeros already (rl_visit_array) */
        bool all_in = true;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++)
#pragma unroll
            for (int c = 0; c < W; c++)
                all_in &= in_window(narrow_bits<BF16>(t.v[j], c) & 0x7fffffffu);
        if (__all_sync(FULL_WARP, all_in)) {
#pragma unroll
            for (int j = 0; j < RL_VECS; j++)
#pragma unroll
                for (int c = 0; c < W; c++)
                    f[j] += (double)__uint_as_float(narrow_bits<BF16>(t.v[j], c));
        } else {
            slow_trip(t);
        }
        if (++trips == FLUSH_TRIPS)
            flush();
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        unsigned ua = BF16 ? (unsigned)a << 16 : (unsigned)a;
        unsigned ub = BF16 ? (unsigned)b << 16 : (unsigned)b;
        if (va)
            sacc_add_elem(sacc, XACC_F32, ua, &special);
        if (vb)
            sacc_add_elem(sacc, XACC_F32, ub, &special);
    }

    /* Ends the thread's work: everything into acc, at base q (-1: acc is 0). */
    __device__ void finish() { flush(); }
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
};

// ----------------------------------------------------------------------------
// f64: the integer window

struct wide_acc {
    static const int W = 2;
    static const int BINADES = 32;
    /* negatives are counted and folded in before the count can wrap */
    static const int FOLD_TRIPS = 1 << 16;

    u128 acc;          /* units 2^(q - 1074) */
    unsigned nneg;     /* the +1 of each negative's two's complement */
    unsigned lo_hi;    /* window on the high word: (hb_hi - lo_hi) < span */
    unsigned span;
    int q;
    int trips;
    unsigned special;
    int64_t *sacc;

    __device__ void init(int64_t *s)
    {
        acc = u128{0, 0, 0, 0};
        nneg = 0;
        lo_hi = 0;
        span = 0;
        q = -1;
        trips = 0;
        special = 0;
        sacc = s;
    }

    __device__ void fold()
    {
        u128 b = {nneg, 0, 0, 0};
        u128_add(acc, b);
        nneg = 0;
        trips = 0;
    }

    /* Whether an element is in the window: its exponent is, or it is zero.
     * Subnormals never are (they take sacc). */
    __device__ bool in_window(unsigned lo, unsigned hb_hi) const
    {
        return hb_hi - lo_hi < span || (hb_hi | lo) == 0;
    }

    /* Adds an in-window element: its significand shifted by e - wlo. */
    __device__ void add(unsigned lo, unsigned hi)
    {
        unsigned hb = hi & 0x7fffffffu;
        unsigned d = hb - lo_hi;
        unsigned s = d >> 20; /* e - wlo, in [0, 31]; any value for zero */
        /* 1.f for a normal number; 0 for zero (then every shift gives 0) */
        unsigned mh = min(hb, 0x100000u) | (hb & 0xfffffu);
        unsigned v0 = lo << (s & 31u);
        unsigned v1 = __funnelshift_l(lo, mh, s);
        unsigned v2 = __funnelshift_l(mh, 0u, s);
        unsigned m = (unsigned)((int)hi >> 31); /* all ones if negative */
        u128 x = {v0 ^ m, v1 ^ m, v2 ^ m, m};
        u128_add(acc, x);
        nneg -= m; /* +1 per negative */
    }

    __device__ void rebase(int et)
    {
        fold();
        if (q >= 0)
            sacc_add_u128(sacc, acc, q);
        acc = u128{0, 0, 0, 0};
        int wlo = et - (BINADES - 1);
        if (wlo < 1)
            wlo = 1;
        /* wlo <= 2046 - 31: the window never reaches the specials */
        lo_hi = (unsigned)wlo << 20;
        span = (unsigned)BINADES << 20;
        q = wlo - 1;
    }

    __device__ void slow_trip(const rl_trip &t)
    {
        unsigned m = 0;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
#pragma unroll
            for (int c = 0; c < 2; c++) {
                unsigned lo = c ? v.z : v.x, hb = (c ? v.w : v.y) & 0x7fffffffu;
                if (hb < 0x7ff00000u && !in_window(lo, hb) && hb > m)
                    m = hb;
            }
        }
        unsigned M = __reduce_max_sync(FULL_WARP, m);
        /* raise the window only for a normal number above it */
        if (M >= 0x100000u && M >= lo_hi + span) {
            int et = (int)(M >> 20) + 1;
            rebase(et > 2046 ? 2046 : et);
        }
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            uint4 v = t.reload(j);
#pragma unroll 1
            for (int c = 0; c < 2; c++) {
                unsigned lo = c ? v.z : v.x, hi = c ? v.w : v.y;
                if (in_window(lo, hi & 0x7fffffffu))
                    add(lo, hi);
                else
                    sacc_add_elem(sacc, XACC_F64, (uint64_t)hi << 32 | lo,
                                  &special);
            }
        }
    }

    __device__ void trip(const rl_trip &t)
    {
        bool all_in = true;
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            all_in &= in_window(t.v[j].x, t.v[j].y & 0x7fffffffu);
            all_in &= in_window(t.v[j].z, t.v[j].w & 0x7fffffffu);
        }
        if (__all_sync(FULL_WARP, all_in)) {
#pragma unroll
            for (int j = 0; j < RL_VECS; j++) {
                add(t.v[j].x, t.v[j].y);
                add(t.v[j].z, t.v[j].w);
            }
        } else {
            slow_trip(t);
        }
        if (++trips == FOLD_TRIPS)
            fold();
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        if (va)
            sacc_add_elem(sacc, XACC_F64, a, &special);
        if (vb)
            sacc_add_elem(sacc, XACC_F64, b, &special);
    }

    __device__ void finish() { fold(); }
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
