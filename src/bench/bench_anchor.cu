/* bench_anchor.cu - the two anchors every catalogue kernel is measured
 * against: CUB's DeviceReduce::Sum and the read ceiling.
 *
 * defines: bench_cub_sum, bench_read, bench_empty
 *
 * CUB appears in this project only here. The read kernel does everything a
 * reduction must (read every byte once, as wide and as many in flight as
 * the memory system likes) and nothing else, so its time is the practical
 * floor for a sum of the same bytes.
 */
#include "bench_device.h"

#include <cub/device/device_reduce.cuh>
#include <cuda_fp16.h>

#include "grid_dependency.cuh"

// ---------------------------------------------------------------------------
// CUB

/* CUB's sum over T. 32-bit offsets where n fits, as most callers use it
 * (and as CUB is fastest); 64-bit beyond. */
template <typename T>
static cudaError_t cub_sum(void *d_temp, size_t *temp_bytes, const void *d_in,
                           uint64_t n, void *d_out, cudaStream_t stream)
{
    if (n <= (uint64_t)INT32_MAX)
        return cub::DeviceReduce::Sum(d_temp, *temp_bytes, (const T *)d_in,
                                      (T *)d_out, (int)n, stream);
    return cub::DeviceReduce::Sum(d_temp, *temp_bytes, (const T *)d_in,
                                  (T *)d_out, (int64_t)n, stream);
}

cudaError_t bench_cub_sum(cured_dtype dtype, void *d_temp, size_t *temp_bytes,
                          const void *d_in, uint64_t n, void *d_out,
                          cudaStream_t stream)
{
    switch (dtype) {
    case CURED_F32: return cub_sum<float>(d_temp, temp_bytes, d_in, n, d_out, stream);
    case CURED_F64: return cub_sum<double>(d_temp, temp_bytes, d_in, n, d_out, stream);
    case CURED_I32: return cub_sum<int32_t>(d_temp, temp_bytes, d_in, n, d_out, stream);
    case CURED_I64: return cub_sum<int64_t>(d_temp, temp_bytes, d_in, n, d_out, stream);
    case CURED_U32: return cub_sum<uint32_t>(d_temp, temp_bytes, d_in, n, d_out, stream);
    case CURED_U64: return cub_sum<uint64_t>(d_temp, temp_bytes, d_in, n, d_out, stream);
    case CURED_F16: return cub_sum<__half>(d_temp, temp_bytes, d_in, n, d_out, stream);
    default: return cudaErrorInvalidValue;
    }
}

// ---------------------------------------------------------------------------
// the read ceiling

/* A fold no real input produces in practice: the sink is never written. */
#define NEVER_FOLD 0x5ca1ab1e0ddba11ull

/* Folds one 16-byte load into a 64-bit XOR. */
__device__ static unsigned long long fold(uint4 v)
{
    return ((unsigned long long)v.x << 32 | v.y) ^
           ((unsigned long long)v.z << 32 | v.w);
}

/* Reads in16[0..n16) with four independent 16-byte loads per thread per
 * iteration (grid-stride, so consecutive threads read consecutive 16-byte
 * words: every warp access is 512 contiguous bytes), then the 4-byte tail
 * tail[0..ntail) in block 0. */
__global__ void read_kernel(const uint4 *__restrict__ in16, uint64_t n16,
                            const uint32_t *__restrict__ tail, int ntail,
                            unsigned long long never,
                            unsigned long long *sink)
{
    uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
    uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long acc = 0;
    for (; i + 3 * stride < n16; i += 4 * stride) {
        uint4 a = in16[i];
        uint4 b = in16[i + stride];
        uint4 c = in16[i + 2 * stride];
        uint4 d = in16[i + 3 * stride];
        acc ^= fold(a) ^ fold(b) ^ fold(c) ^ fold(d);
    }
    for (; i < n16; i += stride)
        acc ^= fold(in16[i]);
    if (blockIdx.x == 0 && (int)threadIdx.x < ntail)
        acc ^= tail[threadIdx.x];
    if (acc == never)
        *sink = acc;
}

cudaError_t bench_read(const void *d_in, size_t bytes,
                       unsigned long long *d_sink, int max_blocks,
                       cudaStream_t stream)
{
    uint64_t n16 = bytes / 16;
    int ntail = (int)((bytes % 16) / 4); /* 0..3 words, fit in block 0 */
    uint64_t per_block = 4ull * BENCH_READ_BLOCK;
    uint64_t blocks = (n16 + per_block - 1) / per_block;
    if (blocks < 1)
        blocks = 1;
    if (blocks > (uint64_t)max_blocks)
        blocks = (uint64_t)max_blocks;
    read_kernel<<<(unsigned)blocks, BENCH_READ_BLOCK, 0, stream>>>(
        (const uint4 *)d_in, n16, (const uint32_t *)d_in + n16 * 4, ntail,
        NEVER_FOLD, d_sink);
    return cudaGetLastError();
}

// ---------------------------------------------------------------------------
// the launch floor

/* Nothing but what every cured_reduce kernel does first: wait for the
 * grid before it, let the next launch begin (no-ops before sm_90). */
__global__ void empty_kernel()
{
    grid_dependency_begin();
}

cudaError_t bench_empty(int dependent, cudaStream_t stream)
{
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(1);
    c.blockDim = dim3(BENCH_READ_BLOCK);
    c.stream = stream;
    c.attrs = &attr;
    c.numAttrs = dependent ? 1 : 0;
    cudaError_t err = cudaLaunchKernelEx(&c, empty_kernel);
    cudaError_t last = cudaGetLastError();
    return err != cudaSuccess ? err : last;
}
