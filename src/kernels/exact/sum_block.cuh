/* sum_block.cuh - the block and grid layers of cured_reduce's exact float
 * sums: the threads' exact sums combined, exactly, into one set of digits
 * per block, the blocks' digits into one sum, rounded once.
 *
 * defines: EXACT_WS_*, exact_block_state, EXACT_SENT_DIGITS,
 *          exact_block_begin, exact_block_keeps_words, exact_block_sum,
 *          exact_block_pieces, exact_block_digits,
 *          exact_write, exact_block_total, exact_round_write,
 *          exact_block_round, exact_digits_round, exact_cluster_gather,
 *          exact_grid_finish
 *
 * Each warp sums its lanes' integers and stores the sum as six pieces in
 * its own row of shared memory (a grid of one block or a cluster: its five
 * words, made into pieces only where the short ways decline); warp 0
 * gathers the rows and the slow
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

#include "grid_ticket.cuh"
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
    /* a cluster's leader: the other blocks' digits and special bits, or
     * their sums as one u160 each (exact_block_total), and which
     * (cluster_base: the sum's base q, -1 a zero sum, EXACT_SENT_DIGITS) */
    int64_t cluster_digits[CURED_REDUCE_CLUSTER_MAX - 1][NDIG];
    unsigned cluster_special[CURED_REDUCE_CLUSTER_MAX - 1];
    unsigned cluster_total[CURED_REDUCE_CLUSTER_MAX - 1][5];
    int cluster_base[CURED_REDUCE_CLUSTER_MAX - 1];
};

/* cluster_base of a block that sent its digits. */
#define EXACT_SENT_DIGITS (-2)

/* The blocks of this block's cluster: 1 outside a cluster and before
 * sm_90 and in a launch without cluster dimensions (in the model too). */
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

/* Whether this block's warps store their sums as words (a grid of one
 * block, a cluster: exact_block_total adds them) rather than pieces. */
__device__ inline bool exact_block_keeps_words()
{
    return gridDim.x == 1 || exact_cluster_size() > 1;
}

/* Each warp's exact sum into its row of s: every thread calls it after its
 * accumulator's finish() with that accumulator's (warp_total, base,
 * special); lanes 0..5 store the warp's six pieces (no atomics: a row per
 * warp), or where exact_block_keeps_words lanes 0..4 the sum's five words
 * instead (exact_block_pieces makes the pieces from them where the short
 * ways decline); lane 0 stores the base and the pieces' first digit, the
 * special bits are ORed into s.special. Ends with a barrier. */
template <int NDIG>
__device__ void exact_block_sum(exact_block_state<NDIG> &s, u160 w, int q,
                                unsigned special)
{
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    unsigned sp = __reduce_or_sync(FULL_WARP, special);
    bool none = q < 0 || u160_is_zero(w);
    if (exact_block_keeps_words()) {
        if (lane < 5)
            s.warp_total[warp][lane] = u160_word(w, lane); /* exact_block_total */
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

/* Where the warps stored words (exact_block_keeps_words) and a short way
 * declined: every warp's six pieces from its five words and base, as
 * exact_block_sum stores them otherwise (lane u makes warp u's), so that
 * exact_block_digits can run. Warp 0 calls it; ends with a warp barrier. */
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

/* The block's sum as one u160 in units 2^q, in every lane of warp 0, for
 * the common case: no element took a slow path (the superaccumulator is
 * zero, no special bits) and every warp with a nonzero sum has the same
 * base q. Then it is the plain sum of the warps' 160-bit sums (each below
 * 2^146 in magnitude, docs/exact.md, so 32 of them below 2^151: no
 * overflow), by redux.sync; q is -1 for a zero sum. Returns false, q and
 * total untouched, where the case is not that one. Warp 0 calls it, after
 * exact_block_sum's barrier, in a grid of one block or a cluster (where
 * exact_block_sum stored the warps' sums). */
template <int NDIG>
__device__ bool exact_block_total(const exact_block_state<NDIG> &s, u160 &total, int &q)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
    int b = lane < warps ? s.warp_base[lane] : -1;
    bool clean = true;
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        if (D < NDIG && s.digits[D] != 0)
            clean = false;
    }
    int top = __reduce_max_sync(FULL_WARP, b);
    if (!__all_sync(FULL_WARP, clean && (b < 0 || b == top)) || s.special)
        return false;
    unsigned w[5];
#pragma unroll
    for (int j = 0; j < 5; j++)
        w[j] = b >= 0 ? s.warp_total[lane][j] : 0u;
    total = warp_sum_words<5>(w);
    q = top;
    return true;
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

/* What exact_cluster_gather did. */
enum { GATHER_SENT, GATHER_WRITTEN, GATHER_DIGITS };

/* A cluster's blocks into its leader (rank 0), by warp 0 of each. Every
 * other block stores in the leader's shared memory either its sum as one
 * u160 and base (when exact_block_total takes it: no digits made) or its
 * digits d, with its special bits, releases them at the cluster barrier
 * and returns GATHER_SENT. The leader's warp 0 waits there; when the
 * cluster is the whole grid and every block sent a sum (or the leader has
 * one) on one base, it adds those sums (16 below 2^151 stay below 2^155)
 * by redux.sync, rounds, writes and returns GATHER_WRITTEN; otherwise it
 * makes its own digits d and special, adds every block's digits, or the
 * six pieces of its sum (each below 2^32, one per digit, as the digits
 * after the carry step: 16 of them stay below 2^37), and returns
 * GATHER_DIGITS. The other warps pass the barrier in exact_grid_finish. */
template <int NDIG>
__device__ int exact_cluster_gather(exact_block_state<NDIG> &s, xacc_family f,
                                    const cured_reduce_kernel_args &a,
                                    int64_t (&d)[warp_digit_count<NDIG>::PER],
                                    unsigned &special)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    unsigned rank = __clusterRelativeBlockRank(), size = __clusterSizeInBlocks();
    u160 total = {0, 0, 0, 0, 0};
    int q = -1;
    bool one = !(a.flags & SHARD_KERNEL_STATE) && exact_block_total<NDIG>(s, total, q);
    if (rank != 0) {
        if (!one) {
            exact_block_pieces<NDIG>(s);
            exact_block_digits<NDIG>(s, d);
        }
        exact_cluster_wait(); /* every block of the cluster has started */
        exact_block_state<NDIG> *lead =
            (exact_block_state<NDIG> *)__cluster_map_shared_rank(&s, 0);
        if (one) {
            if (lane < 5)
                lead->cluster_total[rank - 1][lane] = u160_word(total, lane);
        } else {
#pragma unroll
            for (int i = 0; i < PER; i++) {
                int D = (int)lane + 32 * i;
                if (D < NDIG)
                    lead->cluster_digits[rank - 1][D] = d[i];
            }
        }
        if (lane == 0) {
            lead->cluster_base[rank - 1] = one ? q : EXACT_SENT_DIGITS;
            lead->cluster_special[rank - 1] = s.special;
        }
        exact_cluster_arrive(true);
        return GATHER_SENT;
    }
    /* the barrier's first phase, then its second: a thread arrives once
     * per phase, so the leader too waits out the first before arriving
     * again (arriving twice let the second phase end before the other
     * blocks' stores: compute-sanitizer's racecheck saw it) */
    exact_cluster_wait();
    exact_cluster_arrive(false);
    exact_cluster_wait(); /* every other block's stores */
    /* lane k < size: block k's base (lane 0: this block's) */
    int b = lane == 0 ? (one ? q : EXACT_SENT_DIGITS)
                      : lane < size ? s.cluster_base[lane - 1] : -1;
    int top = __reduce_max_sync(FULL_WARP, b);
    if (gridDim.x == size && top >= 0 && __all_sync(FULL_WARP, b == -1 || b == top)) {
        unsigned w[5];
#pragma unroll
        for (int j = 0; j < 5; j++)
            w[j] = b < 0 ? 0u : lane == 0 ? u160_word(total, j) : s.cluster_total[lane - 1][j];
        exact_round_write(f, warp_sum_words<5>(w), top, a);
        return GATHER_WRITTEN;
    }
    exact_block_pieces<NDIG>(s);
    exact_block_digits<NDIG>(s, d);
    special = s.special;
    for (unsigned k = 0; k + 1 < size; k++) {
        int bk = s.cluster_base[k];
        if (bk == EXACT_SENT_DIGITS) {
#pragma unroll
            for (int i = 0; i < PER; i++) {
                int D = (int)lane + 32 * i;
                if (D < NDIG)
                    d[i] += s.cluster_digits[k][D];
            }
        } else if (bk >= 0) {
            const unsigned *t = s.cluster_total[k];
            u160 sum = {t[0], t[1], t[2], t[3], t[4]};
#pragma unroll
            for (int i = 0; i < PER; i++) {
                int j = (int)lane + 32 * i - (bk >> 5), first;
                if (j >= 0 && j < 6)
                    d[i] += u160_piece(sum, bk, (unsigned)j, &first);
            }
        }
        special |= s.cluster_special[k];
    }
#endif
    return GATHER_DIGITS;
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
    int64_t d[PER];
    unsigned special;
    if (cluster > 1) {
        if (exact_cluster_gather<NDIG>(s, f, a, d, special) != GATHER_DIGITS)
            return;
    } else {
        if (gridDim.x == 1) {
            if (exact_block_round<NDIG>(s, f, a))
                return;
            exact_block_pieces<NDIG>(s);
        }
        exact_block_digits<NDIG>(s, d);
        special = s.special;
    }
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
        __syncwarp(); /* every lane's adds, before lane 0's ticket */
        unsigned last = 0;
        if (lane == 0)
            last = grid_ticket(counter) == leaders - 1;
        if (!__shfl_sync(FULL_WARP, last, 0))
            return;

        /* The last block: the ticket acquired every block's adds; the
         * barrier orders lane 0's acquire before every lane's reads. Sums
         * of at most 4096 digits below 2^37: below 2^49. */
        __syncwarp();
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
    if (special || (a.flags & SHARD_KERNEL_STATE) || !exact_digits_round<NDIG>(f, d, a)) {
        warp_normal<NDIG> n = warp_normalize<NDIG>(d);
        exact_write<NDIG>(f, n, special, a);
    }
    if (leaders > 1 && lane == 0) {
        *gspecial = 0;
        *counter = 0; /* re-armed for the next call */
    }
}

#endif /* CURED_SUM_BLOCK_CUH */
