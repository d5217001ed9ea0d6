/* sum_write.cuh - an exact sum rounded once and written: from normalised
 * digits (round_warp.cuh's warp_round), from one 160-bit sum, or by the
 * short ways that skip the digits.
 *
 * defines: exact_write, exact_round_write, exact_block_round,
 *          exact_digits_round, exact_digits_double
 *
 * Warp 0 of the block that holds the whole sum calls them; lane 0 writes.
 * The sharded path's state mode (SHARD_KERNEL_STATE, shard_state.h) writes
 * the exact state instead of a rounded result.
 */
#ifndef CURED_SUM_WRITE_CUH
#define CURED_SUM_WRITE_CUH

#include "reduce_kernels.h"
#include "round_warp.cuh"
#include "shard_state.h"
#include "sum_block.cuh"
#include "wide_int.cuh"
#include "xacc.h"

/* Rounds the normalised sum n (f32 or f64 per flags and family) and writes
 * the result, specials first; in the sharded path's state mode
 * (SHARD_KERNEL_STATE) writes the exact state instead, for the ranks to
 * combine (shard_state.h: the special bits, then the normalised digits,
 * which n is). Warp 0 calls it. */
template <int NDIG>
__device__ inline void exact_write(xacc_family f, warp_normal<NDIG> &n, unsigned special,
                                   const cured_reduce_kernel_args &a)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    if (a.flags & SHARD_KERNEL_STATE) {
        uint64_t *at = (uint64_t *)a.out;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG - 1)
                at[1 + D] = n.w[i];
            else if (D == NDIG - 1)
                at[1 + D] = (uint64_t)n.top;
        }
        if (lane == 0)
            at[0] = special;
        return;
    }
    int to_f64 = f == XACC_F64 || (a.flags & CURED_REDUCE_F64);
    uint64_t bits = warp_round<NDIG>(f, n, to_f64);
    if (lane != 0)
        return;
    if (special)
        bits = xacc_special_result(special, to_f64);
    if (to_f64)
        *(unsigned long long *)a.out = bits;
    else
        *(unsigned *)a.out = (unsigned)bits;
}

/* Rounds sum (units 2^q, |sum| < 2^159) once and writes the result (lane
 * 0). Warp 0 calls it. */
__device__ inline void exact_round_write(xacc_family f, const u160 &sum, int q,
                                         const cured_reduce_kernel_args &a)
{
    int to_f64 = f == XACC_F64 || (a.flags & CURED_REDUCE_F64);
    uint64_t bits = u160_round(f, sum, q, to_f64);
    if ((threadIdx.x & 31u) == 0) {
        if (to_f64)
            *(unsigned long long *)a.out = bits;
        else
            *(unsigned *)a.out = (unsigned)bits;
    }
}

/* The short way to one block's result: exact_block_total's sum rounded
 * once, with no digits, carry chains or ballots. Writes the result and
 * returns true; returns false, having written nothing, where
 * exact_block_total declines, for a zero sum (the digits path writes +0
 * or the special) or where the sharded path wants the exact state. Warp 0
 * calls it, in a grid of one block outside a cluster. */
template <int NDIG>
__device__ bool exact_block_round(const exact_block_state<NDIG> &s, xacc_family f,
                                  const cured_reduce_kernel_args &a)
{
    u160 total;
    int q = -1;
    if ((a.flags & SHARD_KERNEL_STATE) || !exact_block_total<NDIG>(s, total, q) || q < 0)
        return false;
    exact_round_write(f, total, q, a);
    return true;
}

/* The short way from digits to the result: when every nonzero digit of d
 * (warp 0's, digit lane + 32 i in d[i], each below 2^62 in magnitude) lies
 * among four consecutive digits j .. j + 3, their value is one signed
 * 160-bit integer in units of digit j (below 2^158), the plain sum of each
 * digit shifted to its place (by redux.sync, as exact_block_total), which
 * u160_round rounds as warp_round would round the digits: no carry
 * chains, ballots or normalising. Writes the result and returns true;
 * returns false, having written nothing, where the digits spread wider or
 * are all zero. Warp 0 calls it, with no special bits and outside the
 * sharded path's state mode. */
template <int NDIG>
__device__ bool exact_digits_round(xacc_family f, const int64_t (&d)[warp_digit_count<NDIG>::PER],
                                   const cured_reduce_kernel_args &a)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    int lo = NDIG, hi = -1;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        unsigned m = __ballot_sync(FULL_WARP, d[i] != 0);
        if (m != 0) {
            lo = min(lo, 32 * i + __ffs((int)m) - 1);
            hi = max(hi, 32 * i + 31 - __clz((int)m));
        }
    }
    if (hi < 0 || hi - lo > 3)
        return false;
    unsigned w[5] = {0u, 0u, 0u, 0u, 0u};
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int k = (int)lane + 32 * i - lo; /* this digit's word in the sum */
        if (k < 0 || k > 3)
            continue;
        unsigned low = (unsigned)d[i], high = (unsigned)((uint64_t)d[i] >> 32);
        unsigned sign = d[i] < 0 ? 0xffffffffu : 0u;
#pragma unroll
        for (int j = 0; j < 5; j++)
            w[j] = j < k ? 0u : j == k ? low : j == k + 1 ? high : sign;
    }
    exact_round_write(f, warp_sum_words<5>(w), 32 * lo, a);
    return true;
}

/* The shortest way from digits to an f32 result (f32, bf16 and f16 sums
 * rounded to f32, NDIG < 32), for the last block of a grid. The digits d
 * (warp 0's, digit lane in d[0], each at most 2^53 in magnitude) are
 * carry-save: a negative sum can sit below digits near 2^32 and a top
 * digit of -4 (the lane bins send two's-complement words), which as
 * doubles would cancel by 2^90 and more. One balanced carry step first:
 * each digit keeps its low 32 bits as a signed value and passes the rest
 * up one lane, so every digit lies within 2^31 + 2^21 + 1 and, for S (the
 * exact sum) nonzero, the digits below the top nonzero one add up to at
 * most 0.5005 of its unit: M (the sum of the digits' magnitudes at their
 * weights) is at most 3.01 |S|. Then each digit as a double x = d 2^(32
 * lane + emin) (exact: 34 bits) and the warp's sum s of the x by a
 * butterfly of shuffles (five levels of additions to nearest), beside it
 * the sum m of the |x|: pairwise summation errs by at most gamma_5 M <
 * 2^-50 m (u = 2^-53; m >= M (1 - u)^5), so S lies in [lo, hi] = [s - e,
 * s + e], e = m 2^-50, each rounded outwards; e <= 2^-48.4 |S|, far below
 * S's f32 ulp. Rounding to f32 (to nearest, ties to even, beyond the range
 * to an infinity) is monotonic, so where lo and hi round to the same bits,
 * S rounds to them too: written, returns true. Where they differ (S
 * within 2^-48 of a tie in relative terms; a zero sum, whose lo rounds to
 * -0 and hi to +0) or a digit is too large, returns false, having written
 * nothing. Every lane ends with the same s and m (each pair of lanes adds
 * the same two values), so all decide alike. Warp 0 calls it, with no
 * special bits and outside the sharded path's state mode. */
template <int NDIG>
__device__ bool exact_digits_double(xacc_family f, const int64_t (&d)[warp_digit_count<NDIG>::PER],
                                    const cured_reduce_kernel_args &a)
{
    if (NDIG >= 32 || f == XACC_F64 || (a.flags & CURED_REDUCE_F64))
        return false;
    const int64_t BIG = (int64_t)1 << 53;
    if (!__all_sync(FULL_WARP, d[0] <= BIG && d[0] >= -BIG))
        return false;
    unsigned lane = threadIdx.x & 31u;
    /* the balanced carry step: lane 31 holds no digit (NDIG < 32), so its
     * carry out is zero */
    int low = (int)(unsigned)d[0];
    int up = (int)((d[0] - low) >> 32); /* |up| <= 2^21 + 1 */
    int in = __shfl_up_sync(FULL_WARP, up, 1);
    long long digit = (long long)low + (lane ? in : 0);
    int e = 32 * (int)lane + xacc_family_of(f).emin; /* -149 .. 968: a normal double */
    double s = (double)digit * pow2(e);
    double m = fabs(s);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        s += __shfl_xor_sync(FULL_WARP, s, off);
        m += __shfl_xor_sync(FULL_WARP, m, off);
    }
    double err = m * 0x1p-50;
    unsigned lo = __float_as_uint(__double2float_rn(__dsub_rd(s, err)));
    unsigned hi = __float_as_uint(__double2float_rn(__dadd_ru(s, err)));
    if (lo != hi)
        return false;
    if (lane == 0)
        *(unsigned *)a.out = lo;
    return true;
}

#endif /* CURED_SUM_WRITE_CUH */
