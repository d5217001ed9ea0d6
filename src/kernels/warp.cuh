/* warp.cuh - the warp layer of the catalogue: the sum operator and the warp sum.
 *
 * defines: sum_op, FULL_MASK, warp_lane_mask, warp_sum
 *
 * The smallest layer. Everything above it (block.cuh, classic.cu, grid.cu)
 * adds through sum_op and reduces a warp through warp_sum, so there is one
 * place that says what "add" means for each element type and one place that
 * gets the shuffle masks right.
 */
#ifndef CURED_WARP_CUH
#define CURED_WARP_CUH

#define FULL_MASK 0xffffffffu

// ----------------------------------------------------------------------------
// The operator

/* sum_op: addition, the reduction's operator, with its identity.
 *
 * Floats add as IEEE does (round to nearest, no flush to zero). Integers wrap
 * modulo 2^bits: the signed ones add through their unsigned twins, because a
 * signed overflow is undefined behaviour in C++ and the compiler may assume it
 * never happens; two's complement makes the unsigned sum the same bits. */
struct sum_op {
    template <typename T> __device__ static T identity() { return T(0); }

    __device__ static float apply(float a, float b) { return a + b; }
    __device__ static double apply(double a, double b) { return a + b; }
    __device__ static unsigned apply(unsigned a, unsigned b) { return a + b; }
    __device__ static unsigned long long apply(unsigned long long a,
                                               unsigned long long b)
    {
        return a + b;
    }
    __device__ static int apply(int a, int b)
    {
        return (int)((unsigned)a + (unsigned)b);
    }
    __device__ static long long apply(long long a, long long b)
    {
        return (long long)((unsigned long long)a + (unsigned long long)b);
    }
};

// ----------------------------------------------------------------------------
// Masks

/* The lanes of the calling thread's warp that exist: all 32 (FULL_MASK) when
 * the block's size is a multiple of 32, else for the last warp only the
 * lanes [0, blockDim.x % 32). A `_sync` primitive whose mask names a lane
 * that never arrives hangs or is undefined, so FULL_MASK is wrong there.
 * Computed from blockDim, not from __activemask(): __activemask() says which
 * lanes happen to be converged now, not which ones will arrive.
 * One-dimensional blocks. Can't fail. */
__device__ inline unsigned warp_lane_mask()
{
    unsigned first = threadIdx.x & ~31u;
    unsigned lanes = blockDim.x - first;
    return lanes >= 32 ? FULL_MASK : (1u << lanes) - 1;
}

// ----------------------------------------------------------------------------
// The warp sum

/* Sums v over the lanes named in `mask` with shuffles, register to register:
 * five rounds (offsets 16, 8, 4, 2, 1), no shared memory, no barrier.
 * Lane 0 gets the sum; the other lanes get partial sums, to be ignored.
 *
 * `mask` must be a prefix of the warp, lanes [0, k) for some 1 <= k <= 32
 * (what warp_lane_mask() gives, or a __ballot_sync of `lane < k`), and every
 * lane it names must call this with the same mask. A lane whose partner
 * lane + offset is beyond the k-th reads nothing it keeps: __shfl_down_sync
 * from a lane outside the mask returns an undefined value, so the add is
 * guarded, which for a full warp (k = 32) costs one compare per round.
 * The additions form a tree of depth 5. */
template <typename T>
__device__ T warp_sum(T v, unsigned mask)
{
    unsigned lane = threadIdx.x & 31u;
    unsigned k = (unsigned)__popc(mask);
    for (unsigned offset = 16; offset > 0; offset >>= 1) {
        T other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < k)
            v = sum_op::apply(v, other);
    }
    return v;
}

#endif /* CURED_WARP_CUH */
