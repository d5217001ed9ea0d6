/* seed_kernels.cu - the lesson's four block sums, as test fixtures for the
 * model's counters (seed_kernels.ptx is this file through
 * `nvcc -arch=sm_90 -ptx -lineinfo seed_kernels.cu -o seed_kernels.ptx`).
 *
 * defines: seed_divergent, seed_strided, seed_sequential, seed_shuffle
 *
 * Our own copies of the page's versions, written for the tests and kept
 * apart from the catalogue (src/kernels/) so the counters' expectations do not
 * move when the catalogue changes. Each sums blockDim.x floats of `in` per
 * block into out[blockIdx.x]; the tests run one block of 64 threads over 64
 * values. The tree versions load into dynamic shared memory (blockDim.x
 * floats), one value per thread, then one __syncthreads(); the tree steps
 * follow, each ending with a __syncthreads(); thread 0 writes the result.
 */

#define FULL_MASK 0xffffffffu

extern __shared__ float sdata[];

/* 1. Interleaved addressing, divergent: the adding threads are every
 * (2s)-th one, spread over both warps. */
extern "C" __global__ void seed_divergent(const float *in, float *out)
{
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 2. Interleaved addressing, strided index: the adding threads are packed
 * at the front, each touching word 2*s*tid (bank conflicts). */
extern "C" __global__ void seed_strided(const float *in, float *out)
{
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] += sdata[index + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 3. Sequential addressing: threads tid < s add word tid + s onto word tid,
 * s halving from blockDim.x / 2. */
extern "C" __global__ void seed_sequential(const float *in, float *out)
{
    unsigned tid = threadIdx.x;
    sdata[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

/* 4. Warp shuffle, as the page describes it: each warp sums its 32 values
 * with five __shfl_down_sync (16, 8, 4, 2, 1), lane 0 of each warp writes one
 * value, one __syncthreads(), thread 0 adds the warps' sums. Needs
 * blockDim.x a multiple of 32 (FULL_MASK) and at most 1024 threads. */
extern "C" __global__ void seed_shuffle(const float *in, float *out)
{
    __shared__ float warp_sums[32];
    unsigned tid = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + tid];
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    if (tid % 32 == 0)
        warp_sums[tid / 32] = v;
    __syncthreads();
    if (tid == 0) {
        float sum = 0.0f;
        for (unsigned w = 0; w < blockDim.x / 32; ++w)
            sum += warp_sums[w];
        out[blockIdx.x] = sum;
    }
}
