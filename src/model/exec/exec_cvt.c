/* exec_cvt.c - cvt: conversions among every integer and float type of the
 * interpreter, f16 and bf16 included, computed in C.
 *
 * defines: exec_cvt
 *
 * - integer to integer: the source is sign- or zero-extended by its own
 *   type, then truncated to the destination (.sat clamps instead).
 * - integer to float and float to narrower float: rounded once in the
 *   direction .rn/.rz/.rm/.rp says (nearest-even by default), from the
 *   exact value (exec_fp.c), so f64 -> f16 does not round twice.
 * - float to integer: rounded to an integer by .rni/.rzi/.rmi/.rpi
 *   (.rzi when none is given, as C casts do), then clamped to the
 *   destination's range (PTX saturates float-to-integer conversions
 *   always); NaN gives 0.
 * - float to the same float type with an integer rounding (cvt.rni.f32.f32)
 *   rounds to an integral value; widening is exact.
 * - .ftz flushes f32 subnormal inputs and results; .sat on a float
 *   destination clamps to [0, 1] (NaN gives 0).
 * - cvt.rn.f16x2.f32 d, a, b packs (a in the upper half, b in the lower);
 *   .relu turns negative results into +0.
 */
#include "exec_fp.h"
#include "exec_internal.h"

#include <math.h>

#define SRC(i) exec_src(x, w, &ins->ops[ins->ndst + (i)], x->tmp[i], m)

/* Integer rounding of v by a ptx_round (.rzi by default). */
static double round_integral(double v, unsigned rnd)
{
    switch (rnd) {
    case PTX_RND_RNI: return nearbyint(v);   /* the host's mode is nearest-even */
    case PTX_RND_RMI: return floor(v);
    case PTX_RND_RPI: return ceil(v);
    default: return trunc(v);
    }
}

/* The float value of src bits of type t (f32 subnormals flushed when ftz). */
static double float_in(uint64_t v, unsigned t, int ftz)
{
    int fmt = exec_fmt(t);
    double d = exec_fp_to_double(v, fmt);
    if (ftz && fmt == EXEC_FMT_F32 && d != 0 && fabs(d) < 1.1754943508222875e-38)
        d = copysign(0.0, d);
    return d;
}

/* Bits of float value v as type t in direction mode, with .sat/.ftz
 * (sat 2: .relu, negative values to +0). */
static uint64_t float_out(double v, unsigned t, int mode, int sat, int ftz)
{
    int fmt = exec_fmt(t);
    if (sat == 1)
        v = isnan(v) ? 0.0 : v < 0 ? 0.0 : v > 1 ? 1.0 : v;
    else if (sat == 2 && (v < 0 || (v == 0 && signbit(v))))
        v = 0.0;                /* max(+0, v) with -0 < +0 */
    uint64_t bits = exec_fp_from_double(v, fmt, mode);
    if (ftz && fmt == EXEC_FMT_F32 && (bits & 0x7F800000u) == 0)
        bits &= 0x80000000u;
    return bits;
}

/* Float value v to integer type t: rounded already; clamped, NaN -> 0. */
static uint64_t float_to_int(double v, unsigned t)
{
    unsigned bits = ptx_type_size((ptx_type)t) * 8;
    uint64_t mk = exec_width_mask(bits / 8);
    if (isnan(v))
        return 0;
    if (exec_type_signed(t)) {
        int64_t maxv = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
        int64_t minv = bits == 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
        double lim = ldexp(1.0, (int)bits - 1);             /* 2^(bits-1) */
        if (v >= lim)
            return (uint64_t)maxv & mk;
        if (v < -lim)
            return (uint64_t)minv & mk;
        return (uint64_t)(int64_t)v & mk;
    }
    if (v <= 0)
        return 0;
    if (v >= ldexp(1.0, (int)bits))
        return mk;
    return (uint64_t)v & mk;
}

/* Integer to integer, optionally saturating. */
static uint64_t int_to_int(uint64_t v, unsigned st, unsigned dt, int sat)
{
    unsigned sb = ptx_type_size((ptx_type)st) * 8, db = ptx_type_size((ptx_type)dt) * 8;
    uint64_t dm = exec_width_mask(db / 8);
    int ss = exec_type_signed(st), ds = exec_type_signed(dt);
    if (!sat) {
        uint64_t x = ss ? (uint64_t)exec_sext(v, sb) : v & exec_width_mask(sb / 8);
        return x & dm;
    }
    if (ss) {
        int64_t x = exec_sext(v, sb);
        int64_t lo = ds ? (db == 64 ? INT64_MIN : -((int64_t)1 << (db - 1))) : 0;
        if (x < lo)
            return (uint64_t)lo & dm;
        if (ds) {
            int64_t hi = db == 64 ? INT64_MAX : ((int64_t)1 << (db - 1)) - 1;
            return (uint64_t)(x > hi ? hi : x) & dm;
        }
        return (db < 64 && (uint64_t)x > dm) ? dm : (uint64_t)x & dm;
    }
    uint64_t x = v & exec_width_mask(sb / 8);
    uint64_t hi = ds ? dm >> 1 : dm;
    return (x > hi ? hi : x) & dm;
}

int exec_cvt(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (m == 0)
        return 0;
    unsigned dt = ins->type, st = ins->type2;
    int dfmt = exec_fmt(dt), sfmt = exec_fmt(st);
    int sat = (ins->flags & PTX_F_SAT) != 0, ftz = (ins->flags & PTX_F_FTZ) != 0;
    if (ins->flags & PTX_F_RELU)
        sat = 2;
    int mode = exec_rnd(ins->rnd);
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0);
    if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2) {         /* pack two */
        if (sfmt != EXEC_FMT_F32 || ins->nops - ins->ndst < 2)
            return -1;
        const uint64_t *b = SRC(1);
        EXEC_LANES(m, l, {
            uint64_t hi = float_out(float_in(a[l], st, ftz), dt, mode, sat, 0);
            uint64_t lo = float_out(float_in(b[l], st, ftz), dt, mode, sat, 0);
            d[l] = (hi << 16) | lo;
        });
        return 0;
    }
    if (st == PTX_T_F16X2 || st == PTX_T_BF16X2 || dt == PTX_T_PRED || st == PTX_T_PRED ||
        ptx_type_size((ptx_type)dt) == 0 || ptx_type_size((ptx_type)dt) > 8 ||
        ptx_type_size((ptx_type)st) == 0 || ptx_type_size((ptx_type)st) > 8)
        return -1;
    if (dfmt < 0 && sfmt < 0) {                             /* int -> int */
        EXEC_LANES(m, l, d[l] = int_to_int(a[l], st, dt, sat););
        return 0;
    }
    if (dfmt >= 0 && sfmt < 0) {                            /* int -> float */
        unsigned sb = ptx_type_size((ptx_type)st) * 8;
        int ss = exec_type_signed(st);
        EXEC_LANES(m, l, {
            uint64_t mag;
            int neg = 0;
            if (ss) {
                int64_t v = exec_sext(a[l], sb);
                neg = v < 0;
                mag = neg ? 0 - (uint64_t)v : (uint64_t)v;
            } else {
                mag = a[l] & exec_width_mask(sb / 8);
            }
            uint64_t bits = exec_fp_from_int(mag, neg, dfmt, mode);
            if (sat)
                bits = float_out(exec_fp_to_double(bits, dfmt), dt, EXEC_RND_RN, 1, 0);
            d[l] = bits;
        });
        return 0;
    }
    if (dfmt < 0) {                                         /* float -> int */
        EXEC_LANES(m, l, d[l] = float_to_int(round_integral(float_in(a[l], st, ftz), ins->rnd), dt););
        return 0;
    }
    /* float -> float */
    int integral = ins->rnd == PTX_RND_RNI || ins->rnd == PTX_RND_RZI ||
                   ins->rnd == PTX_RND_RMI || ins->rnd == PTX_RND_RPI;
    EXEC_LANES(m, l, {
        double v = float_in(a[l], st, ftz);
        if (integral)
            v = round_integral(v, ins->rnd);
        d[l] = float_out(v, dt, integral ? EXEC_RND_RN : mode, sat, ftz);
    });
    return 0;
}
