/* sass_facts.c - the facts table: per function of a module, the fact of
 * each PTX memory instruction and the skip list of each removed branch,
 * and the label of where the SASS came from (sass_facts.h reads it,
 * sass_match.h fills it).
 *
 * defines: struct cured_model_sass_facts, cured_model_sass_facts_new,
 *          cured_model_sass_facts_free, cured_model_sass_facts_set,
 *          cured_model_sass_facts_set_skips, cured_model_sass_facts_set_width,
 *          cured_model_sass_facts_clear, cured_model_sass_facts_at,
 *          cured_model_sass_facts_skips, cured_model_sass_facts_width,
 *          cured_model_sass_facts_set_control, cured_model_sass_facts_control,
 *          cured_model_sass_facts_set_opcodes, cured_model_sass_facts_opcodes,
 *          cured_model_sass_facts_set_inexact, cured_model_sass_facts_inexact,
 *          cured_model_sass_facts_label, cured_model_sass_facts_module
 *
 * A function's arrays are allocated when its first fact or skip list is
 * set, so a table for a module of many kernels costs little for those
 * the SASS does not cover.
 */
#include "sass_match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One function's facts. */
typedef struct facts_function {
    cured_model_sass_fact *fact;    /* ncode facts, NULL when none was set */
    uint8_t *has_fact;              /* ncode flags: fact[pc] is set */
    int32_t **skips;                /* ncode skip lists, each [0] = its length;
                                       NULL when none was set */
    int8_t *control;                /* ncode CURED_MODEL_SASS_CTRL_*, -1 unknown;
                                       NULL when none was set */
    int8_t *opcodes;                /* ncode SASS BAR/SHFL/VOTE twins, -1
                                       unknown; NULL when none was set */
    unsigned inexact;               /* CURED_MODEL_SASS_INEXACT_* */
} facts_function;

struct cured_model_sass_facts {
    const cured_model_module *module;
    facts_function *functions;      /* module->nfunctions */
    char label[201];                /* "" when none */
};

/* 1 when function/pc name an instruction of the module. */
static int valid_pc(const cured_model_sass_facts *f, int function, int pc)
{
    return function >= 0 && function < f->module->nfunctions && pc >= 0 &&
           pc < f->module->functions[function].ncode;
}

// ----------------------------------------------------------------------------
// The table

cured_model_sass_facts *cured_model_sass_facts_new(const cured_model_module *module,
                                                   const char *label)
{
    if (module == NULL)
        return NULL;
    cured_model_sass_facts *f = calloc(1, sizeof *f);
    if (f == NULL)
        return NULL;
    f->module = module;
    f->functions = calloc((size_t)(module->nfunctions ? module->nfunctions : 1),
                          sizeof *f->functions);
    if (f->functions == NULL) {
        free(f);
        return NULL;
    }
    snprintf(f->label, sizeof f->label, "%s", label ? label : "");
    return f;
}

int cured_model_sass_facts_clear(cured_model_sass_facts *f, int function)
{
    if (function < 0 || function >= f->module->nfunctions)
        return -1;
    facts_function *r = &f->functions[function];
    free(r->fact);
    free(r->has_fact);
    if (r->skips != NULL)
        for (int pc = 0; pc < f->module->functions[function].ncode; pc++)
            free(r->skips[pc]);
    free(r->skips);
    free(r->control);
    free(r->opcodes);
    memset(r, 0, sizeof *r);
    return 0;
}

void cured_model_sass_facts_free(cured_model_sass_facts *f)
{
    if (f == NULL)
        return;
    for (int fn = 0; fn < f->module->nfunctions; fn++)
        cured_model_sass_facts_clear(f, fn);
    free(f->functions);
    free(f);
}

// ----------------------------------------------------------------------------
// Facts

int cured_model_sass_facts_set(cured_model_sass_facts *f, int function, int pc,
                               const cured_model_sass_fact *fact)
{
    if (!valid_pc(f, function, pc))
        return -1;
    facts_function *r = &f->functions[function];
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
    if (r->fact == NULL) {
        size_t n = (size_t)f->module->functions[function].ncode;
        r->fact = calloc(n, sizeof *r->fact);
        r->has_fact = calloc(n, 1);
        if (r->fact == NULL || r->has_fact == NULL) {
            free(r->fact);
            free(r->has_fact);
            r->fact = NULL;
            r->has_fact = NULL;
            return -1;
        }
    }
    r->fact[pc] = *fact;
    r->has_fact[pc] = 1;
    return 0;
}

const cured_model_sass_fact *cured_model_sass_facts_at(const cured_model_sass_facts *f,
                                                       int function, int pc)
{
    if (!valid_pc(f, function, pc))
        return NULL;
    const facts_function *r = &f->functions[function];
    if (r->fact == NULL || !r->has_fact[pc])
        return NULL;
    return &r->fact[pc];
}

int cured_model_sass_facts_set_width(cured_model_sass_facts *f, int function, int pc,
                                     int width)
{
    if (!valid_pc(f, function, pc) || width < CURED_MODEL_SASS_WIDTH_PTX || width > 32)
        return -1;
    if (width == CURED_MODEL_SASS_WIDTH_PTX)
        return cured_model_sass_facts_set(f, function, pc, NULL);
    const ptx_instr *ins = &f->module->functions[function].code[pc];
    unsigned size = ptx_access_size(ins);
    cured_model_sass_fact fact;
    memset(&fact, 0, sizeof fact);
    fact.space = ins->space;
    if (width > 0) {
        unsigned w = (unsigned)width;
        unsigned n = size > w ? (size + w - 1) / w : 1;
        if (n > CURED_MODEL_SASS_MAX_PIECES)
            return -1;
        for (unsigned k = 0; k < n; k++) {
            fact.offset[k] = (int16_t)(k * w);
            fact.width[k] = (uint8_t)w;
        }
        fact.npieces = (uint8_t)n;
    }
    return cured_model_sass_facts_set(f, function, pc, &fact);
}

int cured_model_sass_facts_width(const cured_model_sass_facts *f, int function, int pc)
{
    const cured_model_sass_fact *fact = cured_model_sass_facts_at(f, function, pc);
    if (fact == NULL)
        return CURED_MODEL_SASS_WIDTH_PTX;
    return fact->npieces ? fact->width[0] : 0;
}

// ----------------------------------------------------------------------------
// Skip lists

int cured_model_sass_facts_set_skips(cured_model_sass_facts *f, int function, int pc,
                                     const int32_t *pcs, int n)
{
    if (!valid_pc(f, function, pc) || n < 0 || (n > 0 && pcs == NULL))
        return -1;
    for (int i = 0; i < n; i++)
        if (!valid_pc(f, function, pcs[i]))
            return -1;
    facts_function *r = &f->functions[function];
    if (r->skips == NULL) {
        if (n == 0)
            return 0;
        r->skips = calloc((size_t)f->module->functions[function].ncode, sizeof *r->skips);
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

int cured_model_sass_facts_skips(const cured_model_sass_facts *f, int function, int pc,
                                 const int32_t **pcs)
{
    *pcs = NULL;
    if (!valid_pc(f, function, pc))
        return 0;
    const facts_function *r = &f->functions[function];
    if (r->skips == NULL || r->skips[pc] == NULL)
        return 0;
    *pcs = r->skips[pc] + 1;
    return r->skips[pc][0];
}

// ----------------------------------------------------------------------------
// Control, warp-wide opcodes, exactness

/* Sets (*arr)[pc] = v, allocating the array (filled with -1) first.
 * Returns 0, or -1 out of memory. */
static int set_byte(const cured_model_sass_facts *f, int function, int8_t **arr, int pc,
                    int v)
{
    if (*arr == NULL) {
        size_t n = (size_t)f->module->functions[function].ncode;
        *arr = malloc(n ? n : 1);
        if (*arr == NULL)
            return -1;
        memset(*arr, 0xFF, n ? n : 1);
    }
    (*arr)[pc] = (int8_t)v;
    return 0;
}

int cured_model_sass_facts_set_control(cured_model_sass_facts *f, int function, int pc,
                                       int kind)
{
    if (!valid_pc(f, function, pc) || kind < -1 || kind > CURED_MODEL_SASS_CTRL_RET)
        return -1;
    return set_byte(f, function, &f->functions[function].control, pc, kind);
}

int cured_model_sass_facts_control(const cured_model_sass_facts *f, int function, int pc)
{
    if (!valid_pc(f, function, pc) || f->functions[function].control == NULL)
        return -1;
    return f->functions[function].control[pc];
}

int cured_model_sass_facts_set_opcodes(cured_model_sass_facts *f, int function, int pc,
                                       int n)
{
    if (!valid_pc(f, function, pc) || n < -1 || n > 127)
        return -1;
    return set_byte(f, function, &f->functions[function].opcodes, pc, n);
}

int cured_model_sass_facts_opcodes(const cured_model_sass_facts *f, int function, int pc)
{
    if (!valid_pc(f, function, pc) || f->functions[function].opcodes == NULL)
        return -1;
    return f->functions[function].opcodes[pc];
}

int cured_model_sass_facts_set_inexact(cured_model_sass_facts *f, int function,
                                       unsigned bits)
{
    if (function < 0 || function >= f->module->nfunctions)
        return -1;
    f->functions[function].inexact = bits;
    return 0;
}

unsigned cured_model_sass_facts_inexact(const cured_model_sass_facts *f, int function)
{
    if (function < 0 || function >= f->module->nfunctions)
        return 0;
    return f->functions[function].inexact;
}

// ----------------------------------------------------------------------------
// The rest

const char *cured_model_sass_facts_label(const cured_model_sass_facts *f)
{
    return f->label[0] ? f->label : NULL;
}

const cured_model_module *cured_model_sass_facts_module(const cured_model_sass_facts *f)
{
    return f->module;
}
