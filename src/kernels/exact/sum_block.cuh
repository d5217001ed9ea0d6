/* sum_block.cuh - the block and grid layers of cured_reduce's exact float
 * sums: the threads' exact sums combined, exactly, into one set of digits
 * per block, the blocks' digits into one sum, rounded once.
 *
 * defines: EXACT_WS_*, exact_block_state, exact_block_begin,
 *          exact_block_sum, exact_block_digits, exact_write,
 *          exact_block_round, exact_block_pieces, exact_grid_finish
 *
 * Each warp sums its lanes' integers and stores the sum as six pieces in
 * its own row of shared memory (a grid of one block: its five words, made
 * into pieces only where the short way below declines); warp 0 gathers
 * the rows and the slow
 * paths' superaccumulator into the block's digits. One block rounds and
 * writes the result (in the common case straight from the warps' sums,
 * without digits: exact_block_round); in a thread-block cluster the other
 * blocks store their digits in the leader's shared memory first; otherwise
 * each block (leader) adds its digits to the workspace's with global
 * atomics and takes a ticket, and the last block reads them, zeroes them
 * (for the next call), rounds (round_warp.cuh) and writes.
 * The steps, and why no digit overflows: docs/exact.md, "The GPU kernel".
 */
#ifndef CURED_SUM_BLOCK_CUH
#define CURED_SUM_BLOCK_CUH

#include "reduce_kernels.h"
#include "round_warp.cuh"
#include "shard_state.h"
#include "sum_thread.cuh"
#include "xacc.h"

/* The workspace's state (CURED_REDUCE_STATE_BYTES, zero between calls):
 * the ticket counter, the special bits of an exact sum, its digits. (Sixteen
 * copies of the digits on lines of their own, block b adding into copy
 * b % 16, measured no faster: docs/results.md.) */
#define EXACT_WS_COUNTER 0
#define EXACT_WS_SPECIAL 4
#define EXACT_WS_DIGITS 8

/* What a block keeps in shared memory for its sum. */
template <int NDIG>
struct exact_block_state {
    int64_t digits[NDIG];      /* the superaccumulator (the slow paths') */
    int64_t warp_piece[32][6]; /* each warp's sum, as six pieces */
    int warp_first[32];        /* the digit of each warp's piece 0 */
    unsigned warp_total[32][5]; /* each warp's sum itself (a u160) */
    int warp_base[32];         /* its units' exponent q, -1 when zero */
    unsigned special;
    /* a cluster's leader: the other blocks' digits and special bits */
    int64_t cluster_digits[CURED_REDUCE_CLUSTER_MAX - 1][NDIG];
    unsigned cluster_special[CURED_REDUCE_CLUSTER_MAX - 1];
};

/* The blocks of this block's cluster: 1 outside a cluster and before
 * sm_90 (and in the model, which runs a launch as one without clusters). */
__device__ inline unsigned exact_cluster_size()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __clusterSizeInBlocks();
#else
    return 1;
#endif
}

/* The cluster barrier (sm_90; never called where exact_cluster_size() is
 * 1): arrive with release or relaxed semantics, wait with acquire. */
__device__ inline void exact_cluster_arrive(bool release)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    if (release)
        __cluster_barrier_arrive();
    else
        __cluster_barrier_arrive_relaxed();
#endif
}

__device__ inline void exact_cluster_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __cluster_barrier_wait();
#endif
}

/* Zeroes the superaccumulator and the flags; ends with a barrier. In a
 * cluster, every thread also arrives at the cluster barrier's first phase
 * (waited for before any block writes to another's shared memory: then
 * every block of the cluster has started). Every thread calls it. */
template <int NDIG>
__device__ void exact_block_begin(exact_block_state<NDIG> &s)
{
    if (exact_cluster_size() > 1)
        exact_cluster_arrive(false);
    for (int i = threadIdx.x; i < NDIG; i += blockDim.x)
        s.digits[i] = 0;
    if (threadIdx.x == 0)
        s.special = 0;
    __syncthreads();
}

/* Each warp's exact sum into its row of s: every thread calls it after its
 * accumulator's finish() with that accumulator's (warp_total, base,
 * special); lanes 0..5 store the warp's six pieces (no atomics: a row per
 * warp), or in a grid of one block lanes 0..4 the sum's five words instead
 * (exact_block_round's; exact_block_pieces makes the pieces from them
 * where it declines); lane 0 stores the base and the pieces' first digit,
 * the special bits are ORed into s.special. Ends with a barrier. */
template <int NDIG>
__device__ void exact_block_sum(exact_block_state<NDIG> &s, u160 w, int q,
                                unsigned special)
{
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned sp = __reduce_or_sync(FULL_WARP, special);
    bool none = q < 0 || u160_is_zero(w);
    if (gridDim.x == 1) {
        if (lane < 5)
            s.warp_total[warp][lane] = lane == 0 ? w.w0 : lane == 1 ? w.w1
                                     : lane == 2 ? w.w2 : lane == 3 ? w.w3 : w.w4;
    } else if (lane < 6) {
        int k;
        s.warp_piece[warp][lane] = none ? 0 : u160_piece(w, q, lane, &k);
    }
    if (lane == 0) {
        s.warp_first[warp] = none ? -8 : q >> 5;
        s.warp_base[warp] = none ? -1 : q;
        if (sp)
            atomicOr(&s.special, sp);
    }
    __syncthreads();
}

/* The block's digits in warp 0's registers (digit lane + 32 i in d[i]):
 * the superaccumulator's plus every warp's pieces, then one carry step, so
 * that each digit lies in [-2^31, 2^32 + 2^31) (the top one: its whole
 * value). */
template <int NDIG>
__device__ void exact_block_digits(const exact_block_state<NDIG> &s,
                                   int64_t (&d)[warp_digit_count<NDIG>::PER])
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        d[i] = D < NDIG ? s.digits[D] : 0;
    }
    /* eight warps at a time, their loads independent of one another */
    for (unsigned w0 = 0; w0 < warps; w0 += 8) {
        int first[8];
#pragma unroll
        for (int u = 0; u < 8; u++)
            first[u] = w0 + u < warps ? s.warp_first[w0 + u] : -8;
#pragma unroll
        for (int u = 0; u < 8; u++)
#pragma unroll
            for (int i = 0; i < PER; i++) {
                int j = (int)lane + 32 * i - first[u];
                if (j >= 0 && j < 6)
                    d[i] += s.warp_piece[w0 + u][j];
            }
    }
    warp_carry_step<NDIG>(d);
}

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

/* The cluster's digits into its leader's (rank 0) warp 0: every other
 * block's warp 0 stores its digits d and special bits in the leader's
 * shared memory, releases them at the cluster barrier and returns false;
 * the leader's warp 0 waits there, adds them to its own d and special
 * (digits below 2^33 after the carry step: at most 16 of them, below
 * 2^37) and returns true. Warp 0 calls it, in a cluster only; the other
 * warps pass the barrier in exact_grid_finish. */
template <int NDIG>
__device__ bool exact_cluster_gather(exact_block_state<NDIG> &s,
                                     int64_t (&d)[warp_digit_count<NDIG>::PER],
                                     unsigned &special)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    unsigned rank = __clusterRelativeBlockRank(), size = __clusterSizeInBlocks();
    exact_cluster_wait(); /* every block of the cluster has started */
    if (rank != 0) {
        exact_block_state<NDIG> *lead =
            (exact_block_state<NDIG> *)__cluster_map_shared_rank(&s, 0);
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG)
                lead->cluster_digits[rank - 1][D] = d[i];
        }
        if (lane == 0)
            lead->cluster_special[rank - 1] = special;
        exact_cluster_arrive(true);
        return false;
    }
    exact_cluster_arrive(false);
    exact_cluster_wait(); /* every other block's stores */
    for (unsigned k = 0; k + 1 < size; k++) {
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG)
                d[i] += s.cluster_digits[k][D];
        }
        special |= s.cluster_special[k];
    }
#endif
    return true;
}

/* The short way to one block's result, for the common case: when no
 * element took a slow path (the superaccumulator is zero, no special
 * bits) and every warp with a nonzero sum has the same base q, the block's
 * sum is the plain sum of the warps' 160-bit sums in units 2^q (each below
 * 2^146 in magnitude, docs/exact.md, so 32 of them below 2^151: no
 * overflow), summed by redux.sync and rounded once, with no digits, carry
 * chains or ballots. Writes the result and returns true; returns false,
 * having written nothing, where the case is not that one (or where the
 * sharded path wants the exact state). Warp 0 calls it, after
 * exact_block_sum's barrier, in a grid of one block outside a cluster. */
template <int NDIG>
__device__ bool exact_block_round(const exact_block_state<NDIG> &s, xacc_family f,
                                  const cured_reduce_kernel_args &a)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
    if (a.flags & SHARD_KERNEL_STATE)
        return false;
    int q = lane < warps ? s.warp_base[lane] : -1;
    bool clean = true;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        if (D < NDIG && s.digits[D] != 0)
            clean = false;
    }
    int top = __reduce_max_sync(FULL_WARP, q);
    if (!__all_sync(FULL_WARP, clean && (q < 0 || q == top)) || top < 0 || s.special)
        return false;
    unsigned w[5];
#pragma unroll
    for (int j = 0; j < 5; j++)
        w[j] = q >= 0 ? s.warp_total[lane][j] : 0u;
    u160 sum = warp_sum_words<5>(w);
    int to_f64 = f == XACC_F64 || (a.flags & CURED_REDUCE_F64);
    uint64_t bits = u160_round(f, sum, top, to_f64);
    if (lane == 0) {
        if (to_f64)
            *(unsigned long long *)a.out = bits;
        else
            *(unsigned *)a.out = (unsigned)bits;
    }
    return true;
}

/* A grid of one block whose sum exact_block_round declined: every warp's
 * six pieces from its five words and base, as exact_block_sum stores them
 * in larger grids (lane u makes warp u's), so that exact_block_digits can
 * run. Warp 0 calls it; ends with a warp barrier. */
template <int NDIG>
__device__ void exact_block_pieces(exact_block_state<NDIG> &s)
{
    unsigned lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
    if (lane < warps) {
        int q = s.warp_base[lane];
        unsigned v[6] = {0u, 0u, 0u, 0u, 0u, 0u};
        bool neg = false;
        if (q >= 0) {
            const unsigned *t = s.warp_total[lane];
            neg = u160_magnitude_words(u160{t[0], t[1], t[2], t[3], t[4]}, q, v);
        }
#pragma unroll
        for (int j = 0; j < 6; j++)
            s.warp_piece[lane][j] = neg ? -(int64_t)v[j] : (int64_t)v[j];
    }
    __syncwarp();
}

/* Ends the kernel after exact_block_sum: writes the result (one block or
 * one cluster), or adds this block's digits (a cluster's, in its leader)
 * to the workspace and, in the last to finish, rounds their sum and
 * writes it. Every thread calls it; only warp 0 works. */
template <int NDIG>
__device__ void exact_grid_finish(exact_block_state<NDIG> &s, xacc_family f,
                                  const cured_reduce_kernel_args &a)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    unsigned cluster = exact_cluster_size();
    if (threadIdx.x >= 32) {
        if (cluster > 1) { /* the barrier's two phases, nothing to send */
            exact_cluster_wait();
            exact_cluster_arrive(false);
        }
        return;
    }
    if (gridDim.x == 1) { /* no cluster: a cluster divides the grid */
        if (exact_block_round<NDIG>(s, f, a))
            return;
        exact_block_pieces<NDIG>(s);
    }
    int64_t d[PER];
    exact_block_digits<NDIG>(s, d);
    unsigned special = s.special;
    if (cluster > 1 && !exact_cluster_gather<NDIG>(s, d, special))
        return;
    unsigned leaders = gridDim.x / cluster; /* blocks that go on */
    char *ws = (char *)a.workspace;
    unsigned *counter = (unsigned *)(ws + EXACT_WS_COUNTER);
    unsigned *gspecial = (unsigned *)(ws + EXACT_WS_SPECIAL);
    unsigned long long *gd = (unsigned long long *)(ws + EXACT_WS_DIGITS);
    if (leaders > 1) {
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            if (D < NDIG && d[i] != 0)
                atomicAdd(gd + D, (unsigned long long)d[i]);
        }
        if (lane == 0 && special)
            atomicOr(gspecial, special);
        __threadfence(); /* each lane's adds, before the ticket */
        __syncwarp();
        unsigned last = 0;
        if (lane == 0)
            last = atomicAdd(counter, 1u) == leaders - 1;
        if (!__shfl_sync(FULL_WARP, last, 0))
            return;

        /* The last block: every block's adds are done and fenced. Sums of
         * at most 4096 digits below 2^37: below 2^49. */
        __threadfence();
#pragma unroll
        for (int i = 0; i < PER; i++) {
            int D = (int)lane + 32 * i;
            d[i] = 0;
            if (D < NDIG) {
                d[i] = (int64_t)__ldcg(gd + D);
                gd[D] = 0; /* re-armed for the next call */
            }
        }
        special = __ldcg(gspecial);
    }
    /* one block or cluster: its own digits; else the last block's read */
    warp_normal<NDIG> n = warp_normalize<NDIG>(d);
    exact_write<NDIG>(f, n, special, a);
    if (leaders > 1 && lane == 0) {
        *gspecial = 0;
        *counter = 0; /* re-armed for the next call */
    }
}

#endif /* CURED_SUM_BLOCK_CUH */
