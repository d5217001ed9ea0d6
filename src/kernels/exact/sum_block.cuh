/* sum_block.cuh - the block and grid layers of cured_reduce's exact float
 * sums: the threads' exact sums combined, exactly, into one set of digits
 * per block, the blocks' digits into one sum, rounded once.
 *
 * defines: exact_block_state, exact_block_sum, exact_grid_finish
 *
 * Block: each warp sums its lanes' 128-bit integers with shuffles (the
 * lanes of a warp share the window base q, sum_thread.cuh); lane 0 of
 * each warp leaves (q, sum) in shared memory; warp 0 then owns the digits
 * (lane l digits l, l + 32, ...) and adds into each the pieces of every
 * warp's sum that fall on it and the shared superaccumulator's digit.
 * One carry step bounds every digit below 2^33 (xacc_carry_step) and the
 * nonzero span [lo, hi) is found.
 * Grid: one block writes the result directly. Otherwise each block writes
 * its span of digits and a header to its partial in the workspace, fences,
 * takes a ticket; the last block adds the spans of all partials digit by
 * digit (no partial reads outside its own span, so nothing is left over
 * from an earlier call), normalises, rounds, writes, and re-arms the
 * ticket counter for the next call.
 */
#ifndef CURED_SUM_BLOCK_CUH
#define CURED_SUM_BLOCK_CUH

#include "reduce_kernels.h"
#include "shard_state.h"
#include "sum_thread.cuh"
#include "xacc.h"

/* What a block keeps in shared memory for its sum. */
template <int NDIG>
struct exact_block_state {
    int64_t digits[NDIG];       /* the superaccumulator, then the block's digits */
    unsigned long long wlo[32]; /* per warp: its 128-bit sum ... */
    unsigned long long whi[32];
    int wq[32];                 /* ... at base wq (-1: zero) */
    unsigned special;
    int lo, hi;                 /* the block's nonzero digit span */
    unsigned am_last;
    unsigned short glo[CURED_REDUCE_MAX_BLOCKS]; /* last block: the spans */
    unsigned short ghi[CURED_REDUCE_MAX_BLOCKS];
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

/* The pieces of warp w's sum that fall on digit D. */
template <int NDIG>
__device__ int64_t warp_piece(const exact_block_state<NDIG> &s, int w, int D)
{
    if (s.wq[w] < 0)
        return 0;
    uint64_t lo = s.wlo[w], hi = s.whi[w];
    if ((lo | hi) == 0)
        return 0;
    int neg = (int)(hi >> 63);
    if (neg) {
        lo = ~lo + 1;
        hi = ~hi + (lo == 0);
    }
    int64_t piece[5];
    int k = xacc_pieces(hi, lo, neg, s.wq[w], piece);
    int64_t v = 0;
#pragma unroll
    for (int j = 0; j < 5; j++)
        if (D == k + j)
            v = piece[j];
    return v;
}

/* The block's exact sum: every thread calls it after its accumulator's
 * finish() with that accumulator's (acc, q, special). Afterwards (a
 * barrier) s.digits holds the block's digits after one carry step, s.lo
 * and s.hi their nonzero span, s.special the block's special bits. */
template <int NDIG>
__device__ void exact_block_sum(exact_block_state<NDIG> &s, u128 acc, int q,
                                unsigned special)
{
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    u128 w = warp_sum_u128(acc);
    unsigned sp = __reduce_or_sync(FULL_WARP, special);
    if (lane == 0) {
        s.wlo[warp] = (unsigned long long)w.w1 << 32 | w.w0;
        s.whi[warp] = (unsigned long long)w.w3 << 32 | w.w2;
        s.wq[warp] = q;
        if (sp)
            atomicOr(&s.special, sp);
    }
    __syncthreads();
    if (warp == 0) {
        const int PER = (NDIG + 31) / 32;
        int nwarps = (int)(blockDim.x >> 5);
        int64_t d[PER];
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            d[i] = 0;
            if (D < NDIG) {
                d[i] = s.digits[D];
                for (int v = 0; v < nwarps; v++)
                    d[i] += warp_piece(s, v, D);
            }
        }
        __syncwarp();
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG)
                s.digits[D] = d[i];
        }
        __syncwarp();
        /* one carry step: digit D keeps its low 32 bits, takes D-1's carry */
        int lo = NDIG, hi = 0;
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG) {
                int64_t below = D > 0 ? s.digits[D - 1] >> 32 : 0;
                d[i] = (D < NDIG - 1 ? (d[i] & 0xffffffffll) : d[i]) + below;
                if (d[i] != 0) {
                    lo = min(lo, D);
                    hi = max(hi, D + 1);
                }
            }
        }
        __syncwarp();
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG)
                s.digits[D] = d[i];
        }
        lo = __reduce_min_sync(FULL_WARP, lo);
        hi = __reduce_max_sync(FULL_WARP, hi);
        if (lane == 0) {
            s.lo = lo;
            s.hi = hi;
        }
    }
    __syncthreads();
}

/* Rounds normalised digits d[lo..NDIG) and writes the result: f32 or f64
 * per flags, specials first; in the sharded path's state mode
 * (SHARD_KERNEL_STATE) writes the exact state instead, for the ranks to
 * combine (shard_state.h). One thread. */
template <int NDIG>
__device__ void exact_write(xacc_family f, int64_t *d, int lo, unsigned special,
                            const cured_reduce_kernel_args &a)
{
    if (a.flags & SHARD_KERNEL_STATE) {
        shard_put_sum((uint64_t *)a.out, d, lo, NDIG, NDIG, special);
        return;
    }
    int to_f64 = f == XACC_F64 || (a.flags & CURED_REDUCE_F64);
    uint64_t bits;
    if (special) {
        bits = xacc_special_result(special, to_f64);
    } else {
        if (lo < NDIG)
            xacc_normalize(d, lo, NDIG);
        bits = lo < NDIG ? xacc_round(f, d, lo, NDIG, to_f64) : 0;
    }
    if (to_f64)
        *(unsigned long long *)a.out = bits;
    else
        *(unsigned *)a.out = (unsigned)bits;
}

/* Ends the kernel after exact_block_sum: writes the result (one block), or
 * this block's partial and, in the last block to finish, the combination
 * of all partials. Every thread calls it. */
template <int NDIG>
__device__ void exact_grid_finish(exact_block_state<NDIG> &s, xacc_family f,
                                  const cured_reduce_kernel_args &a)
{
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    if (gridDim.x == 1) {
        if (threadIdx.x == 0)
            exact_write<NDIG>(f, s.digits, s.lo < s.hi ? s.lo : NDIG, s.special, a);
        return;
    }
    char *ws = (char *)a.workspace;
    unsigned *counter = (unsigned *)ws;
    unsigned long long *partials =
        (unsigned long long *)(ws + CURED_REDUCE_STATE_BYTES);
    const int STRIDE = CURED_REDUCE_PARTIAL_BYTES / 8;

    if (warp == 0) {
        unsigned long long *mine = partials + (size_t)blockIdx.x * STRIDE;
        int lo = s.lo, hi = s.hi;
        if (lane == 0)
            mine[0] = (unsigned long long)s.special |
                      (unsigned long long)(lo < hi ? lo : 0) << 8 |
                      (unsigned long long)(lo < hi ? hi : 0) << 16;
        for (int D = lo + (int)lane; D < hi; D += 32)
            mine[1 + D] = (unsigned long long)s.digits[D];
        __threadfence(); /* each writer's stores, before the ticket */
        __syncwarp();
        if (lane == 0) {
            unsigned ticket = atomicAdd(counter, 1u);
            s.am_last = ticket == gridDim.x - 1;
        }
    }
    __syncthreads();
    if (!s.am_last)
        return;

    /* The last block: every other block's partial is written and fenced. */
    __threadfence();
    for (int i = threadIdx.x; i < NDIG; i += blockDim.x)
        s.digits[i] = 0;
    if (threadIdx.x == 0) {
        s.lo = NDIG;
        s.hi = 0;
        s.special = 0;
    }
    __syncthreads();
    int G = (int)gridDim.x;
    for (int g = threadIdx.x; g < G; g += blockDim.x) {
        unsigned long long h = __ldcg(partials + (size_t)g * STRIDE);
        int lo = (int)(h >> 8 & 0xff), hi = (int)(h >> 16 & 0xff);
        s.glo[g] = (unsigned short)lo;
        s.ghi[g] = (unsigned short)hi;
        if ((unsigned)h & 0xff)
            atomicOr(&s.special, (unsigned)h & 0xffu);
        if (lo < hi) {
            atomicMin(&s.lo, lo);
            atomicMax(&s.hi, hi);
        }
    }
    __syncthreads();
    int ulo = s.lo, span = s.hi - s.lo;
    int B = (int)blockDim.x, t = (int)threadIdx.x;
    /* digits D0 .. D0 + width at a time, P threads per digit */
    for (int D0 = 0; D0 < span; D0 += B) {
        int width = min(span - D0, B);
        int P = B / width;
        if (t < width * P) {
            int D = ulo + D0 + t % width;
            int64_t sum = 0;
            for (int g = t / width; g < G; g += P)
                if (s.glo[g] <= D && D < s.ghi[g])
                    sum += (int64_t)__ldcg(partials + (size_t)g * STRIDE + 1 + D);
            if (sum != 0)
                atomicAdd((unsigned long long *)&s.digits[D],
                          (unsigned long long)sum);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        exact_write<NDIG>(f, s.digits, span > 0 ? ulo : NDIG, s.special, a);
        *counter = 0; /* re-armed for the next call */
    }
}

#endif /* CURED_SUM_BLOCK_CUH */
