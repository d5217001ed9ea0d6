/* fp_reference.h - independent float references for the interpreter's
 * tests: the nearest (or directed) f16/bf16 found by searching every value
 * of the format, and the host's own arithmetic and conversions under
 * fesetround (x86-64 SSE, and x87 long double for 64-bit integers).
 *
 * defines: REF_RN, REF_RZ, REF_RM, REF_RP, ref_half_value, ref_half,
 *          ref_to_float, ref_f32, ref_int_to_float, ref_bits
 */
#ifndef CURED_TEST_FP_REFERENCE_H
#define CURED_TEST_FP_REFERENCE_H

#include <stdint.h>

/* Rounding directions (the same numbering as exec_fp.h's EXEC_RND_*). */
enum { REF_RN = 0, REF_RZ, REF_RM, REF_RP };

/* The value of 16-bit pattern b as f16 (bf16 when bf is 1), decoded from
 * the bit fields. */
double ref_half_value(uint32_t b, int bf);

/* The f16/bf16 bits v rounds to in direction mode (search over all values;
 * NaN gives 0x7FFF, overflow follows the direction). */
uint32_t ref_half(double v, int bf, int mode);

/* (float)v rounded by the host in direction mode. */
float ref_to_float(double v, int mode);

/* a op b (op '+', '-', '*', '/', 'f' for fma(a, b, c), 's' for sqrt(a))
 * in f32 rounded by the host in direction mode. */
float ref_f32(char op, float a, float b, float c, int mode);

/* The integer v (signed when is_signed) as f32, rounded by the host. */
float ref_int_to_float(uint64_t v, int is_signed, int mode);

/* The bits of f. */
uint32_t ref_bits(float f);

#endif /* CURED_TEST_FP_REFERENCE_H */
