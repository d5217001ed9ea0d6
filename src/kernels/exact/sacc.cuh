/* sacc.cuh - the block's superaccumulator: xacc.h's digits in shared
 * memory, which the accumulators' slow paths add into with shared atomics
 * (an element outside every window, a held sum sent on when a window
 * moves).
 *
 * defines: sacc_ref, sacc_add64, sacc_add_digit, sacc_add_elem,
 *          sacc_add_scalars, sacc_add_u160
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
 * sends elements in bulk split), so each compiles one of the two ways. */
struct sacc_ref {
    int64_t *digits;
    bool split;
};

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

#endif /* CURED_SACC_CUH */
