/* bench_fill.cu - the bench's input, made on the GPU: src/reference's
 * seeded fill, element i from (seed, i) by the same inline functions the
 * CPU reference calls.
 *
 * defines: bench_fill
 *
 * Made on the device, so 2^30 elements take milliseconds, not a host loop
 * and a 4 GiB copy; the host sums the same values without a buffer
 * (cured_ref_sum_add_fill). The standard fill has no run of zeros: zeros
 * would hide unwritten results and can run faster than real data.
 */
#include "bench_device.h"
#include "ref_fill.h"

#include <cuda_fp16.h>

// ---------------------------------------------------------------------------
// element i, as the bytes of its type

/* Each dtype's element from the fill; the signed types store their value's
 * two's complement in the unsigned type of their width (its low bits, as
 * cured_ref_fill_element does on the host). */
struct f32_value {
    typedef float type;
    __device__ float operator()(const cured_ref_fill &f, uint64_t i) const
    {
        return cured_ref_fill_f32(&f, i);
    }
};
struct f16_value {
    typedef __half type;
    __device__ __half operator()(const cured_ref_fill &f, uint64_t i) const
    {
        return __float2half_rn(cured_ref_fill_f32(&f, i));
    }
};
struct f64_value {
    typedef double type;
    __device__ double operator()(const cured_ref_fill &f, uint64_t i) const
    {
        return cured_ref_fill_f64(&f, i);
    }
};
template <typename U> struct signed_value {
    typedef U type;
    __device__ U operator()(const cured_ref_fill &f, uint64_t i) const
    {
        return (U)(uint64_t)cured_ref_fill_signed(&f, i);
    }
};
template <typename U> struct unsigned_value {
    typedef U type;
    __device__ U operator()(const cured_ref_fill &f, uint64_t i) const
    {
        return (U)cured_ref_fill_unsigned(&f, i);
    }
};

// ---------------------------------------------------------------------------
// kernel and launcher

template <typename V>
__global__ void fill_kernel(typename V::type *data, uint64_t n, cured_ref_fill f)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        data[i] = V()(f, i);
}

/* Launches fill_kernel<V> on a grid no larger than max_blocks. */
template <typename V>
static cudaError_t launch_fill(void *d_data, uint64_t n, const cured_ref_fill *f,
                               int max_blocks, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    uint64_t blocks = (n + BENCH_READ_BLOCK - 1) / BENCH_READ_BLOCK;
    if (blocks > (uint64_t)max_blocks)
        blocks = (uint64_t)max_blocks;
    fill_kernel<V><<<(unsigned)blocks, BENCH_READ_BLOCK, 0, stream>>>(
        (typename V::type *)d_data, n, *f);
    return cudaGetLastError();
}

cudaError_t bench_fill(cured_dtype dtype, void *d_data, uint64_t n,
                       const cured_ref_fill *fill, int max_blocks,
                       cudaStream_t stream)
{
    switch (dtype) {
    case CURED_F32: return launch_fill<f32_value>(d_data, n, fill, max_blocks, stream);
    case CURED_F64: return launch_fill<f64_value>(d_data, n, fill, max_blocks, stream);
    case CURED_F16: return launch_fill<f16_value>(d_data, n, fill, max_blocks, stream);
    case CURED_I32:
        return launch_fill<signed_value<uint32_t> >(d_data, n, fill, max_blocks, stream);
    case CURED_I64:
        return launch_fill<signed_value<uint64_t> >(d_data, n, fill, max_blocks, stream);
    case CURED_U32:
        return launch_fill<unsigned_value<uint32_t> >(d_data, n, fill, max_blocks, stream);
    case CURED_U64:
        return launch_fill<unsigned_value<uint64_t> >(d_data, n, fill, max_blocks, stream);
    default: return cudaErrorInvalidValue;
    }
}
