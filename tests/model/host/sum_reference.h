/* sum_reference.h - random inputs for the catalogue's sums, their exact
 * sums in C, and how far a float result of a given launch plan may lie
 * from the exact sum.
 *
 * defines: sum_data_kind, sum_data_fill, sum_reference, sum_reference_of,
 *          sum_float_bound, sum_check
 */
#ifndef CURED_TEST_SUM_REFERENCE_H
#define CURED_TEST_SUM_REFERENCE_H

#include "cured.h"

#include <stddef.h>
#include <stdint.h>

typedef enum sum_data_kind {
    SUM_DATA_RANDOM = 0, /* floats uniform in [-1, 1), multiples of 2^-23;
                            integers uniform over all their bits */
    SUM_DATA_EXACT       /* floats only: integers +-1..4, so every partial
                            sum of at most 2^22 of them is exact in f32 */
} sum_data_kind;

/* Fills out[0, n) with n elements of dtype (f32, i32, u32, i64, u64) drawn
 * from splitmix64 seeded with `seed`. Can't fail. */
void sum_data_fill(cured_dtype dtype, sum_data_kind kind, uint64_t seed,
                   void *out, uint64_t n);

/* What the sum of an input must be. */
typedef struct sum_reference {
    cured_dtype dtype;
    uint64_t bits;   /* integers: the sum modulo 2^64 (compare the low bits) */
    double value;    /* f32: the exact sum (see sum_reference_of) */
    double sum_abs;  /* f32: sum |x_i|, exact too */
    int exact;       /* f32: every partial sum is exact in f32, so any order
                        must give `value` to the bit */
} sum_reference;

/* The exact sum of in[0, n) of dtype: integers modulo 2^64, f32 in double
 * (exact for the data sum_data_fill makes: multiples of 2^-23 of magnitude
 * below 1, so every partial sum of n < 2^29 of them needs at most 52
 * bits). Returns 0, or -1 for f64 or for f32 with n >= 2^29, which the
 * double sum would not hold exactly. */
int sum_reference_of(cured_dtype dtype, const void *in, uint64_t n,
                     sum_reference *ref);

/* The largest |result - exact| a summation whose paths have at most h
 * additions in f32 can show: gamma_h sum|x_i|, gamma_h = h u / (1 - h u),
 * u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms, 4.2).
 * 0 for exact data. */
double sum_float_bound(const sum_reference *ref, uint64_t h);

/* Whether the element-size bytes at `got` are the sum ref describes:
 * integers exactly (modulo 2^bits), f32 within sum_float_bound(ref, h) (a
 * NaN never is). On a mismatch writes one line into msg: got, want, and for
 * f32 the difference, the bound and h. Returns 1 for a match, 0 else. */
int sum_check(const sum_reference *ref, const uint8_t *got, uint64_t h,
              char *msg, size_t cap);

#endif /* CURED_TEST_SUM_REFERENCE_H */
