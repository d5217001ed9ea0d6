/* sum_double.cuh - the one-block short way of cured_reduce's exact f32 and
 * f16 sums: where the block's elements span few enough binades that every
 * partial sum of them is a double, the block adds them as doubles and
 * rounds that exact double once. No windows, 128-bit integers, redux
 * chains or digits: a single tile's fixed cost.
 *
 * defines: double_acc, exact_block_double
 *
 * Why it is exact: every element is a multiple of 2^B (B the smallest of
 * the threads' `bottom`) and below 2^T in magnitude (T the largest `top`),
 * so a sum of any m of them is a multiple of 2^B below m 2^T. Where
 * ceil(log2(M)) + T - B <= 53, M the block's elements at most, every such
 * sum is an integer below 2^53 in units 2^B: a double holds it exactly,
 * and every addition of two of them, whatever the order, returns it
 * exactly. The block's sum S is then the exact sum, and converting S once
 * to f32 (to nearest, ties to even; beyond the range, an infinity) is the
 * correct rounding; an f64 result is S itself. A zero sum is +0, as on
 * every other path (docs/exact.md). f32 data whose nonzero elements span
 * at most 53 - 24 - 12 = 17 binades (4096 elements a block) take it:
 * 4096 elements uniform in [-0.5, 0.5) span 12 on average. f16 takes it
 * in blocks of up to 256 threads (8192 elements: 13 + 16 + 24 = 53).
 * Elsewhere (wider data, a special, larger blocks) the block goes on by
 * the exact integer path, which reads its elements again.
 */
#ifndef CURED_SUM_DOUBLE_CUH
#define CURED_SUM_DOUBLE_CUH

#include "acc_half.cuh"
#include "reduce_kernels.h"
#include "reduce_load.cuh"
#include "shard_state.h"
#include "sum_block.cuh"
#include "xacc.h"

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

/* Writes the exact sum of a one-block, one-trip grid of f32 (ELEM 4) or
 * f16 (ELEM 2) elements by doubles and returns true in every thread;
 * returns false in every thread, having written nothing, where the bound
 * above fails for the block or a thread declines, or where the launch is
 * not one block outside a cluster, or the sharded path wants the exact
 * state. Every thread calls it first, before exact_block_begin (it uses
 * none of the exact path's shared state) and the exact path's own visit
 * of the elements. */
template <unsigned ELEM>
__device__ bool exact_block_double(xacc_family f, const cured_reduce_kernel_args &a)
{
    typedef double_acc<ELEM == 2> Acc;
    __shared__ double warp_sum_d[32];
    __shared__ int warp_top[32], warp_bottom[32];
    __shared__ unsigned warp_ok[32];
    if (gridDim.x != 1 || exact_cluster_size() != 1 || (a.flags & SHARD_KERNEL_STATE))
        return false;
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    Acc acc;
    acc.init();
    rl_visit_array<ELEM, Acc, true>(a.in, a.n, acc);
    double sum = 0.0;
    int top = -1000, bottom = 1000;
    bool ok = acc.lane(sum, top, bottom);
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        sum += __shfl_xor_sync(FULL_WARP, sum, off);
    top = __reduce_max_sync(FULL_WARP, top);
    bottom = __reduce_min_sync(FULL_WARP, bottom);
    ok = __all_sync(FULL_WARP, ok);
    if (lane == 0) {
        warp_sum_d[warp] = sum;
        warp_top[warp] = top;
        warp_bottom[warp] = bottom;
        warp_ok[warp] = ok;
    }
    __syncthreads();
    /* every warp reads the same rows, so every thread decides alike */
    unsigned span = exact_rows_span(warps), row = lane & (span - 1);
    bool in = row < warps;
    top = __reduce_max_sync(FULL_WARP, in ? warp_top[row] : -1000);
    bottom = __reduce_min_sync(FULL_WARP, in ? warp_bottom[row] : 1000);
    ok = __all_sync(FULL_WARP, !in || warp_ok[row]);
    int log2m = 32 - __clz(blockDim.x * Acc::ELEMS - 1); /* ceil */
    if (!ok || (top > bottom && log2m + top - bottom > 53))
        return false;
    if (warp == 0) {
        sum = in ? warp_sum_d[row] : 0.0;
#pragma unroll
        for (unsigned off = 16; off > 0; off >>= 1)
            if (off < span)
                sum += __shfl_xor_sync(FULL_WARP, sum, off);
        if (lane == 0) {
            if (sum == 0.0)
                sum = 0.0; /* +0: -0 + -0 is -0 in doubles */
            if (f == XACC_F64 || (a.flags & CURED_REDUCE_F64))
                *(double *)a.out = sum;
            else
                *(float *)a.out = __double2float_rn(sum);
        }
    }
    return true;
}

#endif /* CURED_SUM_DOUBLE_CUH */
