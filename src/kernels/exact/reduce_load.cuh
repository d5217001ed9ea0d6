/* reduce_load.cuh - the load layer of cured_reduce: every element of the
 * array handed to exactly one thread, 16 bytes at a time, four loads in
 * flight, with every loop's trip count the same for all lanes of a warp.
 *
 * defines: RL_VECS, rl_trip, rl_visit_array
 *
 * A misaligned array is split into a scalar head, an aligned body and a
 * scalar tail; trips are warp-uniform because the accumulators
 * (sum_thread.cuh) take warp-wide decisions inside a trip. How, and why
 * that covers every element: docs/exact.md, "The GPU kernel".
 */
#ifndef CURED_REDUCE_LOAD_CUH
#define CURED_REDUCE_LOAD_CUH

#include <stdint.h>

#include "reduce_kernels.h"

/* Wide loads per trip. */
#define RL_VECS (CURED_REDUCE_TRIP_BYTES / 16)

/* One trip's data for one lane: RL_VECS vectors of 16 bytes (invalid ones
 * are zeros), which of them hold data (bit j of valid), and where they came
 * from: vector j is p[j R], which is body[k + j R] with k = p - body, and
 * its first element has index head + (k + j R) W in the whole array. A
 * visitor's rare path may load a vector again (reload) rather than keep
 * all of v live through it, which keeps the common path's registers down. */
struct rl_trip {
    uint4 v[RL_VECS];
    unsigned valid;
    unsigned R;              /* threads of the grid (< 2^23) */
    const uint4 *p;
    const uint4 *body;
    unsigned long long head;

    __device__ uint4 reload(int j) const
    {
        return (valid >> j & 1u) ? __ldg(p + (size_t)j * R) : make_uint4(0, 0, 0, 0);
    }

    __device__ unsigned long long first(int j, unsigned W) const
    {
        return head + ((unsigned long long)(p - body) + (size_t)j * R) * W;
    }
};

/* Streams in[0, n) (elements of `elem` bytes: 2, 4 or 8) through the
 * visitor `acc`, which provides
 *     acc.trip(const rl_trip &t)          a trip of vectors (warp-uniform)
 *     acc.scalars(uint64_t a, bool va, unsigned long long ia,
 *                 uint64_t b, bool vb, unsigned long long ib)
 *                                         two scalar elements (their bits,
 *                                         valid flags and indexes), called
 *                                         by all lanes of warp 0 of block 0
 * Thread rank r of R = gridDim.x * blockDim.x; blockDim.x a multiple of 32;
 * at most 2^30 elements per block (so a thread's trips fit 32 bits).
 * ONE_TRIP: the caller guarantees n * ELEM <= CURED_REDUCE_TRIP_BYTES * R
 * (every vector lies in the first RL_VECS R, which the last, partial trip
 * covers), and the main loop is left out of the code. Every element is
 * given to exactly one call. Can't fail. */
template <unsigned ELEM, typename Acc, bool ONE_TRIP = false>
__device__ void rl_visit_array(const void *in, unsigned long long n, Acc &acc)
{
    const unsigned W = 16 / ELEM; /* elements per vector */
    unsigned R32 = gridDim.x * blockDim.x;
    unsigned long long R = R32;
    unsigned long long r = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long addr = (unsigned long long)in;

    /* head: elements before the first 16-byte boundary */
    unsigned long long head = ((16u - (unsigned)(addr & 15u)) & 15u) / ELEM;
    if (head > n)
        head = n;
    unsigned long long nw = (n - head) / W;
    unsigned long long tail_first = head + nw * W;
    const uint4 *body = (const uint4 *)((const char *)in + head * ELEM);

    /* The main loop: trip i is full while the warp's last lane, at vector
     * k_last + 4 R i, still has RL_VECS whole vectors. Counting the trips
     * first keeps 64-bit bookkeeping out of the loop. */
    unsigned long long k_last = r - (threadIdx.x & 31u) + 31u;
    unsigned trips = 0;
    if (!ONE_TRIP && k_last + (RL_VECS - 1) * R < nw) {
        /* a 32-bit division where the numerator fits (n < 2^34 f32
         * elements): the 64-bit one is a long software routine */
        unsigned long long num = nw - k_last - (RL_VECS - 1) * R - 1;
        unsigned den = RL_VECS * R32; /* below 2^25 */
        trips = (num >> 32 ? (unsigned)(num / den) : (unsigned)num / den) + 1;
    }
    rl_trip t;
    t.valid = (1u << RL_VECS) - 1;
    t.R = R32;
    t.body = body;
    t.head = head;
    const uint4 *p = body + r;
    for (unsigned i = 0; i < trips; i++) {
#pragma unroll
        for (int j = 0; j < RL_VECS; j++)
            t.v[j] = __ldg(p + (size_t)j * R32);
        t.p = p;
        acc.trip(t);
        p += (size_t)RL_VECS * R32;
    }
    /* what is left: at most RL_VECS vectors per lane, from where the loop
     * stopped (k = r + trips RL_VECS R, taken from p: with the start kept
     * for it, the exact f32 and bf16 main loops spilled the start to local
     * memory across the loop, and its reload (most likely from DRAM) came
     * in every thread's tail; docs/results.md, "eighteenth round"); from
     * r in the one-trip kernels, whose registers p's form raised */
    unsigned long long k = ONE_TRIP ? r : (unsigned long long)(p - body);
    t.valid = 0;
    t.p = ONE_TRIP ? body + r : p;
#pragma unroll
    for (int j = 0; j < RL_VECS; j++) {
        unsigned long long kj = k + j * R;
        bool ok = kj < nw;
        t.v[j] = ok ? __ldg(body + kj) : make_uint4(0, 0, 0, 0);
        t.valid |= ok ? 1u << j : 0u;
    }
    if (__any_sync(0xffffffffu, t.valid != 0)) /* zeros add nothing */
        acc.trip(t);

    /* head and tail: lane l takes head element l and tail element l */
    if (blockIdx.x == 0 && threadIdx.x < 32) {
        unsigned l = threadIdx.x;
        unsigned long long ia = l, ib = tail_first + l;
        bool va = ia < head, vb = ib < n;
        uint64_t a = 0, b = 0;
        if (ELEM == 2) {
            const unsigned short *p = (const unsigned short *)in;
            a = va ? p[ia] : 0;
            b = vb ? p[ib] : 0;
        } else if (ELEM == 4) {
            const unsigned *p = (const unsigned *)in;
            a = va ? p[ia] : 0;
            b = vb ? p[ib] : 0;
        } else {
            const unsigned long long *p = (const unsigned long long *)in;
            a = va ? p[ia] : 0;
            b = vb ? p[ib] : 0;
        }
        acc.scalars(a, va, ia, b, vb, ib);
    }
}

#endif /* CURED_REDUCE_LOAD_CUH */
