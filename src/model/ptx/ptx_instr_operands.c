/* ptx_instr_operands.c - reading an instruction's operands once its opcode
 * word is decoded (ptx_instr.c): by the operand pattern, bar.red's optional
 * thread count, call's parameter lists and target, and the checks across
 * operands (vector widths, mov between vectors).
 *
 * defines: ptx_parse_operands, ptx_parse_bar_red, ptx_parse_call,
 *          ptx_check_operands
 */
#include "ptx_instr_internal.h"

#include <string.h>

/* The type an immediate in operand position `index` (of the pattern)
 * is read as. */
static ptx_type immediate_type(const ptx_instr *ins, char code, int index)
{
    if (code == 'p')
        return PTX_T_PRED;
    switch (ins->op) {
    case PTX_OP_CVT:
    case PTX_OP_SETP:
    case PTX_OP_SET:
        return index == 0 ? (ptx_type)ins->type : (ptx_type)ins->type2;
    case PTX_OP_SLCT:
        return index == 3 ? (ptx_type)ins->type2 : (ptx_type)ins->type;
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_SHF: case PTX_OP_BFE:
    case PTX_OP_BFI: case PTX_OP_SHFL: case PTX_OP_VOTE: case PTX_OP_MATCH:
    case PTX_OP_REDUX: case PTX_OP_BAR: case PTX_OP_BAR_WARP:
        return index == 1 && ins->op != PTX_OP_BAR ? (ptx_type)ins->type
                                                    : PTX_T_U32;
    default:
        return (ptx_type)ins->type;
    }
}

/* What each pattern letter accepts. */
static unsigned accepts(char code)
{
    switch (code) {
    case 'd': case 'q': return PTX_ACCEPT_REG | PTX_ACCEPT_DEST;
    case 'P': case 'T': return PTX_ACCEPT_REG | PTX_ACCEPT_DEST | PTX_ACCEPT_PRED;
    case 'D': return PTX_ACCEPT_REG | PTX_ACCEPT_VEC | PTX_ACCEPT_DEST;
    case 's': return PTX_ACCEPT_REG | PTX_ACCEPT_IMM | PTX_ACCEPT_SREG;
    case 'p': return PTX_ACCEPT_REG | PTX_ACCEPT_IMM | PTX_ACCEPT_NEG | PTX_ACCEPT_PRED;
    case 'm': return PTX_ACCEPT_REG | PTX_ACCEPT_IMM | PTX_ACCEPT_SREG |
                     PTX_ACCEPT_SYM | PTX_ACCEPT_VEC;
    case 'y': return PTX_ACCEPT_REG | PTX_ACCEPT_SYM;
    case 'v': return PTX_ACCEPT_REG | PTX_ACCEPT_IMM | PTX_ACCEPT_VEC;
    case 'a': return PTX_ACCEPT_ADDR;
    case 'l': return PTX_ACCEPT_LABEL;
    default: return 0;
    }
}

int ptx_parse_operands(ptx_parser *p, ptx_decode *d, ptx_instr *ins)
{
    const char *pattern = d->pattern;
    int max = (int)strlen(pattern);
    int count = 0;
    for (;;) {
        const ptx_token *t = ptx_peek(p, 0);
        if (ptx_is_punct(t, ';') && count >= d->min_ops)
            break;
        if (count == max) {
            char found[80];
            ptx_describe(p, t, found, sizeof found);
            return ptx_fail(p, t, WORD_FMT " takes %s%d operand%s, found %s after "
                            "them", WORD_ARGS(p, d), d->min_ops < max ? "at most " : "",
                            max, max == 1 ? "" : "s", found);
        }
        if (count > 0) {
            if (ptx_is_punct(t, ';'))
                return ptx_fail(p, t, WORD_FMT " takes %s%d operands, found %d",
                                WORD_ARGS(p, d), d->min_ops < max ? "at least " : "",
                                d->min_ops, count);
            if (ptx_expect(p, ',', "between operands") != 0)
                return -1;
        }
        char code = pattern[count];
        if (ins->nops >= PTX_MAX_OPERANDS)
            return ptx_fail(p, t, "too many operands");
        int slot = ins->nops;
        size_t label_token = 0;
        if (ptx_parse_operand(p, accepts(code), immediate_type(ins, code, count),
                              &ins->ops[slot], &label_token) != 0)
            return -1;
        ins->nops++;
        if (code == 'l') {
            ptx_fixup fix = {p->fn, ptx_current(p)->ncode - 1, slot, p->block_depth,
                             label_token};
            if (ptx_add_fixup(p, t, &p->label_fixups, &p->nlabel_fixups,
                              &p->label_fixups_cap, &fix) != 0)
                return -1;
        }
        if (code == 'd' || code == 'D' || code == 'q' || code == 'P' || code == 'T')
            ins->ndst++;
        const ptx_token *bar = ptx_peek(p, 0);
        if ((code == 'q' || code == 'P') && ptx_is_punct(bar, '|')) {
            ptx_next(p);
            if (ins->nops >= PTX_MAX_OPERANDS)
                return ptx_fail(p, bar, "too many operands");
            size_t unused;
            if (ptx_parse_operand(p, PTX_ACCEPT_REG | PTX_ACCEPT_DEST | PTX_ACCEPT_PRED,
                                  PTX_T_PRED, &ins->ops[ins->nops], &unused) != 0)
                return -1;
            ins->nops++;
            ins->ndst++;
        }
        count++;
    }
    ptx_next(p);   /* ';' */
    return 0;
}

int ptx_parse_bar_red(ptx_parser *p, ptx_decode *d, ptx_instr *ins)
{
    size_t unused;
    unsigned dest = PTX_ACCEPT_REG | PTX_ACCEPT_DEST |
                    (ins->type == PTX_T_PRED ? PTX_ACCEPT_PRED : 0);
    unsigned number = PTX_ACCEPT_REG | PTX_ACCEPT_IMM;
    if (ptx_parse_operand(p, dest, (ptx_type)ins->type, &ins->ops[0], &unused) != 0 ||
        ptx_expect(p, ',', "between operands") != 0 ||
        ptx_parse_operand(p, number, PTX_T_U32, &ins->ops[1], &unused) != 0 ||
        ptx_expect(p, ',', "between operands") != 0)
        return -1;
    const ptx_token *t = ptx_peek(p, 0);
    ptx_operand third;
    memset(&third, 0, sizeof third);
    third.reg = third.sym = -1;
    if (ptx_parse_operand(p, number | PTX_ACCEPT_NEG, PTX_T_U32, &third, &unused) != 0)
        return -1;
    if (ptx_is_punct(ptx_peek(p, 0), ',')) {
        ptx_next(p);
        if (third.neg)
            return ptx_fail(p, t, "'!' on the thread count of " WORD_FMT,
                            WORD_ARGS(p, d));
        ins->ops[2] = third;
        if (ptx_parse_operand(p, PTX_ACCEPT_REG | PTX_ACCEPT_NEG | PTX_ACCEPT_PRED,
                              PTX_T_PRED, &ins->ops[3], &unused) != 0)
            return -1;
    } else {
        if (third.kind != PTX_OPND_REG ||
            ptx_current(p)->regs[third.reg].type != PTX_T_PRED)
            return ptx_fail(p, t, "the last operand of " WORD_FMT " must be a "
                            "predicate", WORD_ARGS(p, d));
        ins->ops[3] = third;
    }
    ins->nops = 4;
    ins->ndst = 1;
    return ptx_expect(p, ';', "after the instruction");
}

/* One .param name in a call's return or argument list. */
static int call_param(ptx_parser *p, int32_t *symbol)
{
    const ptx_token *t = ptx_next(p);
    const ptx_binding *b = t->kind == PTX_TOK_WORD
        ? ptx_scope_find(&p->names, ptx_text(p, t), t->len) : NULL;
    if (b == NULL || b->kind != PTX_BIND_SYM ||
        p->m->symbols[b->index].space != PTX_S_PARAM) {
        char found[80];
        ptx_describe(p, t, found, sizeof found);
        return ptx_fail(p, t, "call parameter %s is not a declared .param variable",
                        found);
    }
    *symbol = b->index;
    return 0;
}

/* `(a, b, ...)` of .param names, appended to the function's call_params;
 * *count receives how many. */
static int call_param_list(ptx_parser *p, uint16_t *count)
{
    const ptx_token *open = ptx_peek(p, 0);
    if (ptx_expect(p, '(', "to open the call's parameter list") != 0)
        return -1;
    *count = 0;
    if (ptx_is_punct(ptx_peek(p, 0), ')')) {
        ptx_next(p);
        return 0;
    }
    for (;;) {
        int32_t symbol = -1;
        if (*count == UINT16_MAX)
            return ptx_fail(p, open, "too many call parameters");
        if (call_param(p, &symbol) != 0 || ptx_add_call_param(p, open, symbol) != 0)
            return -1;
        (*count)++;
        if (!ptx_is_punct(ptx_peek(p, 0), ','))
            break;
        ptx_next(p);
    }
    return ptx_expect(p, ')', "to close the call's parameter list");
}

int ptx_parse_call(ptx_parser *p, ptx_decode *d, ptx_instr *ins)
{
    ptx_function *fn = ptx_current(p);
    int32_t first = fn->ncall_params;
    int32_t instr = fn->ncode - 1;
    uint16_t nret = 0, nargs = 0;
    if (ptx_is_punct(ptx_peek(p, 0), '(')) {
        if (call_param_list(p, &nret) != 0 ||
            ptx_expect(p, ',', "after the call's return list") != 0)
            return -1;
    }
    const ptx_token *target = ptx_next(p);
    if (target->kind != PTX_TOK_WORD) {
        char found[80];
        ptx_describe(p, target, found, sizeof found);
        return ptx_fail(p, target, "expected a function name in " WORD_FMT
                        ", found %s", WORD_ARGS(p, d), found);
    }
    const ptx_binding *b = ptx_scope_find(&p->names, ptx_text(p, target),
                                          target->len);
    if (b != NULL && b->kind == PTX_BIND_REG)
        return ptx_fail(p, target, "indirect calls (through '%.*s') are not "
                        "supported", ptx_show_len(target), ptx_text(p, target));
    if (b != NULL && b->kind != PTX_BIND_FUNC)
        return ptx_fail(p, target, "'%.*s' is not a function",
                        ptx_show_len(target), ptx_text(p, target));
    if (ptx_is_punct(ptx_peek(p, 0), ',')) {
        ptx_next(p);
        if (call_param_list(p, &nargs) != 0)
            return -1;
    }
    if (ptx_is_punct(ptx_peek(p, 0), ','))
        return ptx_fail(p, ptx_peek(p, 0), "call prototypes and target lists "
                        "are not supported");
    ins = &ptx_current(p)->code[instr];
    ins->call_args = first;
    ins->call_nret = nret;
    ins->call_nargs = nargs;
    if (b != NULL) {
        ins->callee = b->index;
    } else {
        ptx_fixup fix = {p->fn, instr, 0, 0, (size_t)(target - p->toks.items)};
        if (ptx_add_fixup(p, target, &p->call_fixups, &p->ncall_fixups,
                          &p->call_fixups_cap, &fix) != 0)
            return -1;
    }
    return ptx_expect(p, ';', "after the call");
}

int ptx_check_operands(ptx_parser *p, ptx_decode *d, ptx_instr *ins)
{
    int data[2] = {-1, -1};   /* operands carrying loaded or stored values */
    if (ins->op == PTX_OP_LD || ins->op == PTX_OP_LDU) {
        data[0] = 0;
    } else if (ins->op == PTX_OP_ST || ins->op == PTX_OP_RED) {
        data[0] = 1;
    } else if (ins->op == PTX_OP_ATOM) {
        data[0] = 0;
        data[1] = 2;
    }
    if (ins->vec > 1 && ins->op == PTX_OP_ATOM && ins->sub == PTX_ATOM_CAS)
        return ptx_fail(p, d->word, "no vector .cas: " WORD_FMT, WORD_ARGS(p, d));
    for (int k = 0; k < 2 && data[k] >= 0; k++) {
        const ptx_operand *o = &ins->ops[data[k]];
        int count = o->kind == PTX_OPND_VEC ? o->vec_count : 1;
        if (count != ins->vec)
            return ptx_fail(p, d->word, WORD_FMT " moves %d value%s, the operand "
                            "has %d", WORD_ARGS(p, d), ins->vec,
                            ins->vec == 1 ? "" : "s", count);
    }
    if (ins->op == PTX_OP_MOV && ins->ops[0].kind == PTX_OPND_VEC &&
        ins->ops[1].kind == PTX_OPND_VEC)
        return ptx_fail(p, d->word, "mov between two vectors");
    if (ins->op == PTX_OP_MATCH && ins->sub == PTX_MATCH_ANY && ins->ndst > 1)
        return ptx_fail(p, d->word, "match.any has no predicate result");
    return 0;
}
