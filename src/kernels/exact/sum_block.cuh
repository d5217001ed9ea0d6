/* sum_block.cuh - the block layer of cured_reduce's exact float sums: the
 * threads' exact sums combined, exactly, into one set of digits per block
 * (or, in the common case, one 160-bit sum).
 *
 * defines: EXACT_WS_*, exact_block_state, EXACT_SENT_DIGITS,
 *          exact_cluster_size, exact_cluster_arrive, exact_cluster_wait,
 *          exact_block_begin, exact_block_keeps_words, exact_block_sum,
 *          exact_row_pieces, exact_block_pieces, exact_add_piece_rows,
 *          exact_block_digits, exact_block_total, exact_rows_span
 *
 * Each warp sums its lanes' integers and stores the sum as six pieces in
 * its own row of shared memory (a grid of one block or a cluster: its five
 * words, made into pieces only where the short ways decline); warp 0
 * gathers the rows and the slow paths' superaccumulator into the block's
 * digits, or adds the words by redux where every warp's sum has one base.
 * What follows: sum_write.cuh rounds and writes a sum, sum_cluster.cuh
 * gathers a thread-block cluster's blocks into its leader, sum_grid.cuh
 * ends the kernel (one block or cluster writes; more combine through the
 * workspace). The steps, and why no digit overflows: docs/exact.md, "The
 * GPU kernel".
 */
#ifndef CURED_SUM_BLOCK_CUH
#define CURED_SUM_BLOCK_CUH

#include "reduce_kernels.h"
#include "round_warp.cuh"
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
    /* the leader's digits path: each sent sum as six pieces (warp_piece's
     * form) and its first digit, -8 for none */
    int64_t cluster_piece[CURED_REDUCE_CLUSTER_MAX - 1][6];
    int cluster_first[CURED_REDUCE_CLUSTER_MAX - 1];
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

/* The smallest power of two at least `warps` (a block's warps, 1 .. 32):
 * the lanes a butterfly over the warps' rows in shared memory must span.
 * Where lane i reads row i & (span - 1), a zero past the last row, every
 * group of span lanes holds the same values, so a butterfly over the
 * offsets below span leaves every lane with the same sum of all rows
 * (the one-block short ways: a block of eight warps adds its rows in three
 * steps rather than five). */
__device__ inline unsigned exact_rows_span(unsigned warps)
{
    return warps <= 1 ? 1u : 1u << (32 - __clz(warps - 1));
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

/* The six pieces (exact_block_sum's) of the sum whose five words are t,
 * in units 2^q, into piece: zeros where q < 0 (no sum). */
__device__ inline void exact_row_pieces(const unsigned *t, int q, int64_t *piece)
{
    unsigned v[6] = {0u, 0u, 0u, 0u, 0u, 0u};
    bool neg = false;
    if (q >= 0)
        neg = u160_magnitude_words(u160{t[0], t[1], t[2], t[3], t[4]}, q, v);
#pragma unroll
    for (int j = 0; j < 6; j++)
        piece[j] = neg ? -(int64_t)v[j] : (int64_t)v[j];
}

/* Where the warps stored words (exact_block_keeps_words) and a short way
 * declined: every warp's six pieces from its five words and base, as
 * exact_block_sum stores them otherwise (lane u makes warp u's), so that
 * exact_block_digits can run. Warp 0 calls it; ends with a warp barrier. */
template <int NDIG>
__device__ void exact_block_pieces(exact_block_state<NDIG> &s)
{
    unsigned lane = threadIdx.x & 31u, warps = blockDim.x >> 5;
    if (lane < warps)
        exact_row_pieces(s.warp_total[lane], s.warp_base[lane], s.warp_piece[lane]);
    __syncwarp();
}

/* Adds `rows` rows of six pieces into the digits d (digit lane + 32 i in
 * d[i]): row u's piece j to digit first[u] + j (a row whose first is -8
 * adds nothing), eight rows at a time, their loads independent of one
 * another. Warp 0 calls it. */
template <int NDIG>
__device__ void exact_add_piece_rows(int64_t (&d)[warp_digit_count<NDIG>::PER],
                                     const int64_t (*piece)[6], const int *first,
                                     unsigned rows)
{
    const int PER = warp_digit_count<NDIG>::PER;
    unsigned lane = threadIdx.x & 31u;
    for (unsigned r0 = 0; r0 < rows; r0 += 8) {
        int f[8];
#pragma unroll
        for (int u = 0; u < 8; u++)
            f[u] = r0 + u < rows ? first[r0 + u] : -8;
#pragma unroll
        for (int u = 0; u < 8; u++)
#pragma unroll
            for (int i = 0; i < PER; i++) {
                int j = (int)lane + 32 * i - f[u];
                if (j >= 0 && j < 6)
                    d[i] += piece[r0 + u][j];
            }
    }
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
    exact_add_piece_rows<NDIG>(d, s.warp_piece, s.warp_first, warps);
    warp_carry_step<NDIG>(d);
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

#endif /* CURED_SUM_BLOCK_CUH */
