/* sum_thread.cuh - the thread layer of cured_reduce's exact float sums: what
 * one thread does with each element it loads.
 *
 * defines: nothing of its own: it gathers the layer's files,
 *          acc_narrow.cuh (narrow_acc: f32, bf16), acc_half.cuh (half_acc:
 *          f16), acc_wide.cuh (wide_acc: f64), acc_plain.cuh (plain_acc:
 *          the not-exact variant), and what they share: wide_int.cuh (the
 *          128- and 160-bit integers, their rounding and warp sums) and
 *          sacc.cuh (the block's superaccumulator)
 *
 * Every accumulator keeps, per thread, an exact integer sum in registers
 * (two's complement, in units 2^(base() + EMIN), base() its window's) and
 * sends what does not fit its fast path to the block's superaccumulator
 * `sacc` in shared memory (xacc.h's digits, shared atomics: sacc.cuh), which
 * is rare for real data. A trip is tested whole (the max and min of its
 * elements' keys against the window, one warp vote). f32 and bf16 keep two
 * adjacent windows of f64 accumulators, f16 needs none, f64 one 64-binade
 * window split over three f64 accumulators (slices); docs/exact.md ("The
 * GPU kernel") argues each accumulator's exactness; plain_acc adds in the
 * output type, as a non-exact kernel would.
 */
#ifndef CURED_SUM_THREAD_CUH
#define CURED_SUM_THREAD_CUH

#include "acc_half.cuh"
#include "acc_narrow.cuh"
#include "acc_plain.cuh"
#include "acc_wide.cuh"
#include "sacc.cuh"
#include "wide_int.cuh"

#endif /* CURED_SUM_THREAD_CUH */
