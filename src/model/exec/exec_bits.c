/* exec_bits.c - the interpreter's shifts and bit instructions: shl, shr,
 * shf, popc, clz, brev, bfind, bfe, bfi, prmt, fns, dp4a, dp2a, lane by
 * lane in the inner loop (exec_alu.c dispatches them here).
 *
 * defines: exec_bits
 *
 * As in exec_alu.c, semantics follow the PTX ISA and results are written
 * zero-extended from the instruction type's width:
 * - shl/shr by a shift amount >= the width give 0 (shr.s: the sign
 *   replicated): PTX clamps the amount to the width.
 */
#include "exec_internal.h"

#define SRC(i) exec_src(x, w, &ins->ops[ins->ndst + (i)], x->tmp[i], m)

/* Byte permute: result byte i is byte sel(i) of {b, a} (a is bytes 0-3).
 * Default mode: sel(i) is nibble i of c, whose bit 3 replicates the picked
 * byte's sign. The named modes derive sel(i) from c[1:0] (f4e: c+i, b4e:
 * c-i mod 8, rc8: c, ecl: max(i, c), ecr: min(i, c), rc16: 2*c[0] + i%2). */
static inline uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, unsigned mode)
{
    uint64_t t = ((uint64_t)b << 32) | a;
    uint32_t d = 0, k = c & 3;
    for (uint32_t i = 0; i < 4; i++) {
        uint32_t sel;
        switch (mode) {
        case PTX_PRMT_F4E: sel = (k + i) & 7; break;
        case PTX_PRMT_B4E: sel = (k + 8 - i) & 7; break;
        case PTX_PRMT_RC8: sel = k; break;
        case PTX_PRMT_ECL: sel = i > k ? i : k; break;
        case PTX_PRMT_ECR: sel = i < k ? i : k; break;
        case PTX_PRMT_RC16: sel = 2 * (c & 1) + (i & 1); break;
        default: sel = (c >> (4 * i)) & 0xF; break;
        }
        uint32_t byte = (uint32_t)(t >> (8 * (sel & 7))) & 0xFF;
        if (mode == 0 && (sel & 8))
            byte = (byte & 0x80) ? 0xFF : 0;
        d |= byte << (8 * i);
    }
    return d;
}

/* fns: the position of the offset-th set bit of mask from base (offset
 * > 0 upwards, < 0 downwards, 0: base itself), 0xFFFFFFFF when none. */
static inline uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0)
        return base < 32 && (mask >> base & 1) ? base : 0xFFFFFFFFu;
    int pos = (int)base, inc = offset > 0 ? 1 : -1;
    int64_t count = (offset > 0 ? (int64_t)offset : -(int64_t)offset) - 1;
    while (pos >= 0 && pos < 32) {
        if (mask >> pos & 1) {
            if (count == 0)
                return (uint32_t)pos;
            count--;
        }
        pos += inc;
    }
    return 0xFFFFFFFFu;
}

/* shl/shr: amounts of the width or more give 0 (shr.s: the sign). */
static int shift_op(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m,
                    unsigned bits, int sgn)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0), *b = SRC(1);
    uint64_t mk = exec_width_mask(bits / 8);
    if (ins->op == PTX_OP_SHL) {
        EXEC_LANES(m, l, {
            uint32_t n = (uint32_t)b[l];
            d[l] = n >= bits ? 0 : (a[l] << n) & mk;
        });
    } else if (sgn) {
        EXEC_LANES(m, l, {
            uint32_t n = (uint32_t)b[l];
            int64_t v = exec_sext(a[l], bits);
            d[l] = (uint64_t)(v >> (n >= bits ? bits - 1 : n)) & mk;
        });
    } else {
        EXEC_LANES(m, l, {
            uint32_t n = (uint32_t)b[l];
            d[l] = n >= bits ? 0 : (a[l] & mk) >> n;
        });
    }
    return 0;
}

/* shf.l / shf.r .wrap/.clamp .b32: funnel shift of {b, a}. */
static int funnel_shift(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    const uint64_t *a = SRC(0), *b = SRC(1), *c = SRC(2);
    int left = ins->sub != PTX_SHF_R;
    int clamp = (ins->flags & PTX_F_CLAMP) != 0;
    EXEC_LANES(m, l, {
        uint64_t v = ((b[l] & 0xFFFFFFFFu) << 32) | (a[l] & 0xFFFFFFFFu);
        uint32_t n = (uint32_t)c[l];
        n = clamp ? (n > 32 ? 32 : n) : (n & 31);
        d[l] = left ? ((v << n) >> 32) & 0xFFFFFFFFu : (v >> n) & 0xFFFFFFFFu;
    });
    return 0;
}

/* popc, clz, brev, bfind, bfe, bfi, prmt, fns, dp4a, dp2a. */
static int bit_op(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m,
                  unsigned bits, int sgn)
{
    uint64_t *d = exec_dst(x, w, &ins->ops[0]);
    uint64_t mk = exec_width_mask(bits / 8);
    const uint64_t *a = SRC(0);
    switch (ins->op) {
    case PTX_OP_POPC:
        EXEC_LANES(m, l, d[l] = (uint64_t)__builtin_popcountll(a[l] & mk););
        return 0;
    case PTX_OP_CLZ:
        EXEC_LANES(m, l, {
            uint64_t v = a[l] & mk;
            d[l] = v == 0 ? bits : (uint64_t)(__builtin_clzll(v) - (64 - (int)bits));
        });
        return 0;
    case PTX_OP_BREV:
        EXEC_LANES(m, l, {
            uint64_t v = a[l], r = 0;
            for (unsigned i = 0; i < bits; i++)
                r |= ((v >> i) & 1) << (bits - 1 - i);
            d[l] = r;
        });
        return 0;
    case PTX_OP_BFIND:
        EXEC_LANES(m, l, {
            uint64_t v = a[l] & mk;
            if (sgn && (v >> (bits - 1) & 1))
                v = ~v & mk;
            uint64_t r = v == 0 ? 0xFFFFFFFFu : (uint64_t)(63 - __builtin_clzll(v));
            if ((ins->flags & PTX_F_SHIFTAMT) && r != 0xFFFFFFFFu)
                r = bits - 1 - r;
            d[l] = r;
        });
        return 0;
    case PTX_OP_BFE: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        EXEC_LANES(m, l, {
            unsigned pos = (unsigned)(b[l] & 0xFF), len = (unsigned)(c[l] & 0xFF);
            uint64_t v = a[l] & mk, r = 0;
            uint64_t sbit = 0;
            if (sgn && len != 0) {
                unsigned top = pos + len - 1 < bits - 1 ? pos + len - 1 : bits - 1;
                sbit = (v >> top) & 1;
            }
            for (unsigned i = 0; i < bits; i++) {
                uint64_t bit = (i < len && pos + i < bits) ? (v >> (pos + i)) & 1 : sbit;
                r |= bit << i;
            }
            d[l] = r;
        });
        return 0;
    }
    case PTX_OP_BFI: {
        const uint64_t *b = SRC(1), *c = SRC(2), *e = SRC(3);
        EXEC_LANES(m, l, {
            unsigned pos = (unsigned)(c[l] & 0xFF), len = (unsigned)(e[l] & 0xFF);
            uint64_t r = b[l] & mk;
            for (unsigned i = 0; i < len && pos + i < bits; i++)
                r = (r & ~(1ull << (pos + i))) | (((a[l] >> i) & 1) << (pos + i));
            d[l] = r;
        });
        return 0;
    }
    case PTX_OP_PRMT: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        unsigned mode = ins->sub;
        EXEC_LANES(m, l, d[l] = prmt((uint32_t)a[l], (uint32_t)b[l], (uint32_t)c[l], mode););
        return 0;
    }
    case PTX_OP_FNS: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        EXEC_LANES(m, l, d[l] = fns((uint32_t)a[l], (uint32_t)b[l], (int32_t)(uint32_t)c[l]););
        return 0;
    }
    case PTX_OP_DP4A:
    case PTX_OP_DP2A: {
        const uint64_t *b = SRC(1), *c = SRC(2);
        int sa = exec_type_signed(ins->type), sb = exec_type_signed(ins->type2);
        int four = ins->op == PTX_OP_DP4A;
        int hi = (ins->flags & PTX_F_HI) != 0;
        EXEC_LANES(m, l, {
            int64_t acc = (sa || sb) ? (int64_t)(int32_t)(uint32_t)c[l] : (int64_t)(uint32_t)c[l];
            for (int i = 0; i < (four ? 4 : 2); i++) {
                int64_t va, vb;
                if (four) {
                    va = sa ? exec_sext(a[l] >> (8 * i), 8) : (int64_t)((a[l] >> (8 * i)) & 0xFF);
                    vb = sb ? exec_sext(b[l] >> (8 * i), 8) : (int64_t)((b[l] >> (8 * i)) & 0xFF);
                } else {
                    va = sa ? exec_sext(a[l] >> (16 * i), 16) : (int64_t)((a[l] >> (16 * i)) & 0xFFFF);
                    unsigned bi = (unsigned)(hi ? 2 + i : i);
                    vb = sb ? exec_sext(b[l] >> (8 * bi), 8) : (int64_t)((b[l] >> (8 * bi)) & 0xFF);
                }
                acc += va * vb;
            }
            d[l] = (uint64_t)acc & 0xFFFFFFFFu;
        });
        return 0;
    }
    default:
        return -1;
    }
}

int exec_bits(exec_launch *x, exec_warp *w, const ptx_instr *ins, uint32_t m, unsigned bits,
              int sgn)
{
    switch (ins->op) {
    case PTX_OP_SHL:
    case PTX_OP_SHR:
        return shift_op(x, w, ins, m, bits, sgn);
    case PTX_OP_SHF:
        return funnel_shift(x, w, ins, m);
    default:
        return bit_op(x, w, ins, m, bits, sgn);
    }
}
