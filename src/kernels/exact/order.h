/* order.h - the order min, max, argmin and argmax use, and their identities:
 * one definition for the GPU kernels and the CPU path.
 *
 * defines: order_key, order_rank_min, order_rank_max, order_identity_bits,
 *          order_is_float_dtype
 *
 * Elements are compared through a 64-bit unsigned "rank" made from their
 * bits, so that one integer comparison (and, on ties, the smaller index)
 * decides, whatever the type:
 * - unsigned integers: the value; signed ones: the bits with the sign bit
 *   flipped (two's complement order);
 * - floats: the IEEE total order of the bits (a negative number's bits all
 *   flipped, a positive one's sign bit set), so -0 orders below +0; any NaN
 *   beats every number (rank 0 for min, all ones for max), NaNs tie among
 *   themselves, and the first index wins a tie: the first NaN.
 * Dtype numbers are cured_dtype's (cured.h); pure C, host and device.
 */
#ifndef CURED_ORDER_H
#define CURED_ORDER_H

#include <stdint.h>

#include "cured.h"
#include "xacc.h" /* XACC_HD */

XACC_HD int order_is_float_dtype(int dtype)
{
    return dtype == CURED_F32 || dtype == CURED_F64 || dtype == CURED_F16 ||
           dtype == CURED_BF16;
}

/* Element bits (zero-extended) -> the total-order key, and NaN-ness. */
XACC_HD uint64_t order_key(int dtype, uint64_t bits, int *is_nan)
{
    int width = dtype == CURED_F16 || dtype == CURED_BF16 ? 16
                : dtype == CURED_F32 || dtype == CURED_I32 || dtype == CURED_U32
                    ? 32
                    : 64;
    uint64_t sign = (uint64_t)1 << (width - 1);
    uint64_t all = width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1;
    *is_nan = 0;
    if (dtype == CURED_U32 || dtype == CURED_U64)
        return bits;
    if (dtype == CURED_I32 || dtype == CURED_I64)
        return bits ^ sign;
    int fbits = dtype == CURED_F16 ? 10 : dtype == CURED_BF16 ? 7
                : dtype == CURED_F32 ? 23 : 52;
    uint64_t mag = bits & (sign - 1);
    uint64_t inf = (sign - 1) & ~(((uint64_t)1 << fbits) - 1);
    *is_nan = mag > inf;
    return (bits & sign) ? ~bits & all : bits | sign;
}

/* The rank for min: smaller wins; NaN 0, numbers key + 1. */
XACC_HD uint64_t order_rank_min(int dtype, uint64_t bits)
{
    int nan;
    uint64_t key = order_key(dtype, bits, &nan);
    if (!order_is_float_dtype(dtype))
        return key;
    return nan ? 0 : key + 1; /* a number's key is below all ones */
}

/* The rank for max: larger wins; NaN all ones. */
XACC_HD uint64_t order_rank_max(int dtype, uint64_t bits)
{
    int nan;
    uint64_t key = order_key(dtype, bits, &nan);
    return nan ? ~(uint64_t)0 : key;
}

/* What min (is_max 0) or max (1) of no elements is: +-inf for floats, the
 * largest or smallest integer otherwise; as the element's bits. */
XACC_HD uint64_t order_identity_bits(int dtype, int is_max)
{
    switch (dtype) {
    case CURED_F16: return is_max ? 0xfc00u : 0x7c00u;
    case CURED_BF16: return is_max ? 0xff80u : 0x7f80u;
    case CURED_F32: return is_max ? 0xff800000u : 0x7f800000u;
    case CURED_F64: return is_max ? 0xfff0000000000000ull : 0x7ff0000000000000ull;
    case CURED_I32: return is_max ? 0x80000000u : 0x7fffffffu;
    case CURED_I64: return is_max ? 0x8000000000000000ull : 0x7fffffffffffffffull;
    case CURED_U32: return is_max ? 0u : 0xffffffffu;
    default: return is_max ? 0u : ~(uint64_t)0; /* u64 */
    }
}

#endif /* CURED_ORDER_H */
