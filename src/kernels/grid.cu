/* grid.cu - the grid-level kernels of the catalogue, 11 to 13: ways for the
 * blocks of one grid to combine their sums.
 *
 * defines: two_pass_kernel, atomic_kernel, single_pass_kernel,
 *          cured_grid_function
 *
 * The block-level kernels (classic.cu) leave one partial sum per block and
 * the host launches again. Here the kernels themselves finish the job, three
 * ways. All three start alike, as kernel 10 does: each thread adds its share
 * loaded 16 bytes wide, four loads in flight (thread_sum, load.cuh), and the
 * block sums its threads with the hybrid block_sum (block.cuh). The grid
 * gives each thread one trip (16 floats, 8 doubles) and grows with n until
 * it fills the GPU once (resident blocks: 1056 of 256 threads on an H200);
 * past that the threads loop. Reading is then all they do at large n: the
 * combining is a small cost paid once per call, whichever of the three ways.
 * Like kernel 10 they are compiled for 2048 resident threads per
 * multiprocessor (__launch_bounds__(1024, 2): at most 32 registers), which
 * the dispatch's grid assumes. Indexes are 64-bit, so n may pass 2^32.
 * Parameters:
 *     two_pass_kernel, atomic_kernel: (const T *in, T *out, unsigned long long n)
 *     single_pass_kernel:             (const T *in, T *out, unsigned long long n,
 *                                      T *partials, unsigned *counter)
 * Blocks are one-dimensional, a power of two from 32 to 1024 threads; no
 * dynamic shared memory. T as in classic.cu; integers wrap.
 */
#include "block.cuh"
#include "kernels.h"
#include "load.cuh"
#include "warp.cuh"

// ----------------------------------------------------------------------------
// Shared pieces

/* This thread's share of in[0, n), read wide (thread_sum, load.cuh): thread
 * blockIdx.x * blockDim.x + threadIdx.x of gridDim.x * blockDim.x. 64-bit
 * indexes: with n <= 2^62 none can wrap. The order of its additions depends
 * on n, the grid and the block only. */
template <typename T>
__device__ T grid_thread_sum(const T *in, unsigned long long n)
{
    unsigned long long threads = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long rank =
        (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    return thread_sum<T>(in, n, rank, threads);
}

/* *address += v, atomically, wrapping for integers. long long goes through
 * the unsigned 64-bit atomicAdd: two's complement makes it the same bits. */
__device__ inline void atomic_sum(float *address, float v) { atomicAdd(address, v); }
__device__ inline void atomic_sum(double *address, double v) { atomicAdd(address, v); }
__device__ inline void atomic_sum(int *address, int v) { atomicAdd(address, v); }
__device__ inline void atomic_sum(unsigned *address, unsigned v) { atomicAdd(address, v); }
__device__ inline void atomic_sum(unsigned long long *address, unsigned long long v)
{
    atomicAdd(address, v);
}
__device__ inline void atomic_sum(long long *address, long long v)
{
    atomicAdd((unsigned long long *)address, (unsigned long long)v);
}

// ----------------------------------------------------------------------------
// 11. two_pass: partials, then one block

/* The simplest grid scheme and the deterministic one: launch 1 writes one
 * partial per block to out[blockIdx.x], launch 2 is the same kernel with one
 * block, reading those partials and writing the result. Because the grid is
 * sized to the GPU (a few thousand blocks at most), two launches always
 * suffice, where kernels 1-10 need one pass per factor of 2B. The order of
 * every addition is fixed by n, the grid and the block, so the result is the
 * same bits run after run. The cost is the second launch (a launch's fixed
 * cost, which is most of the time for small n) and the partials' round trip
 * through global memory.
 * Launch 1: grid G = min(ceil(n / (4 W B)), resident blocks), W = 16 /
 * sizeof(T), block B, writes out[0, G) (the caller's scratch). Launch 2:
 * grid 1, block B, n = G. */
template <typename T>
__global__ void __launch_bounds__(1024, 2)
two_pass_kernel(const T *in, T *out, unsigned long long n)
{
    __shared__ T warp_sums[32];
    T v = block_sum(grid_thread_sum(in, n), warp_sums);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

// ----------------------------------------------------------------------------
// 12. atomic: one atomicAdd per block

/* One launch: thread 0 of each block adds the block's sum into *out with
 * atomicAdd, which the L2 cache serialises. G atomics on one address cost
 * little next to reading n elements. *out must hold 0 first: the host
 * zeroes it in the same stream before the launch. Floats lose determinism:
 * the blocks finish in any order and float addition is not associative, so
 * the last bits change from run to run (integers don't: wrapping addition
 * is associative). The float error grows with G, each block's sum being one
 * more link in the chain into *out.
 * Launch: grid G as two_pass's first launch, block B, after
 * cudaMemsetAsync(out, 0, sizeof(T)). */
template <typename T>
__global__ void __launch_bounds__(1024, 2)
atomic_kernel(const T *in, T *out, unsigned long long n)
{
    __shared__ T warp_sums[32];
    T v = block_sum(grid_thread_sum(in, n), warp_sums);
    if (threadIdx.x == 0)
        atomic_sum(out, v);
}

// ----------------------------------------------------------------------------
// 13. single_pass: the last block adds the partials

/* One launch and a fixed order (the CUDA sample threadFenceReduction): each
 * block writes its partial to partials[blockIdx.x], then thread 0 makes that
 * write visible to the whole GPU (__threadfence) before taking a ticket from
 * *counter with atomicAdd. The block that draws the last ticket knows every
 * other partial is written; it fences again (so its reads see them), reads
 * them through `volatile` (past the non-coherent L1, one element per load)
 * and sums them with thread_sum in the same order as two_pass's second
 * launch (one block of B over G values: the order does not depend on the
 * load width), so the result is two_pass's bits.
 * Then it re-arms the counter (*counter = 0) for the next launch: the
 * caller zero-fills the scratch once and never again. Saves two_pass's
 * second launch; costs a fence and an atomic per block, and the last block
 * works alone at the end. Launches sharing a counter must not overlap.
 * Launch: grid G as two_pass's first launch, block B; partials holds G
 * values, *counter is 0 at entry and again at exit. */
template <typename T>
__global__ void __launch_bounds__(1024, 2)
single_pass_kernel(const T *in, T *out, unsigned long long n, T *partials,
                   unsigned *counter)
{
    __shared__ T warp_sums[32];
    __shared__ unsigned am_last;

    T v = block_sum(grid_thread_sum(in, n), warp_sums);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = v;
        __threadfence();
        unsigned ticket = atomicAdd(counter, 1u);
        am_last = ticket == gridDim.x - 1;
        if (am_last)
            __threadfence();
    }
    __syncthreads();
    if (am_last) {
        const volatile T *p = partials;
        T w = thread_sum<T>(p, (unsigned long long)gridDim.x,
                            (unsigned long long)threadIdx.x,
                            (unsigned long long)blockDim.x);
        w = block_sum(w, warp_sums);
        if (threadIdx.x == 0) {
            *out = w;
            *counter = 0;
        }
    }
}

// ----------------------------------------------------------------------------
// Launchers: the host's table of instances

template <typename T>
static const void *grid_instance(cured_kernel_id id)
{
    switch (id) {
    case CURED_K_TWO_PASS: return (const void *)two_pass_kernel<T>;
    case CURED_K_ATOMIC: return (const void *)atomic_kernel<T>;
    case CURED_K_SINGLE_PASS: return (const void *)single_pass_kernel<T>;
    default: return NULL;
    }
}

extern "C" const void *cured_grid_function(cured_kernel_id id, cured_dtype dtype)
{
    switch (dtype) {
    case CURED_F32: return grid_instance<float>(id);
    case CURED_F64: return grid_instance<double>(id);
    case CURED_I32: return grid_instance<int>(id);
    case CURED_I64: return grid_instance<long long>(id);
    case CURED_U32: return grid_instance<unsigned>(id);
    case CURED_U64: return grid_instance<unsigned long long>(id);
    default: return NULL;
    }
}
