// kernels.cu - the model's fidelity set: kernels beyond the catalogue whose
// counters the model must reproduce as Nsight Compute measures them on the
// H200 (cases.txt says how each is launched; docs/data/fidelity/ holds what
// ncu measured; tests/model/fidelity/test_fidelity.c holds the model to it).
//
// Each kernel exercises one thing the counters must get right: shared
// memory patterns (transposes with and without padding, 64- and 128-bit
// accesses, broadcasts, strides), odd block shapes (48 threads, 2D, 3D),
// warp operations (shuffles, votes, match, redux) over several blocks,
// atomics (shared histogram, global 32/64-bit, reductions whose result is
// unused), data-dependent control flow (per-lane trip counts, if-converted
// and kept branches), local memory, and a Harris-style reduction over a
// non-power-of-two n (and, since issue 9, atomics that share banks,
// sectors and addresses, and a spilled local array). regen.sh compiles it
// to kernels.ptx and kernels.sass
// (committed, so the CPU test needs no toolkit).
//
// Every kernel is extern "C" so its PTX name is its name here.

#include <cuda_runtime.h>

#define TILE 32

extern "C" {

// ---------------------------------------------------------------- shared

// A 32x32 tile transposed through shared memory without padding: the
// column reads of the tile are 32-way bank conflicts. Block (32, 8).
__global__ void transpose_naive(const float *in, float *out, int width)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The same with one word of padding per row: no conflicts.
__global__ void transpose_padded(const float *in, float *out, int width)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 64-bit shared accesses: doubles, consecutive and at a stride of 2.
__global__ void shared_f64(const double *in, double *out)
{
    __shared__ double s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    double a = s[t ^ 1];
    double b = s[(2 * t) & 255];
    out[blockIdx.x * blockDim.x + t] = a + b;
}

// 128-bit shared accesses: float4, consecutive and strided.
__global__ void shared_v4(const float4 *in, float4 *out)
{
    __shared__ float4 s[128];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    float4 a = s[(t * 3) & 127];
    float4 b = s[127 - t];
    out[blockIdx.x * blockDim.x + t] =
        make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

// Every lane reads the same word (a broadcast), then pairs of lanes share
// words (a multicast): no conflicts either way.
__global__ void broadcast(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned t = threadIdx.x;
    if (t < 64)
        s[t] = in[t];
    __syncthreads();
    int a = s[5];
    int b = s[t / 2 % 64];
    out[blockIdx.x * blockDim.x + t] = a + b;
}

// Stores at a stride of 17 words (odd: conflict-free) and of 16 words
// (16-way conflicts), after a conflict-free fill, then loads back.
__global__ void shared_strides(const int *in, int *out)
{
    __shared__ int a[32 * 17];
    __shared__ int b[32 * 16];
    unsigned t = threadIdx.x;
    for (unsigned k = t; k < 32 * 17; k += 32)
        a[k] = (int)k;
    for (unsigned k = t; k < 32 * 16; k += 32)
        b[k] = (int)k;
    __syncthreads();
    a[t * 17] = in[t];
    b[t * 16] += in[t];
    __syncthreads();
    out[t] = a[t * 17] + b[t * 16] + a[t];
}

// Byte and half-word shared accesses: four lanes per bank word.
__global__ void shared_bytes(const unsigned char *in, unsigned short *out)
{
    __shared__ unsigned char b[256];
    __shared__ unsigned short h[256];
    unsigned t = threadIdx.x;
    b[t] = in[t];
    h[t] = (unsigned short)(in[t] * 3);
    __syncthreads();
    out[t] = (unsigned short)(b[255 - t] + h[(t * 2) & 255]);
}

// Dynamic shared memory sized at launch.
__global__ void dynamic_shared(const float *in, float *out, int n)
{
    extern __shared__ float dyn[];
    unsigned t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    dyn[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            dyn[t] += dyn[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = dyn[0];
}

// ---------------------------------------------------------- block shapes

// 48 threads: one full warp and a half one; a tree over 48 values.
__global__ void tree48(const float *in, float *out)
{
    __shared__ float s[64];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 48 + t];
    if (t < 16)
        s[48 + t] = 0.0f;
    __syncthreads();
    for (unsigned st = 32; st > 0; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// A 2D block (16, 16) over a 2D array: row sums in shared memory.
__global__ void block2d(const float *in, float *out, int width)
{
    __shared__ float s[16][16];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    s[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float sum = 0.0f;
        for (int i = 0; i < 16; i++)
            sum += s[threadIdx.y][i];
        out[y * gridDim.x + blockIdx.x] = sum;
    }
}

// A 3D block (8, 4, 2): each thread writes its linear index's square.
__global__ void block3d(int *out)
{
    int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int threads = blockDim.x * blockDim.y * blockDim.z;
    __shared__ int s[64];
    s[t] = t * t;
    __syncthreads();
    out[b * threads + t] = s[threads - 1 - t] + b;
}

// ------------------------------------------------------------ warp ops

// Shuffles down, up, xor and indexed, over several blocks.
__global__ void shuffles(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int d = __shfl_down_sync(0xffffffffu, v, 3);
    int u = __shfl_up_sync(0xffffffffu, v, 5);
    int x = __shfl_xor_sync(0xffffffffu, v, 9);
    int k = __shfl_sync(0xffffffffu, v, (threadIdx.x * 7) & 31);
    out[i] = d + 2 * u + 3 * x + 4 * k;
}

// A warp sum by shuffles, one result per warp.
__global__ void warp_sum(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0)
        out[i / 32] = v;
}

// Votes: ballot, any, all; a population count of the ballot.
__global__ void votes(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int any = __any_sync(0xffffffffu, v > 6);
    int all = __all_sync(0xffffffffu, v > -9);
    out[i] = __popc(b) + (any ? 100 : 0) + (all ? 1000 : 0);
}

// match.any and match.all over small values.
__global__ void match_ops(const int *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i] & 3;
    unsigned same = __match_any_sync(0xffffffffu, v);
    int pred;
    unsigned all = __match_all_sync(0xffffffffu, v & 0, &pred);
    out[i] = __popc(same) + (pred ? all : 0u);
}

// redux.sync: the warp's sum, min and max of unsigned values.
__global__ void redux_ops(const unsigned *in, unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[i];
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    unsigned lo = __reduce_min_sync(0xffffffffu, v);
    unsigned hi = __reduce_max_sync(0xffffffffu, v);
    out[i] = s + lo * 3 + hi * 5;
}

// A shuffle in a partial warp (40 threads: the second warp has 8 lanes),
// with the mask of the lanes that exist; xor 1 stays among them.
__global__ void partial_warp(const int *in, int *out)
{
    unsigned t = threadIdx.x;
    unsigned lanes = blockDim.x - (t & ~31u);
    unsigned mask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1;
    int v = in[blockIdx.x * blockDim.x + t];
    int w = __shfl_xor_sync(mask, v, 1);
    out[blockIdx.x * blockDim.x + t] = v + w;
}

// ------------------------------------------------------------- atomics

// A histogram in shared memory: 16 bins, heavy contention on the shared
// atomics, then one global atomic per bin per block.
__global__ void histogram(const unsigned char *in, unsigned *bins, int n)
{
    __shared__ unsigned h[16];
    unsigned t = threadIdx.x;
    if (t < 16)
        h[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] & 15], 1u);
    __syncthreads();
    if (t < 16)
        atomicAdd(&bins[t], h[t]);
}

// Shared atomics whose lanes all hit one word, and lanes spread over 32.
__global__ void shared_atomic_patterns(const int *in, int *out)
{
    __shared__ int s[32];
    unsigned t = threadIdx.x;
    if (t < 32)
        s[t] = 0;
    __syncthreads();
    atomicAdd(&s[0], in[t]);
    atomicAdd(&s[t & 31], 1);
    atomicMax(&s[(t * 2) & 31], in[t]);
    __syncthreads();
    if (t < 32)
        out[blockIdx.x * 32 + t] = s[t];
}

// Per block a 64-bit atomic add into one global word, whose result is
// unused (a reduction, RED in SASS), and one whose result is used.
__global__ void global_atomic64(const unsigned long long *in,
                                unsigned long long *total,
                                unsigned long long *tickets)
{
    __shared__ unsigned long long s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t == 0) {
        atomicAdd(total, s[0]);
        unsigned long long ticket = atomicAdd(tickets, 1ull);
        tickets[1 + blockIdx.x] = ticket;
    }
}

// Every lane adds to global words: one word per lane, one word for the
// warp, and a float add (RED.ADD.F32 when unused).
__global__ void global_atomics(const int *in, int *words, float *fsum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&words[threadIdx.x], in[i]);
    atomicAdd(&words[blockDim.x + (i >> 5) % 8], 1);
    atomicAdd(fsum, (float)in[i]);
    int old = atomicCAS(&words[blockDim.x + 8], 0, i + 1);
    if (old == 0)
        words[blockDim.x + 9] = i;
}

// Shared compare-and-swap and exchange: one each per lane, no loop; with
// one warp a block, each word's CAS comes before its exchange.
__global__ void shared_cas(const int *in, int *out)
{
    __shared__ int s[32];
    unsigned t = threadIdx.x;
    if (t < 32)
        s[t] = 0;
    __syncthreads();
    int old = atomicCAS(&s[t & 31], 0, in[t] + 100);
    int prev = atomicExch(&s[(t + 1) & 31], (int)t);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = (old == 0) + prev;
}

// Global min/max whose results are unused (RED) and an exchange whose
// result is used (ATOM); the exchanged values depend on the order.
__global__ void global_minmax(const int *in, int *words)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicMin(&words[0], in[i]);
    atomicMax(&words[1], in[i]);
    int old = atomicExch(&words[2 + (i & 7)], in[i]);
    words[10 + i] = old;
}

// --------------------------------------------------------- control flow

// A loop whose trip count depends on the lane: stride-17 stores into
// shared memory, different counts per lane.
__global__ void per_lane_loop(const int *in, int *out)
{
    __shared__ int s[17 * 64];
    unsigned t = threadIdx.x;
    int trips = (in[t] & 7) + 1;
    for (int k = 0; k < trips; k++)
        s[(t * 17 + k) % (17 * 64)] = k * (int)t;
    __syncthreads();
    int acc = 0;
    for (int k = 0; k < trips; k++)
        acc += s[(t * 17 + k) % (17 * 64)];
    out[blockIdx.x * blockDim.x + t] = acc;
}

// A short conditional ptxas if-converts (predicated instructions).
__global__ void if_converted(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if (v > 0.0f)
        v = v * 2.0f;
    out[i] = i < n ? v : 0.0f;
}

// A long conditional body that stays a branch, divergent within warps.
__global__ void branched(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if ((i & 3) == 0) {
        for (int k = 0; k < 16; k++)
            v = v * 1.0001f + (float)k;
        out[i] = v;
    } else {
        out[i] = -v;
    }
}

// A conditional uniform per warp: branches taken by whole warps.
__global__ void warp_uniform_branch(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if ((threadIdx.x / 32) & 1) {
        for (int k = 0; k < 8; k++)
            v = v * 3 + k;
    } else {
        v = v - 7;
    }
    out[i] = v;
}

// Nested divergence: two levels of data-dependent branches.
__global__ void nested_divergence(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (v & 1) {
        if (v & 2)
            v = v * 5 + 1;
        else
            v = v * 7 - 3;
        for (int k = 0; k < (v & 3); k++)
            v += k;
    } else {
        v = -v;
    }
    out[i] = v;
}

// An early return for some lanes, then a barrier-free tail.
__global__ void early_exit(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int v = in[i];
    if (v < 0)
        return;
    out[i] = v * v;
}

// A call to a function ptxas keeps out of line.
__device__ __noinline__ float scaled(float x, int k)
{
    return x * (float)(k + 1) - 0.5f;
}

__global__ void called_function(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = scaled(in[i], i & 3) + scaled(in[i], 2);
}

// ---------------------------------------------------------- local memory

// An array indexed by data: ptxas keeps it in local memory.
__global__ void local_array(const int *in, int *out)
{
    int a[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < 32; k++)
        a[k] = in[(i + k) & 255] * k;
    int j = in[i] & 31;
    out[i] = a[j] + a[(j * 7) & 31];
}

// ------------------------------------------------------------ reductions

// Harris's kernel 7 shape: several elements per thread, 256 threads,
// a tree with the last warp unrolled under __syncwarp, any n.
__global__ void multi_elem_reduce(const float *in, float *out, unsigned n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * 512 + t;
    unsigned stride = 512 * gridDim.x;
    float v = 0.0f;
    while (i < n) {
        v += in[i];
        if (i + 256 < n)
            v += in[i + 256];
        i += stride;
    }
    s[t] = v;
    __syncthreads();
    for (unsigned st = 128; st > 32; st >>= 1) {
        if (t < st)
            s[t] += s[t + st];
        __syncthreads();
    }
    if (t < 32) {
        float w = s[t] + s[t + 32];
        for (int o = 16; o > 0; o >>= 1)
            w += __shfl_down_sync(0xffffffffu, w, o);
        if (t == 0)
            out[blockIdx.x] = w;
    }
}

// A grid-stride copy with 16-byte loads and stores.
__global__ void vector_copy(const float4 *in, float4 *out, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4;
         i += gridDim.x * blockDim.x)
        out[i] = in[i];
}

// Misaligned-for-the-warp global loads: lane i reads word i + 1, and a
// stride of 2 words (twice the sectors).
__global__ void global_patterns(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float a = in[i + 1];
    float b = in[2 * i];
    out[i] = a + b;
}

// ------------------------------------------------- added for issue 9
//
// Three kernels that tell apart the rules docs/model.md gives for atomics
// and that keep an array in local memory (local_array's went to
// registers).

// Shared atomics whose lanes share banks and words: per warp, four words of
// one bank (1, 33, 65, 97) with eight lanes on each; sixteen words of
// sixteen banks with two lanes on each (atomicMax); a 64-bit exchange and a
// 64-bit compare-and-swap with two lanes a word (native ATOMS.EXCH.64 and
// ATOMS.CAS.64; a 64-bit add would be a CAS loop whose trips depend on the
// order lanes are served in). Lanes per bank, distinct words per bank and
// lanes per word all differ in the first, so its wavefronts say which the
// hardware counts. out holds the adds and maxima only (w's values depend
// on the order).
__global__ void shared_atomic_spread(const int *in, int *out)
{
    __shared__ int s[128];
    __shared__ unsigned long long w[32];
    unsigned t = threadIdx.x;
    for (unsigned k = t; k < 128; k += blockDim.x)
        s[k] = 0;
    if (t < 32)
        w[t] = 0;
    __syncthreads();
    int v = in[blockIdx.x * blockDim.x + t];
    atomicAdd(&s[(t & 3) * 32 + 1], v);     /* odd words: none of the max's */
    atomicMax(&s[64 + ((t * 2) & 31)], v);
    atomicExch(&w[t & 15], (unsigned long long)t);
    atomicCAS(&w[16 + (t & 15)], 0ull, (unsigned long long)t + 1);
    __syncthreads();
    if (t < 32)
        out[blockIdx.x * 32 + t] = s[t] + s[32 + t] + s[64 + t];
}

// Global atomics whose lanes share sectors and addresses: reductions on
// four words in four sectors with eight lanes each, and on sixteen words
// in two sectors with two lanes each; an add whose old value is used, on
// eight words of one sector with four lanes each. words is zeroed;
// olds depends on the order lanes are served in.
__global__ void global_atomic_spread(const int *in, int *words, int *olds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    atomicAdd(&words[(threadIdx.x & 3) * 8], v);
    atomicAdd(&words[32 + (threadIdx.x & 15)], 1);
    olds[i] = atomicAdd(&words[64 + (threadIdx.x >> 2)], v);
}

// A local array ptxas cannot keep in registers: stores and loads at
// indices only known at run time.
__global__ void local_spill(const int *in, int *out)
{
    int a[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = in[i] & 63;
    for (int k = 0; k < 64; k++)
        a[k] = in[(i + k) & 255];
    a[j] += 1000;
    a[(j * 5 + 3) & 63] -= 7;
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += a[(j + k * 9) & 63];
    out[i] = s;
}

} // extern "C"
