/* fuzz_ptx.c - libFuzzer target for the PTX parser: any bytes in, a module
 * or an error out, never a crash, a leak or a read past the input (the
 * input is not NUL-terminated). A module that parses must also be
 * self-consistent: every register, symbol, label and callee index in
 * range, so the interpreter can trust it.
 *
 *   built by tests/model/parser/CMakeLists.txt when clang has libFuzzer:
 *   build/tests/model/parser/fuzz_ptx -max_total_time=600 CORPUS_DIR SEED_DIR
 */
#include "ptx.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Aborts (a finding for the fuzzer) unless `ok`. */
static void require(int ok)
{
    if (!ok)
        abort();
}

static void check_operand(const cured_model_module *m, const ptx_function *fn,
                          const ptx_operand *o)
{
    switch (o->kind) {
    case PTX_OPND_REG:
        require(o->reg >= 0 && o->reg < fn->nregs);
        break;
    case PTX_OPND_ADDR:
        require(o->reg >= -1 && o->reg < fn->nregs);
        require(o->sym >= -1 && o->sym < m->nsymbols);
        require(o->reg < 0 || o->sym < 0);
        break;
    case PTX_OPND_SYM:
        require(o->sym >= 0 && o->sym < m->nsymbols);
        break;
    case PTX_OPND_VEC:
        require(o->vec_count >= 1 && o->vec_count <= 4);
        for (int i = 0; i < o->vec_count; i++)
            require(o->vec[i] >= -1 && o->vec[i] < fn->nregs);
        break;
    case PTX_OPND_LABEL:
        require(o->imm >= 0 && o->imm <= fn->ncode);
        break;
    case PTX_OPND_SREG:
        require(o->sreg >= PTX_SREG_TID && o->sreg <= PTX_SREG_GLOBALTIMER_HI);
        require(o->comp <= (o->sreg == PTX_SREG_ENVREG ? 31 : 2));
        break;
    default:
        break;
    }
}

static void check_module(const cured_model_module *m)
{
    for (int s = 0; s < m->nsymbols; s++) {
        const ptx_symbol *sym = &m->symbols[s];
        require(sym->name != NULL && sym->function >= -1 &&
                sym->function < m->nfunctions);
        require(sym->align > 0 && (sym->align & (sym->align - 1)) == 0);
        if (sym->init != NULL && sym->size > 0) {
            volatile uint8_t last = sym->init[sym->size - 1];   /* ASan: in bounds */
            (void)last;
        }
    }
    for (int f = 0; f < m->nfunctions; f++) {
        const ptx_function *fn = &m->functions[f];
        require(fn->name != NULL && strlen(fn->name) > 0);
        for (int i = 0; i < fn->nparams; i++)
            require(fn->params[i] >= 0 && fn->params[i] < m->nsymbols);
        for (int i = 0; i < fn->ncall_params; i++)
            require(fn->call_params[i] >= 0 && fn->call_params[i] < m->nsymbols);
        for (int pc = 0; pc < fn->ncode; pc++) {
            const ptx_instr *ins = &fn->code[pc];
            require(ins->op > PTX_OP_INVALID && ins->op < PTX_OP_COUNT);
            require(ins->nops <= PTX_MAX_OPERANDS && ins->ndst <= ins->nops);
            require(ins->guard >= -1 && ins->guard < fn->nregs);
            require(ins->src_file < m->nfiles || ins->src_file == 0);
            require(ins->site_file < m->nfiles || ins->site_file == 0);
            require(ins->user_file < m->nfiles || ins->user_file == 0);
            for (int o = 0; o < ins->nops; o++)
                check_operand(m, fn, &ins->ops[o]);
            if (ins->op == PTX_OP_CALL) {
                require(ins->callee >= 0 && ins->callee < m->nfunctions);
                require(ins->call_args >= 0 &&
                        ins->call_args + ins->call_nret + ins->call_nargs <=
                            fn->ncall_params);
            }
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse((const char *)data, size, &err);
    if (m != NULL)
        check_module(m);
    else
        require(err.line > 0 || size == 0 || strlen(err.message) > 0);
    cured_model_module_free(m);
    return 0;
}
