/* sacc.cuh - the block's superaccumulator: xacc.h's digits in shared
 * memory, which the accumulators' slow paths add into with shared atomics
 * (an element outside every window, a held sum sent on when a window
 * moves), and the bins a thread keeps in front of it for f32 and bf16
 * elements outside both windows.
 *
 * defines: sacc_ref, sacc_lane_bins, SACC_BIN_BINADES, SACC_LANE_BINS,
 *          SACC_BIN_ADDS_MAX, SACC_BIN_VECTOR, lane_bin, lane_id, lane_first,
 *          lane_bins_given, sacc_add64, sacc_add_digit, sacc_add_elem,
 *          sacc_add_scalars, sacc_add_u160, SACC_SEND_WORDS, lane_bins_send,
 *          lane_bins_open, lane_bin_put, lane_bins_close
 *
 * Rare for real data: the fast paths keep each thread's sum in registers
 * (sum_thread.cuh). The block layer reads the digits once, after its
 * barrier (sum_block.cuh).
 */
#ifndef CURED_SACC_CUH
#define CURED_SACC_CUH

#include <stdint.h>

#include "wide_int.cuh"
#include "xacc.h"

/* The block's digits and how a digit is added to: split (sacc_add64, two
 * 32-bit atomics) or one 64-bit atomicAdd. Each kernel fixes `split` at
 * compile time (exact_sum_body: the one-trip kernels whose accumulator
 * sends elements in bulk, and f64's main loop, split), so each compiles
 * one of the two ways. */
struct sacc_ref {
    int64_t *digits;
    bool split;
    bool lane_bins; /* the accumulator keeps its bins (acc_narrow.cuh's
                     * main loops) in sacc_lane_bins: lane_bin */
};

/* The block's lane bins: its dynamic shared memory (what the launch gives:
 * cured_reduce_dynamic_smem), SACC_LANE_BINS int64 a thread. Named, not
 * passed: through a pointer in sacc_ref, every element's path tested the
 * pointer against NULL, which read the shared window's generic address
 * from a special register (SR_SWINHI) each time. */
extern __shared__ int64_t sacc_lane_bins[];

/* Bins a thread keeps in front of sacc for f32 and bf16 elements
 * (lane_bin_put): f32's 254 binades, 24 a bin. */
#define SACC_BIN_BINADES 24
#define SACC_LANE_BINS 11
#define SACC_BIN_ADDS_MAX (1u << 16)

/* The calling thread's bin 0 in sacc_lane_bins, and in *stride the
 * distance to its next bin (blockDim.x: bin i of thread t at i *
 * blockDim.x + t, so a warp's 64-bit accesses meet no bank conflict
 * whichever bins its lanes pick). %tid.x and %ntid.x are read here, by
 * volatile reads the compiler cannot hoist: a bins address held across
 * the main loop took a register there and pushed the loop's start pointer
 * to local memory, whose reload after the loop cost the standard data 5 %
 * at 2^24 (docs/exact.md, "The lane bins"). A vector's lane_bin_put calls
 * read it once. */
__device__ __forceinline__ int64_t *lane_bins_row(unsigned *stride)
{
    unsigned t, nt;
    asm volatile("mov.u32 %0, %%tid.x;" : "=r"(t));
    asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(nt));
    *stride = nt;
    return &sacc_lane_bins[t];
}

/* Bin i of the calling thread (lane_bins_row). */
__device__ __forceinline__ int64_t &lane_bin(int i)
{
    unsigned nt;
    int64_t *row = lane_bins_row(&nt);
    return row[i * nt];
}

/* The calling thread's lane, read (%laneid) where it is used, so that no
 * register holds it through a main loop. */
__device__ __forceinline__ unsigned lane_id()
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    return l;
}

/* Whether the calling thread is its warp's lane 0 (lane_id). */
__device__ __forceinline__ bool lane_first()
{
    return lane_id() == 0;
}

/* Whether the launch gave the block its bins (dynamic shared memory for
 * SACC_LANE_BINS int64 a thread: cured_reduce_dynamic_smem); without them
 * (a device with too little shared memory for a block this size) elements
 * take sacc's atomics, with the same sum. Read, like lane_bin's
 * registers, only where it is used. */
__device__ __forceinline__ bool lane_bins_given()
{
    unsigned bytes, nt;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    asm volatile("mov.u32 %0, %%ntid.x;" : "=r"(nt));
    return bytes >= nt * SACC_LANE_BINS * sizeof(int64_t);
}

/* Adds v to the 64-bit digit *d modulo 2^64 by 32-bit atomics: v's low
 * word into d's low word, then v's high word and the carry out of that
 * addition (the old word plus v's wrapped) into d's high word, where not
 * zero. For sm_90 ptxas makes atomicAdd on a 64-bit shared word a
 * compare-and-swap loop (ATOMS.CAST.SPIN.64), which retries while other
 * lanes hit the same word; the 32-bit add is one ATOMS.ADD. Exact: each
 * addition wraps the low word at most once, so the carries added are the
 * low word's wraps whatever the order, and the digit ends at its old value
 * plus every v, modulo 2^64. The digits are read only after the block's
 * barrier. */
__device__ inline void sacc_add64(int64_t *d, uint64_t v)
{
    unsigned *w = (unsigned *)d; /* little-endian: w[0] the low word */
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
    if (lo != 0) {
        unsigned old = atomicAdd(w, lo);
        hi += old + lo < old;
    }
    if (hi != 0)
        atomicAdd(w + 1, hi);
}

/* Adds v (two's complement) to digit k of s, modulo 2^64. */
__device__ inline void sacc_add_digit(sacc_ref s, int k, uint64_t v)
{
    if (s.split)
        sacc_add64(&s.digits[k], v);
    else
        atomicAdd((unsigned long long *)&s.digits[k], (unsigned long long)v);
}

/* Adds one element (its bits in family f) to sacc, or its special bits to
 * *special. */
__device__ inline void sacc_add_elem(sacc_ref sacc, xacc_family f, uint64_t bits,
                                     unsigned *special)
{
    xacc_elem x = xacc_decode(f, bits);
    if (x.special) {
        *special |= x.special;
        return;
    }
    if (x.mant == 0)
        return;
    /* mant < 2^53 shifted by pos % 32 < 2^85: three 32-bit pieces */
    int r = x.pos & 31, k = x.pos >> 5;
    uint64_t low = x.mant << r;
    uint64_t top = r ? x.mant >> (64 - r) : 0;
    uint64_t w[3] = {low & 0xffffffffu, low >> 32, top};
#pragma unroll
    for (int j = 0; j < 3; j++)
        if (w[j] != 0)
            sacc_add_digit(sacc, k + j, x.neg ? (uint64_t) - (int64_t)w[j] : w[j]);
}

/* The load layer's two scalar elements (rl_visit_array's scalars call:
 * bits a and b of family f, each only where valid) through sacc_add_elem:
 * the accumulators' scalars, which take the head and tail element by
 * element. */
__device__ inline void sacc_add_scalars(sacc_ref sacc, xacc_family f, uint64_t a, bool va,
                                        uint64_t b, bool vb, unsigned *special)
{
    if (va)
        sacc_add_elem(sacc, f, a, special);
    if (vb)
        sacc_add_elem(sacc, f, b, special);
}

/* Sends a (two's complement, units 2^pos) to sacc: six pieces. */
__device__ inline void sacc_add_u160(sacc_ref sacc, const u160 &a, int pos)
{
    if (u160_is_zero(a))
        return;
#pragma unroll
    for (unsigned j = 0; j < 6; j++) {
        int k;
        int64_t p = u160_piece(a, pos, j, &k);
        if (p != 0)
            sacc_add_digit(sacc, k + (int)j, (uint64_t)p);
    }
}

/* The words of the warp's sum of its lanes' bins (lane_bins_send): bin
 * i of a lane is below 2^63 in magnitude at bit 24 i (i <= 10), so a
 * lane's bins sum below 2^304, the warp's below 2^309, and ten 32-bit
 * words (320 bits, two's complement) hold it. */
#define SACC_SEND_WORDS 10

/* Every lane's bins into sacc, as the warp's exact sum of them: each lane
 * folds its bins (none where !used: its bins hold nothing of this launch)
 * into ten 32-bit words of its own sum at bit 0 (the bins' unit, digit 0's
 * unit), the warp sums them (warp_sum_words: redux.sync on 16-bit halves,
 * one carry chain), and lane j adds word j of the sum to digit j (the top
 * word signed). Exact: every step is exact modulo
 * 2^320 and the sum lies below 2^309 in magnitude. Where lane 0 sent each
 * bin's warp sum as six pieces, bin after bin, this is eleven bins' work
 * in one pass and at most ten atomics, on ten lanes at once. Every lane
 * calls it. */
__device__ inline void lane_bins_send(sacc_ref sacc, bool used)
{
    /* the lane's sum in columns of 32 bits, each below 2^35 in magnitude:
     * bin i at bit 32 q + r is its low 32 bits after the shift at column
     * q, the next 32 at q + 1 and what lies above them (signed) at q + 2 */
    long long col[SACC_SEND_WORDS] = {0};
#pragma unroll
    for (int i = 0; i < SACC_LANE_BINS; i++) {
        const int q = SACC_BIN_BINADES * i / 32, r = SACC_BIN_BINADES * i % 32;
        static_assert(SACC_BIN_BINADES * (SACC_LANE_BINS - 1) / 32 + 2 < SACC_SEND_WORDS,
                      "a bin's top column past the sent words");
        long long b = used ? lane_bin(i) : 0;
        /* b 2^r = low + rest 2^32, rest = floor(b 2^r / 2^32) */
        long long rest = r ? b >> (32 - r) : b >> 32;
        col[q] += (unsigned)((unsigned long long)b << r);
        col[q + 1] += (unsigned)rest;
        col[q + 2] += rest >> 32;
    }
    /* the lane's words (modulo 2^320), then the warp's sum of them */
    unsigned w[SACC_SEND_WORDS], sum[SACC_SEND_WORDS];
    long long carry = 0;
#pragma unroll
    for (int j = 0; j < SACC_SEND_WORDS; j++) {
        long long v = col[j] + carry;
        w[j] = (unsigned)v;
        carry = v >> 32;
    }
    warp_sum_words<SACC_SEND_WORDS, SACC_SEND_WORDS>(w, sum);
    unsigned lane = lane_id(), mine = 0;
#pragma unroll
    for (int j = 0; j < SACC_SEND_WORDS; j++)
        if (lane == (unsigned)j)
            mine = sum[j];
    if (lane < SACC_SEND_WORDS && mine != 0)
        sacc_add_digit(sacc, (int)lane,
                       lane == SACC_SEND_WORDS - 1 ? (uint64_t)(int64_t)(int)mine
                                                   : (uint64_t)mine);
}

/* The thread's bins zeroed if they hold nothing yet (n, the elements
 * added since they were last emptied, is 0): before a vector's
 * lane_bin_put calls (the caller has seen sacc.lane_bins and
 * lane_bins_given). */
__device__ __forceinline__ void lane_bins_open(unsigned n)
{
    if (n == 0)
        for (int i = 0; i < SACC_LANE_BINS; i++)
            lane_bin(i) = 0;
}

/* A finite f32 element, magnitude bits x (its bits less the sign) and
 * sign neg, into the thread's (open) bins (row, stride:
 * lane_bins_row). Its magnitude m 2^p (units 2^EMIN, p = max(e, 1) - 1,
 * m < 2^24) is m 2^(p - 24 k) < 2^47 in bin k = p / 24's units; the
 * int64 addition is exact while a bin holds at most SACC_BIN_ADDS_MAX
 * such terms (lane_bins_close). A zero adds 0 to bin 0, so that the
 * caller need not test for it. No atomics: each thread owns its bins,
 * where sacc's 64-bit shared atomics retried while a warp's lanes hit the
 * same digits. */
__device__ __forceinline__ void lane_bin_put(unsigned x, bool neg, int64_t *row,
                                             unsigned stride)
{
    unsigned p = max(x >> 23, 1u) - 1;
    unsigned k = p / SACC_BIN_BINADES; /* unsigned: a shorter division */
    /* m: x less p in the exponent field, which leaves 2^23 + the fraction
     * (a normal number, field p + 1) or the fraction (a subnormal, p = 0);
     * signed before it is widened and shifted */
    int m = (int)(x - (p << 23));
    int64_t sm = neg ? -m : m;
    row[k * stride] += (int64_t)((uint64_t)sm << (p - SACC_BIN_BINADES * k));
}

/* The most elements a vector puts between lane_bins_open and
 * lane_bins_close: bf16's eight. */
#define SACC_BIN_VECTOR 8

/* After a vector, with n the elements (at most) the bins now hold: when
 * the next vector could take them past SACC_BIN_ADDS_MAX (2^16 terms
 * below 2^47: below 2^63), the bins go to sacc from this thread and are
 * emptied (returns 0); else returns n. */
__device__ __forceinline__ unsigned lane_bins_close(sacc_ref sacc, unsigned n)
{
    if (n <= SACC_BIN_ADDS_MAX - SACC_BIN_VECTOR)
        return n;
#pragma unroll 1
    for (int i = 0; i < SACC_LANE_BINS; i++) {
        long long b = lane_bin(i);
        unsigned s = (unsigned)(b >> 63);
        sacc_add_u160(sacc, u160{(unsigned)b, (unsigned)((unsigned long long)b >> 32), s, s, s},
                      SACC_BIN_BINADES * i);
    }
    return 0;
}

#endif /* CURED_SACC_CUH */
