/* acc_wide.cuh - the thread layer's accumulator for f64: one window of 64
 * binades held in three f64 slices that carry into one another exactly.
 *
 * defines: wide_acc
 *
 * The same interface as narrow_acc (acc_narrow.cuh); the slices and why
 * each step is exact: the comment above wide_acc, and docs/exact.md
 * ("Thread, f64").
 */
#ifndef CURED_ACC_WIDE_CUH
#define CURED_ACC_WIDE_CUH

#include <stdint.h>

#include "reduce_load.cuh"
#include "sacc.cuh"
#include "wide_int.cuh"
#include "xacc.h"

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
    static const bool SACC_ELEMENTS = true; /* those outside the window */
    static const bool LANE_BINS = false; /* lane bins: acc_narrow.cuh */
    static const bool SACC_SPLIT = true; /* in the main loop too: sacc.cuh */
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
    sacc_ref sacc;

    __device__ void init(sacc_ref s)
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

    /* Sends everything the warp holds to sacc and clears it (warp-uniform,
     * every lane: the lanes share the window, so lane 0 sends the warp's
     * sum, below 2^146, where 32 lanes adding into the same six digits
     * would contend). */
    __device__ void spill()
    {
        if (!wlo)
            return; /* nothing held yet: the first trip sets the window */
        flush();
        u160 w = warp_sum(acc);
        if ((threadIdx.x & 31u) == 0)
            sacc_add_u160(sacc, w, base());
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
        sacc_add_scalars(sacc, XACC_F64, a, va, b, vb, &special);
    }

    /* Ends the thread's work: everything into acc, at base(). */
    __device__ void finish() { flush(); }

    /* The warp's sum, in units 2^(base() + EMIN), in every lane: a
     * thread's is below 2^141, so the warp's is below 2^146. */
    __device__ u160 warp_total() const { return warp_sum(acc); }
};

#endif /* CURED_ACC_WIDE_CUH */
