/* reduce_data.h - the exactness tests' inputs: element bits of every float
 * dtype, their values, and the data kinds of docs/exact.md (uniform,
 * positive, cancelling, wide-exponent, huge-cancelling, overflowing), for
 * tests/lib/test_reduce_cpu.c and tests/lib/test_sharded_cpu.c.
 *
 * defines: rd_kind, RD_KINDS, rd_kind_names, rd_random, rd_value,
 *          rd_max_finite, rd_put, rd_get, rd_fill, rd_reference_sum
 *
 * Elements are built bit by bit and read back with plain C and libm (no
 * library code), so a mistake shared with the library cannot hide.
 */
#ifndef CURED_TEST_REDUCE_DATA_H
#define CURED_TEST_REDUCE_DATA_H

#include <stdint.h>

#include "cured.h"

typedef enum rd_kind {
    RD_UNIFORM,       /* random signs, exponents -1 .. -12 */
    RD_POSITIVE,      /* positive, exponents 0 .. -19 */
    RD_CANCEL,        /* the second half negates the first; subnormal sums */
    RD_WIDE,          /* random signs over nearly the whole exponent range */
    RD_HUGE_CANCEL,   /* huge, one, -huge, ...: the ones must survive */
    RD_OVERFLOW_DATA, /* the largest finite value: the sum overflows */
    RD_KINDS
} rd_kind;

extern const char *const rd_kind_names[RD_KINDS];

/* The next of a splitmix64 sequence whose state is *state. */
uint64_t rd_random(uint64_t *state);

/* The value of element bits of a float dtype (NAN/INFINITY for specials). */
double rd_value(cured_dtype d, uint64_t bits);

/* The bits of the largest finite value of a float dtype. */
uint64_t rd_max_finite(cured_dtype d);

/* Element i of a (dtype d, little-endian bytes) as bits, and back. */
void rd_put(void *a, cured_dtype d, uint64_t i, uint64_t bits);
uint64_t rd_get(const void *a, cured_dtype d, uint64_t i);

/* Fills a[0..n) with data of kind k for the float dtype d, drawing from
 * the sequence *state. */
void rd_fill(void *a, cured_dtype d, uint64_t n, rd_kind k, uint64_t *state);

/* The reference: the exact sum of a[0..n) (a float dtype) rounded once,
 * to nearest even, to f32 (to_f64 0) or f64, as bits; specials by IEEE
 * (NaN as the quiet NaN cured_reduce gives, a zero sum +0). */
uint64_t rd_reference_sum(const void *a, cured_dtype d, uint64_t n, int to_f64);

#endif /* CURED_TEST_REDUCE_DATA_H */
