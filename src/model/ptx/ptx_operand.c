/* ptx_operand.c - numbers and instruction operands.
 *
 * defines: ptx_decode_number, ptx_parse_int, ptx_number_to_bits,
 *          ptx_parse_literal, ptx_parse_operand
 *
 * Literals follow the PTX ISA: integers in decimal, hex (0x), octal
 * (leading 0) or binary (0b), with an optional U suffix; floats as 0f
 * (8 hex digits, f32 bits), 0d (16 hex digits, f64 bits) or decimal
 * (1.5, 1e-3: a double). Which literal suits which operand follows
 * ptxas: a float operand takes any float literal, converted to its width;
 * a .b32 operand takes 0f bits and a .b64 one 0d bits unchanged; an
 * integer literal never fills a float operand.
 */
#include "ptx_parser.h"

#include <stdlib.h>
#include <string.h>

/* The value of a hex digit, -1 for other characters. */
static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Accumulates digits of `base` from s[0..n) into *value. Returns 0, -1 on
 * a bad digit, -2 on overflow past 64 bits. */
static int accumulate(const char *s, size_t n, unsigned base, uint64_t *value)
{
    uint64_t v = 0;
    if (n == 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        int d = hex_value(s[i]);
        if (d < 0 || (unsigned)d >= base)
            return -1;
        if (v > (UINT64_MAX - (unsigned)d) / base)
            return -2;
        v = v * base + (unsigned)d;
    }
    *value = v;
    return 0;
}

/* Decodes a decimal float (digits, '.', exponent) into *real. */
static int decode_decimal_float(const char *s, size_t n, double *real)
{
    char buf[80];
    if (n >= sizeof buf)
        return -1;
    int digits = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9')
            digits++;
        else if (c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-')
            return -1;
    }
    if (digits == 0)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *end = NULL;
    *real = strtod(buf, &end);
    return end == buf + n ? 0 : -1;
}

int ptx_decode_number(ptx_parser *p, const ptx_token *t, int negative,
                      ptx_number *out)
{
    const char *s = ptx_text(p, t);
    size_t n = t->len;
    char prefix = n >= 2 && s[0] == '0' ? s[1] : '\0';
    memset(out, 0, sizeof *out);
    if (t->kind != PTX_TOK_NUMBER)
        goto bad;
    if (prefix == 'f' || prefix == 'F' || prefix == 'd' || prefix == 'D') {
        size_t digits = (prefix == 'f' || prefix == 'F') ? 8 : 16;
        if (n != digits + 2 || accumulate(s + 2, digits, 16, &out->bits) != 0)
            goto bad;
        out->kind = digits == 8 ? PTX_NUM_F32_BITS : PTX_NUM_F64_BITS;
        if (negative)
            out->bits ^= digits == 8 ? (uint64_t)1 << 31 : (uint64_t)1 << 63;
        return 0;
    }
    size_t end = n;
    if (end > 1 && (s[end - 1] == 'U' || s[end - 1] == 'u'))
        end--;
    int rc;
    uint64_t value = 0;
    if (prefix == 'x' || prefix == 'X') {
        rc = accumulate(s + 2, end - 2, 16, &value);
    } else if (prefix == 'b' || prefix == 'B') {
        rc = accumulate(s + 2, end - 2, 2, &value);
    } else if (memchr(s, '.', n) != NULL || memchr(s, 'e', n) != NULL ||
               memchr(s, 'E', n) != NULL) {
        if (decode_decimal_float(s, n, &out->real) != 0)
            goto bad;
        out->kind = PTX_NUM_DECIMAL_FLOAT;
        if (negative)
            out->real = -out->real;
        return 0;
    } else if (s[0] == '0' && end > 1) {
        rc = accumulate(s + 1, end - 1, 8, &value);
    } else {
        rc = accumulate(s, end, 10, &value);
    }
    if (rc == -2 || (negative && value > (uint64_t)1 << 63))
        return ptx_fail(p, t, "number '%.*s' out of range", ptx_show_len(t), s);
    if (rc != 0)
        goto bad;
    out->kind = PTX_NUM_INT;
    out->bits = negative ? (uint64_t)0 - value : value;
    return 0;
bad:
    return ptx_fail(p, t, "malformed number '%.*s'", ptx_show_len(t), s);
}

int ptx_parse_int(ptx_parser *p, int64_t *value, const char *context)
{
    int negative = 0;
    if (ptx_is_punct(ptx_peek(p, 0), '-')) {
        negative = 1;
        ptx_next(p);
    }
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TOK_NUMBER) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        return ptx_fail(p, t, "expected an integer %s, found %s", context, found);
    }
    ptx_next(p);
    ptx_number num;
    if (ptx_decode_number(p, t, negative, &num) != 0)
        return -1;
    if (num.kind != PTX_NUM_INT)
        return ptx_fail(p, t, "expected an integer %s, found '%.*s'", context,
                        ptx_show_len(t), ptx_text(p, t));
    *value = (int64_t)num.bits;
    return 0;
}

/* IEEE bit patterns to and from float and double. */
static uint64_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static uint64_t f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static float f32_from_bits(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double f64_from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

int ptx_number_to_bits(ptx_parser *p, const ptx_token *t,
                       const ptx_number *num, ptx_type type, uint64_t *bits)
{
    switch (num->kind) {
    case PTX_NUM_INT:
        if (ptx_type_is_float(type))
            return ptx_fail(p, t, "integer literal '%.*s' where a .%s value is "
                            "expected (write it as a float literal)",
                            ptx_show_len(t), ptx_text(p, t), ptx_type_name(type));
        *bits = num->bits;
        return 0;
    case PTX_NUM_F32_BITS:
        if (type == PTX_T_F32 || type == PTX_T_B32) {
            *bits = num->bits;
            return 0;
        }
        if (type == PTX_T_F64) {
            *bits = f64_bits((double)f32_from_bits(num->bits));
            return 0;
        }
        break;
    case PTX_NUM_F64_BITS:
        if (type == PTX_T_F64 || type == PTX_T_B64) {
            *bits = num->bits;
            return 0;
        }
        if (type == PTX_T_F32) {
            *bits = f32_bits((float)f64_from_bits(num->bits));
            return 0;
        }
        break;
    case PTX_NUM_DECIMAL_FLOAT:
        if (type == PTX_T_F32) {
            *bits = f32_bits((float)num->real);
            return 0;
        }
        if (type == PTX_T_F64) {
            *bits = f64_bits(num->real);
            return 0;
        }
        break;
    }
    return ptx_fail(p, t, "float literal '%.*s' where a .%s value is expected",
                    ptx_show_len(t), ptx_text(p, t), ptx_type_name(type));
}

int ptx_parse_literal(ptx_parser *p, ptx_type type, const char *what, ptx_number *num,
                      uint64_t *bits)
{
    int negative = 0;
    if (ptx_is_punct(ptx_peek(p, 0), '-')) {
        negative = 1;
        ptx_next(p);
    }
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind != PTX_TOK_NUMBER)
        return ptx_fail_expected(p, t, what);
    ptx_next(p);
    if (ptx_decode_number(p, t, negative, num) != 0 ||
        ptx_number_to_bits(p, t, num, type, bits) != 0)
        return -1;
    return 0;
}

/* An immediate at the cursor (optional '-', then a number). */
static int parse_immediate(ptx_parser *p, ptx_type type, int64_t *imm)
{
    ptx_number num;
    uint64_t bits;
    if (ptx_parse_literal(p, type, "a number after '-'", &num, &bits) != 0)
        return -1;
    *imm = (int64_t)bits;
    return 0;
}

/* Resolves a register name at token t into *slot (must be a register). */
static int parse_register(ptx_parser *p, const ptx_token *t, unsigned accept,
                          int32_t *slot)
{
    const ptx_binding *b = ptx_scope_find(&p->names, ptx_text(p, t), t->len);
    if (t->kind != PTX_TOK_WORD || b == NULL || b->kind != PTX_BIND_REG) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        if (t->kind == PTX_TOK_WORD && b == NULL)
            return ptx_fail(p, t, "undeclared register %s", found);
        return ptx_fail(p, t, "expected a register, found %s", found);
    }
    if ((accept & PTX_ACCEPT_PRED) &&
        ptx_current(p)->regs[b->index].type != PTX_T_PRED)
        return ptx_fail(p, t, "'%.*s' is not a .pred register", ptx_show_len(t),
                        ptx_text(p, t));
    *slot = b->index;
    return 0;
}

/* `{a, b, c, d}`: registers, `_` sinks (destinations) or immediates
 * (sources). */
static int parse_vector(ptx_parser *p, unsigned accept, ptx_type type,
                        ptx_operand *out)
{
    const ptx_token *open = ptx_next(p);
    out->kind = PTX_OPND_VEC;
    int count = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (count == 4)
            return ptx_fail(p, t, "vector operand with more than 4 elements");
        if (t->kind == PTX_TOK_WORD && t->len == 1 && ptx_text(p, t)[0] == '_') {
            if (!(accept & PTX_ACCEPT_DEST))
                return ptx_fail(p, t, "sink '_' used as a source");
            ptx_next(p);
            out->vec[count] = -1;
        } else if (t->kind == PTX_TOK_NUMBER || ptx_is_punct(t, '-')) {
            if (accept & PTX_ACCEPT_DEST)
                return ptx_fail(p, t, "immediate in a destination vector");
            if (parse_immediate(p, type, &out->vec_imm[count]) != 0)
                return -1;
            out->vec[count] = -1;
            out->vec_imm_mask |= (uint8_t)(1u << count);
        } else {
            ptx_next(p);
            if (parse_register(p, t, 0, &out->vec[count]) != 0)
                return -1;
        }
        count++;
        if (ptx_is_punct(ptx_peek(p, 0), ','))
            ptx_next(p);
        else
            break;
    }
    if (ptx_expect(p, '}', "to close the vector operand") != 0)
        return -1;
    if (count != 1 && count != 2 && count != 4)
        return ptx_fail(p, open, "vector operand with %d elements (1, 2 or 4)",
                        count);
    out->vec_count = (uint8_t)count;
    return 0;
}

/* `[base]`, `[base+off]`, `[base+-off]`, `[base-off]`, `[imm]`, where
 * base is a register or a variable. */
static int parse_address(ptx_parser *p, ptx_operand *out)
{
    ptx_next(p);   /* '[' */
    out->kind = PTX_OPND_ADDR;
    const ptx_token *t = ptx_peek(p, 0);
    if (t->kind == PTX_TOK_WORD) {
        ptx_next(p);
        const ptx_binding *b = ptx_scope_find(&p->names, ptx_text(p, t), t->len);
        if (b == NULL)
            return ptx_fail(p, t, "undeclared name '%.*s' in address",
                            ptx_show_len(t), ptx_text(p, t));
        if (b->kind == PTX_BIND_REG)
            out->reg = b->index;
        else if (b->kind == PTX_BIND_SYM)
            out->sym = b->index;
        else
            return ptx_fail(p, t, "'%.*s' cannot be used as an address",
                            ptx_show_len(t), ptx_text(p, t));
        const ptx_token *sign = ptx_peek(p, 0);
        if (ptx_is_punct(sign, '+') || ptx_is_punct(sign, '-')) {
            ptx_next(p);
            int64_t offset;
            if (ptx_parse_int(p, &offset, "address offset") != 0)
                return -1;
            if (ptx_is_punct(sign, '-')) {
                if (offset == INT64_MIN)
                    return ptx_fail(p, sign, "address offset out of range");
                offset = -offset;
            }
            out->imm = offset;
        }
    } else {
        if (ptx_parse_int(p, &out->imm, "address") != 0)
            return -1;
    }
    return ptx_expect(p, ']', "to close the address");
}

int ptx_parse_operand(ptx_parser *p, unsigned accept, ptx_type type,
                      ptx_operand *out, size_t *label_token)
{
    const ptx_token *t = ptx_peek(p, 0);
    char found[80];
    ptx_describe(p, t, found, sizeof found);
    if (ptx_is_punct(t, '!')) {
        if (!(accept & PTX_ACCEPT_NEG))
            return ptx_fail(p, t, "'!' is not allowed on this operand");
        ptx_next(p);
        const ptx_token *r = ptx_next(p);
        out->kind = PTX_OPND_REG;
        out->neg = 1;
        return parse_register(p, r, PTX_ACCEPT_PRED, &out->reg);
    }
    if (ptx_is_punct(t, '{')) {
        if (!(accept & PTX_ACCEPT_VEC))
            return ptx_fail(p, t, "vector operand not allowed here");
        return parse_vector(p, accept, type, out);
    }
    if (ptx_is_punct(t, '[')) {
        if (!(accept & PTX_ACCEPT_ADDR))
            return ptx_fail(p, t, "address operand not allowed here");
        return parse_address(p, out);
    }
    if (t->kind == PTX_TOK_NUMBER || ptx_is_punct(t, '-')) {
        if (!(accept & PTX_ACCEPT_IMM))
            return ptx_fail(p, t, "expected %s, found the immediate %s",
                            (accept & PTX_ACCEPT_ADDR) ? "an address" : "a register",
                            found);
        out->kind = PTX_OPND_IMM;
        return parse_immediate(p, type, &out->imm);
    }
    if (t->kind != PTX_TOK_WORD)
        return ptx_fail(p, t, "expected an operand, found %s", found);
    ptx_next(p);
    if (accept & PTX_ACCEPT_LABEL) {
        out->kind = PTX_OPND_LABEL;
        out->imm = -1;
        *label_token = (size_t)(t - p->toks.items);
        return 0;
    }
    const char *name = ptx_text(p, t);
    const ptx_binding *b = ptx_scope_find(&p->names, name, t->len);
    if (b != NULL && b->kind == PTX_BIND_REG) {
        if (!(accept & PTX_ACCEPT_REG))
            return ptx_fail(p, t, "register %s not allowed here", found);
        out->kind = PTX_OPND_REG;
        return parse_register(p, t, accept & PTX_ACCEPT_PRED, &out->reg);
    }
    if (b != NULL && b->kind == PTX_BIND_SYM) {
        if (!(accept & PTX_ACCEPT_SYM))
            return ptx_fail(p, t, "variable %s cannot be used as a value here",
                            found);
        out->kind = PTX_OPND_SYM;
        out->sym = b->index;
        return 0;
    }
    if (b != NULL)
        return ptx_fail(p, t, "function %s cannot be used as an operand", found);
    uint8_t sreg, comp;
    if (name[0] == '%' && ptx_sreg_from_name(name, t->len, &sreg, &comp) == 0) {
        if (!(accept & PTX_ACCEPT_SREG))
            return ptx_fail(p, t, "special register %s not allowed here", found);
        out->kind = PTX_OPND_SREG;
        out->sreg = sreg;
        out->comp = comp;
        return 0;
    }
    if (name[0] == '%')
        return ptx_fail(p, t, "undeclared register %s", found);
    return ptx_fail(p, t, "undeclared name %s", found);
}
