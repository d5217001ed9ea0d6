/* sum_grid.cuh - the grid layer of cured_reduce's exact float sums: one
 * block or cluster writes the result; more add their digits to the
 * workspace's with global atomics and take a ticket, and the last one
 * reads the sum, re-arms the workspace for the next call, rounds once and
 * writes.
 *
 * defines: exact_grid_finish
 */
#ifndef CURED_SUM_GRID_CUH
#define CURED_SUM_GRID_CUH

#include "grid_ticket.cuh"
#include "reduce_kernels.h"
#include "round_warp.cuh"
#include "shard_state.h"
#include "sum_block.cuh"
#include "sum_cluster.cuh"
#include "sum_write.cuh"

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
    if (special || (a.flags & SHARD_KERNEL_STATE) ||
        !(exact_digits_double<NDIG>(f, d, a) || exact_digits_round<NDIG>(f, d, a))) {
        warp_normal<NDIG> n = warp_normalize<NDIG>(d);
        exact_write<NDIG>(f, n, special, a);
    }
    if (leaders > 1 && lane == 0) {
        *gspecial = 0;
        *counter = 0; /* re-armed for the next call */
    }
}

#endif /* CURED_SUM_GRID_CUH */
