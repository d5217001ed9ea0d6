/* round_entries.cu - the GPU's rounding of exact sums (round_warp.cuh,
 * and wide_int.cuh's u160_round) behind flat entries, so that `cured model
 * --ptx` can run it on the CPU over sums that real data rarely makes: long
 * carry and borrow chains, ties, sticky bits far below, subnormal and
 * overflowing sums.
 *
 * defines: round_f16, round_f32, round_f64, round160_f16, round160_f32,
 *          round160_f64
 *
 * Every entry: (digits, bits, normal, to_f64): block b's warp 0 takes the
 * NDIG int64 carry-save digits digits[b NDIG ..], normalises them
 * (warp_normalize) into normal[b NDIG ..] (words below the top, the top
 * digit's value last) and rounds them (warp_round) into bits[b]: f32 bits
 * in the low 32, or f64 bits when to_f64 is 1. test_model_round.py checks
 * both against Python's integers.
 *
 * The round160 entries: (words, pos, bits, short_way, to_f64): block b's
 * warp 0 rounds the 160-bit two's complement words[5 b ..] (w0 first) in
 * units 2^(pos[b] + emin) by u160_round into bits[b], and writes into
 * short_way[b] whether u160_round_short took it.
 */
#include <stdint.h>

#include "round_warp.cuh"
#include "wide_int.cuh"

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

template <xacc_family F>
__device__ static void round160_case(const unsigned *words, const int *pos,
                                     unsigned long long *bits, unsigned *short_way,
                                     unsigned to_f64)
{
    if (threadIdx.x >= 32)
        return;
    const unsigned *w = words + (size_t)blockIdx.x * 5;
    u160 a = {w[0], w[1], w[2], w[3], w[4]};
    int q = pos[blockIdx.x];
    uint64_t b = u160_round(F, a, q, (int)to_f64);
    uint64_t ignored;
    bool took = u160_round_short(F, a, q, (int)to_f64, &ignored);
    if (threadIdx.x == 0) {
        bits[blockIdx.x] = b;
        short_way[blockIdx.x] = took;
    }
}

#define ENTRY160(name, FAMILY) \
    extern "C" __global__ void name(const unsigned *words, const int *pos, \
                                    unsigned long long *bits, unsigned *short_way, \
                                    unsigned to_f64) \
    { \
        round160_case<FAMILY>(words, pos, bits, short_way, to_f64); \
    }

ENTRY160(round160_f16, XACC_F16)
ENTRY160(round160_f32, XACC_F32)
ENTRY160(round160_f64, XACC_F64)
