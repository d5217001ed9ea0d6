/* exec_float.c - float arithmetic of the interpreter: f32 and f64 in IEEE
 * semantics per instruction, f16/bf16 (and their x2 pairs) through exact
 * widening and one rounding.
 *
 * defines: exec_float
 *
 * - f32 arithmetic is done in C float (SSE: no excess precision), fma and
 *   mad with fmaf, so each instruction rounds once as the GPU does. The
 *   model never contracts a mul and an add into an fma (ptxas may, for
 *   mul/add without a rounding modifier; nvcc's own fma.rn is kept).
 * - .rz/.rm/.rp are exact: the result is computed with one extra word of
 *   precision and rounded in the asked direction (exec_fp.c).
 * - .ftz flushes subnormal inputs and results to a zero of the same sign;
 *   .sat clamps to [0, 1] (NaN gives +0).
 * - .approx and .full forms (div, rcp, sqrt, rsqrt, ex2, lg2, sin, cos)
 *   are computed as accurately as C's libm can: division, reciprocal and
 *   square roots correctly rounded, the rest within an ulp or so. A GPU's
 *   approximations differ from those in the last bits.
 * - min/max follow PTX: a NaN operand is ignored (both NaN: NaN), and
 *   -0.0 < +0.0.
 * - NaN results are the canonical NaN (0x7FFFFFFF for f32); neg and abs
 *   only change the sign bit, as on the GPU.
 * - .relu (f16/bf16 fma, min, max) turns negative results into +0.
 */
#include "exec_fp.h"
#include "exec_internal.h"

#include <math.h>
#include <string.h>

#define SRC(i) exec_src(x, w, &ins->ops[ins->ndst + (i)], x->tmp[i], m)

/* The f32 held in the low bits of a register value. */
static inline float as_f32(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The f64 held in a register value. */
static inline double as_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Bits of f, NaN made canonical. */
static inline uint64_t of_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u)
        u = 0x7FFFFFFFu;
    return u;
}

/* Bits of d, NaN made canonical. */
static inline uint64_t of_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    if ((u & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull)
        u = 0x7FFFFFFFFFFFFFFFull;
    return u;
}

// ----------------------------------------------------------------------------
// Scalar operations

/* min/max as PTX defines them: NaN operands ignored (with .NaN: a NaN
 * operand gives NaN), -0 < +0. */
static inline double pick_minmax(double a, double b, int mx)
{
    if (mx & 2) {
        if (isnan(a) || isnan(b))
            return NAN;
        mx &= 1;
    }
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    if (a == b && a == 0) {
        int na = signbit(a) != 0;
        if (mx)
            return na ? b : a;
        return na ? a : b;
    }
    if (mx)
        return a > b ? a : b;
    return a < b ? a : b;
}

/* The exact sum a + b as hi + lo (TwoSum). */
static inline double two_sum(double a, double b, double *lo)
{
    double s = a + b;
    double bb = s - a;
    *lo = (a - (s - bb)) + (b - bb);
    return s;
}

/* The sign of an exactly-zero sum (add, sub, fma) in direction mode, as
 * IEEE 754 says: the addends' sign when they share it, else -0 only when
 * rounding down. Returns 1 for -0. */
static int zero_sum_sign(unsigned op, double a, double b, double c, int mode)
{
    int sa, sb;
    switch (op) {
    case PTX_OP_ADD: sa = signbit(a) != 0; sb = signbit(b) != 0; break;
    case PTX_OP_SUB: sa = signbit(a) != 0; sb = signbit(b) == 0; break;
    default: sa = (signbit(a) != 0) != (signbit(b) != 0); sb = signbit(c) != 0; break;
    }
    return sa == sb ? sa : mode == EXEC_RND_RM;
}

/* One f32 operation, rounded in direction mode (for the directed modes;
 * nearest uses C float directly). op: the ptx_opcode. */
static float f32_op(unsigned op, float a, float b, float c, int mode)
{
    if (mode == EXEC_RND_RN) {
        switch (op) {
        case PTX_OP_ADD: return a + b;
        case PTX_OP_SUB: return a - b;
        case PTX_OP_MUL: return a * b;
        case PTX_OP_FMA: case PTX_OP_MAD: return fmaf(a, b, c);
        case PTX_OP_DIV: return a / b;
        case PTX_OP_RCP: return 1.0f / a;
        case PTX_OP_SQRT: return sqrtf(a);
        default: return NAN;
        }
    }
    double da = a, db = b, hi, lo = 0;
    switch (op) {
    case PTX_OP_ADD: hi = two_sum(da, db, &lo); break;
    case PTX_OP_SUB: hi = two_sum(da, -db, &lo); break;
    case PTX_OP_MUL: hi = da * db; break;
    case PTX_OP_FMA: case PTX_OP_MAD: hi = two_sum(da * db, (double)c, &lo); break;
    case PTX_OP_RCP: da = 1.0; db = a; /* fall through */
    case PTX_OP_DIV:
        hi = da / db;
        if (isfinite(hi) && db != 0)
            lo = fma(-hi, db, da) / db;
        break;
    case PTX_OP_SQRT:
        hi = sqrt(da);
        if (isfinite(hi) && hi > 0)
            lo = fma(-hi, hi, da) / (2 * hi);
        break;
    default: return NAN;
    }
    if (hi == 0 && lo == 0 && op != PTX_OP_MUL && op != PTX_OP_DIV && op != PTX_OP_RCP &&
        op != PTX_OP_SQRT)
        return zero_sum_sign(op, a, b, c, mode) ? -0.0f : 0.0f;
    return exec_f32_round(hi, lo, mode);
}

/* One f64 operation, rounded in direction mode. */
static double f64_op(unsigned op, double a, double b, double c, int mode)
{
    double r, err = 0;
    switch (op) {
    case PTX_OP_ADD: r = two_sum(a, b, &err); break;
    case PTX_OP_SUB: r = two_sum(a, -b, &err); break;
    case PTX_OP_MUL: r = a * b; err = fma(a, b, -r); break;
    case PTX_OP_FMA: case PTX_OP_MAD:
        r = fma(a, b, c);
        if (mode != EXEC_RND_RN) {
            /* sign of a*b + c - r: a*b = p + pe exactly, then
             * (p - r) + c + pe summed with one more TwoSum */
            double p = a * b, pe = fma(a, b, -p), e1, s1 = two_sum(p, c, &e1);
            double e2, s2 = two_sum(s1, -r, &e2);
            err = s2 + (e2 + (e1 + pe));
        }
        break;
    case PTX_OP_DIV:
        r = a / b;
        if (isfinite(r) && b != 0)
            err = fma(-r, b, a) * (b < 0 ? -1 : 1);
        break;
    case PTX_OP_SQRT:
        r = sqrt(a);
        if (isfinite(r) && r > 0)
            err = fma(-r, r, a);
        break;
    default: return NAN;
    }
    if (mode == EXEC_RND_RN)
        return r;
    if (r == 0 && err == 0 && (op == PTX_OP_ADD || op == PTX_OP_SUB || op == PTX_OP_FMA ||
                               op == PTX_OP_MAD))
        return zero_sum_sign(op, a, b, c, mode) ? -0.0 : 0.0;
    return exec_f64_round(r, err, mode, isfinite(a) && isfinite(b) && isfinite(c));
}

/* Float comparison of setp/set. Returns -1 for an unknown operator. */
static inline int float_cmp(unsigned cmp, double a, double b)
{
    int un = isnan(a) || isnan(b);
    switch (cmp) {
    case PTX_CMP_EQ: return !un && a == b;
    case PTX_CMP_NE: return !un && a != b;
    case PTX_CMP_LT: return !un && a < b;
    case PTX_CMP_LE: return !un && a <= b;
    case PTX_CMP_GT: return !un && a > b;
    case PTX_CMP_GE: return !un && a >= b;
    case PTX_CMP_EQU: return un || a == b;
    case PTX_CMP_NEU: return un || a != b;
    case PTX_CMP_LTU: return un || a < b;
    case PTX_CMP_LEU: return un || a <= b;
    case PTX_CMP_GTU: return un || a > b;
    case PTX_CMP_GEU: return un || a >= b;
    case PTX_CMP_NUM: return !un;
    case PTX_CMP_NAN: return un;
    default: return -1;
    }
}

// ----------------------------------------------------------------------------
// f32

/* The f32 value of lane vector v at l, flushed when ftz. */
static inline float f32_in(const uint64_t *v, int l, int ftz)
{
    float f = as_f32(v[l]);
    return ftz ? exec_f32_ftz(f) : f;
}

/* The result f written with .ftz and .sat applied. */
static inline uint64_t f32_out(float f, int ftz, int sat)
{
    if (ftz)
        f = exec_f32_ftz(f);
    if (sat)
        f = isnan(f) ? 0.0f : f < 0 ? 0.0f : f > 1 ? 1.0f : f;
    return of_f32(f);
}

/* f32 arithmetic, one rounding per instruction. */
static int float_f32(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    int ftz = (ins->flags & PTX_F_FTZ) != 0, sat = (ins->flags & PTX_F_SAT) != 0;
    int mode = exec_rnd(ins->rnd);
    unsigned op = ins->op;
    const uint64_t *a = SRC(0);
    switch (op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_MUL: {
        const uint64_t *b = SRC(1);
        if (!ftz && !sat && mode == EXEC_RND_RN) {     /* the hot path */
            if (op == PTX_OP_ADD)
                EXEC_LANES(m, l, d[l] = of_f32(as_f32(a[l]) + as_f32(b[l])););
            else if (op == PTX_OP_SUB)
                EXEC_LANES(m, l, d[l] = of_f32(as_f32(a[l]) - as_f32(b[l])););
            else
                EXEC_LANES(m, l, d[l] = of_f32(as_f32(a[l]) * as_f32(b[l])););
            return 0;
        }
        EXEC_LANES(m, l, d[l] = f32_out(f32_op(op, f32_in(a, l, ftz), f32_in(b, l, ftz), 0, mode),
                                        ftz, sat););
        return 0;
    }
    case PTX_OP_FMA:
    case PTX_OP_MAD: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        EXEC_LANES(m, l, d[l] = f32_out(f32_op(PTX_OP_FMA, f32_in(a, l, ftz), f32_in(b, l, ftz),
                                               f32_in(c, l, ftz), mode),
                                        ftz, sat););
        return 0;
    }
    case PTX_OP_DIV: {
        const uint64_t *b = SRC(1);
        EXEC_LANES(m, l, d[l] = f32_out(f32_op(op, f32_in(a, l, ftz), f32_in(b, l, ftz), 0, mode),
                                        ftz, sat););
        return 0;
    }
    case PTX_OP_RCP:
    case PTX_OP_SQRT:
        EXEC_LANES(m, l, d[l] = f32_out(f32_op(op, f32_in(a, l, ftz), 0, 0, mode), ftz, sat););
        return 0;
    case PTX_OP_RSQRT:
        EXEC_LANES(m, l, d[l] = f32_out((float)(1.0 / sqrt((double)f32_in(a, l, ftz))), ftz, sat););
        return 0;
    case PTX_OP_EX2:
        EXEC_LANES(m, l, d[l] = f32_out(exp2f(f32_in(a, l, ftz)), ftz, sat););
        return 0;
    case PTX_OP_LG2:
        EXEC_LANES(m, l, d[l] = f32_out(log2f(f32_in(a, l, ftz)), ftz, sat););
        return 0;
    case PTX_OP_SIN:
        EXEC_LANES(m, l, d[l] = f32_out(sinf(f32_in(a, l, ftz)), ftz, sat););
        return 0;
    case PTX_OP_COS:
        EXEC_LANES(m, l, d[l] = f32_out(cosf(f32_in(a, l, ftz)), ftz, sat););
        return 0;
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        const uint64_t *b = SRC(1);
        int mx = (op == PTX_OP_MAX) | ((ins->flags & PTX_F_NAN) ? 2 : 0);
        EXEC_LANES(m, l, d[l] = f32_out((float)pick_minmax(f32_in(a, l, ftz), f32_in(b, l, ftz), mx),
                                        ftz, 0););
        return 0;
    }
    case PTX_OP_NEG:
        EXEC_LANES(m, l, {
            uint64_t v = a[l] & 0xFFFFFFFFu;
            if (ftz && (v & 0x7F800000u) == 0)
                v &= 0x80000000u;
            d[l] = v ^ 0x80000000u;
        });
        return 0;
    case PTX_OP_ABS:
        EXEC_LANES(m, l, {
            uint64_t v = a[l] & 0x7FFFFFFFu;
            if (ftz && (v & 0x7F800000u) == 0)
                v = 0;
            d[l] = v;
        });
        return 0;
    case PTX_OP_COPYSIGN: {
        const uint64_t *b = SRC(1);
        EXEC_LANES(m, l, d[l] = (a[l] & 0x80000000u) | (b[l] & 0x7FFFFFFFu););
        return 0;
    }
    default:
        return -1;
    }
}

// ----------------------------------------------------------------------------
// f64

static int float_f64(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    int ftz = (ins->flags & PTX_F_FTZ) != 0, sat = (ins->flags & PTX_F_SAT) != 0;
    int mode = exec_rnd(ins->rnd);
    unsigned op = ins->op;
    const uint64_t *a = SRC(0);
#define IN(v) (ftz ? exec_f64_ftz(as_f64((v)[l])) : as_f64((v)[l]))
#define OUT(e) do { double r_ = (e); if (ftz) r_ = exec_f64_ftz(r_); \
        if (sat) r_ = isnan(r_) ? 0.0 : r_ < 0 ? 0.0 : r_ > 1 ? 1.0 : r_; d[l] = of_f64(r_); } while (0)
    switch (op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
    case PTX_OP_MUL:
    case PTX_OP_DIV: {
        const uint64_t *b = SRC(1);
        EXEC_LANES(m, l, OUT(f64_op(op, IN(a), IN(b), 0, mode)););
        return 0;
    }
    case PTX_OP_FMA:
    case PTX_OP_MAD: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        EXEC_LANES(m, l, OUT(f64_op(PTX_OP_FMA, IN(a), IN(b), IN(c), mode)););
        return 0;
    }
    case PTX_OP_RCP:
        EXEC_LANES(m, l, OUT(f64_op(PTX_OP_DIV, 1.0, IN(a), 0, mode)););
        return 0;
    case PTX_OP_SQRT:
        EXEC_LANES(m, l, OUT(f64_op(op, IN(a), 0, 0, mode)););
        return 0;
    case PTX_OP_RSQRT:
        EXEC_LANES(m, l, OUT(1.0 / sqrt(IN(a))););
        return 0;
    case PTX_OP_MIN:
    case PTX_OP_MAX: {
        const uint64_t *b = SRC(1);
        int mx = (op == PTX_OP_MAX) | ((ins->flags & PTX_F_NAN) ? 2 : 0);
        EXEC_LANES(m, l, OUT(pick_minmax(IN(a), IN(b), mx)););
        return 0;
    }
    case PTX_OP_NEG:
        EXEC_LANES(m, l, d[l] = a[l] ^ 0x8000000000000000ull;);
        return 0;
    case PTX_OP_ABS:
        EXEC_LANES(m, l, d[l] = a[l] & 0x7FFFFFFFFFFFFFFFull;);
        return 0;
    case PTX_OP_COPYSIGN: {
        const uint64_t *b = SRC(1);
        EXEC_LANES(m, l, d[l] = (a[l] & 0x8000000000000000ull) | (b[l] & 0x7FFFFFFFFFFFFFFFull););
        return 0;
    }
    default:
        return -1;
    }
#undef IN
#undef OUT
}

// ----------------------------------------------------------------------------
// f16, bf16 and their pairs

/* One half-precision operation on the values (exact in double), rounded
 * once to fmt. */
static uint64_t half_op(unsigned op, int fmt, uint64_t a, uint64_t b, uint64_t c, int mode,
                        int ftz, int sat, int nan_wins, int relu)
{
    double da = exec_fp_to_double(a, fmt), db = exec_fp_to_double(b, fmt);
    double dc = exec_fp_to_double(c, fmt), r;
    uint64_t sign = 0x8000;
    if (ftz && fmt == EXEC_FMT_F16) {
        if ((a & 0x7C00) == 0) da = copysign(0.0, da);
        if ((b & 0x7C00) == 0) db = copysign(0.0, db);
        if ((c & 0x7C00) == 0) dc = copysign(0.0, dc);
    }
    switch (op) {
    case PTX_OP_ADD: r = da + db; break;
    case PTX_OP_SUB: r = da - db; break;
    case PTX_OP_MUL: r = da * db; break;
    case PTX_OP_FMA: case PTX_OP_MAD: r = fma(da, db, dc); break;
    case PTX_OP_MIN: r = pick_minmax(da, db, nan_wins ? 2 : 0); break;
    case PTX_OP_MAX: r = pick_minmax(da, db, nan_wins ? 3 : 1); break;
    case PTX_OP_NEG: return (a ^ sign) & 0xFFFF;
    case PTX_OP_ABS: return a & 0x7FFF;
    default: return exec_fp_nan(fmt);
    }
    if (sat)
        r = isnan(r) ? 0.0 : r < 0 ? 0.0 : r > 1 ? 1.0 : r;
    if (relu && (r < 0 || (r == 0 && signbit(r))))
        r = 0.0;                /* max(+0, r) with -0 < +0 */
    uint64_t bits = exec_fp_from_double(r, fmt, mode);
    if (ftz && fmt == EXEC_FMT_F16 && (bits & 0x7C00) == 0)
        bits &= 0x8000;
    return bits;
}

/* f16/bf16 and their x2 pairs, half by half. */
static int float_half(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    unsigned op = ins->op;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_FMA: case PTX_OP_MAD:
    case PTX_OP_MIN: case PTX_OP_MAX: case PTX_OP_NEG: case PTX_OP_ABS:
        break;
    default:
        return -1;
    }
    int fmt = exec_fmt(ins->type);
    int pairs = ins->type == PTX_T_F16X2 || ins->type == PTX_T_BF16X2;
    int ftz = (ins->flags & PTX_F_FTZ) != 0, sat = (ins->flags & PTX_F_SAT) != 0;
    int mode = exec_rnd(ins->rnd);
    int nan = (ins->flags & PTX_F_NAN) != 0, relu = (ins->flags & PTX_F_RELU) != 0;
    int nsrc = ins->nops - ins->ndst;
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0);
    const uint64_t *b = nsrc > 1 ? SRC(1) : a;
    const uint64_t *c = nsrc > 2 ? SRC(2) : a;
    EXEC_LANES(m, l, {
        uint64_t r = half_op(op, fmt, a[l] & 0xFFFF, b[l] & 0xFFFF, c[l] & 0xFFFF, mode, ftz, sat,
                             nan, relu);
        if (pairs)
            r |= half_op(op, fmt, (a[l] >> 16) & 0xFFFF, (b[l] >> 16) & 0xFFFF,
                         (c[l] >> 16) & 0xFFFF, mode, ftz, sat, nan, relu) << 16;
        d[l] = r;
    });
    return 0;
}

// ----------------------------------------------------------------------------
// Compare

static int float_setp(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    unsigned t = ins->type2 ? ins->type2 : ins->type;
    int fmt = exec_fmt(t);
    if (fmt < 0 || t == PTX_T_F16X2 || t == PTX_T_BF16X2)
        return -1;
    int ftz = (ins->flags & PTX_F_FTZ) != 0;
    const uint64_t *a = SRC(0), *b = SRC(1);
    const uint64_t *c = ins->boolop != PTX_BOOL_NONE ? SRC(2) : NULL;
    uint64_t *res = x->tmp[PTX_MAX_OPERANDS];
    int bad = 0;
    EXEC_LANES(m, l, {
        double da, db;
        if (fmt == EXEC_FMT_F32) {
            da = f32_in(a, l, ftz);
            db = f32_in(b, l, ftz);
        } else if (fmt == EXEC_FMT_F64) {
            da = ftz ? exec_f64_ftz(as_f64(a[l])) : as_f64(a[l]);
            db = ftz ? exec_f64_ftz(as_f64(b[l])) : as_f64(b[l]);
        } else {
            da = exec_fp_to_double(a[l] & 0xFFFF, fmt);
            db = exec_fp_to_double(b[l] & 0xFFFF, fmt);
        }
        int v = float_cmp(ins->cmp, da, db);
        if (v < 0)
            bad = 1;
        res[l] = (uint64_t)(v > 0);
    });
    if (bad)
        return -1;
    exec_write_compare(x, w, ins, m, res, c);
    return 0;
}

// ----------------------------------------------------------------------------
// testp

/* testp.op.type p, a: the property is in ins->sub, one of the PTX_TESTP_*
 * values in the order PTX lists them. */
static int float_testp(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    int fmt = exec_fmt(ins->type);
    if (fmt != EXEC_FMT_F32 && fmt != EXEC_FMT_F64)
        return -1;
    uint64_t *p = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0);
    int bad = 0;
    EXEC_LANES(m, l, {
        double v = fmt == EXEC_FMT_F32 ? (double)as_f32(a[l]) : as_f64(a[l]);
        int cls = fpclassify(v);
        if (fmt == EXEC_FMT_F32 && cls == FP_NORMAL && fabs(v) < 1.1754943508222875e-38)
            cls = FP_SUBNORMAL;
        int r;
        switch (ins->sub) {
        case PTX_TESTP_FINITE: r = isfinite(v); break;
        case PTX_TESTP_INFINITE: r = isinf(v); break;
        case PTX_TESTP_NUMBER: r = !isnan(v); break;
        case PTX_TESTP_NOTANUMBER: r = isnan(v); break;
        case PTX_TESTP_NORMAL: r = cls == FP_NORMAL; break;
        case PTX_TESTP_SUBNORMAL: r = cls == FP_SUBNORMAL; break;
        default: r = 0; bad = 1; break;
        }
        p[l] = (uint64_t)(r != 0);
    });
    return bad ? -1 : 0;
}

int exec_float(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    if (m == 0)
        return 0;
    if (ins->op == PTX_OP_SETP || ins->op == PTX_OP_SET)
        return float_setp(x, w, ins, m);
    if (ins->op == PTX_OP_TESTP)
        return float_testp(x, w, ins, m);
    switch (ins->type) {
    case PTX_T_F32:
        return float_f32(x, w, ins, m);
    case PTX_T_F64:
        return float_f64(x, w, ins, m);
    case PTX_T_F16: case PTX_T_BF16: case PTX_T_F16X2: case PTX_T_BF16X2:
        return float_half(x, w, ins, m);
    default:
        return -1;
    }
}
