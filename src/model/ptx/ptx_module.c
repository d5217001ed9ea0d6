/* ptx_module.c - building and freeing a cured_model_module.
 *
 * defines: cured_model_module_free, cured_model_find_function,
 *          cured_model_function_unusable (public, cured_model.h);
 *          ptx_current, ptx_add_symbol, ptx_add_register, ptx_bind,
 *          ptx_add_instr, ptx_add_call_param, ptx_add_fixup (internal)
 *
 * Everything a module owns is freed here, including a module left half
 * built by a parse that failed: counts always cover only initialised
 * entries.
 */
#include "ptx_parser.h"
#include "ptx_util.h"

#include <stdlib.h>
#include <string.h>

void cured_model_module_free(cured_model_module *m)
{
    if (m == NULL)
        return;
    for (int f = 0; f < m->nfunctions; f++) {
        ptx_function *fn = &m->functions[f];
        free(fn->name);
        free(fn->params);
        free(fn->rets);
        for (int r = 0; r < fn->nregs; r++)
            free(fn->regs[r].name);
        free(fn->regs);
        free(fn->code);
        free(fn->call_params);
        free(fn->unusable);
    }
    free(m->functions);
    for (int s = 0; s < m->nsymbols; s++) {
        free(m->symbols[s].name);
        free(m->symbols[s].init);
    }
    free(m->symbols);
    for (int i = 0; i < m->nfiles; i++)
        free(m->files[i]);
    free(m->files);
    free(m->target);
    free(m);
}

int cured_model_find_function(const cured_model_module *m, const char *name)
{
    if (m == NULL || name == NULL)
        return -1;
    for (int f = 0; f < m->nfunctions; f++)
        if (strcmp(m->functions[f].name, name) == 0)
            return f;
    return -1;
}

const char *cured_model_function_unusable(const cured_model_module *m, int function,
                                          uint32_t *ptx_line, const char **source_file,
                                          uint32_t *source_line)
{
    const ptx_function *fn = m != NULL && function >= 0 && function < m->nfunctions
                           ? &m->functions[function] : NULL;
    const char *why = fn ? fn->unusable : NULL;
    const char *file = why && fn->unusable_line
                     ? ptx_source_file_name(m, fn->unusable_file) : NULL;
    if (ptx_line != NULL)
        *ptx_line = why ? fn->unusable_ptx_line : 0;
    if (source_file != NULL)
        *source_file = file;
    if (source_line != NULL)
        *source_line = file ? fn->unusable_line : 0;
    return why;
}

ptx_function *ptx_current(ptx_parser *p)
{
    return &p->m->functions[p->fn];
}

int ptx_bind(ptx_parser *p, const ptx_token *at, const char *name,
             size_t len, uint8_t kind, int32_t index)
{
    int rc = ptx_scope_bind(&p->names, name, len, kind, index);
    if (rc < 0)
        return ptx_fail(p, at, "out of memory");
    if (rc > 0)
        return ptx_fail(p, at, "duplicate declaration of '%.*s'",
                        len > 60 ? 60 : (int)len, name);
    return 0;
}

int ptx_add_symbol(ptx_parser *p, const ptx_token *at, const char *name,
                   size_t len, const ptx_symbol *proto, int32_t *index)
{
    cured_model_module *m = p->m;
    if (m->nsymbols >= INT32_MAX - 1 ||
        cured_grow((void **)&m->symbols, &p->symbols_cap, (size_t)m->nsymbols + 1,
                 sizeof *m->symbols) != 0)
        return ptx_fail(p, at, "out of memory");
    char *copy = ptx_strndup(name, len);
    if (copy == NULL)
        return ptx_fail(p, at, "out of memory");
    ptx_symbol *s = &m->symbols[m->nsymbols];
    *s = *proto;
    s->name = copy;
    s->init = NULL;
    *index = m->nsymbols++;
    return 0;
}

int ptx_add_register(ptx_parser *p, const ptx_token *at, char *name,
                     size_t len, ptx_type type)
{
    ptx_function *fn = ptx_current(p);
    if (fn->nregs >= PTX_MAX_REGISTERS ||
        p->module_registers >= PTX_MAX_MODULE_REGISTERS) {
        free(name);
        return ptx_fail(p, at, "more than %d registers in one function or %d in "
                        "the module", PTX_MAX_REGISTERS, PTX_MAX_MODULE_REGISTERS);
    }
    p->module_registers++;
    if (cured_grow((void **)&fn->regs, &p->regs_cap, (size_t)fn->nregs + 1,
                 sizeof *fn->regs) != 0) {
        free(name);
        return ptx_fail(p, at, "out of memory");
    }
    fn->regs[fn->nregs].name = name;
    fn->regs[fn->nregs].type = (uint8_t)type;
    int32_t slot = fn->nregs++;
    return ptx_bind(p, at, name, len, PTX_BIND_REG, slot);
}

int ptx_add_instr(ptx_parser *p, const ptx_token *at, ptx_instr **out)
{
    ptx_function *fn = ptx_current(p);
    if (fn->ncode >= INT32_MAX - 1 ||
        cured_grow((void **)&fn->code, &p->code_cap, (size_t)fn->ncode + 1,
                 sizeof *fn->code) != 0)
        return ptx_fail(p, at, "out of memory");
    ptx_instr *ins = &fn->code[fn->ncode++];
    memset(ins, 0, sizeof *ins);
    ins->guard = -1;
    ins->callee = -1;
    ins->call_args = -1;
    ins->vec = 1;
    for (int i = 0; i < PTX_MAX_OPERANDS; i++) {
        ins->ops[i].reg = -1;
        ins->ops[i].sym = -1;
        for (int k = 0; k < 4; k++)
            ins->ops[i].vec[k] = -1;
    }
    ins->ptx_line = at->line;
    ins->src_file = p->loc_file;
    ins->src_line = p->loc_line;
    ins->site_file = p->site_file;
    ins->site_line = p->site_line;
    /* the frame, until ptx_resolve_user_lines turns it into a line */
    ins->user_line = (uint32_t)(p->loc_frame + 1);
    *out = ins;
    return 0;
}

int ptx_add_call_param(ptx_parser *p, const ptx_token *at, int32_t symbol)
{
    ptx_function *fn = ptx_current(p);
    if (fn->ncall_params >= INT32_MAX - 1 ||
        cured_grow((void **)&fn->call_params, &p->call_params_cap,
                 (size_t)fn->ncall_params + 1, sizeof *fn->call_params) != 0)
        return ptx_fail(p, at, "out of memory");
    fn->call_params[fn->ncall_params++] = symbol;
    return 0;
}

int ptx_add_fixup(ptx_parser *p, const ptx_token *at, ptx_fixup **list,
                  size_t *count, size_t *cap, const ptx_fixup *fixup)
{
    if (cured_grow((void **)list, cap, *count + 1, sizeof **list) != 0)
        return ptx_fail(p, at, "out of memory");
    (*list)[(*count)++] = *fixup;
    return 0;
}
