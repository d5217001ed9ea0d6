/* sum_dd.cuh - the one-block short way of cured_reduce's exact f64 sum:
 * the block's elements added as a double-double with a running bound on
 * its error, and the double nearest that pair written where the bound
 * proves it the correctly rounded exact sum. No windows, 160-bit integers
 * or digits: a single tile's fixed cost.
 *
 * defines: dd_acc, exact_block_dd
 *
 * Why it is exact (docs/exact.md, "One block, one trip: a double-double
 * with a certificate"): every sum of two doubles is split by TwoSum into
 * the rounded sum h and its error t, exactly (h + t = a + b, for finite
 * a, b whose sum does not overflow); the errors are added, rounded, into a
 * second double l. So the exact sum X of the block's elements is h + l +
 * delta, where delta collects the rounding errors of the additions into l
 * (and of l's own additions when two pairs meet). Each such rounded
 * addition c = fl(a + b) errs by at most 2^-53 |c| (to nearest: half an
 * ulp of a normal c; a subnormal c is exact), so |delta| <= 2^-53 E, E the
 * sum of those |c|; e, the same sum added in doubles, is at least E / 2
 * (fewer than 2^20 additions of nonnegative terms). Two ways prove the
 * double r = fl(h + l) the correctly rounded X:
 * - exactness: every element is a multiple of 2^Q, Q the smallest ulp
 *   among them, and so is every h, t, l and c. Where e < 2^(52 + Q), no
 *   |c| reached 2^(53 + Q) (else E would, and e half of it), so every
 *   addition into l was exact: X = h + l, and r is X rounded (ties to
 *   even; an r beyond the doubles is left to the exact path). Data on a
 *   coarse grid (uniform doubles drawn as multiples of 2^-53) take this
 *   way, and their ties with it.
 * - the error bound: d = (h + l) - r (TwoSum again, exact) gives |X - r|
 *   <= |d| + 2^-52 e. Where |d| <= g (1 - 2^-9) and e <= g 2^42, g half
 *   the smaller gap from r to its neighbouring doubles, |X - r| < g: X
 *   lies strictly inside r's interval of rounding, so r is X correctly
 *   rounded (and never a tie).
 * Any infinity or NaN (an element, an overflow inside the sums) reaches
 * l and e and fails both tests, as do, for the second, a tiny r (biased
 * exponent below 64) and one within a binade of the largest double:
 * those, and every sum whose error bound is not small beside r's ulp
 * (heavy cancellation of inexact data), go on by the exact integer path,
 * which reads the block's elements again.
 */
#ifndef CURED_SUM_DD_CUH
#define CURED_SUM_DD_CUH

#include "reduce_kernels.h"
#include "reduce_load.cuh"
#include "shard_state.h"
#include "sum_thread.cuh"
#include "sum_block.cuh"

/* A thread's elements as (h, l) with the error bound's sum e (above): the
 * visitor of rl_visit_array for one trip. The additions are __dadd_rn /
 * __dsub_rn, which the compiler neither contracts nor reorders. */
struct dd_acc {
    double h, l, e;
    unsigned kmin; /* the smallest key of a nonzero element (below) */

    __device__ void init()
    {
        h = 0.0;
        l = 0.0;
        e = 0.0;
        kmin = 0xffffffffu;
    }

    /* s = fl(a + b) and its error t (Knuth's TwoSum): s + t = a + b. */
    __device__ static double two_sum(double a, double b, double &t)
    {
        double s = __dadd_rn(a, b);
        double bb = __dsub_rn(s, a);
        t = __dadd_rn(__dsub_rn(a, __dsub_rn(s, bb)), __dsub_rn(b, bb));
        return s;
    }

    /* The key of the element of words lo, hi: wide_acc's (|high word|
     * with bit 0 set where the low word is not, so that a subnormal whose
     * high word is zero is not taken for a zero) less BIAS + 1: 2^32 - 1
     * for a zero, else below 2^31. */
    __device__ static unsigned key(unsigned lo, unsigned hi)
    {
        return wide_acc::key(lo, hi) - (wide_acc::BIAS + 1u);
    }

    /* Adds the element of words lo, hi. */
    __device__ void add(unsigned lo, unsigned hi)
    {
        kmin = min(kmin, key(lo, hi));
        double t;
        h = two_sum(h, __hiloint2double((int)hi, (int)lo), t);
        l = __dadd_rn(l, t);
        e = __dadd_rn(e, fabs(l));
    }

    /* Another pair (h2, l2, e2) with its kmin into this one. */
    __device__ void add_pair(double h2, double l2, double e2, unsigned k2)
    {
        double t;
        h = two_sum(h, h2, t);
        double c1 = __dadd_rn(l, l2);
        l = __dadd_rn(c1, t);
        e = __dadd_rn(__dadd_rn(e, e2), __dadd_rn(fabs(c1), fabs(l)));
        kmin = min(kmin, k2);
    }

    /* The thread's one trip into the pair init made: rl_visit_array's
     * one-trip visit calls trip at most once, before the scalars, so the
     * first element becomes h as it is (l and e stay 0), where adding it
     * to the zeros by TwoSum took eight additions for the same pair (up
     * to a zero's sign, which neither proof looks at; an infinity or NaN
     * there still reaches r, or l with the next addition). */
    __device__ void trip(const rl_trip &t)
    {
        kmin = min(kmin, key(t.v[0].x, t.v[0].y));
        h = __hiloint2double((int)t.v[0].y, (int)t.v[0].x);
        add(t.v[0].z, t.v[0].w);
        /* invalid vectors are zeros: they add nothing */
#pragma unroll
        for (int j = 1; j < RL_VECS; j++) {
            add(t.v[j].x, t.v[j].y);
            add(t.v[j].z, t.v[j].w);
        }
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        a = va ? a : 0;
        b = vb ? b : 0;
        add((unsigned)a, (unsigned)(a >> 32));
        add((unsigned)b, (unsigned)(b >> 32));
    }

    /* The pair over every lane of the warp, or over each group of span
     * lanes (a power of two), in every lane of it (butterfly: TwoSum's
     * outputs and the additions do not depend on the order of their two
     * operands, so every lane of a group computes the same). */
    __device__ void warp_sum(unsigned span = 32)
    {
#pragma unroll
        for (unsigned off = 16; off > 0; off >>= 1) {
            if (off >= span)
                continue;
            double h2 = __shfl_xor_sync(FULL_WARP, h, off);
            double l2 = __shfl_xor_sync(FULL_WARP, l, off);
            double e2 = __shfl_xor_sync(FULL_WARP, e, off);
            unsigned k2 = __shfl_xor_sync(FULL_WARP, kmin, off);
            add_pair(h2, l2, e2, k2);
        }
    }

    /* The double nearest h + l, and whether it is proved the correctly
     * rounded exact sum (above): by exactness, where every element is a
     * multiple of 2^Q (Q the smallest ulp among them, from kmin's exponent
     * field F: Q = max(F, 1) - 1075) and e < 2^(52 + Q) (then every
     * addition into l was of multiples of 2^Q below 2^(53 + Q), exact, so
     * h + l is the exact sum, ties included); else by the error bound. */
    __device__ bool certified(double &r) const
    {
        double d;
        r = two_sum(h, l, d);
        long long bits = __double_as_longlong(r);
        int E = (int)(bits >> 52 & 0x7ff);
        int F = max((int)((kmin + 1u) >> 20), 1); /* a zero's kmin + 1 is 0 */
        if (E < 2047 && e < __longlong_as_double((long long)F << 52)) {
            if (r == 0.0)
                r = 0.0; /* +0, as every path writes a zero sum */
            return true;
        }
        bool pow2 = (bits & ((1ll << 52) - 1)) == 0; /* the gap below is half */
        if (E < 64 || E > 2045)
            return false;
        /* g = half the smaller gap: 2^(E - 1076), or 2^(E - 1077) below a
         * power of two; built from its bits, as are the two limits */
        double g = __longlong_as_double((long long)(E - 53 - (pow2 ? 1 : 0)) << 52);
        return fabs(d) <= g * (1.0 - 0x1p-9) && e <= g * 0x1p42;
    }
};

/* Writes the exact f64 sum of a one-block, one-trip grid by a certified
 * double-double and returns true in every thread; returns false in every
 * thread, having written nothing, where the certificate fails (above) or
 * where the launch is not one block outside a cluster, or the sharded
 * path wants the exact state. Every thread calls it first, before
 * exact_block_begin (it uses none of the exact path's shared state) and
 * the exact path's own visit of the elements. */
template <unsigned ELEM>
__device__ bool exact_block_dd(const cured_reduce_kernel_args &a)
{
    __shared__ double warp_h[32], warp_l[32], warp_e[32];
    __shared__ unsigned warp_k[32];
    if (gridDim.x != 1 || exact_cluster_size() != 1 || (a.flags & SHARD_KERNEL_STATE))
        return false;
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    dd_acc p;
    p.init();
    rl_visit_array<ELEM, dd_acc, true>(a.in, a.n, p);
    p.warp_sum();
    if (lane == 0) {
        warp_h[warp] = p.h;
        warp_l[warp] = p.l;
        warp_e[warp] = p.e;
        warp_k[warp] = p.kmin;
    }
    __syncthreads();
    /* every group of span lanes adds the same rows the same way, so every
     * thread decides alike */
    unsigned span = exact_rows_span(warps), row = lane & (span - 1);
    bool in = row < warps;
    p.h = in ? warp_h[row] : 0.0;
    p.l = in ? warp_l[row] : 0.0;
    p.e = in ? warp_e[row] : 0.0;
    p.kmin = in ? warp_k[row] : 0xffffffffu;
    p.warp_sum(span);
    double r;
    if (!p.certified(r))
        return false;
    if (threadIdx.x == 0)
        *(double *)a.out = r;
    return true;
}

#endif /* CURED_SUM_DD_CUH */
