/* counters_sass.c - what the counters know of the SASS: per PTX memory
 * instruction the pieces ptxas made of it, per removed branch its skip
 * list, and the two rules that count predicated SASS (counters.h).
 *
 * defines: cured_model_counters_set_sass, cured_model_counters_sass,
 *          cured_model_counters_set_sass_skips, cured_model_counters_sass_skips,
 *          cured_model_counters_set_sass_width, cured_model_counters_sass_width,
 *          cured_model_counters_set_sass_label, cured_model_counters_sass_label,
 *          counters_fact, counters_sass_free, counters_issue_idle,
 *          counters_issue_skipped
 */
#include "counters_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1 when function/pc name an instruction of the module. */
static int valid_pc(const cured_model_counters *c, int function, int pc)
{
    return function >= 0 && function < c->module->nfunctions && pc >= 0 &&
           pc < c->module->functions[function].ncode;
}

const cured_model_sass_fact *counters_fact(const cured_model_counters *c, int function,
                                     int pc)
{
    const counters_rows *r = &c->rows[function];
    if (r->sass == NULL || !r->has_fact[pc])
        return NULL;
    return &r->sass[pc];
}

void counters_sass_free(cured_model_counters *c, int f)
{
    counters_rows *r = &c->rows[f];
    free(r->sass);
    free(r->has_fact);
    if (r->skips != NULL)
        for (int pc = 0; pc < c->module->functions[f].ncode; pc++)
            free(r->skips[pc]);
    free(r->skips);
    r->sass = NULL;
    r->has_fact = NULL;
    r->skips = NULL;
}

// ----------------------------------------------------------------------------
// Facts

int cured_model_counters_set_sass(cured_model_counters *c, int function, int pc,
                            const cured_model_sass_fact *fact)
{
    if (!valid_pc(c, function, pc))
        return -1;
    counters_rows *r = &c->rows[function];
    if (fact == NULL) {
        if (r->has_fact != NULL)
            r->has_fact[pc] = 0;
        return 0;
    }
    if (fact->npieces > CURED_MODEL_SASS_MAX_PIECES)
        return -1;
    for (int k = 0; k < fact->npieces; k++)
        if (fact->width[k] == 0 || fact->width[k] > 32)
            return -1;
    if (r->sass == NULL) {
        size_t n = (size_t)c->module->functions[function].ncode;
        r->sass = calloc(n, sizeof *r->sass);
        r->has_fact = calloc(n, 1);
        if (r->sass == NULL || r->has_fact == NULL) {
            free(r->sass);
            free(r->has_fact);
            r->sass = NULL;
            r->has_fact = NULL;
            return -1;
        }
    }
    r->sass[pc] = *fact;
    r->has_fact[pc] = 1;
    return 0;
}

const cured_model_sass_fact *cured_model_counters_sass(const cured_model_counters *c,
                                           int function, int pc)
{
    if (!valid_pc(c, function, pc))
        return NULL;
    return counters_fact(c, function, pc);
}

/* Bytes per lane of a PTX instruction's access (its type times vector). */
static unsigned access_size(const ptx_instr *ins)
{
    unsigned es = ins->type == PTX_T_PRED ? 1 : ptx_type_size((ptx_type)ins->type);
    return es * (ins->vec > 1 ? ins->vec : 1);
}

int cured_model_counters_set_sass_width(cured_model_counters *c, int function, int pc,
                                  int width)
{
    if (!valid_pc(c, function, pc) || width < CURED_MODEL_SASS_WIDTH_PTX || width > 32)
        return -1;
    if (width == CURED_MODEL_SASS_WIDTH_PTX)
        return cured_model_counters_set_sass(c, function, pc, NULL);
    const ptx_instr *ins = &c->module->functions[function].code[pc];
    unsigned size = access_size(ins);
    cured_model_sass_fact f;
    memset(&f, 0, sizeof f);
    f.space = ins->space;
    if (width > 0) {
        unsigned w = (unsigned)width;
        unsigned n = size > w ? (size + w - 1) / w : 1;
        if (n > CURED_MODEL_SASS_MAX_PIECES)
            return -1;
        for (unsigned k = 0; k < n; k++) {
            f.offset[k] = (int16_t)(k * w);
            f.width[k] = (uint8_t)w;
        }
        f.npieces = (uint8_t)n;
    }
    return cured_model_counters_set_sass(c, function, pc, &f);
}

int cured_model_counters_sass_width(const cured_model_counters *c, int function, int pc)
{
    const cured_model_sass_fact *f = cured_model_counters_sass(c, function, pc);
    if (f == NULL)
        return CURED_MODEL_SASS_WIDTH_PTX;
    return f->npieces ? f->width[0] : 0;
}

void cured_model_counters_set_sass_label(cured_model_counters *c, const char *label)
{
    snprintf(c->sass_label, sizeof c->sass_label, "%s", label ? label : "");
}

const char *cured_model_counters_sass_label(const cured_model_counters *c)
{
    return c->sass_label[0] ? c->sass_label : NULL;
}

// ----------------------------------------------------------------------------
// Skip lists

int cured_model_counters_set_sass_skips(cured_model_counters *c, int function, int pc,
                                  const int32_t *pcs, int n)
{
    if (!valid_pc(c, function, pc) || n < 0 || (n > 0 && pcs == NULL))
        return -1;
    for (int i = 0; i < n; i++)
        if (!valid_pc(c, function, pcs[i]))
            return -1;
    counters_rows *r = &c->rows[function];
    if (r->skips == NULL) {
        if (n == 0)
            return 0;
        r->skips = calloc((size_t)c->module->functions[function].ncode,
                          sizeof *r->skips);
        if (r->skips == NULL)
            return -1;
    }
    int32_t *list = NULL;
    if (n > 0) {
        list = malloc((size_t)(n + 1) * sizeof *list);
        if (list == NULL)
            return -1;
        list[0] = n;
        memcpy(list + 1, pcs, (size_t)n * sizeof *list);
    }
    free(r->skips[pc]);
    r->skips[pc] = list;
    return 0;
}

int cured_model_counters_sass_skips(const cured_model_counters *c, int function, int pc,
                              const int32_t **pcs)
{
    *pcs = NULL;
    if (!valid_pc(c, function, pc))
        return 0;
    const counters_rows *r = &c->rows[function];
    if (r->skips == NULL || r->skips[pc] == NULL)
        return 0;
    *pcs = r->skips[pc] + 1;
    return r->skips[pc][0];
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
    const cured_model_sass_fact *f = counters_fact(c, function, pc);
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
    int n = cured_model_counters_sass_skips(c, e->function, e->pc, &pcs);
    for (int i = 0; i < n; i++)
        count_issue(c, e->function, pcs[i]);
}
