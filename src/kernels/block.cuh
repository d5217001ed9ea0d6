/* block.cuh - the block layer of the catalogue: shared memory and the block sum.
 *
 * defines: block_shared, block_sum
 *
 * Uses only the warp layer (warp.cuh). The hybrid block sum is the warp-shuffle lesson's (docs/lesson.md):
 * each warp sums its lanes with shuffles, lane 0 of each warp writes one value
 * to shared memory, one barrier, then warp 0 sums those values with shuffles.
 */
#ifndef CURED_BLOCK_CUH
#define CURED_BLOCK_CUH

#include "warp.cuh"

/* The block's dynamic shared memory (the launch's third <<< >>> argument),
 * seen as an array of T. One byte array for every kernel and element type:
 * an `extern __shared__ T s[]` inside a template would declare the same
 * symbol with a different type for each T, which C++ rejects. Aligned for
 * 8-byte elements (nvcc raises it to 16): in PTX
 * `.extern .shared .align 16 .b8 block_smem[];`. */
extern __shared__ __align__(8) unsigned char block_smem[];

template <typename T>
__device__ inline T *block_shared()
{
    return (T *)block_smem;
}

/* Sums v over every thread of the block, the hybrid way: warp_sum in each
 * warp, lane 0 of warp w stores warp_sums[w], __syncthreads(), warp 0 loads
 * the blockDim.x/32 warp sums and sums them with shuffles.
 *
 * Every thread of the block must call it, converged (it holds a barrier).
 * warp_sums is shared memory for at least (blockDim.x + 31) / 32 values.
 * Thread 0 gets the block's sum; other threads get partial sums.
 * A caller that calls it twice with the same warp_sums must put a
 * __syncthreads() between the calls: warp 0 may still be reading the first
 * round's values when another warp writes the second's.
 *
 * Warp 0's mask comes from __ballot_sync over `lane < number of warps`: with
 * 8 warps only lanes 0..7 hold a value and take part, and FULL_MASK would
 * name 24 lanes that never reach the shuffle. The depth of the additions is
 * log2(blockDim.x) for a power-of-two block. Costs per block: 5 shuffles per
 * warp, one shared store per warp, one barrier, one shared load per warp,
 * and 5 more shuffles in warp 0. No bank conflicts (consecutive words). */
template <typename T>
__device__ T block_sum(T v, T *warp_sums)
{
    unsigned lane = threadIdx.x & 31u;
    unsigned warp = threadIdx.x >> 5;
    unsigned nwarps = (blockDim.x + 31) >> 5;

    v = warp_sum(v, warp_lane_mask());
    if (lane == 0)
        warp_sums[warp] = v;
    __syncthreads();
    if (warp == 0) {
        unsigned mask = __ballot_sync(warp_lane_mask(), lane < nwarps);
        if (lane < nwarps)
            v = warp_sum(warp_sums[lane], mask);
    }
    return v;
}

#endif /* CURED_BLOCK_CUH */
