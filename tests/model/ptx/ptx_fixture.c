/* ptx_fixture.c - loading and searching .ptx fixtures for the parser tests.
 *
 * defines: fixture_load, fixture_free, fixture_find, fixture_must_find,
 *          fixture_line, fixture_function, fixture_reg, fixture_symbol,
 *          fixture_index
 */
#include "ptx_fixture.h"
#include "test_files.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

int fixture_load(ptx_fixture *fx, const char *name)
{
    memset(fx, 0, sizeof *fx);
    fx->text = test_read_file(PTX_FIXTURE_DIR, name, &fx->len);
    fx->module = cured_model_parse(fx->text, fx->len, &fx->err);
    if (fx->module == NULL) {
        fprintf(stderr, "%s: %s\n", name, fx->err.message);
        return -1;
    }
    return 0;
}

void fixture_free(ptx_fixture *fx)
{
    cured_model_module_free(fx->module);
    free(fx->text);
    memset(fx, 0, sizeof *fx);
}

unsigned fixture_line(const ptx_fixture *fx, const char *snippet)
{
    size_t n = strlen(snippet);
    unsigned line = 1, found = 0;
    size_t start = 0;
    for (size_t i = 0; i <= fx->len; i++) {
        if (i < fx->len && fx->text[i] != '\n')
            continue;
        for (size_t k = start; k + n <= i; k++) {
            if (memcmp(fx->text + k, snippet, n) == 0) {
                if (found)
                    return 0;   /* ambiguous */
                found = line;
                break;
            }
        }
        line++;
        start = i + 1;
    }
    return found;
}

const ptx_instr *fixture_find(const ptx_fixture *fx, const char *snippet,
                              ptx_opcode op, int n, int *function)
{
    unsigned line = fixture_line(fx, snippet);
    if (line == 0 || fx->module == NULL)
        return NULL;
    for (int f = 0; f < fx->module->nfunctions; f++) {
        const ptx_function *fn = &fx->module->functions[f];
        for (int pc = 0; pc < fn->ncode; pc++) {
            const ptx_instr *ins = &fn->code[pc];
            if (ins->ptx_line != line || (op != PTX_OP_INVALID && ins->op != op))
                continue;
            if (n-- > 0)
                continue;
            if (function)
                *function = f;
            return ins;
        }
    }
    return NULL;
}

const ptx_instr *fixture_must_find(const ptx_fixture *fx, const char *snippet,
                                   ptx_opcode op, int n, int *function)
{
    const ptx_instr *ins = fixture_find(fx, snippet, op, n, function);
    if (ins == NULL)
        fprintf(stderr, "no instruction for '%s'\n", snippet);
    assert_non_null(ins);
    return ins;
}

int fixture_index(const ptx_fixture *fx, int function, const ptx_instr *ins)
{
    return (int)(ins - fx->module->functions[function].code);
}

int fixture_function(const ptx_fixture *fx, const char *part)
{
    for (int f = 0; f < fx->module->nfunctions; f++)
        if (strstr(fx->module->functions[f].name, part) != NULL)
            return f;
    return -1;
}

int fixture_reg(const ptx_fixture *fx, int f, const char *name)
{
    const ptx_function *fn = &fx->module->functions[f];
    for (int r = 0; r < fn->nregs; r++)
        if (strcmp(fn->regs[r].name, name) == 0)
            return r;
    return -1;
}

int fixture_symbol(const ptx_fixture *fx, const char *name, int function)
{
    for (int s = 0; s < fx->module->nsymbols; s++) {
        const ptx_symbol *sym = &fx->module->symbols[s];
        if (strcmp(sym->name, name) == 0 &&
            (function == -2 || sym->function == function))
            return s;
    }
    return -1;
}
