/* sum_cluster.cuh - a thread-block cluster's exact sum gathered into its
 * leader (sm_90): each block's sum (one 160-bit integer, or its digits)
 * stored in the leader's shared memory and released at the cluster
 * barrier.
 *
 * defines: GATHER_SENT, GATHER_WRITTEN, GATHER_DIGITS,
 *          exact_cluster_gather
 */
#ifndef CURED_SUM_CLUSTER_CUH
#define CURED_SUM_CLUSTER_CUH

#include "reduce_kernels.h"
#include "shard_state.h"
#include "sum_block.cuh"
#include "sum_write.cuh"

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
    /* the digits path: lane k converts block k + 1's sum (if it sent one)
     * to pieces while lanes below the warp count convert the warps' (one
     * conversion's latency, not one a block), then every row is added with
     * loads independent of one another */
    bool from = lane + 1 < size;
    int bk = from ? s.cluster_base[lane] : -1;
    if (from) {
        exact_row_pieces(s.cluster_total[lane], bk, s.cluster_piece[lane]);
        s.cluster_first[lane] = bk >= 0 ? bk >> 5 : -8;
    }
    unsigned sent = __ballot_sync(FULL_WARP, bk == EXACT_SENT_DIGITS);
    special = __reduce_or_sync(FULL_WARP, from ? s.cluster_special[lane] : 0u);
    exact_block_pieces<NDIG>(s); /* its warp barrier orders the stores above */
    exact_block_digits<NDIG>(s, d);
    special |= s.special;
    exact_add_piece_rows<NDIG>(d, s.cluster_piece, s.cluster_first, size - 1);
#pragma unroll
    for (unsigned k = 0; k + 1 < CURED_REDUCE_CLUSTER_MAX; k++)
        if (sent >> k & 1u) {
#pragma unroll
            for (int i = 0; i < PER; i++) {
                int D = (int)lane + 32 * i;
                if (D < NDIG)
                    d[i] += s.cluster_digits[k][D];
            }
        }
#endif
    return GATHER_DIGITS;
}

#endif /* CURED_SUM_CLUSTER_CUH */
