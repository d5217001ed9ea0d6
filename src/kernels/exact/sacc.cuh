/* sacc.cuh - the block's superaccumulator: xacc.h's digits in shared
 * memory, which the accumulators' slow paths add into with 64-bit shared
 * atomics (an element outside every window, a held sum sent on when a
 * window moves).
 *
 * defines: sacc_add_pieces, sacc_add_elem, sacc_add_scalars, sacc_add_u160
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

/* Adds the pieces of (neg ? -1 : 1) * mag * 2^pos (xacc_pieces) to the
 * shared digits with 64-bit atomics; zero pieces are skipped. */
__device__ inline void sacc_add_pieces(int64_t *sacc, uint64_t mag_hi,
                                       uint64_t mag_lo, int neg, int pos)
{
    if ((mag_hi | mag_lo) == 0)
        return;
    int64_t piece[5];
    int k = xacc_pieces(mag_hi, mag_lo, neg, pos, piece);
#pragma unroll
    for (int j = 0; j < 5; j++)
        if (piece[j] != 0)
            atomicAdd((unsigned long long *)&sacc[k + j],
                      (unsigned long long)piece[j]);
}

/* Adds one element (its bits in family f) to sacc, or its special bits to
 * *special. */
__device__ inline void sacc_add_elem(int64_t *sacc, xacc_family f,
                                     uint64_t bits, unsigned *special)
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
            atomicAdd((unsigned long long *)&sacc[k + j],
                      x.neg ? (unsigned long long)-(long long)w[j]
                            : (unsigned long long)w[j]);
}

/* The load layer's two scalar elements (rl_visit_array's scalars call:
 * bits a and b of family f, each only where valid) through sacc_add_elem:
 * the accumulators' scalars, which take the head and tail element by
 * element. */
__device__ inline void sacc_add_scalars(int64_t *sacc, xacc_family f, uint64_t a, bool va,
                                        uint64_t b, bool vb, unsigned *special)
{
    if (va)
        sacc_add_elem(sacc, f, a, special);
    if (vb)
        sacc_add_elem(sacc, f, b, special);
}

/* Sends a (two's complement, units 2^pos) to sacc: six pieces. */
__device__ inline void sacc_add_u160(int64_t *sacc, const u160 &a, int pos)
{
    if (u160_is_zero(a))
        return;
#pragma unroll
    for (unsigned j = 0; j < 6; j++) {
        int k;
        int64_t p = u160_piece(a, pos, j, &k);
        if (p != 0)
            atomicAdd((unsigned long long *)&sacc[k + (int)j], (unsigned long long)p);
    }
}

#endif /* CURED_SACC_CUH */
