/* step_view_taint.c - the seed view's per-thread register state: whether
 * each register holds pure input (the step view's rule 1, docs/counting.md)
 * and which shared load its value came from (rule 3), per function of the
 * module.
 *
 * defines: step_taint_of, step_taint_reset, step_operand_regs,
 *          step_sources_pure, step_set_dsts, step_space_pure,
 *          step_value_operands
 */
#include "step_view_impl.h"

#include <stdlib.h>
#include <string.h>

taint_file *step_taint_of(cured_model_step_view *v, int function)
{
    if (function < 0 || function >= v->module->nfunctions)
        return NULL;
    taint_file *t = &v->taint[function];
    size_t nregs = (size_t)v->module->functions[function].nregs;
    if (t->pure == NULL || t->threads < v->nthreads) {
        size_t n = (size_t)v->nthreads * nregs + 1;
        uint8_t *pure = realloc(t->pure, n);
        uint64_t *origin = realloc(t->origin, n * sizeof *origin);
        if (pure == NULL || origin == NULL) {
            t->pure = pure ? pure : t->pure;
            t->origin = origin ? origin : t->origin;
            v->incomplete = 1;
            return NULL;
        }
        t->pure = pure;
        t->origin = origin;
        t->threads = v->nthreads;
        memset(t->pure, 1, n);
        memset(t->origin, 0, n * sizeof *origin);
    }
    return t;
}

void step_taint_reset(cured_model_step_view *v)
{
    for (int f = 0; f < v->module->nfunctions; f++) {
        taint_file *t = &v->taint[f];
        if (t->pure == NULL)
            continue;
        size_t n = (size_t)t->threads * (size_t)v->module->functions[f].nregs + 1;
        memset(t->pure, 1, n);
        memset(t->origin, 0, n * sizeof *t->origin);
    }
}

int step_operand_regs(const ptx_operand *op, int32_t slots[5])
{
    int n = 0;
    switch (op->kind) {
    case PTX_OPND_REG:
    case PTX_OPND_ADDR:
        if (op->reg >= 0)
            slots[n++] = op->reg;
        break;
    case PTX_OPND_VEC:
        for (int i = 0; i < op->vec_count && i < 4; i++)
            if (op->vec[i] >= 0 && !(op->vec_imm_mask & (1u << i)))
                slots[n++] = op->vec[i];
        break;
    default:
        break;
    }
    return n;
}

int step_sources_pure(const taint_file *t, int nregs, uint32_t thread,
                      const ptx_instr *ins, int from, int to, uint64_t *origin)
{
    int pure = 1;
    *origin = 0;
    for (int k = from; k < to && k < PTX_MAX_OPERANDS; k++) {
        int32_t slots[5];
        int n = step_operand_regs(&ins->ops[k], slots);
        for (int i = 0; i < n; i++) {
            if (slots[i] >= nregs)
                continue;
            size_t at = (size_t)thread * (size_t)nregs + (size_t)slots[i];
            pure &= t->pure[at];
            if (to - from == 1 && ins->ops[k].kind == PTX_OPND_REG)
                *origin = t->origin[at];
        }
    }
    return pure;
}

void step_set_dsts(taint_file *t, int nregs, uint32_t thread,
                   const ptx_instr *ins, int pure, uint64_t origin)
{
    for (int k = 0; k < ins->ndst && k < PTX_MAX_OPERANDS; k++) {
        int32_t slots[5];
        int n = step_operand_regs(&ins->ops[k], slots);
        for (int i = 0; i < n; i++) {
            if (slots[i] >= nregs)
                continue;
            size_t at = (size_t)thread * (size_t)nregs + (size_t)slots[i];
            t->pure[at] = (uint8_t)pure;
            t->origin[at] = origin;
        }
    }
}

int step_space_pure(int space, int is_entry)
{
    return space == PTX_S_GLOBAL || space == PTX_S_CONST ||
           (space == PTX_S_PARAM && is_entry);
}

void step_value_operands(const ptx_instr *ins, int *from, int *to)
{
    if (ins->op == PTX_OP_ST || ins->op == PTX_OP_RED)
        *from = 1;          /* st [a], v   red [a], v */
    else
        *from = ins->ndst + 1; /* atom d, [a], b (, c) */
    *to = ins->nops;
}
