/* reduce_fill.cuh - the GPU tests' data for cured_reduce: element i of
 * each data kind as a pure function of (dtype, kind, i, seed), made on the
 * device; for tests/gpu/test_reduce.cu, test_reduce_stream.cu and
 * test_sharded.cu.
 *
 * defines: mix64, UNIFORM .. SPREAD48, KINDS, kind_names, element,
 *          fill_range, fill_kernel
 */
#ifndef CURED_TEST_REDUCE_FILL_CUH
#define CURED_TEST_REDUCE_FILL_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <stdint.h>

#include "cured.h"
#include "ref_fill.h"

__host__ __device__ static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* UNIFORM: exponents spread evenly over the 24 binades below 1.0 (one f32
 * window); SPREAD48 over 48 (both windows); STANDARD: src/reference's
 * standard fill, uniform in [-0.5, 0.5) (rounded to f16/bf16), what real
 * data looks like. */
enum { UNIFORM, WIDE, CANCEL, HUGE_CANCEL, SPARSE, SPECIAL, STANDARD, SPREAD48, KINDS };
static const char *kind_names[KINDS] = {"uniform", "wide", "cancel", "huge-cancel",
                                        "sparse", "special", "standard", "spread48"};

/* Element i of kind k for dtype d, as bits (device and host alike). */
__device__ static uint64_t element(int d, int k, uint64_t i, uint64_t seed)
{
    uint64_t r = mix64(seed ^ mix64(i));
    int size = d == CURED_F16 || d == CURED_BF16 ? 2 : d == CURED_F64 || d == CURED_I64 || d == CURED_U64 ? 8 : 4;
    uint64_t sign = (uint64_t)1 << (8 * size - 1);
    if (!(d == CURED_F16 || d == CURED_BF16 || d == CURED_F32 || d == CURED_F64))
        return r & (size == 8 ? ~0ull : 0xffffffffull);
    int fbits = d == CURED_F16 ? 10 : d == CURED_BF16 ? 7 : d == CURED_F32 ? 23 : 52;
    int ebits = d == CURED_F16 ? 5 : d == CURED_F64 ? 11 : 8;
    int bias = (1 << (ebits - 1)) - 1;
    uint64_t frac = r & (((uint64_t)1 << fbits) - 1);
    int e;
    if (k == STANDARD) {
        cured_ref_fill f = cured_ref_fill_standard(seed);
        if (d == CURED_F64)
            return (uint64_t)__double_as_longlong(cured_ref_fill_f64(&f, i));
        float v = cured_ref_fill_f32(&f, i);
        if (d == CURED_F16)
            return __half_as_ushort(__float2half_rn(v));
        if (d == CURED_BF16)
            return __bfloat16_as_ushort(__float2bfloat16_rn(v));
        return __float_as_uint(v);
    }
    switch (k) {
    case UNIFORM: e = bias - 1 - (int)((r >> 56) % 24); break;
    case SPREAD48: e = bias - 1 - (int)((r >> 56) % 48); break;
    case WIDE: e = 1 + (int)((r >> 52) % (uint64_t)(2 * bias - 2)); break;
    case SPARSE:
        if ((r >> 60) != 0)
            return 0;
        e = bias - (int)((r >> 52) % 8);
        break;
    case HUGE_CANCEL: {
        int big = d == CURED_F16 ? 30 : bias + 100 > 2 * bias ? 2 * bias : bias + 100;
        int small = d == CURED_F16 ? 1 : bias;
        uint64_t huge = (uint64_t)big << fbits, one = (uint64_t)small << fbits;
        return i % 3 == 0 ? huge : i % 3 == 1 ? one : huge | sign;
    }
    case SPECIAL:
        if (i == 12345 || i == 3)
            return (uint64_t)((1 << ebits) - 1) << fbits; /* +inf */
        e = bias - (int)((r >> 56) % 24);
        break;
    default: /* CANCEL: pairs (i, i ^ 1) of opposite signs, one odd out */
        r = mix64(seed ^ mix64(i >> 1));
        frac = r & (((uint64_t)1 << fbits) - 1);
        e = 1 + (int)((r >> 52) % (uint64_t)(2 * bias - 2));
        return ((uint64_t)e << fbits | frac) ^ ((i & 1) ? sign : 0);
    }
    if (e < 0)
        e = 0;
    return ((r >> 40) & 1 ? sign : 0) | (uint64_t)e << fbits | frac;
}

/* a[i] = element i of (d, k, seed) for i < n, elements of `size` bytes,
 * grid-stride over the calling grid. Every thread calls it. */
__device__ static void fill_range(void *a, int d, int k, uint64_t n, uint64_t seed,
                                  int size)
{
    for (uint64_t i = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < n;
         i += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t b = element(d, k, i, seed);
        if (size == 2)
            ((uint16_t *)a)[i] = (uint16_t)b;
        else if (size == 4)
            ((uint32_t *)a)[i] = (uint32_t)b;
        else
            ((uint64_t *)a)[i] = b;
    }
}

__global__ void fill_kernel(void *a, int d, int k, uint64_t n, uint64_t seed, int size)
{
    fill_range(a, d, k, n, seed, size);
}

#endif /* CURED_TEST_REDUCE_FILL_CUH */
