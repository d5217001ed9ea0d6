/* round_entries.cu - the GPU's rounding of exact sums (round_warp.cuh)
 * behind flat entries, so that `cured model --ptx` can run it on the CPU
 * over digit arrays that real data rarely makes: long carry and borrow
 * chains, ties, sticky bits far below, subnormal and overflowing sums.
 *
 * defines: round_f16, round_f32, round_f64
 *
 * Every entry: (digits, bits, normal, to_f64): block b's warp 0 takes the
 * NDIG int64 carry-save digits digits[b NDIG ..], normalises them
 * (warp_normalize) into normal[b NDIG ..] (words below the top, the top
 * digit's value last) and rounds them (warp_round) into bits[b]: f32 bits
 * in the low 32, or f64 bits when to_f64 is 1. test_model_round.py checks
 * both against Python's integers.
 */
#include <stdint.h>

#include "round_warp.cuh"

template <int NDIG>
__device__ static void round_case(const long long *digits, unsigned long long *bits,
                                  long long *normal, xacc_family f, unsigned to_f64)
{
    const int PER = warp_digit_count<NDIG>::PER;
    if (threadIdx.x >= 32)
        return;
    unsigned lane = threadIdx.x;
    const long long *in = digits + (size_t)blockIdx.x * NDIG;
    long long *norm = normal + (size_t)blockIdx.x * NDIG;
    int64_t d[PER];
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        d[i] = D < NDIG ? in[D] : 0;
    }
    warp_normal<NDIG> n = warp_normalize<NDIG>(d);
#pragma unroll
    for (int i = 0; i < PER; i++) {
        int D = (int)lane + 32 * i;
        if (D < NDIG - 1)
            norm[D] = n.w[i];
        else if (D == NDIG - 1)
            norm[D] = n.top;
    }
    uint64_t b = warp_round<NDIG>(f, n, (int)to_f64);
    if (lane == 0)
        bits[blockIdx.x] = b;
}

#define ENTRY(name, NDIG, FAMILY) \
    extern "C" __global__ void name(const long long *digits, unsigned long long *bits, \
                                    long long *normal, unsigned to_f64) \
    { \
        round_case<NDIG>(digits, bits, normal, FAMILY, to_f64); \
    }

ENTRY(round_f16, XACC_NDIG_F16, XACC_F16)
ENTRY(round_f32, XACC_NDIG_F32, XACC_F32)
ENTRY(round_f64, XACC_NDIG_MAX, XACC_F64)
