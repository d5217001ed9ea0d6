/* acc_plain.cuh - the plain (not exact) accumulator of cured_reduce's
 * float sums: adds in the output type, as a kernel without exactness
 * would. The price of exactness is measured against it.
 *
 * defines: plain_acc
 */
#ifndef CURED_ACC_PLAIN_CUH
#define CURED_ACC_PLAIN_CUH

#include <stdint.h>

#include "acc_half.cuh"
#include "reduce_load.cuh"

/* Adds in OUT (float or double), one accumulator per vector of a trip. */
template <typename OUT, int KIND> /* KIND: 0 f32, 1 bf16, 2 f16, 3 f64 */
struct plain_acc {
    OUT f[RL_VECS];

    __device__ void init()
    {
        for (int j = 0; j < RL_VECS; j++)
            f[j] = 0;
    }

    __device__ static OUT value(uint64_t bits)
    {
        if (KIND == 0)
            return (OUT)__uint_as_float((unsigned)bits);
        if (KIND == 1)
            return (OUT)__uint_as_float((unsigned)bits << 16);
        if (KIND == 2)
            return (OUT)half_acc::to_double((unsigned short)bits);
        return (OUT)__longlong_as_double((long long)bits);
    }

    __device__ void trip(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            const unsigned w[4] = {t.v[j].x, t.v[j].y, t.v[j].z, t.v[j].w};
            if (KIND == 3) {
                f[j] += value((uint64_t)w[1] << 32 | w[0]);
                f[j] += value((uint64_t)w[3] << 32 | w[2]);
            } else if (KIND == 0) {
#pragma unroll
                for (int c = 0; c < 4; c++)
                    f[j] += value(w[c]);
            } else {
#pragma unroll
                for (int c = 0; c < 4; c++) {
                    f[j] += value(w[c] & 0xffffu);
                    f[j] += value(w[c] >> 16);
                }
            }
        }
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        if (va)
            f[0] += value(a);
        if (vb)
            f[1] += value(b);
    }

    __device__ OUT total() const { return (f[0] + f[1]) + (f[2] + f[3]); }
};

#endif /* CURED_ACC_PLAIN_CUH */
