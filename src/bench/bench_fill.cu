/* bench_fill.cu - the bench's input: pseudo-random values made on the GPU.
 *
 * defines: bench_fill
 *
 * Made on the device, so 2^30 elements take milliseconds, not a host loop
 * and a 4 GiB copy. Never zeros: zeros hide unwritten results and can run
 * faster than real data.
 */
#include "bench_device.h"

// ---------------------------------------------------------------------------
// values from (seed, index)

/* splitmix64: a cheap 64-bit mix with good statistics for an index. */
__device__ static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* One element from 64 random bits, per element type. The float values are
 * exact: 24 (53) random bits scaled by a power of two, minus one half. */
template <typename T> __device__ T value_from_bits(uint64_t bits);
template <> __device__ float value_from_bits<float>(uint64_t bits)
{
    return (float)(bits >> 40) * 0x1p-24f - 0.5f;
}
template <> __device__ double value_from_bits<double>(uint64_t bits)
{
    return (double)(bits >> 11) * 0x1p-53 - 0.5;
}
template <> __device__ int32_t value_from_bits<int32_t>(uint64_t bits)
{
    return (int32_t)(bits % 2000) - 1000;
}
template <> __device__ int64_t value_from_bits<int64_t>(uint64_t bits)
{
    return (int64_t)(bits % 2000) - 1000;
}
template <> __device__ uint32_t value_from_bits<uint32_t>(uint64_t bits)
{
    return (uint32_t)(bits % 1000);
}
template <> __device__ uint64_t value_from_bits<uint64_t>(uint64_t bits)
{
    return bits % 1000;
}

// ---------------------------------------------------------------------------
// kernel and launcher

template <typename T>
__global__ void fill_kernel(T *data, uint64_t n, uint64_t seed)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        data[i] = value_from_bits<T>(mix64(seed ^ mix64(i)));
}

/* Launches fill_kernel<T> on a grid no larger than max_blocks. */
template <typename T>
static cudaError_t launch_fill(void *d_data, uint64_t n, uint64_t seed,
                               int max_blocks, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    uint64_t blocks = (n + BENCH_READ_BLOCK - 1) / BENCH_READ_BLOCK;
    if (blocks > (uint64_t)max_blocks)
        blocks = (uint64_t)max_blocks;
    fill_kernel<T><<<(unsigned)blocks, BENCH_READ_BLOCK, 0, stream>>>((T *)d_data,
                                                                      n, seed);
    return cudaGetLastError();
}

cudaError_t bench_fill(cured_dtype dtype, void *d_data, uint64_t n,
                       uint64_t seed, int max_blocks, cudaStream_t stream)
{
    switch (dtype) {
    case CURED_F32: return launch_fill<float>(d_data, n, seed, max_blocks, stream);
    case CURED_F64: return launch_fill<double>(d_data, n, seed, max_blocks, stream);
    case CURED_I32: return launch_fill<int32_t>(d_data, n, seed, max_blocks, stream);
    case CURED_I64: return launch_fill<int64_t>(d_data, n, seed, max_blocks, stream);
    case CURED_U32: return launch_fill<uint32_t>(d_data, n, seed, max_blocks, stream);
    case CURED_U64: return launch_fill<uint64_t>(d_data, n, seed, max_blocks, stream);
    default: return cudaErrorInvalidValue;
    }
}
