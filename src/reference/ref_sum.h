/* ref_sum.h - the reference sum of an input and what a computed sum may
 * differ from it: the one CPU oracle the CLI, the bench and the tests
 * check every reduction against.
 *
 * defines: cured_ref_sum, cured_ref_sum_init, cured_ref_sum_add,
 *          cured_ref_sum_add_fill, cured_ref_sum_merge, cured_ref_sum_of,
 *          cured_ref_sum_wrapped, cured_ref_sum_element,
 *          cured_ref_sum_double, cured_ref_sum_float, cured_ref_sum_abs,
 *          cured_ref_sum_exactly_representable, cured_ref_gamma,
 *          cured_ref_sum_bound, cured_ref_sum_error, cured_ref_sum_check,
 *          cured_ref_format_element
 *
 * Integers: the exact sum in 128 bits, and modulo 2^bits as the kernels'
 * wrapping adds give it. Floats: the exact sum (ref_exact.h) and sum|x_i|,
 * with which a computed sum is bounded (gamma_h * sum|x_i| for h roundings:
 * docs/reference.md, "The reference sum and the bound"); the check
 * compares with the exact sum itself.
 *
 * NaN and infinities: the reference of an input holding them is what IEEE
 * arithmetic gives in any order (NaN if there is a NaN or both infinities,
 * else that infinity); a computed NaN or infinity matches only a reference
 * of the same value (which covers a finite exact sum beyond the type's
 * range, rounded to an infinity), and no bound applies (NaN).
 */
#ifndef CURED_REF_SUM_H
#define CURED_REF_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "cured.h"
#include "ref_exact.h"
#include "ref_fill.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sum of the values added so far. Plain data: copy it freely. */
typedef struct cured_ref_sum {
    cured_dtype dtype;
    uint64_t n;               /* values added */
    /* integers: the exact sum in 128 bits, hi:lo, two's complement for
     * i32/i64 and unsigned for u32/u64; its low bits are the wrapped sum */
    uint64_t exact_lo, exact_hi;
    cured_ref_exact exact;    /* floats: sum x_i */
    cured_ref_exact abs;      /* floats: sum |x_i| */
} cured_ref_sum;

/* Makes *s the empty sum of dtype d. Returns 0, or -1 for a dtype it does
 * not know. */
int cured_ref_sum_init(cured_ref_sum *s, cured_dtype d);

/* Adds in[0, n), elements of s's dtype, exactly. Can't fail. */
void cured_ref_sum_add(cured_ref_sum *s, const void *in, uint64_t n);

/* Adds elements begin .. end-1 of the fill f (ref_fill.h) as s's dtype,
 * without a buffer: the reference of a GPU-made input. Can't fail. */
void cured_ref_sum_add_fill(cured_ref_sum *s, const cured_ref_fill *f,
                            uint64_t begin, uint64_t end);

/* Adds the sum o (of the same dtype: other parts of the input) into s.
 * Can't fail. */
void cured_ref_sum_merge(cured_ref_sum *s, const cured_ref_sum *o);

/* init + add: the sum of in[0, n) of dtype d into *s. Returns 0, or -1 for
 * a dtype it does not know. */
int cured_ref_sum_of(cured_dtype d, const void *in, uint64_t n, cured_ref_sum *s);

/* Integers: the sum modulo 2^bits, in the low bits (zero above). Floats:
 * 0. Can't fail. */
uint64_t cured_ref_sum_wrapped(const cured_ref_sum *s);

/* Writes the reference as one element of s's dtype (little-endian) into
 * out: integers wrapped, floats the exact sum correctly rounded to the
 * type. Can't fail. */
void cured_ref_sum_element(const cured_ref_sum *s, void *out);

/* Floats: the exact sum correctly rounded to double, or to float (to
 * nearest, ties to even; NaN and infinities as the header says). Integers:
 * NaN. Can't fail. */
double cured_ref_sum_double(const cured_ref_sum *s);
float cured_ref_sum_float(const cured_ref_sum *s);

/* Floats: sum |x_i| over the finite inputs, correctly rounded to double.
 * Integers: 0. Can't fail. */
double cured_ref_sum_abs(const cured_ref_sum *s);

/* Floats: 1 when every partial sum, in any order, is exact in s's dtype:
 * the inputs are finite multiples of a common 2^g and sum|x_i| <= 2^(p+g)
 * (p = 24 or 53) within the type's range, so each partial sum is such a
 * multiple of magnitude <= 2^(p+g): integer-valued f32 data with sum|x_i|
 * <= 2^24, say. Any correct summation then gives the exact sum to the
 * bit, and a lost or doubled element shows however small. Integers: 1.
 * Can't fail. */
int cured_ref_sum_exactly_representable(const cured_ref_sum *s);

/* gamma_h = h u / (1 - h u) for dtype d (u = 2^-24 for f32, 2^-53 for
 * f64), rounded to nearest; INFINITY when h u >= 1; 0 for h = 0 and for
 * integer types. Can't fail. */
double cured_ref_gamma(cured_dtype d, uint64_t h);

/* The largest |computed - exact| a sum of s's input may show when every
 * input went through at most h roundings in its type: gamma_h * sum|x_i|,
 * never below the true worst case (see ref_sum.c for why the rounding of
 * this product cannot make it smaller), 0 when
 * cured_ref_sum_exactly_representable, INFINITY when h u >= 1, NaN when
 * the input had NaN or infinities; 0 for integers. Can't fail. */
double cured_ref_sum_bound(const cured_ref_sum *s, uint64_t h);

/* |got - exact| correctly rounded to double, for one element of s's dtype
 * at got (integers: the difference of the two values of the type, as
 * doubles). NaN or inf when got or the reference is. Can't fail. */
double cured_ref_sum_error(const cured_ref_sum *s, const void *got);

/* Whether the element of s's dtype at got is the sum s describes:
 * integers bit for bit modulo 2^bits; floats within
 * cured_ref_sum_bound(s, h) of the exact sum, compared exactly (a NaN or
 * an infinity only as the header says). On a mismatch, when msg is not
 * NULL, writes one line into msg: got, want, and for floats the
 * difference, the bound, h and sum|x_i|. Returns 1 for a match, 0 else. */
int cured_ref_sum_check(const cured_ref_sum *s, const void *got, uint64_t h,
                        char *msg, size_t cap);

/* Writes the element of dtype d at p as text with every digit that tells
 * it apart (%.9g for f32, %.17g for f64, integers in full) into out.
 * Returns out ("?" for a dtype it does not know). */
char *cured_ref_format_element(cured_dtype d, const void *p, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* CURED_REF_SUM_H */
