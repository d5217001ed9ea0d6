/* exec_alu.c - integer, logic, compare/select and mov instructions of the
 * interpreter, lane by lane in the inner loop; the shifts and bit
 * instructions are exec_bits.c's.
 *
 * defines: exec_alu
 *
 * Semantics follow the PTX ISA where the hardware result is defined by it,
 * and the GPU's where PTX leaves it open, so the host never traps:
 * - div.u by 0 gives all ones, rem.u by 0 the dividend; div.s by 0 gives
 *   -1 (all ones), rem.s by 0 the dividend; INT_MIN / -1 gives INT_MIN and
 *   INT_MIN % -1 gives 0.
 * - abs/neg of the most negative value give it back (two's complement).
 * Results are written zero-extended from the instruction type's width.
 */
#include "exec_internal.h"

#include <string.h>

#define SRC(i) exec_src(x, w, &ins->ops[ins->ndst + (i)], x->tmp[i], m)

/* High 64 bits of the 128-bit product a * b, unsigned. */
static inline uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
    uint64_t al = a & 0xFFFFFFFFu, ah = a >> 32, bl = b & 0xFFFFFFFFu, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (lh & 0xFFFFFFFFu) + (hl & 0xFFFFFFFFu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

/* High 64 bits of the 128-bit product a * b, signed. */
static inline uint64_t mulhi_s64(int64_t a, int64_t b)
{
    uint64_t h = mulhi_u64((uint64_t)a, (uint64_t)b);
    if (a < 0)
        h -= (uint64_t)b;
    if (b < 0)
        h -= (uint64_t)a;
    return h;
}

/* The integer product a * b under mul's/mad's .lo/.hi/.wide for type t. */
static inline uint64_t int_mul(uint64_t a, uint64_t b, unsigned bits, int sgn, uint32_t flags)
{
    if (flags & PTX_F_WIDE) {
        if (sgn)
            return (uint64_t)(exec_sext(a, bits) * exec_sext(b, bits));
        return (a & exec_width_mask(bits / 8)) * (b & exec_width_mask(bits / 8));
    }
    if (flags & PTX_F_HI) {
        if (bits == 64)
            return sgn ? mulhi_s64((int64_t)a, (int64_t)b) : mulhi_u64(a, b);
        uint64_t p = sgn ? (uint64_t)(exec_sext(a, bits) * exec_sext(b, bits))
                         : (a & exec_width_mask(bits / 8)) * (b & exec_width_mask(bits / 8));
        return p >> bits;
    }
    return a * b;
}

/* 24-bit multiply (mul24/mad24): .hi gives bits 16..47 of the product. */
static inline uint64_t mul24(uint64_t a, uint64_t b, int sgn, uint32_t flags)
{
    int64_t p = sgn ? exec_sext(a, 24) * exec_sext(b, 24)
                    : (int64_t)((a & 0xFFFFFFu) * (b & 0xFFFFFFu));
    return (flags & PTX_F_HI) ? (uint64_t)p >> 16 : (uint64_t)p;
}

/* div/rem of type width `bits`, with PTX's results for a zero divisor
 * (all ones; rem: the dividend) and for INT_MIN / -1 (INT_MIN; rem: 0). */
static inline uint64_t int_div(uint64_t a, uint64_t b, unsigned bits, int sgn, int rem)
{
    uint64_t mk = exec_width_mask(bits / 8);
    if (!sgn) {
        a &= mk;
        b &= mk;
        if (b == 0)
            return rem ? a : mk;
        return rem ? a % b : a / b;
    }
    int64_t sa = exec_sext(a, bits), sb = exec_sext(b, bits);
    if (sb == 0)
        return rem ? (uint64_t)sa : mk;
    int64_t mn = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
    if (sb == -1 && sa == mn)
        return rem ? 0 : (uint64_t)mn;
    return rem ? (uint64_t)(sa % sb) : (uint64_t)(sa / sb);
}

/* Integer comparison of setp/set. Returns -1 for an unknown operator. */
static inline int int_cmp(unsigned cmp, uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    uint64_t mk = exec_width_mask(bits / 8);
    uint64_t ua = a & mk, ub = b & mk;
    int64_t sa = exec_sext(a, bits), sb = exec_sext(b, bits);
    switch (cmp) {
    case PTX_CMP_EQ: return ua == ub;
    case PTX_CMP_NE: return ua != ub;
    case PTX_CMP_LT: return sgn ? sa < sb : ua < ub;
    case PTX_CMP_LE: return sgn ? sa <= sb : ua <= ub;
    case PTX_CMP_GT: return sgn ? sa > sb : ua > ub;
    case PTX_CMP_GE: return sgn ? sa >= sb : ua >= ub;
    case PTX_CMP_LO: return ua < ub;
    case PTX_CMP_LS: return ua <= ub;
    case PTX_CMP_HI: return ua > ub;
    case PTX_CMP_HS: return ua >= ub;
    default: return -1;
    }
}

// ----------------------------------------------------------------------------
// mov

/* mov, including packing {a, b} into a wider register and unpacking. */
static int alu_mov(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    const ptx_operand *d = &ins->ops[0], *s = &ins->ops[1];
    unsigned sz = ptx_type_size((ptx_type)ins->type);
    if (ins->type == PTX_T_PRED)
        sz = 1;
    if (sz == 0 || sz > 8)
        return -1;
    if (d->kind == PTX_OPND_VEC) {          /* unpack */
        const uint64_t *a = SRC(0);
        unsigned n = d->vec_count ? d->vec_count : 1, es = sz / n;
        uint64_t em = exec_width_mask(es);
        for (unsigned i = 0; i < n; i++) {
            if (d->vec[i] < 0)
                continue;
            uint64_t *r = w->R + (size_t)d->vec[i] * CURED_MODEL_WARP_SIZE;
            EXEC_LANES(m, l, r[l] = (a[l] >> (8 * es * i)) & em;);
        }
        return 0;
    }
    uint64_t *r = exec_dst(x, w, d);
    if (s->kind == PTX_OPND_VEC) {          /* pack */
        unsigned n = s->vec_count ? s->vec_count : 1, es = sz / n;
        uint64_t em = exec_width_mask(es);
        uint64_t *acc = x->tmp[PTX_MAX_OPERANDS];
        EXEC_LANES(m, l, acc[l] = 0;);
        for (unsigned i = 0; i < n; i++) {
            if (s->vec_imm_mask >> i & 1) {
                uint64_t v = ((uint64_t)s->vec_imm[i] & em) << (8 * es * i);
                EXEC_LANES(m, l, acc[l] |= v;);
            } else if (s->vec[i] >= 0) {
                const uint64_t *e = w->R + (size_t)s->vec[i] * CURED_MODEL_WARP_SIZE;
                EXEC_LANES(m, l, acc[l] |= (e[l] & em) << (8 * es * i););
            }
        }
        EXEC_LANES(m, l, r[l] = acc[l];);
        return 0;
    }
    const uint64_t *a = SRC(0);
    uint64_t mk = exec_width_mask(sz);
    if (ins->type == PTX_T_PRED)
        mk = 1;
    EXEC_LANES(m, l, r[l] = a[l] & mk;);
    return 0;
}

// ----------------------------------------------------------------------------
// compare and select

/* res[l] = a[l] OP b[l] for lanes m, the operands converted by CONV. */
#define CMP_LANES(CONV, OP) EXEC_LANES(m, l, res[l] = (uint64_t)(CONV(a[l]) OP CONV(b[l]));)
#define AS_S32(v) ((int32_t)(uint32_t)(v))
#define AS_U32(v) ((uint32_t)(v))
#define AS_S64(v) ((int64_t)(v))
#define AS_U64(v) ((uint64_t)(v))
#define CMP_ALL(SCONV, UCONV)                                           \
    switch (ins->cmp) {                                                 \
    case PTX_CMP_EQ: CMP_LANES(UCONV, ==); break;                       \
    case PTX_CMP_NE: CMP_LANES(UCONV, !=); break;                       \
    case PTX_CMP_LT: CMP_LANES(SCONV, <); break;                        \
    case PTX_CMP_LE: CMP_LANES(SCONV, <=); break;                       \
    case PTX_CMP_GT: CMP_LANES(SCONV, >); break;                        \
    case PTX_CMP_GE: CMP_LANES(SCONV, >=); break;                       \
    case PTX_CMP_LO: CMP_LANES(UCONV, <); break;                        \
    case PTX_CMP_LS: CMP_LANES(UCONV, <=); break;                       \
    case PTX_CMP_HI: CMP_LANES(UCONV, >); break;                        \
    case PTX_CMP_HS: CMP_LANES(UCONV, >=); break;                       \
    default: return -1;                                                 \
    }

/* Integer setp (p[|q]) and set, with .and/.or/.xor combining. */
static int alu_setp(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    unsigned t = ins->type2 ? ins->type2 : ins->type;
    unsigned bits = ptx_type_size((ptx_type)t) * 8;
    if (bits == 0 || bits > 64)
        return -1;
    int sgn = exec_type_signed(t);
    const uint64_t *a = SRC(0), *b = SRC(1);
    const uint64_t *c = ins->boolop != PTX_BOOL_NONE ? SRC(2) : NULL;
    uint64_t *res = x->tmp[PTX_MAX_OPERANDS];
    if (bits == 32 && sgn) {
        CMP_ALL(AS_S32, AS_U32)
    } else if (bits == 32) {
        CMP_ALL(AS_U32, AS_U32)
    } else if (bits == 64 && sgn) {
        CMP_ALL(AS_S64, AS_U64)
    } else if (bits == 64) {
        CMP_ALL(AS_U64, AS_U64)
    } else {
        int bad = 0;
        EXEC_LANES(m, l, {
            int v = int_cmp(ins->cmp, a[l], b[l], bits, sgn);
            if (v < 0)
                bad = 1;
            res[l] = (uint64_t)(v > 0);
        });
        if (bad)
            return -1;
    }
    exec_write_compare(x, w, ins, m, res, c);
    return 0;
}

/* selp (predicate picks a or b) and slct (the sign of c picks). */
static int alu_select(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    unsigned sz = ins->type == PTX_T_PRED ? 1 : ptx_type_size((ptx_type)ins->type);
    if (sz == 0 || sz > 8)
        return -1;
    uint64_t mk = ins->type == PTX_T_PRED ? 1 : exec_width_mask(sz);
    if (ins->op == PTX_OP_SELP) {
        EXEC_LANES(m, l, d[l] = ((c[l] & 1) ? a[l] : b[l]) & mk;);
        return 0;
    }
    /* slct: c >= 0 picks a; c is s32 or f32 (-0.0 counts as >= 0) */
    if (ins->type2 == PTX_T_F32) {
        EXEC_LANES(m, l, {
            uint32_t cb = (uint32_t)c[l];
            float cf;
            memcpy(&cf, &cb, sizeof cf);
            if ((ins->flags & PTX_F_FTZ) && (cb & 0x7F800000u) == 0)
                cf = 0.0f;
            d[l] = (cf >= 0.0f ? a[l] : b[l]) & mk;
        });
    } else {
        EXEC_LANES(m, l, d[l] = ((int32_t)(uint32_t)c[l] >= 0 ? a[l] : b[l]) & mk;);
    }
    return 0;
}

// ----------------------------------------------------------------------------
// arithmetic

static int alu_addsub(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m,
                      unsigned bits, int sgn)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t mk = exec_width_mask(bits / 8);
    int sub = ins->op == PTX_OP_SUB;
    if (!(ins->flags & (PTX_F_SAT | PTX_F_CC | PTX_F_CARRY_IN))) {
        if (sub)
            EXEC_LANES(m, l, d[l] = (a[l] - b[l]) & mk;);
        else
            EXEC_LANES(m, l, d[l] = (a[l] + b[l]) & mk;);
        return 0;
    }
    if (ins->flags & PTX_F_SAT) {           /* add.sat.s32 / sub.sat.s32 */
        if (!sgn || bits != 32)
            return -1;
        EXEC_LANES(m, l, {
            int64_t r = sub ? (int64_t)(int32_t)a[l] - (int32_t)b[l]
                            : (int64_t)(int32_t)a[l] + (int32_t)b[l];
            if (r > INT32_MAX) r = INT32_MAX;
            if (r < INT32_MIN) r = INT32_MIN;
            d[l] = (uint64_t)r & mk;
        });
        return 0;
    }
    /* carry chain: add.cc, addc(.cc), sub.cc, subc(.cc); CF is the carry
     * out of the addition (for subtraction: the borrow) */
    int cin = (ins->flags & PTX_F_CARRY_IN) != 0, cout = (ins->flags & PTX_F_CC) != 0;
    uint32_t cc = w->cc;
    EXEC_LANES(m, l, {
        uint64_t ua = a[l] & mk, ub = b[l] & mk, c = cin ? (cc >> l & 1) : 0;
        uint64_t r, carry;
        if (sub) {
            r = (ua - ub - c) & mk;
            carry = ua < ub + c || (ub + c) > mk;
        } else {
            uint64_t s1 = ua + ub, s2 = s1 + c;
            r = s2 & mk;
            carry = bits == 64 ? (s1 < ua) | (s2 < s1) : (s2 >> bits) & 1;
        }
        d[l] = r;
        if (cout)
            cc = (cc & ~(1u << l)) | ((uint32_t)carry << l);
    });
    w->cc = cc;
    return 0;
}

/* mul/mad (.lo/.hi/.wide, mad.hi.sat.s32) and mul24/mad24. */
static int alu_mul(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m,
                   unsigned bits, int sgn)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0), *b = SRC(1);
    int mad = ins->op == PTX_OP_MAD || ins->op == PTX_OP_MAD24;
    const uint64_t *c = mad ? SRC(2) : NULL;
    unsigned rbits = (ins->flags & PTX_F_WIDE) ? bits * 2 : bits;
    uint64_t mk = exec_width_mask(rbits / 8);
    uint32_t fl = ins->flags;
    if (ins->op == PTX_OP_MUL24 || ins->op == PTX_OP_MAD24) {
        EXEC_LANES(m, l, d[l] = (mul24(a[l], b[l], sgn, fl) + (c ? c[l] : 0)) & mk;);
        return 0;
    }
    if (rbits > 64)
        return -1;
    if (mad && (fl & PTX_F_SAT)) {          /* mad.hi.sat.s32 */
        EXEC_LANES(m, l, {
            int64_t r = (int64_t)(int32_t)int_mul(a[l], b[l], bits, 1, fl) + (int32_t)c[l];
            if (r > INT32_MAX) r = INT32_MAX;
            if (r < INT32_MIN) r = INT32_MIN;
            d[l] = (uint64_t)r & mk;
        });
        return 0;
    }
    if (!c && (fl & PTX_F_WIDE) && bits == 32) {     /* mul.wide: address arithmetic */
        if (sgn)
            EXEC_LANES(m, l, d[l] = (uint64_t)((int64_t)AS_S32(a[l]) * AS_S32(b[l])););
        else
            EXEC_LANES(m, l, d[l] = (uint64_t)AS_U32(a[l]) * AS_U32(b[l]););
        return 0;
    }
    if (!(fl & (PTX_F_WIDE | PTX_F_HI))) {            /* .lo */
        if (c)
            EXEC_LANES(m, l, d[l] = (a[l] * b[l] + c[l]) & mk;);
        else
            EXEC_LANES(m, l, d[l] = (a[l] * b[l]) & mk;);
        return 0;
    }
    if (c)
        EXEC_LANES(m, l, d[l] = (int_mul(a[l], b[l], bits, sgn, fl) + c[l]) & mk;);
    else
        EXEC_LANES(m, l, d[l] = int_mul(a[l], b[l], bits, sgn, fl) & mk;);
    return 0;
}

/* Integer min/max (signed or unsigned by type; .relu clamps at 0). */
static int alu_minmax(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m,
                      unsigned bits, int sgn)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t mk = exec_width_mask(bits / 8);
    int mx = ins->op == PTX_OP_MAX, relu = sgn && (ins->flags & PTX_F_RELU);
    EXEC_LANES(m, l, {
        int lt = sgn ? exec_sext(a[l], bits) < exec_sext(b[l], bits) : (a[l] & mk) < (b[l] & mk);
        uint64_t r = (mx ? !lt : lt) ? a[l] : b[l];
        if (relu && exec_sext(r, bits) < 0)
            r = 0;
        d[l] = r & mk;
    });
    return 0;
}

// ----------------------------------------------------------------------------
// Dispatch

int exec_alu(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    unsigned t = ins->type;
    unsigned sz = t == PTX_T_PRED ? 1 : ptx_type_size((ptx_type)t);
    unsigned bits = sz * 8;
    int sgn = exec_type_signed(t);
    if (m == 0)
        return 0;
    switch (ins->op) {
    case PTX_OP_MOV:
        return alu_mov(x, w, ins, m);
    case PTX_OP_SETP:
    case PTX_OP_SET:
        return alu_setp(x, w, ins, m);
    case PTX_OP_SELP:
    case PTX_OP_SLCT:
        return alu_select(x, w, ins, m);
    default:
        break;
    }
    if (bits == 0 || bits > 64)
        return -1;
    switch (ins->op) {
    case PTX_OP_ADD:
    case PTX_OP_SUB:
        return alu_addsub(x, w, ins, m, bits, sgn);
    case PTX_OP_MUL:
    case PTX_OP_MAD:
    case PTX_OP_MUL24:
    case PTX_OP_MAD24:
        return alu_mul(x, w, ins, m, bits, sgn);
    case PTX_OP_SAD: {
        uint64_t *d = exec_dst(x, w, &ins->ops[0]);
        const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
        uint64_t mk = exec_width_mask(sz);
        EXEC_LANES(m, l, {
            uint64_t diff;
            if (sgn) {
                int64_t sa = exec_sext(a[l], bits), sb = exec_sext(b[l], bits);
                diff = sa > sb ? (uint64_t)(sa - sb) : (uint64_t)(sb - sa);
            } else {
                uint64_t ua = a[l] & mk, ub = b[l] & mk;
                diff = ua > ub ? ua - ub : ub - ua;
            }
            d[l] = (c[l] + diff) & mk;
        });
        return 0;
    }
    case PTX_OP_DIV:
    case PTX_OP_REM: {
        uint64_t *d = exec_dst(x, w, &ins->ops[0]);
        const uint64_t *a = SRC(0), *b = SRC(1);
        uint64_t mk = exec_width_mask(sz);
        int rem = ins->op == PTX_OP_REM;
        EXEC_LANES(m, l, d[l] = int_div(a[l], b[l], bits, sgn, rem) & mk;);
        return 0;
    }
    case PTX_OP_MIN:
    case PTX_OP_MAX:
        return alu_minmax(x, w, ins, m, bits, sgn);
    case PTX_OP_NEG:
    case PTX_OP_ABS: {
        uint64_t *d = exec_dst(x, w, &ins->ops[0]);
        const uint64_t *a = SRC(0);
        uint64_t mk = exec_width_mask(sz);
        if (ins->op == PTX_OP_NEG)
            EXEC_LANES(m, l, d[l] = (0 - a[l]) & mk;);
        else
            EXEC_LANES(m, l, {
                int64_t v = exec_sext(a[l], bits);
                d[l] = (v < 0 ? 0 - (uint64_t)v : (uint64_t)v) & mk;
            });
        return 0;
    }
    case PTX_OP_AND:
    case PTX_OP_OR:
    case PTX_OP_XOR: {
        uint64_t *d = exec_dst(x, w, &ins->ops[0]);
        const uint64_t *a = SRC(0), *b = SRC(1);
        uint64_t mk = t == PTX_T_PRED ? 1 : exec_width_mask(sz);
        if (ins->op == PTX_OP_AND)
            EXEC_LANES(m, l, d[l] = a[l] & b[l] & mk;);
        else if (ins->op == PTX_OP_OR)
            EXEC_LANES(m, l, d[l] = (a[l] | b[l]) & mk;);
        else
            EXEC_LANES(m, l, d[l] = (a[l] ^ b[l]) & mk;);
        return 0;
    }
    case PTX_OP_NOT:
    case PTX_OP_CNOT: {
        uint64_t *d = exec_dst(x, w, &ins->ops[0]);
        const uint64_t *a = SRC(0);
        uint64_t mk = t == PTX_T_PRED ? 1 : exec_width_mask(sz);
        if (ins->op == PTX_OP_NOT)
            EXEC_LANES(m, l, d[l] = ~a[l] & mk;);
        else
            EXEC_LANES(m, l, d[l] = (a[l] & mk) == 0;);
        return 0;
    }
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF:
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFIND:
    case PTX_OP_BFE: case PTX_OP_BFI: case PTX_OP_PRMT: case PTX_OP_FNS:
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        return exec_bits(x, w, ins, m, bits, sgn);
    default:
        return -1;
    }
}
