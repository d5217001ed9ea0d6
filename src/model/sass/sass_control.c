/* sass_control.c - what ptxas made of the PTX's control and warp-wide
 * instructions: per bra, call and ret the SASS control on its line (a
 * jump, an EXIT, a CALL, a RET, or nothing: removed), per bar, shfl, vote
 * and activemask how many SASS BAR, SHFL and VOTE; and where the SASS is
 * not the PTX's shape, so that the counts that follow these facts cannot
 * be exact (sass_facts.h, CURED_MODEL_SASS_INEXACT_*).
 *
 * defines: match_family, match_control
 *
 * Why these facts give ncu's counts. smsp__sass_branch_targets counts the
 * SASS branches a warp executes (BRA, BRX, JMP, JMX, CALL, RET; not EXIT),
 * as divergent when the warp's active lanes went both ways, else uniform.
 * When every such SASS instruction sits on the line of exactly one PTX
 * bra, call or ret, and that PTX instruction has no other, a warp executes
 * the SASS one exactly when it executes the PTX one, with the same lanes:
 * the counters count at the PTX instruction. Anything else (two SASS jumps
 * for one PTX branch: a loop ptxas unrolled or rotated; a SASS jump on a
 * line with no PTX branch; a guarded SASS jump for an unconditional PTX
 * one) breaks that, and the function's branch counts are marked inexact
 * with a note naming the line. BAR, SHFL and VOTE alike.
 */
#include "sass_match_impl.h"

#include <string.h>

/* 1 when the mnemonic's base (before the first '.') is `base`. */
static int base_is(const char *opcode, const char *base)
{
    size_t n = strlen(base);
    return strncmp(opcode, base, n) == 0 && (opcode[n] == '\0' || opcode[n] == '.');
}

match_fam match_family(const sass_instr *si)
{
    const char *op = si->opcode;
    if (si->fallback)
        return FAM_NONE;        /* the diverged warp's copy */
    if (si->kind == SASS_K_CONTROL) {
        if (base_is(op, "BRA") || base_is(op, "BRX") || base_is(op, "BRXU") ||
            base_is(op, "JMP") || base_is(op, "JMX") || base_is(op, "JMXU"))
            return si->self_loop ? FAM_NONE : FAM_JUMP;
        if (base_is(op, "EXIT"))
            return FAM_EXIT;
        if (base_is(op, "CALL"))
            return FAM_CALL;
        if (base_is(op, "RET"))
            return FAM_RET;
        return FAM_NONE;
    }
    if (base_is(op, "BAR"))
        return FAM_BAR;
    if (base_is(op, "SHFL"))
        return FAM_SHFL;
    if (base_is(op, "VOTE"))
        return FAM_VOTE;
    return FAM_NONE;
}

/* The opcode family a PTX instruction's SASS belongs to, FAM_NONE for
 * instructions with none. */
static match_fam ptx_family(const ptx_instr *ins)
{
    switch (ins->op) {
    case PTX_OP_BAR: return FAM_BAR;
    case PTX_OP_SHFL: return FAM_SHFL;
    case PTX_OP_VOTE: case PTX_OP_ACTIVEMASK: return FAM_VOTE;
    default: return FAM_NONE;
    }
}

static int ptx_control(const ptx_instr *ins)
{
    return ins->op == PTX_OP_BRA || ins->op == PTX_OP_BRX || ins->op == PTX_OP_CALL ||
           ins->op == PTX_OP_RET;
}

static const char *family_name(match_fam f)
{
    static const char *const names[] = {"", "jump", "EXIT", "CALL", "RET", "BAR", "SHFL",
                                        "VOTE"};
    return names[f];
}

/* The SASS of group g, counted by family; first[f] is the first of each
 * (its offset and whether it is guarded). */
typedef struct line_sass {
    int n[FAM_VOTE + 1];
    const sass_instr *first[FAM_VOTE + 1];
} line_sass;

static void count_line(const match_state *st, int g, line_sass *ls)
{
    memset(ls, 0, sizeof *ls);
    for (int r = st->group_sass[g]; r >= 0; r = st->refs[r].next) {
        const match_ref *ref = &st->refs[r];
        const sass_instr *si = &st->s->functions[ref->sf].code[ref->si];
        match_fam f = match_family(si);
        if (f == FAM_NONE)
            continue;
        if (ls->n[f]++ == 0)
            ls->first[f] = si;
    }
}

/* Marks the function's counts of `bits` inexact, with a note on pc. */
#define INEXACT(st, bits, pc, ...)                                           \
    do {                                                                     \
        (st)->inexact |= (bits);                                             \
        match_note((st), (pc), __VA_ARGS__);                                 \
    } while (0)

/* The control fact of the group's one PTX bra/call/ret at pc. */
static int control_of(match_state *st, int pc, const line_sass *ls)
{
    const ptx_instr *ins = &st->fn->code[pc];
    int targets = ls->n[FAM_JUMP] + ls->n[FAM_CALL] + ls->n[FAM_RET];
    int all = targets + ls->n[FAM_EXIT];
    if (all == 0)
        return CURED_MODEL_SASS_CTRL_NONE;
    if (all > 1) {
        INEXACT(st, CURED_MODEL_SASS_INEXACT_BRANCHES, pc,
                "%d SASS jumps, calls, returns or exits for one PTX %s (ptxas "
                "unrolled, rotated or split the code here): branch counts "
                "follow the PTX", all, ptx_opcode_name((ptx_opcode)ins->op));
        return targets ? (ls->n[FAM_JUMP] ? CURED_MODEL_SASS_CTRL_JUMP
                          : ls->n[FAM_CALL] ? CURED_MODEL_SASS_CTRL_CALL
                          : CURED_MODEL_SASS_CTRL_RET)
                       : CURED_MODEL_SASS_CTRL_EXIT;
    }
    if (ls->n[FAM_EXIT])
        return CURED_MODEL_SASS_CTRL_EXIT;
    if (ls->n[FAM_CALL])
        return CURED_MODEL_SASS_CTRL_CALL;
    if (ls->n[FAM_RET])
        return CURED_MODEL_SASS_CTRL_RET;
    const sass_instr *j = ls->first[FAM_JUMP];
    int guarded = j->guarded;
    if (ins->op == PTX_OP_BRA && guarded != (ins->guard >= 0))
        INEXACT(st, CURED_MODEL_SASS_INEXACT_BRANCHES, pc,
                "the SASS jump at 0x%04x is %s where the PTX branch is %s (ptxas "
                "moved a branch onto this line): branch counts follow the PTX",
                j->offset, guarded ? "conditional" : "unconditional",
                ins->guard >= 0 ? "conditional" : "unconditional");
    return CURED_MODEL_SASS_CTRL_JUMP;
}

/* Control facts and checks of group g. Returns 0, or -1 out of memory. */
static int control_group(match_state *st, int g, const line_sass *ls)
{
    int first = st->group_first[g], last = st->group_first[g + 1];
    int nctl = 0, pc1 = -1;
    for (int i = first; i < last; i++)
        if (ptx_control(&st->fn->code[st->group_pcs[i]])) {
            nctl++;
            if (pc1 < 0)
                pc1 = st->group_pcs[i];
        }
    int targets = ls->n[FAM_JUMP] + ls->n[FAM_CALL] + ls->n[FAM_RET];
    if (nctl == 1)
        return cured_model_sass_facts_set_control(st->facts, st->function, pc1,
                                                  control_of(st, pc1, ls));
    if (nctl > 1) {          /* source lines: several on one line */
        if (targets + ls->n[FAM_EXIT] == 0) {
            for (int i = first; i < last; i++)
                if (ptx_control(&st->fn->code[st->group_pcs[i]]) &&
                    cured_model_sass_facts_set_control(st->facts, st->function,
                                                       st->group_pcs[i],
                                                       CURED_MODEL_SASS_CTRL_NONE) != 0)
                    return -1;
        } else {
            INEXACT(st, CURED_MODEL_SASS_INEXACT_BRANCHES, pc1,
                    "%d PTX branches and %d SASS jumps on one line: branch counts "
                    "follow the PTX", nctl, targets + ls->n[FAM_EXIT]);
        }
        return 0;
    }
    if (targets > 0) {
        match_fam f = ls->n[FAM_JUMP] ? FAM_JUMP : ls->n[FAM_CALL] ? FAM_CALL : FAM_RET;
        INEXACT(st, CURED_MODEL_SASS_INEXACT_BRANCHES, st->group_pcs[first],
                "SASS %s at 0x%04x on a line with no PTX branch (ptxas made it): "
                "branch counts follow the PTX", family_name(f), ls->first[f]->offset);
    }
    return 0;
}

/* Opcode facts and checks of group g. Returns 0, or -1 out of memory. */
static int opcode_group(match_state *st, int g, const line_sass *ls)
{
    int first = st->group_first[g], last = st->group_first[g + 1];
    for (match_fam f = FAM_BAR; f <= FAM_VOTE; f++) {
        int np = 0, pc1 = -1;
        for (int i = first; i < last; i++)
            if (ptx_family(&st->fn->code[st->group_pcs[i]]) == f) {
                np++;
                if (pc1 < 0)
                    pc1 = st->group_pcs[i];
            }
        int ns = ls->n[f];
        if (np == 0) {
            if (ns > 0)
                INEXACT(st, CURED_MODEL_SASS_INEXACT_OPCODES, st->group_pcs[first],
                        "SASS %s at 0x%04x on a line with no PTX instruction of its "
                        "kind: %s counts follow the PTX", ls->first[f]->opcode,
                        ls->first[f]->offset, family_name(f));
            continue;
        }
        if (np == 1 || ns == np || ns == 0) {
            int each = np == 1 ? ns : ns / np;
            for (int i = first; i < last; i++) {
                int pc = st->group_pcs[i];
                if (ptx_family(&st->fn->code[pc]) == f &&
                    cured_model_sass_facts_set_opcodes(st->facts, st->function, pc,
                                                       each > 127 ? 127 : each) != 0)
                    return -1;
            }
            if (each > 1)
                INEXACT(st, CURED_MODEL_SASS_INEXACT_OPCODES, pc1,
                        "%d SASS %s for one PTX %s (ptxas unrolled or duplicated the "
                        "code here): counted per copy, once per PTX execution", each,
                        family_name(f), ptx_opcode_name((ptx_opcode)st->fn->code[pc1].op));
        } else {
            INEXACT(st, CURED_MODEL_SASS_INEXACT_OPCODES, pc1,
                    "%d PTX and %d SASS %s on one line: %s counts follow the PTX", np,
                    ns, family_name(f), family_name(f));
        }
    }
    return 0;
}

/* The accesses with several SASS copies inside a loop whose back branch
 * ptxas restructured (several SASS jumps for it: unrolled, with a
 * remainder): a warp issues the copies by the SASS loop's trips, not once
 * per PTX trip, and with other lanes together; their counts are not
 * exact. */
static void unrolled_copies(match_state *st)
{
    for (int b = 0; b < st->fn->ncode; b++) {
        const ptx_instr *ins = &st->fn->code[b];
        int g = st->pc_group[b];
        if (ins->op != PTX_OP_BRA || ins->ops[0].kind != PTX_OPND_LABEL || g < 0)
            continue;
        int64_t t = ins->ops[0].imm;
        if (t < 0 || t > b)
            continue;                      /* not a loop's back branch */
        line_sass ls;
        count_line(st, g, &ls);
        if (ls.n[FAM_JUMP] + ls.n[FAM_EXIT] <= 1)
            continue;
        for (int pc = (int)t; pc <= b; pc++)
            if (st->copies[pc])
                INEXACT(st, CURED_MODEL_SASS_INEXACT_MEMORY, pc,
                        "%d SASS copies in the loop ptxas unrolled (PTX line %u): "
                        "counted once per PTX trip", st->copies[pc],
                        st->fn->code[b].ptx_line);
    }
}

int match_control(match_state *st)
{
    for (int g = 0; g < st->ngroups; g++) {
        line_sass ls;
        count_line(st, g, &ls);
        if (control_group(st, g, &ls) != 0 || opcode_group(st, g, &ls) != 0)
            return -1;
    }
    unrolled_copies(st);
    if (st->unfiled > 0)
        INEXACT(st, CURED_MODEL_SASS_INEXACT_BRANCHES | CURED_MODEL_SASS_INEXACT_OPCODES,
                -1, "%d SASS branches, barriers, shuffles or votes (the first at "
                "0x%04x) on no line of the PTX: their counts follow the PTX",
                st->unfiled, st->unfiled_at);
    return 0;
}
