/* sum_block.cuh - the block and grid layers of cured_reduce's exact float
 * sums: the threads' exact sums combined, exactly, into one set of digits
 * per block, the blocks' digits into one sum, rounded once.
 *
 * defines: EXACT_WS_*, exact_block_state, exact_block_begin,
 *          exact_block_sum, exact_grid_finish
 *
 * Each warp sums its lanes' integers in 160 bits and adds them to the
 * block's digits in shared memory. One block rounds and writes the result;
 * otherwise each block adds its digits to the workspace's with global
 * atomics and takes a ticket, and the last block reads, zeroes (for the
 * next call), rounds and writes. The steps, and why no digit overflows:
 * docs/exact.md, "The GPU kernel".
 */
#ifndef CURED_SUM_BLOCK_CUH
#define CURED_SUM_BLOCK_CUH

#include "reduce_kernels.h"
#include "shard_state.h"
#include "sum_thread.cuh"
#include "xacc.h"

/* The workspace's state (CURED_REDUCE_STATE_BYTES, zero between calls):
 * the ticket counter, the special bits of an exact sum, its digits. */
#define EXACT_WS_COUNTER 0
#define EXACT_WS_SPECIAL 4
#define EXACT_WS_DIGITS 8

/* What a block keeps in shared memory for its sum. */
template <int NDIG>
struct exact_block_state {
    int64_t digits[NDIG]; /* the superaccumulator, then the block's digits */
    unsigned special;
};

/* Zeroes the superaccumulator and the flags; ends with a barrier. Every
 * thread calls it. */
template <int NDIG>
__device__ void exact_block_begin(exact_block_state<NDIG> &s)
{
    for (int i = threadIdx.x; i < NDIG; i += blockDim.x)
        s.digits[i] = 0;
    if (threadIdx.x == 0)
        s.special = 0;
    __syncthreads();
}

/* The block's exact sum: every thread calls it after its accumulator's
 * finish() with that accumulator's (total, base, special). Afterwards (a
 * barrier) s.digits holds the block's carry-save digits and s.special its
 * special bits. */
template <int NDIG>
__device__ void exact_block_sum(exact_block_state<NDIG> &s, u160 acc, int q,
                                unsigned special)
{
    unsigned lane = threadIdx.x & 31u;
    u160 w = warp_sum_u160(acc); /* in every lane */
    unsigned sp = __reduce_or_sync(FULL_WARP, special);
    if (q >= 0 && lane < 6 && !u160_is_zero(w)) {
        int k;
        int64_t piece = u160_piece(w, q, lane, &k);
        if (piece != 0)
            atomicAdd((unsigned long long *)&s.digits[k + (int)lane],
                      (unsigned long long)piece);
    }
    if (lane == 0 && sp)
        atomicOr(&s.special, sp);
    __syncthreads();
}

/* Rounds d[lo..hi) (f32 or f64 per flags and family) and writes the
 * result, specials first; in the sharded path's state mode
 * (SHARD_KERNEL_STATE) writes the exact state instead, for the ranks to
 * combine (shard_state.h). One thread. */
__device__ inline void exact_write(xacc_family f, int64_t *d, int lo, int hi,
                                   unsigned special, const cured_reduce_kernel_args &a)
{
    if (a.flags & SHARD_KERNEL_STATE) {
        shard_put_sum((uint64_t *)a.out, d, lo, hi, xacc_family_of(f).ndig, special);
        return;
    }
    int to_f64 = f == XACC_F64 || (a.flags & CURED_REDUCE_F64);
    uint64_t bits = special ? xacc_special_result(special, to_f64)
                            : xacc_round(f, d, lo, hi, to_f64);
    if (to_f64)
        *(unsigned long long *)a.out = bits;
    else
        *(unsigned *)a.out = (unsigned)bits;
}

/* The nonzero span [lo, hi) of the digits that warp 0's lanes hold (digit
 * lane + 32 i in d[i]), in every lane; lo >= hi when all are zero. */
template <int NDIG>
__device__ void digit_span(const int64_t (&d)[(NDIG + 31) / 32], int *lo, int *hi)
{
    unsigned lane = threadIdx.x & 31u;
    int l = NDIG, h = 0;
#pragma unroll
    for (int i = 0; i < (NDIG + 31) / 32; i++) {
        int D = (int)lane + 32 * i;
        if (D < NDIG && d[i] != 0) {
            l = min(l, D);
            h = max(h, D + 1);
        }
    }
    *lo = __reduce_min_sync(FULL_WARP, l);
    *hi = __reduce_max_sync(FULL_WARP, h);
}

/* Ends the kernel after exact_block_sum: writes the result (one block), or
 * adds this block's digits to the workspace and, in the last block to
 * finish, rounds their sum and writes it. Every thread calls it; only
 * warp 0 works. */
template <int NDIG>
__device__ void exact_grid_finish(exact_block_state<NDIG> &s, xacc_family f,
                                  const cured_reduce_kernel_args &a)
{
    const int PER = (NDIG + 31) / 32;
    unsigned lane = threadIdx.x & 31u;
    if (threadIdx.x >= 32)
        return;
    /* One carry step: digit D keeps its low 32 bits and takes D-1's carry
     * (the top digit keeps all of its own): every digit below 2^33. */
    int64_t d[PER];
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        d[i] = 0;
        if (D < NDIG) {
            int64_t below = D > 0 ? s.digits[D - 1] >> 32 : 0;
            d[i] = (D < NDIG - 1 ? (s.digits[D] & 0xffffffffll) : s.digits[D]) + below;
        }
    }
    int lo, hi;
    if (gridDim.x == 1) {
        __syncwarp();
#pragma unroll
        for (int i = 0; i < PER; i++)
            if ((int)lane + 32 * i < NDIG)
                s.digits[lane + 32 * i] = d[i];
        digit_span<NDIG>(d, &lo, &hi);
        __syncwarp();
        if (lane == 0)
            exact_write(f, s.digits, lo, hi, s.special, a);
        return;
    }
    char *ws = (char *)a.workspace;
    unsigned *counter = (unsigned *)(ws + EXACT_WS_COUNTER);
    unsigned *gspecial = (unsigned *)(ws + EXACT_WS_SPECIAL);
    unsigned long long *gd = (unsigned long long *)(ws + EXACT_WS_DIGITS);
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        if (D < NDIG && d[i] != 0)
            atomicAdd(gd + D, (unsigned long long)d[i]);
    }
    if (lane == 0 && s.special)
        atomicOr(gspecial, s.special);
    __threadfence(); /* each lane's adds, before the ticket */
    __syncwarp();
    unsigned last = 0;
    if (lane == 0)
        last = atomicAdd(counter, 1u) == gridDim.x - 1;
    if (!__shfl_sync(FULL_WARP, last, 0))
        return;

    /* The last block: every block's adds are done and fenced. Sums of at
     * most 4096 digits below 2^33: below 2^45. */
    __threadfence();
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        if (D < NDIG) {
            d[i] = (int64_t)__ldcg(gd + D);
            s.digits[D] = d[i];
            gd[D] = 0; /* re-armed for the next call */
        }
    }
    digit_span<NDIG>(d, &lo, &hi);
    __syncwarp();
    if (lane == 0) {
        unsigned special = __ldcg(gspecial);
        exact_write(f, s.digits, lo, hi, special, a);
        *gspecial = 0;
        *counter = 0; /* re-armed for the next call */
    }
}

#endif /* CURED_SUM_BLOCK_CUH */
