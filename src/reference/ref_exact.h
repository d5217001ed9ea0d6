/* ref_exact.h - the exact sum of floating-point numbers: a fixed-point
 * accumulator that holds every double and any sum of them without a
 * rounding, and the correct rounding of that sum to double and to float.
 *
 * defines: CURED_REF_EXACT_DIGITS, cured_ref_exact, cured_ref_exact_clear,
 *          cured_ref_exact_add, cured_ref_exact_add_doubles,
 *          cured_ref_exact_add_floats, cured_ref_exact_merge,
 *          cured_ref_exact_sign, cured_ref_exact_compare,
 *          cured_ref_exact_to_double, cured_ref_exact_to_float,
 *          cured_ref_exact_grain
 *
 * Units of 2^-1074 in 68 digits of 32 bits: exact for any count of doubles
 * or floats a uint64_t holds (why: docs/reference.md, "The exact sum").
 * NaN and infinities are counted, not added: the value of the sum is then
 * what IEEE arithmetic gives in any order (NaN with a NaN or with both
 * infinities, else the infinity), and the finite part holds the rest.
 */
#ifndef CURED_REF_EXACT_H
#define CURED_REF_EXACT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CURED_REF_EXACT_DIGITS 68

/* An exact sum. Clear it before use; copy it freely (plain data). */
typedef struct cured_ref_exact {
    /* the finite part: sum of digit[k] * 2^(32 k - 1074) */
    int64_t digit[CURED_REF_EXACT_DIGITS];
    uint32_t pending;    /* adds since the digits were last normalized */
    /* the lowest set bit of any nonzero finite value added, in the same
     * units: the coarsest power of two all inputs are multiples of
     * (cured_ref_exact_grain) */
    int grain_low;
    uint64_t nans, pos_infs, neg_infs;
} cured_ref_exact;

/* Makes *a the empty sum (0, no NaN, no infinity). Can't fail. */
void cured_ref_exact_clear(cured_ref_exact *a);

/* Adds x exactly (NaN and infinities are counted). Can't fail. */
void cured_ref_exact_add(cured_ref_exact *a, double x);

/* Adds x[0, n) into sum and, when abs is not NULL, their magnitudes into
 * abs (NaN and infinities are counted in sum only): the batch form, some
 * three times faster than one call per value. Can't fail. */
void cured_ref_exact_add_doubles(cured_ref_exact *sum, cured_ref_exact *abs,
                                 const double *x, size_t n);
void cured_ref_exact_add_floats(cured_ref_exact *sum, cured_ref_exact *abs,
                                const float *x, size_t n);

/* Adds the sum b into a, exactly (both as they were: for sums of
 * separate parts of an input, made in separate threads, say). Can't fail. */
void cured_ref_exact_merge(cured_ref_exact *a, const cured_ref_exact *b);

/* The sign of the finite part: -1, 0 or 1 (NaN and infinities aside).
 * Can't fail. */
int cured_ref_exact_sign(const cured_ref_exact *a);

/* The sign of (finite part - x) for a finite x, exactly: -1, 0 or 1. 2 when
 * x is NaN or infinite. Can't fail. */
int cured_ref_exact_compare(const cured_ref_exact *a, double x);

/* The sum correctly rounded to double (to nearest, ties to even); a sum
 * beyond the double range is +-inf, an exact zero is +0. With NaN or
 * infinities counted: NaN, or the one infinity (see the header). Can't
 * fail. */
double cured_ref_exact_to_double(const cured_ref_exact *a);

/* The same, correctly rounded to float directly (not through a double,
 * which could round twice). Can't fail. */
float cured_ref_exact_to_float(const cured_ref_exact *a);

/* The largest e such that every finite nonzero value added (or merged) is
 * an integer multiple of 2^e; 1024 when there was none. Can't fail. */
int cured_ref_exact_grain(const cured_ref_exact *a);

#ifdef __cplusplus
}
#endif

#endif /* CURED_REF_EXACT_H */
