/* sum_double.cuh - the one-block short way of cured_reduce's exact f32 and
 * f16 sums: where the block's elements span few enough binades that every
 * partial sum of them is a double, the block adds its threads' f64
 * accumulators as doubles and rounds that exact double once. No 128-bit
 * integers, redux chains or digits: a single tile's fixed cost.
 *
 * defines: exact_block_double
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
 * at most 53 - 24 - 12 = 17 binades (4096 elements a block) takes it:
 * 4096 elements uniform in [-0.5, 0.5) span 12 on average. f16 takes it
 * in blocks of up to 256 threads (8192 elements: 13 + 16 + 24 = 53).
 * Elsewhere (wider data, a special, a misaligned head or tail, larger
 * blocks) the block goes on by the exact integer path.
 */
#ifndef CURED_SUM_DOUBLE_CUH
#define CURED_SUM_DOUBLE_CUH

#include "reduce_kernels.h"
#include "shard_state.h"
#include "sum_block.cuh"
#include "wide_int.cuh"
#include "xacc.h"

/* Writes the exact sum of a one-block, one-trip grid by doubles and
 * returns true in every thread; returns false in every thread, having
 * written nothing, where the bound above fails for the block or a thread
 * declines (Acc::lane_double), or where the launch is not one block
 * outside a cluster, or the sharded path wants the exact state. Every
 * thread calls it after its only trip, before acc.finish(); acc is left
 * as it was. */
template <typename Acc>
__device__ bool exact_block_double(const Acc &acc, xacc_family f,
                                   const cured_reduce_kernel_args &a)
{
    __shared__ double warp_sum_d[32];
    __shared__ int warp_top[32], warp_bottom[32];
    __shared__ unsigned warp_ok[32];
    if (gridDim.x != 1 || exact_cluster_size() != 1 || (a.flags & SHARD_KERNEL_STATE))
        return false;
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    double sum = 0.0;
    int top = -1000, bottom = 1000;
    bool ok = acc.lane_double(sum, top, bottom);
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
    bool in = lane < warps;
    top = __reduce_max_sync(FULL_WARP, in ? warp_top[lane] : -1000);
    bottom = __reduce_min_sync(FULL_WARP, in ? warp_bottom[lane] : 1000);
    ok = __all_sync(FULL_WARP, !in || warp_ok[lane]);
    int log2m = 32 - __clz(blockDim.x * Acc::DOUBLE_ELEMS - 1); /* ceil */
    if (!ok || (top > bottom && log2m + top - bottom > 53))
        return false;
    if (warp == 0) {
        sum = in ? warp_sum_d[lane] : 0.0;
#pragma unroll
        for (int off = 16; off > 0; off >>= 1)
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
