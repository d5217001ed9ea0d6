/* sum_double.cuh - the short way of cured_reduce's exact f32 and f16 sums
 * in a grid of one block, and of its f32 sums in a grid of one cluster:
 * the elements added as doubles, the double rounded once where it is
 * exact or where an error bound certifies its rounding. No windows,
 * 128-bit integers, redux chains or digits: a single tile's fixed cost.
 *
 * defines: double_acc, double_part, double_part_warp, double_part_none,
 *          double_part_bits, exact_block_double, HALF_EXACT_MAX,
 *          DOUBLE_PART_SPECIAL
 *
 * Why it is exact where the elements span few binades: every element is a
 * multiple of 2^B (B the smallest of the threads' `bottom`) and below 2^T
 * in magnitude (T the largest `top`), so a sum of any m of them is a
 * multiple of 2^B below m 2^T. Where ceil(log2(n)) + T - B <= 53, n the
 * elements, every such sum is an integer below 2^53 in units 2^B: a double
 * holds it exactly, and every addition of two of them, whatever the order,
 * returns it exactly. The sum S is then the exact sum, and converting S
 * once to f32 (to nearest, ties to even; beyond the range, an infinity)
 * is the correct rounding; an f64 result is S itself. A zero sum is +0,
 * as on every other path (docs/exact.md). f32 data whose nonzero elements
 * span at most 53 - 24 - 12 = 17 binades (4096 elements) take it: 4096
 * elements uniform in [-0.5, 0.5) span 12 on average. f16 takes it up to
 * 8192 elements (13 + 16 + 24 = 53), and only so.
 *
 * Where the span is wider (f32 with an f32 result: 65536 elements uniform
 * in [-0.5, 0.5) span about 16 binades, past the 13 that 2^16 elements
 * leave), S is no longer exact but its error is bounded
 * (double_part_bits), and where the bound leaves one f32 for the sum,
 * that is the result. Elsewhere (a special, a sum within the bound of a
 * rounding boundary, an f64 result of wide data, f16 past 8192 elements)
 * the grid goes on by the exact integer path, which reads its elements
 * again.
 */
#ifndef CURED_SUM_DOUBLE_CUH
#define CURED_SUM_DOUBLE_CUH

#include "acc_half.cuh"
#include "reduce_kernels.h"
#include "reduce_load.cuh"
#include "shard_state.h"
#include "sum_block.cuh"
#include "wide_int.cuh"
#include "xacc.h"

/* f16 elements the short way takes at most: ceil(log2(n)) + 16 + 24 <= 53
 * (every finite f16 a multiple of 2^-24 below 2^16), the sum exact. */
#define HALF_EXACT_MAX 8192u

/* A thread's elements (f32, or f16 where HALF) added as doubles, with the
 * exponents that bound them: the visitor of rl_visit_array for one trip.
 * f32 keys are |bits|: their largest (kmx) and, less one, their smallest
 * nonzero (kmn; a zero's is 2^32 - 1). */
template <bool HALF>
struct double_acc {
    static const int W = HALF ? 8 : 4;    /* elements per vector */
    static const int ELEMS = W * RL_VECS; /* a thread's, in its one trip */

    double s[RL_VECS];
    unsigned kmx, kmn;

    __device__ void init()
    {
        for (int j = 0; j < RL_VECS; j++)
            s[j] = 0.0;
        kmx = 0;
        kmn = 0xffffffffu;
    }

    /* Adds the element(s) of word w into s[j]: one f32, or two f16. */
    __device__ void add_word(double &sj, unsigned w)
    {
        if (HALF) {
            sj += half_acc::to_double((unsigned short)(w & 0xffffu));
            sj += half_acc::to_double((unsigned short)(w >> 16));
        } else {
            unsigned x = w & 0x7fffffffu;
            kmx = max(kmx, x);
            kmn = min(kmn, x - 1u);
            sj += (double)__uint_as_float(w);
        }
    }

    __device__ void trip(const rl_trip &t)
    {
        /* invalid vectors are zeros: they add nothing */
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            add_word(s[j], t.v[j].x);
            add_word(s[j], t.v[j].y);
            add_word(s[j], t.v[j].z);
            add_word(s[j], t.v[j].w);
        }
    }

    /* The head and tail elements (f16: in the low half of the word). */
    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        unsigned wa = va ? (unsigned)a : 0u, wb = vb ? (unsigned)b : 0u;
        add_word(s[0], wa);
        add_word(s[1], wb);
    }

    /* The thread's sum as one double (exact wherever the block's bound
     * holds) and the exponents that bound its elements: every element is
     * a multiple of 2^bottom and below 2^top in magnitude (top < bottom
     * when all are zero). False where an element is an infinity or NaN:
     * f32 by its key; f16 by the sum, which no finite f16 elements can
     * overflow. */
    __device__ bool lane(double &sum, int &top, int &bottom) const
    {
        sum = (s[0] + s[1]) + (s[2] + s[3]);
        if (HALF) {
            top = 16; /* every finite f16: a multiple of 2^-24 below 2^16 */
            bottom = -24;
            return isfinite(sum);
        }
        if (kmx >= 0x7f800000u)
            return false;
        unsigned lo = kmn + 1u; /* the smallest nonzero |bits|, 0 if none */
        top = kmx == 0 ? -1000 : max((int)(kmx >> 23), 1) - 126;
        bottom = kmx == 0 ? 1000 : max((int)(lo >> 23), 1) - 150;
        return true;
    }
};

/* A part of the sum as one double, with the bounds of its elements (as
 * double_acc::lane gives them); top DOUBLE_PART_SPECIAL where an element
 * is an infinity or NaN (a maximum keeps it). 16 bytes, no padding. */
struct __align__(16) double_part {
    double sum;
    int top, bottom;
};

#define DOUBLE_PART_SPECIAL (1 << 20)

/* Every lane's part combined over the lanes below span (a power of two;
 * every group of span lanes holding the same parts, as exact_rows_span
 * arranges): each pair of lanes adds the same two doubles, so every lane
 * ends with the same part. Every lane of the warp calls it. */
__device__ inline double_part double_part_warp(double_part p, unsigned span)
{
#pragma unroll
    for (unsigned off = 16; off > 0; off >>= 1)
        if (off < span)
            p.sum += __shfl_xor_sync(FULL_WARP, p.sum, off);
    p.top = __reduce_max_sync(FULL_WARP, p.top);
    p.bottom = __reduce_min_sync(FULL_WARP, p.bottom);
    return p;
}

/* The part that holds nothing (a lane past the last row). */
__device__ inline double_part double_part_none()
{
    double_part p = {0.0, -1000, 1000};
    return p;
}

/* The result's bits from the whole sum's part p of n elements, or false
 * where p cannot give them. Where ceil(log2(n)) + top - bottom <= 53 (or
 * every element is zero) p.sum is the exact sum (the file's comment): an
 * f64 result is p.sum, an f32 one its rounding (a zero sum +0). Otherwise,
 * for an f32 result only, p.sum is certified: the sum's additions form a
 * tree at most 64 deep (a thread's at most 11, the warp's 5, the rows' 5,
 * a cluster's 4), and a double sum by a tree of depth h is within
 * h 2^-53 / (1 - h 2^-53) < 2^-46.9 of the sum of the elements'
 * magnitudes (no addition underflows: every partial sum is a multiple of
 * 2^-149, far above a double's subnormals), which is below n 2^top. So the
 * exact sum lies within err = 2^(ceil(log2 n) + top - 46) of p.sum; where
 * both ends of that interval, rounded outwards, round to the same f32
 * bits, those are the exact sum's correct rounding (rounding to nearest
 * is monotonic). Any other p (an infinity or NaN among the elements, an
 * interval that straddles a rounding boundary or zero) returns false:
 * the exact path decides. Every thread may call it, with the same p. */
__device__ inline bool double_part_bits(const double_part &p, unsigned long long n,
                                        bool to_f64, unsigned long long &bits)
{
    if (p.top >= DOUBLE_PART_SPECIAL)
        return false;
    int log2m = n <= 1 ? 0 : 64 - __clzll(n - 1); /* ceil */
    if (p.top <= p.bottom || log2m + p.top - p.bottom <= 53) {
        double sum = p.sum == 0.0 ? 0.0 : p.sum; /* +0: -0 + -0 is -0 */
        bits = to_f64 ? (unsigned long long)__double_as_longlong(sum)
                      : __float_as_uint(__double2float_rn(sum));
        return true;
    }
    if (to_f64)
        return false;
    double err = pow2(log2m + p.top - 46);
    unsigned lo = __float_as_uint(__double2float_rn(__dsub_rd(p.sum, err)));
    unsigned hi = __float_as_uint(__double2float_rn(__dadd_ru(p.sum, err)));
    bits = lo;
    return lo == hi;
}

/* Writes the sum of a one-trip grid of f32 (ELEM 4) or f16 (ELEM 2)
 * elements by doubles and returns true in every thread, or returns false
 * in every thread, having written nothing, where double_part_bits cannot
 * give the result, or where the launch is neither one block nor (f32 with
 * an f32 result) one cluster, or the sharded path wants the exact state.
 * A cluster's blocks each send their part to every block's shared memory
 * (distributed shared memory, between two phases of the cluster barrier),
 * so every block decides alike; the leader writes. Every thread calls it
 * first, before exact_block_begin (it uses none of the exact path's shared
 * state) and the exact path's own visit of the elements. */
template <unsigned ELEM>
__device__ bool exact_block_double(xacc_family f, const cured_reduce_kernel_args &a)
{
    typedef double_acc<ELEM == 2> Acc;
    __shared__ double_part rows[32];
    __shared__ double_part blocks[CURED_REDUCE_CLUSTER_MAX];
    unsigned cluster = exact_cluster_size();
    bool leader = true;
    bool to_f64 = f == XACC_F64 || (a.flags & CURED_REDUCE_F64);
    if (gridDim.x != cluster || (a.flags & SHARD_KERNEL_STATE) ||
        (cluster > 1 && (ELEM != 4 || to_f64)) || (ELEM == 2 && a.n > HALF_EXACT_MAX))
        return false;
    if (cluster > 1)
        exact_cluster_arrive(false); /* the phase that every block has started */
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    Acc acc;
    acc.init();
    rl_visit_array<ELEM, Acc, true>(a.in, a.n, acc);
    double_part p = double_part_none();
    if (!acc.lane(p.sum, p.top, p.bottom))
        p.top = DOUBLE_PART_SPECIAL;
    p = double_part_warp(p, 32);
    if (lane == 0)
        rows[warp] = p;
    __syncthreads();
    /* every warp reads the same rows, so every thread decides alike */
    unsigned span = exact_rows_span(warps), row = lane & (span - 1);
    p = double_part_warp(row < warps ? rows[row] : double_part_none(), span);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (cluster > 1) {
        unsigned rank = __clusterRelativeBlockRank();
        exact_cluster_wait();
        if (warp == 0 && lane < cluster)
            ((double_part *)__cluster_map_shared_rank(blocks, lane))[rank] = p;
        exact_cluster_arrive(true);
        exact_cluster_wait(); /* every block's part, in every block */
        span = exact_rows_span(cluster);
        row = lane & (span - 1);
        p = double_part_warp(row < cluster ? blocks[row] : double_part_none(), span);
        leader = rank == 0;
    }
#endif
    unsigned long long bits;
    if (!double_part_bits(p, a.n, to_f64, bits))
        return false;
    if (leader && threadIdx.x == 0) {
        if (to_f64)
            *(unsigned long long *)a.out = bits;
        else
            *(unsigned *)a.out = (unsigned)bits;
    }
    return true;
}

#endif /* CURED_SUM_DOUBLE_CUH */
