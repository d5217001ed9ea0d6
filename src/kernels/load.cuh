/* load.cuh - the load layer of the catalogue: a thread's share of the input,
 * read wide and many bytes at a time, added up in registers.
 *
 * defines: wide, WIDE_PER_TRIP, wide_sum, load_wide, thread_sum
 *
 * Used by shuffle_wide (classic.cu) and the grid kernels (grid.cu); uses
 * only sum_op (warp.cuh). Why 16-byte loads, four in flight per trip, and
 * why the order of the additions never depends on where `in` sits:
 * docs/kernels.md, "How shuffle_wide and the grid level read".
 */
#ifndef CURED_LOAD_CUH
#define CURED_LOAD_CUH

#include "warp.cuh"

// ----------------------------------------------------------------------------
// The wide vector

/* 16 bytes of T: 4 elements of a 4-byte T, 2 of an 8-byte one. Its 16-byte
 * alignment is what lets the compiler load it whole with one instruction. */
template <typename T>
struct alignas(16) wide {
    static constexpr unsigned count = 16 / sizeof(T);
    T v[count];
};

/* Wide loads each thread issues before it adds any of them: 64 bytes. The
 * trip in wide_share_sum is written out for 4, and the dispatch sizes grids
 * by it (block_trip in src/lib/plan.c). */
#define WIDE_PER_TRIP 4

/* The sum of one wide vector as a small tree: (v0 + v1) + (v2 + v3), or
 * v0 + v1. Can't fail. */
template <typename T>
__device__ inline T wide_sum(const wide<T> &w)
{
    if (wide<T>::count == 4)
        return sum_op::apply(sum_op::apply(w.v[0], w.v[1]),
                             sum_op::apply(w.v[2], w.v[3]));
    return sum_op::apply(w.v[0], w.v[1]);
}

/* Whether `in` may be read as wide vectors: 16-byte aligned, and not
 * volatile (a volatile read must stay one element wide). */
template <typename T>
__device__ inline bool is_wide_aligned(const T *in)
{
    return ((unsigned long long)in & 15u) == 0;
}

template <typename T>
__device__ inline bool is_wide_aligned(const volatile T *)
{
    return false;
}

/* Wide vector k of the array: elements [kW, kW + W). One 16-byte load when
 * ALIGNED (the caller checked is_wide_aligned), else W scalar loads of the
 * same elements, which also serves a volatile `in`. */
template <bool ALIGNED, typename T, typename Index>
__device__ inline wide<T> load_wide(const T *in, Index k)
{
    wide<T> w;
    if (ALIGNED) {
        w = ((const wide<T> *)in)[k];
    } else {
#pragma unroll
        for (unsigned c = 0; c < wide<T>::count; c++)
            w.v[c] = in[k * wide<T>::count + c];
    }
    return w;
}

template <bool ALIGNED, typename T, typename Index>
__device__ inline wide<T> load_wide(const volatile T *in, Index k)
{
    wide<T> w;
#pragma unroll
    for (unsigned c = 0; c < wide<T>::count; c++)
        w.v[c] = in[k * wide<T>::count + c];
    return w;
}

// ----------------------------------------------------------------------------
// A thread's share

/* Thread r of R sums wide vectors r, r + R, r + 2R, ... of the nw there
 * are, WIDE_PER_TRIP per trip: the trip's four loads are issued first, all
 * four in flight together, then summed as a tree ((w0 + w1) + (w2 + w3)),
 * and that is added to the running sum. Consecutive threads read
 * consecutive vectors, so a warp's load is 512 contiguous bytes. When fewer
 * than four of its vectors are left, one per trip. */
template <bool ALIGNED, typename T, typename Index, typename Ptr>
__device__ T wide_share_sum(Ptr in, Index nw, Index r, Index R)
{
    T v = sum_op::identity<T>();
    Index k = r;
    for (; k + 3 * R < nw; k += WIDE_PER_TRIP * R) {
        wide<T> w0 = load_wide<ALIGNED>(in, k);
        wide<T> w1 = load_wide<ALIGNED>(in, k + R);
        wide<T> w2 = load_wide<ALIGNED>(in, k + 2 * R);
        wide<T> w3 = load_wide<ALIGNED>(in, k + 3 * R);
        T trip = sum_op::apply(sum_op::apply(wide_sum(w0), wide_sum(w1)),
                               sum_op::apply(wide_sum(w2), wide_sum(w3)));
        v = sum_op::apply(v, trip);
    }
    for (; k < nw; k += R)
        v = sum_op::apply(v, wide_sum(load_wide<ALIGNED>(in, k)));
    return v;
}

/* The sum of thread r's share of in[0, n), R threads sharing the array
 * (r < R; in a grid, r = blockIdx.x * blockDim.x + threadIdx.x). Ptr is
 * `const T *`, or `const volatile T *` for data that other blocks of the
 * same launch wrote (single_pass's partial sums).
 *
 * With at least one wide vector per thread (n >= W R, W = wide<T>::count):
 * wide vectors r, r + R, ... (wide_share_sum), then the n % W < W elements
 * past the last whole vector, element nw W + r for threads r < n % W.
 * Below that, one element per trip, elements r, r + R, ...: for n <= R one
 * element for each of the first n threads and nothing for the others (the
 * lesson's block of 64 threads over 64 values loads one value each, as
 * in kernels 1-3).
 *
 * Additions: one per trip into the running sum, each trip a tree of depth
 * log2(WIDE_PER_TRIP W) (4 for 4-byte T, 3 for 8-byte), one more for the
 * tail element: a path from an element to the returned sum has at most
 * ceil(n / R) + 5 additions (R >= 3). The order depends on n, r and R
 * only: not on the alignment of `in`, not on Ptr. Index must hold n + R and
 * n / W + 4R without wrapping. Can't fail. */
template <typename T, typename Index, typename Ptr>
__device__ T thread_sum(Ptr in, Index n, Index r, Index R)
{
    const Index W = wide<T>::count;
    Index nw = n / W; /* whole wide vectors */
    if (nw < R) {
        T v = sum_op::identity<T>();
        for (Index i = r; i < n; i += R)
            v = sum_op::apply(v, in[i]);
        return v;
    }
    T v = is_wide_aligned(in) ? wide_share_sum<true, T>(in, nw, r, R)
                              : wide_share_sum<false, T>(in, nw, r, R);
    for (Index i = nw * W + r; i < n; i += R) /* the n % W past the last vector */
        v = sum_op::apply(v, in[i]);
    return v;
}

#endif /* CURED_LOAD_CUH */
