/* exec_fp.h - float formats and rounding for the interpreter (exec_fp.c).
 *
 * defines: EXEC_FMT_*, EXEC_RND_*, exec_rnd, exec_fp_pack,
 *          exec_fp_from_double, exec_fp_from_int, exec_fp_to_double,
 *          exec_fp_nan, exec_f32_round, exec_f64_round, exec_f32_ftz,
 *          exec_f64_ftz
 */
#ifndef CURED_MODEL_EXEC_FP_H
#define CURED_MODEL_EXEC_FP_H

#include "ptx.h"

#include <stdint.h>

/* Formats (index into exec_fp.c's tables). */
enum { EXEC_FMT_F16 = 0, EXEC_FMT_BF16, EXEC_FMT_F32, EXEC_FMT_F64 };

/* Rounding directions. */
enum { EXEC_RND_RN = 0, EXEC_RND_RZ, EXEC_RND_RM, EXEC_RND_RP, EXEC_RND_RNA };

/* The direction of a ptx_round (integer-rounding forms map to the same
 * directions; NONE is nearest-even). */
static inline int exec_rnd(unsigned r)
{
    switch (r) {
    case PTX_RND_RZ: case PTX_RND_RZI: return EXEC_RND_RZ;
    case PTX_RND_RM: case PTX_RND_RMI: return EXEC_RND_RM;
    case PTX_RND_RP: case PTX_RND_RPI: return EXEC_RND_RP;
    case PTX_RND_RNA: return EXEC_RND_RNA;
    default: return EXEC_RND_RN;
    }
}

/* The format of a float ptx_type (f16x2/bf16x2: of one half), -1 else. */
static inline int exec_fmt(unsigned t)
{
    switch (t) {
    case PTX_T_F16: case PTX_T_F16X2: return EXEC_FMT_F16;
    case PTX_T_BF16: case PTX_T_BF16X2: return EXEC_FMT_BF16;
    case PTX_T_F32: return EXEC_FMT_F32;
    case PTX_T_F64: return EXEC_FMT_F64;
    default: return -1;
    }
}

/* Bits of (-1)^neg * (m * 2^e + a positive amount below m's last bit when
 * sticky) rounded to fmt in direction mode, with overflow to infinity or
 * the largest finite value as the direction says. Can't fail. */
uint64_t exec_fp_pack(int neg, uint64_t m, int e, int sticky, int fmt, int mode);

/* v (exactly) rounded to fmt; NaN gives the canonical NaN. */
uint64_t exec_fp_from_double(double v, int fmt, int mode);

/* The integer (-1)^neg * mag rounded to fmt. */
uint64_t exec_fp_from_int(uint64_t mag, int neg, int fmt, int mode);

/* The value of fmt bits, exactly, as a double. */
double exec_fp_to_double(uint64_t bits, int fmt);

/* The canonical NaN of fmt. */
uint64_t exec_fp_nan(int fmt);

/* The exact value hi + lo (hi its nearest double, lo of the sign of the
 * remainder and smaller than half an ulp of hi) rounded to f32. */
float exec_f32_round(double hi, double lo, int mode);

/* Corrects r, the nearest-even result of an f64 operation whose exact
 * value is r + err (err: sign of the remainder), to direction mode;
 * finite_inputs says whether an infinite r is an overflow. */
double exec_f64_round(double r, double err, int mode, int finite_inputs);

/* v, or a zero of its sign when v is subnormal (.ftz). */
float exec_f32_ftz(float v);
double exec_f64_ftz(double v);

#endif /* CURED_MODEL_EXEC_FP_H */
