/* sass_skip.c - the branches ptxas removed (if-conversion) and what a warp
 * that jumps over one still issues: the skip lists of rule (2), built as
 * docs/counting.md says ("Removed branches and their skip lists").
 *
 * defines: match_skip_lists
 */
#include "sass_match_impl.h"

#include <stdlib.h>

/* 1 for PTX instructions after which control does not fall through. */
static int ptx_jump(const ptx_instr *ins)
{
    return ins->op == PTX_OP_BRA || ins->op == PTX_OP_BRX ||
           ins->op == PTX_OP_CALL || ins->op == PTX_OP_RET ||
           ins->op == PTX_OP_EXIT || ins->op == PTX_OP_TRAP;
}

/* The branch target of a bra, -1 when it has none in the function. */
static int target_of(const match_state *st, const ptx_instr *ins)
{
    if (ins->op != PTX_OP_BRA || ins->ops[0].kind != PTX_OPND_LABEL)
        return -1;
    int64_t t = ins->ops[0].imm;
    return t >= 0 && t <= st->fn->ncode ? (int)t : -1;
}

/* Marks branch targets, and the branches with no SASS jump on their line:
 * with PTX lines, one branch per line; with source lines, all of a line's
 * branches when it has no jump, none when it has as many jumps as
 * branches, and a note in between. */
static void find_removed(match_state *st)
{
    for (int pc = 0; pc < st->fn->ncode; pc++) {
        int t = target_of(st, &st->fn->code[pc]);
        if (t >= 0 && t < st->fn->ncode)
            st->is_target[t] = 1;
    }
    for (int g = 0; g < st->ngroups; g++) {
        int branches = 0;
        for (int i = st->group_first[g]; i < st->group_first[g + 1]; i++)
            branches += st->fn->code[st->group_pcs[i]].op == PTX_OP_BRA;
        if (branches == 0 || st->group_jumps[g] >= branches)
            continue;
        if (st->group_jumps[g] > 0) {
            match_note(st, st->group_pcs[st->group_first[g]], "%d branches and "
                       "%d SASS jumps on one line: taken as kept", branches,
                       st->group_jumps[g]);
            continue;
        }
        for (int i = st->group_first[g]; i < st->group_first[g + 1]; i++) {
            int pc = st->group_pcs[i];
            if (st->fn->code[pc].op == PTX_OP_BRA) {
                st->removed[pc] = 1;
                st->out->removed_branches++;
            }
        }
    }
}

/* The pc whose SASS anchors branch b: the last instruction before b in
 * b's basic block that has SASS on its line, or -1. */
static int anchor_of(const match_state *st, int b)
{
    for (int pc = b - 1; pc >= 0; pc--) {
        if (ptx_jump(&st->fn->code[pc]))
            return -1;
        int g = st->pc_group[pc];
        if (g >= 0 && st->group_sass[g] >= 0)
            return pc;
        if (st->is_target[pc])
            return -1;
    }
    return -1;
}

/* 1 when every SASS twin of pc lies in a straight-line stretch that holds
 * SASS of the anchor's line. */
static int twins_in_anchor(const match_state *st, int pc, int anchor)
{
    int g = st->pc_group[anchor];
    for (int r = st->twins[pc]; r >= 0; r = st->refs[r].next) {
        const match_ref *t = &st->refs[r];
        uint32_t block = st->s->functions[t->sf].code[t->si].block;
        int found = 0;
        for (int a = st->group_sass[g]; a >= 0 && !found; a = st->refs[a].next) {
            const match_ref *x = &st->refs[a];
            found = x->sf == t->sf && st->s->functions[x->sf].code[x->si].block == block;
        }
        if (!found)
            return 0;
    }
    return 1;
}

/* Builds and sets the skip list of the removed forward branch b. Returns
 * 0, or -1 out of memory. */
static int skip_list(match_state *st, int b, int target)
{
    int anchor = anchor_of(st, b);
    int n = 0;
    int32_t *pcs = malloc((size_t)(target - b) * sizeof *pcs);
    if (pcs == NULL)
        return -1;
    for (int pc = b + 1; pc < target; pc++) {
        const ptx_instr *ins = &st->fn->code[pc];
        if (ins->op == PTX_OP_BRA && st->removed[pc])
            continue;                 /* a nested if, converted too */
        if (ptx_jump(ins) || ins->op == PTX_OP_BAR)
            break;
        if (!match_ptx_memory(ins) || st->state[pc] == MATCH_FOLDED)
            continue;
        const cured_model_sass_fact *f = cured_model_sass_facts_at(st->facts, st->function, pc);
        if (st->state[pc] != MATCH_TWINS || f == NULL || !f->predicated)
            break;
        if (anchor < 0 || !twins_in_anchor(st, pc, anchor)) {
            match_note(st, b, "removed branch: its predicated access at PTX "
                       "line %u is not in the SASS stretch it falls into: "
                       "not counted for warps that skip it", ins->ptx_line);
            break;
        }
        pcs[n++] = pc;
    }
    int rc = 0;
    if (n > 0) {
        rc = cured_model_sass_facts_set_skips(st->facts, st->function, b, pcs, n);
        st->out->skip_lists += rc == 0;
    }
    free(pcs);
    return rc;
}

int match_skip_lists(match_state *st)
{
    find_removed(st);
    for (int b = 0; b < st->fn->ncode; b++) {
        int t = target_of(st, &st->fn->code[b]);
        if (st->removed[b] && t > b + 1 && skip_list(st, b, t) != 0)
            return -1;
    }
    return 0;
}
