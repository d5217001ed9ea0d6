/* counters_sass.c - the counters and the SASS: which facts table they
 * follow (sass_facts.h: per PTX memory instruction the pieces ptxas made
 * of it, per removed branch its skip list), and the two rules that count
 * predicated SASS (docs/counting.md, "Predicated SASS").
 *
 * defines: cured_model_counters_use_sass, cured_model_counters_sass_label,
 *          counters_issue_idle, counters_issue_skipped
 */
#include "counters_impl.h"

int cured_model_counters_use_sass(cured_model_counters *c, const cured_model_sass_facts *f)
{
    if (f != NULL && cured_model_sass_facts_module(f) != c->module)
        return -1;
    c->sass = f;
    return 0;
}

const char *cured_model_counters_sass_label(const cured_model_counters *c)
{
    return c->sass ? cured_model_sass_facts_label(c->sass) : NULL;
}

// ----------------------------------------------------------------------------
// The rules

/* The op_* instruction counter a SASS piece of `ins` feeds, or -1 (a
 * generic SASS access: its space is not known without lanes). */
static int issue_counter(const ptx_instr *ins, const cured_model_sass_fact *f)
{
    int load = ins->op == PTX_OP_LD || ins->op == PTX_OP_LDU;
    int store = ins->op == PTX_OP_ST;
    int atomic = ins->op == PTX_OP_ATOM || ins->op == PTX_OP_RED;
    switch (f->space) {
    case PTX_S_SHARED:
        return load ? CURED_MODEL_CTR_SHARED_LD : store ? CURED_MODEL_CTR_SHARED_ST
             : atomic ? CURED_MODEL_CTR_SHARED_ATOM : -1;
    case PTX_S_GLOBAL:
        if (atomic)
            return f->reduction || ins->op == PTX_OP_RED ? CURED_MODEL_CTR_GLOBAL_RED
                                                         : CURED_MODEL_CTR_GLOBAL_ATOM;
        return load ? CURED_MODEL_CTR_GLOBAL_LD : store ? CURED_MODEL_CTR_GLOBAL_ST : -1;
    case PTX_S_LOCAL:
        return load ? CURED_MODEL_CTR_LOCAL_LD : store ? CURED_MODEL_CTR_LOCAL_ST : -1;
    default:
        return -1;
    }
}

/* Counts one issue, with no lane accessing memory, of the predicated SASS
 * of the memory instruction at (function, pc). */
static void count_issue(cured_model_counters *c, int function, int pc)
{
    const cured_model_sass_fact *f = cured_model_sass_facts_at(c->sass, function, pc);
    if (f == NULL || !f->predicated || f->npieces == 0)
        return;
    int id = issue_counter(&c->module->functions[function].code[pc], f);
    if (id >= 0)
        counters_add(c, counters_row(c, function, pc), (cured_model_counter)id,
                     f->npieces);
}

void counters_issue_idle(cured_model_counters *c, const cured_model_event *e)
{
    count_issue(c, e->function, e->pc);
}

void counters_issue_skipped(cured_model_counters *c, const cured_model_event *e)
{
    const int32_t *pcs;
    int n = cured_model_sass_facts_skips(c->sass, e->function, e->pc, &pcs);
    for (int i = 0; i < n; i++)
        count_issue(c, e->function, pcs[i]);
}
