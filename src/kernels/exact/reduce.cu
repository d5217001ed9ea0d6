/* reduce.cu - cured_reduce's kernels: exact float sums, a plain float sum
 * (for comparison), integer sums, min/max/argmin/argmax; and the host's
 * table of them.
 *
 * defines: exact_sum_body, plain_sum_body, int_sum_body, minmax_body
 *          (the kernels' bodies, device functions of the launch's
 *          arguments: tests/model runs them in the model), exact_sum_kernel,
 *          plain_sum_kernel, int_sum_kernel, minmax_kernel,
 *          cured_reduce_function, cured_reduce_dynamic_smem
 *
 * Every kernel is one launch over the whole array, in layers: the load
 * layer (reduce_load.cuh) hands each thread its 16-byte vectors, the
 * thread layer accumulates (sum_thread.cuh, or the small visitors below),
 * the block layer combines its threads, and the grid layer combines the
 * blocks: one block writes the result itself; more write one partial each
 * to the workspace and the last block to finish (a ticket counter, as the
 * catalogue's single_pass) combines them and re-arms the counter. No
 * memset, no second launch, no host round trip. Each body first waits for
 * the kernel before it in the stream (grid_dependency.cuh: the host makes
 * every launch a programmatic dependent launch on sm_90).
 * __launch_bounds__(1024, 1): any block size up to 1024, at most 64
 * registers a thread, so 1024 threads a multiprocessor at least.
 */
#include <string.h>

#include "grid_dependency.cuh"
#include "grid_ticket.cuh"
#include "order.h"
#include "reduce_kernels.h"
#include "reduce_load.cuh"
#include "sum_dd.cuh"
#include "sum_double.cuh"
#include "sum_grid.cuh"
#include "sum_thread.cuh"
#include "xacc.h"

// ----------------------------------------------------------------------------
// Exact float sums

/* Whether a one-trip grid of this format has a short way to try first:
 * f64 by a certified double-double in one block (sum_dd.cuh), f32 and f16
 * by doubles in one block, f32 in one cluster too (sum_double.cuh); not
 * bf16 (its windows span more binades than a double's bits). */
template <unsigned ELEM, int F>
struct exact_short_way {
    static const bool EXISTS = F == XACC_F64 || F == XACC_F16 || ELEM == 4;

    /* Writes the sum and returns true, or returns false (every thread
     * alike) having written nothing. */
    __device__ static bool run(const cured_reduce_kernel_args &a)
    {
        if constexpr (F == XACC_F64)
            return exact_block_dd<ELEM>(a);
        else
            return exact_block_double<ELEM>((xacc_family)F, a);
    }
};

template <typename Acc, unsigned ELEM, int F, int NDIG, bool ONE_TRIP>
__device__ void exact_sum_body(const cured_reduce_kernel_args &a)
{
    __shared__ exact_block_state<NDIG> s;
    if constexpr (ONE_TRIP && exact_short_way<ELEM, F>::EXISTS) {
        /* the short way needs none of s: its barrier waits only where
         * the block declines */
        grid_dependency_begin();
        if (exact_short_way<ELEM, F>::run(a))
            return;
        exact_block_begin<NDIG>(s);
    } else {
        exact_block_begin<NDIG>(s);
        grid_dependency_begin();
    }
    Acc acc;
    /* 32-bit atomics into the shared digits where data can send elements
     * there in bulk: in the one-trip kernels, and in f64's main loop
     * (Acc::SACC_SPLIT), whose elements outside its window go there; the
     * f32 and bf16 main loops keep the 64-bit ones, with which their loop
     * compiles as it did (docs/exact.md, "Block"), and send such elements
     * to each thread's bins (dynamic shared memory, sacc_lane_bins:
     * cured_reduce_dynamic_smem) instead: a one-trip thread has too few
     * elements to repay its bins' stores and loads (docs/exact.md, "The
     * lane bins") */
    acc.init(sacc_ref{s.digits, (ONE_TRIP || Acc::SACC_SPLIT) && Acc::SACC_ELEMENTS,
                      Acc::LANE_BINS && !ONE_TRIP});
    rl_visit_array<ELEM, Acc, ONE_TRIP>(a.in, a.n, acc);
    acc.finish();
    exact_block_sum<NDIG>(s, acc.warp_total(), acc.base(), acc.special);
    exact_grid_finish<NDIG>(s, (xacc_family)F, a);
}

template <typename Acc, unsigned ELEM, int F, int NDIG, bool ONE_TRIP>
__global__ void __launch_bounds__(1024, 1)
exact_sum_kernel(cured_reduce_kernel_args a)
{
    exact_sum_body<Acc, ELEM, F, NDIG, ONE_TRIP>(a);
}

// ----------------------------------------------------------------------------
// The grid layer of the simple kernels: one 16-byte value per block

/* The block's value: combine over every thread's `mine` (shuffles in each
 * warp, then thread 0 over the warps). Thread 0 gets it. Every thread
 * calls it. */
template <typename V, typename Combine>
__device__ V block_combine(V mine, Combine combine)
{
    __shared__ V warp_vals[32];
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long raw[2];
        memcpy(raw, &mine, sizeof raw);
        raw[0] = __shfl_xor_sync(FULL_WARP, raw[0], off);
        raw[1] = __shfl_xor_sync(FULL_WARP, raw[1], off);
        V other;
        memcpy(&other, raw, sizeof other);
        mine = combine(mine, other);
    }
    if (lane == 0)
        warp_vals[warp] = mine;
    __syncthreads();
    V r = warp_vals[0];
    if (threadIdx.x == 0)
        for (unsigned w = 1; w < (blockDim.x >> 5); w++)
            r = combine(r, warp_vals[w]);
    return r;
}

/* One value per block (v, in thread 0) into the result: a single block
 * calls write(v) itself; otherwise partial g = v, a ticket, and the last
 * block combines every partial (starting from `identity`, which combine
 * leaves unchanged) and writes. Every thread calls it. V is a 16-byte POD. */
template <typename V, typename Combine, typename Write>
__device__ void grid_one_value(V v, V identity, const cured_reduce_kernel_args &a,
                               Combine combine, Write write)
{
    __shared__ unsigned am_last;
    if (gridDim.x == 1) {
        if (threadIdx.x == 0)
            write(v);
        return;
    }
    char *ws = (char *)a.workspace;
    unsigned *counter = (unsigned *)ws;
    V *partials = (V *)(ws + CURED_REDUCE_STATE_BYTES);
    const size_t STRIDE = CURED_REDUCE_PARTIAL_BYTES / sizeof(V);
    if (threadIdx.x == 0) {
        partials[blockIdx.x * STRIDE] = v;
        am_last = grid_ticket(counter) == gridDim.x - 1;
    }
    __syncthreads(); /* thread 0's acquire, before every thread's reads */
    if (!am_last)
        return;
    /* thread t combines partials t, t + B, ...; then the block */
    V mine = identity;
    for (unsigned g = threadIdx.x; g < gridDim.x; g += blockDim.x) {
        const unsigned long long *p =
            (const unsigned long long *)(partials + g * STRIDE);
        unsigned long long raw[2] = {__ldcg(p), __ldcg(p + 1)};
        V x;
        memcpy(&x, raw, sizeof x);
        mine = combine(mine, x);
    }
    V r = block_combine(mine, combine);
    if (threadIdx.x == 0) {
        write(r);
        *counter = 0; /* re-armed for the next call */
    }
}

// ----------------------------------------------------------------------------
// Plain float sums (not exact: the price of exactness is measured against it)

struct plain_val {
    double v;
    double pad;
};

template <typename OUT, int KIND, unsigned ELEM>
__device__ void plain_sum_body(const cured_reduce_kernel_args &a)
{
    grid_dependency_begin();
    plain_acc<OUT, KIND> acc;
    acc.init();
    rl_visit_array<ELEM>(a.in, a.n, acc);
    auto add = [](plain_val x, plain_val y) {
        plain_val r = {(double)((OUT)x.v + (OUT)y.v), 0};
        return r;
    };
    plain_val mine = {(double)acc.total(), 0};
    plain_val b = block_combine(mine, add);
    auto write = [&a](plain_val r) {
        if (KIND != 3 && !(a.flags & CURED_REDUCE_F64))
            *(float *)a.out = (float)r.v;
        else
            *(double *)a.out = r.v;
    };
    grid_one_value(b, plain_val{0, 0}, a, add, write);
}

template <typename OUT, int KIND, unsigned ELEM>
__global__ void __launch_bounds__(1024, 1)
plain_sum_kernel(cured_reduce_kernel_args a)
{
    plain_sum_body<OUT, KIND, ELEM>(a);
}

// ----------------------------------------------------------------------------
// Integer sums: modulo 2^64, written modulo 2^bits or whole

struct int_val {
    unsigned long long s;
    unsigned long long pad;
};

/* Adds elements sign- or zero-extended to 64 bits. */
template <unsigned ELEM, bool SIGNED>
struct int_acc {
    unsigned long long s;

    __device__ static unsigned long long ext(uint64_t bits)
    {
        if (ELEM == 4)
            return SIGNED ? (unsigned long long)(long long)(int)(unsigned)bits
                          : (unsigned long long)(unsigned)bits;
        return bits;
    }

    __device__ void trip(const rl_trip &t)
    {
        /* invalid vectors are zeros */
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            if (ELEM == 4) {
                s += ext(t.v[j].x) + ext(t.v[j].y) + ext(t.v[j].z) + ext(t.v[j].w);
            } else {
                s += ((unsigned long long)t.v[j].y << 32 | t.v[j].x) +
                     ((unsigned long long)t.v[j].w << 32 | t.v[j].z);
            }
        }
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long, uint64_t b,
                            bool vb, unsigned long long)
    {
        s += (va ? ext(a) : 0) + (vb ? ext(b) : 0);
    }
};

template <unsigned ELEM, bool SIGNED, bool ONE_TRIP>
__device__ void int_sum_body(const cured_reduce_kernel_args &a)
{
    grid_dependency_begin();
    int_acc<ELEM, SIGNED> acc;
    acc.s = 0;
    rl_visit_array<ELEM, int_acc<ELEM, SIGNED>, ONE_TRIP>(a.in, a.n, acc);
    auto add = [](int_val x, int_val y) {
        int_val r = {x.s + y.s, 0};
        return r;
    };
    int_val mine = {acc.s, 0};
    int_val b = block_combine(mine, add);
    auto write = [&a](int_val r) {
        if (ELEM == 8 || (a.flags & CURED_REDUCE_WIDEN))
            *(unsigned long long *)a.out = r.s;
        else
            *(unsigned *)a.out = (unsigned)r.s;
    };
    grid_one_value(b, int_val{0, 0}, a, add, write);
}

template <unsigned ELEM, bool SIGNED, bool ONE_TRIP>
__global__ void __launch_bounds__(1024, 1)
int_sum_kernel(cured_reduce_kernel_args a)
{
    int_sum_body<ELEM, SIGNED, ONE_TRIP>(a);
}

// ----------------------------------------------------------------------------
// min, max, argmin, argmax

/* The best element so far: its rank (order.h) and index; idx all ones for
 * none. */
struct mm_val {
    unsigned long long rank;
    unsigned long long idx;
};

/* Whether x beats y: a smaller rank for min (a larger for max), or the
 * same rank and a smaller index. */
__device__ inline bool mm_better(const mm_val &x, const mm_val &y, bool is_max)
{
    if (x.rank != y.rank)
        return is_max ? x.rank > y.rank : x.rank < y.rank;
    return x.idx < y.idx;
}

template <int DTYPE, unsigned ELEM>
struct mm_acc {
    mm_val best;
    bool is_max;

    __device__ void see(uint64_t bits, unsigned long long idx)
    {
        mm_val x;
        x.rank = is_max ? order_rank_max(DTYPE, bits) : order_rank_min(DTYPE, bits);
        x.idx = idx;
        if (mm_better(x, best, is_max))
            best = x;
    }

    __device__ void trip(const rl_trip &t)
    {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++) {
            if (!(t.valid >> j & 1u))
                continue;
            const unsigned w[4] = {t.v[j].x, t.v[j].y, t.v[j].z, t.v[j].w};
            if (ELEM == 2) {
#pragma unroll
                for (int c = 0; c < 8; c++)
                    see(c & 1 ? w[c / 2] >> 16 : w[c / 2] & 0xffffu, t.first(j, 8) + c);
            } else if (ELEM == 4) {
#pragma unroll
                for (int c = 0; c < 4; c++)
                    see(w[c], t.first(j, 4) + c);
            } else {
                see((uint64_t)w[1] << 32 | w[0], t.first(j, 2));
                see((uint64_t)w[3] << 32 | w[2], t.first(j, 2) + 1);
            }
        }
    }

    __device__ void scalars(uint64_t a, bool va, unsigned long long ia, uint64_t b,
                            bool vb, unsigned long long ib)
    {
        if (va)
            see(a, ia);
        if (vb)
            see(b, ib);
    }
};

template <int DTYPE, unsigned ELEM, bool ONE_TRIP>
__device__ void minmax_body(const cured_reduce_kernel_args &a)
{
    grid_dependency_begin();
    bool is_max = a.op == CURED_OP_MAX || a.op == CURED_OP_ARGMAX;
    mm_acc<DTYPE, ELEM> acc;
    acc.is_max = is_max;
    acc.best.rank = is_max ? 0ull : ~0ull;
    acc.best.idx = ~0ull;
    rl_visit_array<ELEM, mm_acc<DTYPE, ELEM>, ONE_TRIP>(a.in, a.n, acc);
    auto better = [is_max](mm_val x, mm_val y) {
        return mm_better(x, y, is_max) ? x : y;
    };
    mm_val b = block_combine(acc.best, better);
    auto write = [&a, is_max](mm_val r) {
        bool arg = a.op == CURED_OP_ARGMIN || a.op == CURED_OP_ARGMAX;
        bool none = r.idx == ~0ull;
        if (arg) {
            *(long long *)a.out = none ? -1ll : (long long)r.idx;
            return;
        }
        uint64_t bits;
        if (none) {
            bits = order_identity_bits(DTYPE, is_max);
        } else if (ELEM == 2) {
            bits = ((const unsigned short *)a.in)[r.idx];
        } else if (ELEM == 4) {
            bits = ((const unsigned *)a.in)[r.idx];
        } else {
            bits = ((const unsigned long long *)a.in)[r.idx];
        }
        if (ELEM == 2)
            *(unsigned short *)a.out = (unsigned short)bits;
        else if (ELEM == 4)
            *(unsigned *)a.out = (unsigned)bits;
        else
            *(unsigned long long *)a.out = bits;
    };
    mm_val none = {is_max ? 0ull : ~0ull, ~0ull};
    grid_one_value(b, none, a, better, write);
}

template <int DTYPE, unsigned ELEM, bool ONE_TRIP>
__global__ void __launch_bounds__(1024, 1)
minmax_kernel(cured_reduce_kernel_args a)
{
    minmax_body<DTYPE, ELEM, ONE_TRIP>(a);
}

// ----------------------------------------------------------------------------
// The host's table

/* The exact float sums: the general kernel, or the one-trip one (no main
 * loop: 55 to 80 % of the code, which a cold call fetches as it runs). */
template <bool ONE_TRIP>
static const void *exact_float_function(cured_dtype dtype)
{
    switch (dtype) {
    case CURED_F32:
        return (const void *)
            exact_sum_kernel<narrow_acc<false>, 4, XACC_F32, XACC_NDIG_F32, ONE_TRIP>;
    case CURED_BF16:
        return (const void *)
            exact_sum_kernel<narrow_acc<true>, 2, XACC_F32, XACC_NDIG_F32, ONE_TRIP>;
    case CURED_F16:
        return (const void *)exact_sum_kernel<half_acc, 2, XACC_F16, XACC_NDIG_F16, ONE_TRIP>;
    case CURED_F64:
        return (const void *)exact_sum_kernel<wide_acc, 8, XACC_F64, XACC_NDIG_MAX, ONE_TRIP>;
    default: return NULL;
    }
}

/* The integer sums, general or one-trip; NULL for any other dtype. */
template <bool ONE_TRIP>
static const void *int_sum_function(cured_dtype dtype)
{
    switch (dtype) {
    case CURED_I32: return (const void *)int_sum_kernel<4, true, ONE_TRIP>;
    case CURED_U32: return (const void *)int_sum_kernel<4, false, ONE_TRIP>;
    case CURED_I64: return (const void *)int_sum_kernel<8, true, ONE_TRIP>;
    case CURED_U64: return (const void *)int_sum_kernel<8, false, ONE_TRIP>;
    default: return NULL;
    }
}

static const void *exact_sum_function(cured_dtype dtype, int one_trip)
{
    const void *f = one_trip ? int_sum_function<true>(dtype) : int_sum_function<false>(dtype);
    if (f != NULL)
        return f;
    return one_trip ? exact_float_function<true>(dtype) : exact_float_function<false>(dtype);
}

static const void *plain_sum_function(cured_dtype dtype)
{
    switch (dtype) {
    case CURED_F32: return (const void *)plain_sum_kernel<float, 0, 4>;
    case CURED_BF16: return (const void *)plain_sum_kernel<float, 1, 2>;
    case CURED_F16: return (const void *)plain_sum_kernel<float, 2, 2>;
    case CURED_F64: return (const void *)plain_sum_kernel<double, 3, 8>;
    default: return NULL;
    }
}

/* min, max, argmin, argmax (one kernel each dtype, the op an argument),
 * general or one-trip. */
template <bool ONE_TRIP>
static const void *minmax_function(cured_dtype dtype)
{
    switch (dtype) {
    case CURED_F32: return (const void *)minmax_kernel<CURED_F32, 4, ONE_TRIP>;
    case CURED_F64: return (const void *)minmax_kernel<CURED_F64, 8, ONE_TRIP>;
    case CURED_I32: return (const void *)minmax_kernel<CURED_I32, 4, ONE_TRIP>;
    case CURED_I64: return (const void *)minmax_kernel<CURED_I64, 8, ONE_TRIP>;
    case CURED_U32: return (const void *)minmax_kernel<CURED_U32, 4, ONE_TRIP>;
    case CURED_U64: return (const void *)minmax_kernel<CURED_U64, 8, ONE_TRIP>;
    case CURED_F16: return (const void *)minmax_kernel<CURED_F16, 2, ONE_TRIP>;
    case CURED_BF16: return (const void *)minmax_kernel<CURED_BF16, 2, ONE_TRIP>;
    default: return NULL;
    }
}

extern "C" size_t cured_reduce_dynamic_smem(cured_op op, cured_dtype dtype,
                                            cured_reduce_variant variant, int one_trip,
                                            int block)
{
    bool bins = op == CURED_OP_SUM && variant == CURED_VARIANT_EXACT && !one_trip &&
                (dtype == CURED_F32 || dtype == CURED_BF16);
    return bins && block > 0 ? (size_t)block * SACC_LANE_BINS * sizeof(int64_t) : 0;
}

extern "C" const void *cured_reduce_function(cured_op op, cured_dtype dtype,
                                             cured_reduce_variant variant, int one_trip)
{
    if (op == CURED_OP_SUM)
        return variant == CURED_VARIANT_EXACT ? exact_sum_function(dtype, one_trip)
               : variant == CURED_VARIANT_PLAIN ? plain_sum_function(dtype)
                                                : NULL;
    if ((unsigned)op < CURED_OP_COUNT && variant == CURED_VARIANT_EXACT)
        return one_trip ? minmax_function<true>(dtype) : minmax_function<false>(dtype);
    return NULL;
}
