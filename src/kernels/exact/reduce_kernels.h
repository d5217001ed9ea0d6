/* reduce_kernels.h - what src/kernels/exact/ gives the host: cured_reduce's
 * kernels as launchable functions, and the workspace layout they share.
 *
 * defines: cured_reduce_variant, CURED_REDUCE_STATE_BYTES,
 *          CURED_REDUCE_PARTIAL_BYTES, CURED_REDUCE_MAX_BLOCKS,
 *          CURED_REDUCE_BLOCK_ELEMS_MAX, CURED_REDUCE_CLUSTER_MAX,
 *          CURED_REDUCE_TRIP_BYTES,
 *          cured_reduce_kernel_args,
 *          cured_reduce_function
 *
 * Pure C declarations: src/lib/reduce.cu launches, src/lib/reduce_plan.c
 * (pure C) sizes grids and the workspace from the constants here.
 */
#ifndef CURED_REDUCE_KERNELS_H
#define CURED_REDUCE_KERNELS_H

#include <stdint.h>

#include "cured.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which kernel family: the exact one (what cured_reduce runs) or, for
 * float sums only, a plain one of the same shape (the same loads, grid
 * and last-block combine, adding in the output type as CUB does), kept to
 * measure the price of exactness. */
typedef enum cured_reduce_variant {
    CURED_VARIANT_EXACT = 0,
    CURED_VARIANT_PLAIN,
    CURED_VARIANT_COUNT
} cured_reduce_variant;

/* Workspace: CURED_REDUCE_STATE_BYTES of state, zero between calls (the
 * last-block ticket counter, a uint32 at offset 0; an exact sum's special
 * bits at 4 and its 72 int64 digits at 8: sum_block.cuh), then one
 * partial result of CURED_REDUCE_PARTIAL_BYTES per block for the other
 * kernels (a 16-byte value each). */
#define CURED_REDUCE_STATE_BYTES 1024
#define CURED_REDUCE_PARTIAL_BYTES 16
/* Grids never exceed this (so the workspace size is one constant). */
#define CURED_REDUCE_MAX_BLOCKS 4096
/* Blocks in a thread-block cluster at most (the H100's and H200's limit
 * with non-portable sizes allowed): an exact sum's cluster combines its
 * blocks' digits in shared memory (sum_block.cuh). */
#define CURED_REDUCE_CLUSTER_MAX 16
/* No block sums more than this many elements, so its carry-save digits
 * cannot overflow (docs/exact.md): the grid grows past 2^42 / 2^30 = 4096
 * blocks only beyond CURED_REDUCE_MAX_N. */
#define CURED_REDUCE_BLOCK_ELEMS_MAX ((uint64_t)1 << 30)

/* Bytes a thread loads per trip of its loop (four 16-byte vectors). */
#define CURED_REDUCE_TRIP_BYTES 64

/* The kernels' one parameter, passed by value: everything a launch needs. */
typedef struct cured_reduce_kernel_args {
    const void *in;
    void *out;
    unsigned long long n;
    void *workspace;   /* state, then partials */
    unsigned flags;    /* CURED_REDUCE_* */
    int op;            /* cured_op */
} cured_reduce_kernel_args;

/* The __global__ function for (op, dtype, variant), launched with one
 * argument (cured_reduce_kernel_args by value), a one-dimensional block of
 * 32 .. 1024 threads (a multiple of 32), any grid from 1 to
 * CURED_REDUCE_MAX_BLOCKS, the dynamic shared memory that
 * cured_reduce_dynamic_smem names; on sm_90 and later
 * optionally in clusters of up to CURED_REDUCE_CLUSTER_MAX blocks (the
 * grid a multiple of the cluster). one_trip != 0 asks for the kernel
 * without a main loop, which is correct only when
 * n * element size <= CURED_REDUCE_TRIP_BYTES * grid * block (every
 * thread's data in one trip; cured_reduce_one_trip): the exact sums (float
 * and integer) and min/max have one (a smaller kernel that issues its
 * loads sooner, faster on a cold start), the plain variant returns its
 * one kernel. NULL when there is no such kernel (plain for a non-sum or
 * an integer sum). */
const void *cured_reduce_function(cured_op op, cured_dtype dtype,
                                  cured_reduce_variant variant, int one_trip);

/* The dynamic shared memory (bytes) that cured_reduce_function(op, dtype,
 * variant, one_trip) needs in a block of `block` threads: the lane bins of
 * the exact f32 and bf16 sums' main-loop kernels (SACC_LANE_BINS int64 a
 * thread: sacc.cuh), 0 for every other kernel. More than 48 KiB (from 512
 * threads) needs cudaFuncAttributeMaxDynamicSharedMemorySize set first. */
size_t cured_reduce_dynamic_smem(cured_op op, cured_dtype dtype,
                                 cured_reduce_variant variant, int one_trip, int block);

#ifdef __cplusplus
}
#endif

#endif /* CURED_REDUCE_KERNELS_H */
