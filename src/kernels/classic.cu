/* classic.cu - the block-level kernels of the catalogue, 1 to 10: Harris's
 * "Optimizing Parallel Reduction in CUDA" sequence, the warp-shuffle
 * lesson's shuffle and the wide loads (docs/lesson.md tells the story).
 *
 * defines: divergent_kernel, strided_kernel, sequential_kernel,
 *          first_add_kernel, unroll_warp_kernel, unroll_warp_sync_kernel,
 *          unrolled_kernel, multi_elem_kernel, shuffle_kernel,
 *          shuffle_wide_kernel, cured_classic_function
 *
 * Read it top to bottom: each kernel has a note saying what it changes from
 * the one before and what that costs. The notes reason; they quote no
 * timings (docs/results.md has those, with the runs that made them). The
 * counts in the notes use the lesson's conventions (docs/lesson.md), for
 * one block of B threads on a full tile: a tree step counts 3 shared accesses per adding
 * thread (two reads, one write) and one barrier; the load into shared
 * memory, the barrier after it and the final read are not counted; the
 * bank-conflict degree is over the words written; a divergent warp has 1 to
 * 31 active lanes. For B = 64 the first three give the lesson's table:
 * 189 accesses, 6 barriers.
 *
 * Every kernel here has the same parameters and the same job:
 *     (const T *in, T *out, unsigned n)
 * reads in[0, n), writes the sum of its block's share to out[blockIdx.x].
 * The host runs the same kernel again on the partial sums until one value is
 * left, the last pass as one block (src/lib/plan.c, run.cu). Indexes are 32-bit unsigned, as Harris's were; the
 * catalogue's max_n per kernel (src/lib/catalogue.c) keeps them from
 * wrapping. Blocks are one-dimensional, a power of two from 32 to 1024
 * threads. Any n works, not only multiples of the tile: threads past the end
 * contribute the identity (0). T is float, double, int, long long, unsigned
 * or unsigned long long; integers wrap (sum_op in warp.cuh).
 *
 * The PTX of all of them: nvcc -arch=sm_90 -ptx -lineinfo catalogue.cu
 * (the build's target cured_catalogue_ptx); docs/kernels.md lists the names.
 */
#include "block.cuh"
#include "kernels.h"
#include "load.cuh"
#include "warp.cuh"

// ----------------------------------------------------------------------------
// 1. divergent: the interleaved tree

/* The starting point. Each thread loads one element into shared memory; then
 * log2(B) steps, the stride s doubling: threads whose id is a multiple of 2s
 * add the element s to their right. `tid % (2*s) == 0` picks threads spread
 * out across every warp, so in the first step every warp runs with half its
 * lanes masked off, and every warp keeps running, mostly idle, for steps
 * that only a few of its threads need. `%` is slow too.
 * Costs: 3(B-1) shared accesses, log2(B) barriers, no bank conflicts (the
 * words written within a warp are distinct banks), B/32 of B/32 warps
 * divergent in the first step.
 * Launch: grid ceil(n/B), dynamic shared B*sizeof(T). */
template <typename T>
__global__ void divergent_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = i < n ? in[i] : sum_op::identity<T>();
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        if (tid % (2 * s) == 0)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// ----------------------------------------------------------------------------
// 2. strided: packed threads, strided words

/* Same tree, same pairs, but the work goes to the first threads: thread tid
 * works on index 2*s*tid. The adding threads are now packed at the front, so
 * whole warps drop out together and divergence is gone until fewer than 32
 * threads add. The price moves to shared memory: a warp's
 * lanes write words 2s apart, and words 32 apart share a bank, so a full
 * warp of adders at stride 2s collides gcd(2s, 32) ways.
 * Costs: 3(B-1) accesses, log2(B) barriers, worst bank conflict B/32-way
 * (2-way for 64 threads, 32-way for 1024), 0 of B/64 warps divergent in the
 * first step (B >= 64).
 * Launch: grid ceil(n/B), dynamic shared B*sizeof(T). */
template <typename T>
__global__ void strided_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = i < n ? in[i] : sum_op::identity<T>();
    __syncthreads();
    for (unsigned s = 1; s < blockDim.x; s *= 2) {
        unsigned index = 2 * s * tid;
        if (index < blockDim.x)
            sdata[index] = sum_op::apply(sdata[index], sdata[index + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// ----------------------------------------------------------------------------
// 3. sequential: packed threads, consecutive words

/* Turn the tree around: the stride s starts at B/2 and halves, and thread
 * tid < s adds element tid + s. Adders are packed (no divergence until
 * s < 32) and a warp reads and writes consecutive words (no conflicts).
 * The first step adds the second half of the block onto the first.
 * Still, half the threads never add anything: they only
 * loaded one element.
 * Costs: 3(B-1) accesses, log2(B) barriers, no bank conflicts, 0 of B/64
 * warps divergent in the first step; the last 5 steps run in warp 0 alone,
 * with 16, 8, 4, 2 and 1 of its lanes.
 * Launch: grid ceil(n/B), dynamic shared B*sizeof(T). */
template <typename T>
__global__ void sequential_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;

    sdata[tid] = i < n ? in[i] : sum_op::identity<T>();
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// ----------------------------------------------------------------------------
// 4. first_add: the first step during the load

/* Each block now covers 2B elements: every thread loads two, 2B*blockIdx +
 * tid and that + B, and adds them on the way into shared memory. Half as
 * many blocks, every thread does an add, and the tree is the sequential one.
 * This load is shared by kernels 5 and 6.
 * Costs per block: 3(B-1) accesses and log2(B) barriers as sequential, now
 * for 2B elements, so half per element; no conflicts; no divergence in the
 * first tree step.
 * Launch: grid ceil(n/(2B)), dynamic shared B*sizeof(T). */
template <typename T>
__device__ T first_add_load(const T *in, unsigned n)
{
    unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
    T v = i < n ? in[i] : sum_op::identity<T>();
    if (i + blockDim.x < n)
        v = sum_op::apply(v, in[i + blockDim.x]);
    return v;
}

template <typename T>
__global__ void first_add_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;

    sdata[tid] = first_add_load(in, n);
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// ----------------------------------------------------------------------------
// 5. unroll_warp: the last warp without barriers, the old way (UNSAFE)

/* An EXHIBIT of a hazard, kept because it was the textbook code for a decade.
 * Once s <= 32 only warp 0 works, and a warp used to execute in lockstep, so
 * Harris dropped the barriers and the `if (tid < s)` for the last six steps:
 * all 32 lanes run each line, the shared array read through `volatile` so
 * every value goes to memory and back. Nothing in CUDA ever
 * promised that lockstep: since Volta each thread has its own program
 * counter and lane 5 may read sdata[21] before or after lane 21 writes it.
 * Lanes 16..31 write words that lanes 0..15 read in the same step: a race
 * that compute-sanitizer racecheck reports. It usually still gives the right
 * sum, because a warp that has not diverged still issues these lines
 * together; nothing guarantees it, and a scheduler that runs the lanes one
 * after another (a simulator may) gets wrong sums. Use kernel 6.
 * The lanes above s compute values nobody uses, so the last warp reads up
 * to sdata[63]: the block's shared memory has max(B, 64) elements and a
 * 32-thread block fills the top half with the identity.
 * Costs: 3(B-64) accesses and log2(B)-6 barriers in the tree (none for 64
 * threads), then 6 steps x 32 lanes x 3 = 576 accesses and no barrier: more
 * shared traffic than the tree's 189 for the same 6 levels, traded for six
 * barriers and the divergent `if`. No bank conflicts, no divergence.
 * Launch: grid ceil(n/(2B)), dynamic shared max(B, 64)*sizeof(T). */
template <typename T>
__device__ void warp_tail_unsafe(volatile T *sdata, unsigned tid)
{
    sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 32]);
    sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 16]);
    sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 8]);
    sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 4]);
    sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 2]);
    sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 1]);
}

template <typename T>
__global__ void unroll_warp_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;

    sdata[tid] = first_add_load(in, n);
    if (blockDim.x < 64)
        sdata[tid + 32] = sum_op::identity<T>();
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid < 32)
        warp_tail_unsafe<T>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

// ----------------------------------------------------------------------------
// 6. unroll_warp_sync: the same, made correct with __syncwarp

/* Kernel 5's correct twin, the fix NVIDIA's "Using CUDA Warp-Level
 * Primitives" gives: each lane keeps its running sum in a register, reads
 * its partner's word, __syncwarp(), writes its own word, __syncwarp(). The
 * two warp barriers per step order every read before the writes that follow
 * it and every write before the reads of the next step, so there is no race
 * and no `volatile`. A __syncwarp costs far less than a __syncthreads.
 * Costs: the tree as kernel 5, then 32 lanes x (1 + 6 x 2) = 416 shared
 * accesses (the running sum stays in a register) and 12 __syncwarp; no bank
 * conflicts, no divergence.
 * Launch: grid ceil(n/(2B)), dynamic shared max(B, 64)*sizeof(T). */
template <typename T>
__device__ T warp_tail_sync(T *sdata, unsigned tid)
{
    T v = sdata[tid];
#pragma unroll
    for (unsigned s = 32; s > 0; s >>= 1) {
        v = sum_op::apply(v, sdata[tid + s]);
        __syncwarp();
        sdata[tid] = v;
        __syncwarp();
    }
    return v;
}

template <typename T>
__global__ void unroll_warp_sync_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;

    sdata[tid] = first_add_load(in, n);
    if (blockDim.x < 64)
        sdata[tid + 32] = sum_op::identity<T>();
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + s]);
        __syncthreads();
    }
    if (tid < 32) {
        T v = warp_tail_sync(sdata, tid);
        if (tid == 0)
            out[blockIdx.x] = v;
    }
}

// ----------------------------------------------------------------------------
// 7. unrolled: the block size known at compile time

/* With the block size a template parameter the loop disappears: each step is
 * an `if (BLOCK >= ...)` the compiler resolves, so no loop counter, no
 * compare-and-branch per step, no shift. The host picks the
 * instance that matches the launch (32, 64, ..., 1024); blockDim.x must
 * equal BLOCK. The memory traffic is kernel 6's: what changes is
 * instructions, which is what a memory-light tree is short of.
 * Costs: as kernel 6. Launch: grid ceil(n/(2B)), block BLOCK, dynamic
 * shared max(B, 64)*sizeof(T). */
template <typename T, unsigned BLOCK>
__device__ T block_tree_unrolled(T *sdata, unsigned tid)
{
    if (BLOCK >= 1024) {
        if (tid < 512)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 512]);
        __syncthreads();
    }
    if (BLOCK >= 512) {
        if (tid < 256)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 256]);
        __syncthreads();
    }
    if (BLOCK >= 256) {
        if (tid < 128)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 128]);
        __syncthreads();
    }
    if (BLOCK >= 128) {
        if (tid < 64)
            sdata[tid] = sum_op::apply(sdata[tid], sdata[tid + 64]);
        __syncthreads();
    }
    T v = sum_op::identity<T>();
    if (tid < 32)
        v = warp_tail_sync(sdata, tid);
    return v;
}

template <typename T, unsigned BLOCK>
__global__ void unrolled_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * (BLOCK * 2) + tid;

    T v = i < n ? in[i] : sum_op::identity<T>();
    if (i + BLOCK < n)
        v = sum_op::apply(v, in[i + BLOCK]);
    sdata[tid] = v;
    if (BLOCK < 64)
        sdata[tid + 32] = sum_op::identity<T>();
    __syncthreads();
    v = block_tree_unrolled<T, BLOCK>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = v;
}

// ----------------------------------------------------------------------------
// 8. multi_elem: many elements per thread (Brent)

/* Brent's theorem in practice: give each thread many elements to add
 * serially before the tree, so the tree's cost (barriers, idle threads) is
 * paid once per many elements instead of once per 2B. The grid is sized to
 * fill the GPU once (a few blocks per multiprocessor) and each block walks
 * the array with a grid-sized stride, two elements per trip as kernel 4,
 * so every warp's loads stay coalesced (multi_elem_load, which kernel 9
 * shares). Then kernel 7's tree. A trip adds to a running sum, so a
 * thread's chain of additions is as long as its share: more rounding in
 * floats than a pure tree.
 * The stride is 32-bit: the host keeps n + 2*B*gridDim.x <= 2^32.
 * Costs per block: kernel 7's, once for about n/gridDim.x elements.
 * Launch: grid min(ceil(n/(2B)), resident blocks), block BLOCK, dynamic
 * shared max(B, 64)*sizeof(T). */

/* The sum of this thread's share for blocks of `block` threads (blockDim.x;
 * kernel 8 passes its compile-time BLOCK): elements i and i + block of
 * each trip, i = 2 block blockIdx.x + threadIdx.x, then i + 2 block
 * gridDim.x, ..., added to a running sum in that order. Two additions per
 * trip on every element's path. */
template <typename T>
__device__ T multi_elem_load(const T *in, unsigned n, unsigned block)
{
    unsigned i = blockIdx.x * (block * 2) + threadIdx.x;
    unsigned grid_stride = block * 2 * gridDim.x;

    T v = sum_op::identity<T>();
    while (i < n) {
        v = sum_op::apply(v, in[i]);
        if (i + block < n)
            v = sum_op::apply(v, in[i + block]);
        i += grid_stride;
    }
    return v;
}

template <typename T, unsigned BLOCK>
__global__ void multi_elem_kernel(const T *in, T *out, unsigned n)
{
    T *sdata = block_shared<T>();
    unsigned tid = threadIdx.x;

    T v = multi_elem_load(in, n, BLOCK);
    sdata[tid] = v;
    if (BLOCK < 64)
        sdata[tid + 32] = sum_op::identity<T>();
    __syncthreads();
    v = block_tree_unrolled<T, BLOCK>(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = v;
}

// ----------------------------------------------------------------------------
// 9. shuffle: warp shuffles, the hybrid block sum

/* The tree changes, nothing else: the warp-shuffle lesson. Inside a warp,
 * __shfl_down_sync reads another lane's register, so a warp sums its 32
 * values in 5 shuffles with no shared memory and no barrier. The block sum
 * is the hybrid one (block_sum in block.cuh): warps sum, lane 0 of each
 * writes one value, one barrier, warp 0 sums those. The loads are kernel
 * 8's (multi_elem_load: the same elements, in the same order, per thread),
 * and so is the grid.
 *
 * What it saves is the tree's latency at the end of each block: kernel 7's
 * tree takes a barrier after the load and one per level above the last
 * warp (3 at B = 256), then in its last warp 12 __syncwarp and 416 shared
 * accesses; this one takes 1 barrier and 2 shared accesses per warp. After
 * kernel 8 the tree runs once per block per launch, so at large n the time
 * is memory's and the change barely shows; it shows where the tree is a
 * visible share of the time: small n, and the last pass, one block of up
 * to 1024 threads. The block size need no longer be a compile-time
 * constant: block_sum works for any blockDim.x, so one instance per element
 * type serves every block size.
 * One block of 64 threads over the lesson's 64 values loads one value
 * per thread (i + B is past n), and the table's row is 4 / 1 / - / none.
 *
 * Costs per block: 2 shared accesses per warp (4 for 64 threads), 1
 * barrier, 5 shuffles per warp and 5 in warp 0, no bank conflicts, no
 * divergence but warp 0's last round; 32 warp sums of static shared memory
 * instead of max(B, 64) elements of dynamic. 18 registers for floats, up to
 * 26 for 8-byte types: under the 32 that let 2048 threads share a
 * multiprocessor, which the dispatch's grid assumes, so it needs no
 * __launch_bounds__.
 * The stride is 32-bit, as in kernel 8: the host keeps n + 2*B*gridDim.x
 * <= 2^32.
 * Launch: grid min(ceil(n/(2B)), resident blocks), as kernel 8; no dynamic
 * shared memory. */
template <typename T>
__global__ void shuffle_kernel(const T *in, T *out, unsigned n)
{
    __shared__ T warp_sums[32];

    T v = multi_elem_load(in, n, blockDim.x);
    v = block_sum(v, warp_sums);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

// ----------------------------------------------------------------------------
// 10. shuffle_wide: the same block sum, loads 16 bytes wide

/* The loads change, nothing else: kernel 9's block sum over a thread's
 * share read through thread_sum (load.cuh).
 *
 * After kernels 8 and 9 the tree is paid once per block per launch and
 * barely shows; what is left is memory. Kernel 9 asks for two scalar loads
 * per thread per trip, far too few bytes in flight to cover the memory's
 * latency (Little's law: bytes in flight = bandwidth x latency; see
 * docs/kernels.md). So each thread loads through thread_sum: four 16-byte
 * loads issued before any is added (ld.global.v4.f32, LDG.E.128 in SASS),
 * 64 bytes per thread in flight, as the read ceiling does; each trip's 16
 * values are added as a tree of depth 4, then into the running sum, so
 * for the same share a thread's chain of additions is shorter too (one
 * link per trip of 16 values, not one per element). A trip takes 4W
 * elements (16 floats, 8 doubles) where kernel 9's takes 2, and the grid
 * is sized by that trip: below the cap of resident blocks, 8 (4) times
 * fewer blocks for the same n. Where n is below one wide vector per
 * thread it is one element per trip (the lesson's 64 values in one
 * block of 64: one value per thread, as in kernel 9).
 *
 * Costs: the block sum's, as kernel 9; 32 registers (kernel 9: 18 to 26),
 * an alignment test, and on a misaligned pointer scalar loads of the same
 * elements (slower, same bits). __launch_bounds__(1024, 2) holds the
 * compiler to those 32 registers, the most that lets 2048 threads share a
 * multiprocessor: the dispatch sizes a large n's grid as the blocks that
 * are resident at once, and a block that did not fit would start only when
 * another finished, then run alone.
 * Indexes are 32-bit: with n <= max_n and at most 2^20 threads in the grid
 * (the dispatch's cap) none wraps.
 * Launch: grid min(ceil(n / 16B), resident blocks) for 4-byte T,
 * min(ceil(n / 8B), resident) for 8-byte T (one trip per thread where n
 * allows); no dynamic shared memory (32 warp sums in static shared memory). */
template <typename T>
__global__ void __launch_bounds__(1024, 2)
shuffle_wide_kernel(const T *in, T *out, unsigned n)
{
    __shared__ T warp_sums[32];

    T v = thread_sum<T>(in, n, blockIdx.x * blockDim.x + threadIdx.x,
                        blockDim.x * gridDim.x);
    v = block_sum(v, warp_sums);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}

// ----------------------------------------------------------------------------
// Launchers: the host's table of instances

/* unrolled_kernel<T, block_size> or multi_elem_kernel<T, block_size>, or
 * NULL for a block size that has no instance. */
template <typename T>
static const void *block_size_instance(cured_kernel_id id, int block_size)
{
#define CURED_INSTANCE(B)                                                    \
    case B:                                                                  \
        return id == CURED_K_UNROLLED ? (const void *)unrolled_kernel<T, B>  \
                                      : (const void *)multi_elem_kernel<T, B>
    switch (block_size) {
        CURED_INSTANCE(32);
        CURED_INSTANCE(64);
        CURED_INSTANCE(128);
        CURED_INSTANCE(256);
        CURED_INSTANCE(512);
        CURED_INSTANCE(1024);
    }
#undef CURED_INSTANCE
    return NULL;
}

/* The instance of block-level kernel `id` for element type T, or NULL.
 * Taking each address instantiates the template, so this table is also what
 * puts every kernel in the PTX. */
template <typename T>
static const void *classic_instance(cured_kernel_id id, int block_size)
{
    switch (id) {
    case CURED_K_DIVERGENT: return (const void *)divergent_kernel<T>;
    case CURED_K_STRIDED: return (const void *)strided_kernel<T>;
    case CURED_K_SEQUENTIAL: return (const void *)sequential_kernel<T>;
    case CURED_K_FIRST_ADD: return (const void *)first_add_kernel<T>;
    case CURED_K_UNROLL_WARP: return (const void *)unroll_warp_kernel<T>;
    case CURED_K_UNROLL_WARP_SYNC:
        return (const void *)unroll_warp_sync_kernel<T>;
    case CURED_K_UNROLLED:
    case CURED_K_MULTI_ELEM: return block_size_instance<T>(id, block_size);
    case CURED_K_SHUFFLE: return (const void *)shuffle_kernel<T>;
    case CURED_K_SHUFFLE_WIDE: return (const void *)shuffle_wide_kernel<T>;
    default: return NULL;
    }
}

extern "C" const void *cured_classic_function(cured_kernel_id id,
                                              cured_dtype dtype, int block_size)
{
    switch (dtype) {
    case CURED_F32: return classic_instance<float>(id, block_size);
    case CURED_F64: return classic_instance<double>(id, block_size);
    case CURED_I32: return classic_instance<int>(id, block_size);
    case CURED_I64: return classic_instance<long long>(id, block_size);
    case CURED_U32: return classic_instance<unsigned>(id, block_size);
    case CURED_U64: return classic_instance<unsigned long long>(id, block_size);
    default: return NULL;
    }
}
