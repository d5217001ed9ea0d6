/* acc_half.cuh - the thread layer's accumulator for f16: every f16 is an
 * integer multiple of f16's smallest subnormal below 2^40 of them, so f64
 * accumulators add them exactly with no window at all.
 *
 * defines: half_acc
 *
 * The same interface as narrow_acc (acc_narrow.cuh); infinities and NaNs
 * go to the special bits.
 */
#ifndef CURED_ACC_HALF_CUH
#define CURED_ACC_HALF_CUH

#include <stdint.h>

#include "reduce_load.cuh"
#include "sacc.cuh"
#include "wide_int.cuh"
#include "xacc.h"

struct half_acc {
    static const int W = 8;
    /* 8 additions per accumulator per trip; 2^13 are exact */
    static const int FLUSH_TRIPS = 512;
    /* only the misaligned head and tail reach sacc, not elements in bulk */
    static const bool SACC_ELEMENTS = false;
    static const bool LANE_BINS = false; /* lane bins: acc_narrow.cuh */
    static const bool SACC_SPLIT = false; /* only a head and tail to sacc */

    double f[RL_VECS];
    u128 acc; /* units 2^-24: q = 0 */
    int q;
    int trips;
    unsigned special;
    sacc_ref sacc;

    __device__ void init(sacc_ref s)
    {
        for (int j = 0; j < RL_VECS; j++)
            f[j] = 0.0;
        acc = u128{0, 0, 0, 0};
        q = 0;
        trips = 0;
        special = 0;
        sacc = s;
    }

    /* The f16 of bits h as a double (exact; sum_double.cuh and
     * acc_plain.cuh use it too). */
    __device__ static double to_double(unsigned short h)
    {
        double d;
        asm("cvt.f64.f16 %0, %1;" : "=d"(d) : "h"(h));
        return d;
    }

    __device__ void flush()
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            double v = f[j];
            if (isfinite(v)) {
                if (v != 0.0)
                    u128_add_s64(acc, __double2ll_rz(v * 16777216.0)); /* 2^24 */
            } else {
                /* a finite f16 sum cannot overflow here, so this is an
                 * input infinity or NaN, kept by IEEE arithmetic */
                special |= isnan(v) ? XACC_NAN : v > 0 ? XACC_PINF : XACC_NINF;
            }
            f[j] = 0.0;
        }
        trips = 0;
    }

    __device__ void trip(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            const unsigned w[4] = {t.v[j].x, t.v[j].y, t.v[j].z, t.v[j].w};
#pragma unroll
            for (int c = 0; c < 4; c++) {
                f[j] += to_double((unsigned short)(w[c] & 0xffffu));
                f[j] += to_double((unsigned short)(w[c] >> 16));
            }
        }
        if (++trips == FLUSH_TRIPS)
            flush();
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        sacc_add_scalars(sacc, XACC_F16, a, va, b, vb, &special);
    }

    __device__ void finish() { flush(); }

    __device__ int base() const { return q; }

    /* The warp's sum in every lane: a thread adds at most 2^25 elements
     * below 2^16 (in units 2^-24: 2^41), so the warp's is below 2^71 and
     * 128 bits hold it (then sign-extended). */
    __device__ u160 warp_total() const { return warp_sum(acc); }
};

#endif /* CURED_ACC_HALF_CUH */
