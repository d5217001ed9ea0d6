/* test_ptx_calls_memory.c - the parser on nvcc's PTX for device-function
 * calls and memory layout (fixtures/calls_memory.cu): __noinline__ calls
 * with and without return values and struct arguments, the param blocks,
 * .const/.global data with initialisers, static and dynamic shared memory,
 * the local frame, vector loads and stores, a 64-bit loop.
 *
 *   ctest --test-dir build -R test_ptx_calls_memory
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ptx_fixture.h"

static ptx_fixture fx;
static int kernel, add3, store_pair, swap;

static int setup(void **state)
{
    (void)state;
    if (fixture_load(&fx, "calls_memory.ptx") != 0)
        return -1;
    kernel = fixture_function(&fx, "sum_long");
    add3 = fixture_function(&fx, "add3");
    store_pair = fixture_function(&fx, "store_pair");
    swap = fixture_function(&fx, "swap4pair");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fixture_free(&fx);
    return 0;
}

static const ptx_instr *must_find(const char *snippet, ptx_opcode op)
{
    return fixture_must_find(&fx, snippet, op, 0, NULL);
}

/* The n-th instruction with opcode op in function f. */
static const ptx_instr *nth_op(int f, ptx_opcode op, int n)
{
    const ptx_function *fn = &fx.module->functions[f];
    for (int pc = 0; pc < fn->ncode; pc++)
        if (fn->code[pc].op == op && n-- == 0)
            return &fn->code[pc];
    fail_msg("no instruction %d of that opcode", n);
    return NULL;
}

static const ptx_symbol *symbol(int index)
{
    assert_true(index >= 0 && index < fx.module->nsymbols);
    return &fx.module->symbols[index];
}

static void functions_and_param_blocks(void **state)
{
    (void)state;
    const cured_model_module *m = fx.module;
    assert_int_equal(m->nfunctions, 4);
    assert_true(kernel >= 0 && add3 >= 0 && store_pair >= 0 && swap >= 0);
    const ptx_function *k = &m->functions[kernel];
    assert_true(k->is_entry);
    assert_int_equal(k->nparams, 3);
    assert_int_equal(k->param_bytes, 24);

    const ptx_function *a = &m->functions[add3];
    assert_false(a->is_entry);
    assert_false(a->is_visible);
    assert_int_equal(a->nparams, 3);
    assert_int_equal(a->nrets, 1);
    assert_int_equal(a->param_bytes, 12);
    assert_string_equal(symbol(a->rets[0])->name, "func_retval0");
    assert_int_equal(symbol(a->rets[0])->size, 4);
    assert_int_equal(symbol(a->params[2])->offset, 8);

    /* .param .b64 p0, .param .align 4 .b8 p1[8] */
    const ptx_function *sp = &m->functions[store_pair];
    assert_int_equal(sp->nrets, 0);
    assert_int_equal(sp->nparams, 2);
    const ptx_symbol *p1 = symbol(sp->params[1]);
    assert_int_equal(p1->type, PTX_T_B8);
    assert_int_equal(p1->align, 4);
    assert_int_equal(p1->size, 8);
    assert_int_equal(p1->offset, 8);
    assert_int_equal(sp->param_bytes, 16);

    /* .func (.param .align 4 .b8 func_retval0[8]) swap(...) */
    const ptx_function *sw = &m->functions[swap];
    assert_int_equal(sw->nrets, 1);
    assert_int_equal(symbol(sw->rets[0])->size, 8);
    assert_int_equal(symbol(sw->rets[0])->align, 4);
    assert_int_equal(symbol(sw->rets[0])->offset, 0);

    /* st.param to the return value names the function's own retval */
    const ptx_instr *ret = must_find("[func_retval0+0], %f5", PTX_OP_ST);
    assert_int_equal(ret->space, PTX_S_PARAM);
    assert_int_equal(ret->ops[0].sym, a->rets[0]);
}

static void calls_name_their_params(void **state)
{
    (void)state;
    const ptx_function *k = &fx.module->functions[kernel];
    const ptx_instr *c0 = nth_op(kernel, PTX_OP_CALL, 0);
    assert_int_equal(c0->callee, add3);
    assert_true(c0->flags & PTX_F_UNI);
    assert_int_equal(c0->call_nret, 1);
    assert_int_equal(c0->call_nargs, 3);
    assert_int_equal(c0->nops, 0);
    const int32_t *cp = &k->call_params[c0->call_args];
    assert_string_equal(symbol(cp[0])->name, "retval0");
    assert_string_equal(symbol(cp[1])->name, "param0");
    assert_string_equal(symbol(cp[2])->name, "param1");
    assert_string_equal(symbol(cp[3])->name, "param2");
    for (int i = 0; i < 4; i++) {
        assert_int_equal(symbol(cp[i])->space, PTX_S_PARAM);
        assert_int_equal(symbol(cp[i])->function, kernel);
        assert_int_equal(symbol(cp[i])->offset, 0);
    }
    /* the st.param before the call and the ld.param after it use the same
     * block-scope symbols the call names */
    const ptx_instr *st = c0 - 1;
    assert_int_equal(st->op, PTX_OP_ST);
    assert_int_equal(st->ops[0].sym, cp[3]);
    assert_int_equal((c0 + 1)->op, PTX_OP_LD);
    assert_int_equal((c0 + 1)->ops[1].sym, cp[0]);

    const ptx_instr *c1 = nth_op(kernel, PTX_OP_CALL, 1);
    assert_int_equal(c1->callee, swap);
    assert_int_equal(c1->call_nret, 1);
    assert_int_equal(c1->call_nargs, 1);
    cp = &k->call_params[c1->call_args];
    assert_int_equal(symbol(cp[1])->size, 8);
    assert_int_equal(symbol(cp[1])->align, 4);
    /* a second `param0`, in its own block: a different symbol */
    assert_int_not_equal(cp[1], k->call_params[c0->call_args + 1]);

    const ptx_instr *c2 = nth_op(kernel, PTX_OP_CALL, 2);
    assert_int_equal(c2->callee, store_pair);
    assert_int_equal(c2->call_nret, 0);
    assert_int_equal(c2->call_nargs, 2);
    assert_int_equal(c2->call_args, c1->call_args + 2);
    assert_int_equal(k->ncall_params, 4 + 2 + 2);
}

static void global_and_const_data_image(void **state)
{
    (void)state;
    const cured_model_module *m = fx.module;
    const ptx_symbol *w = symbol(fixture_symbol(&fx, "weights", -1));
    assert_int_equal(w->space, PTX_S_CONST);
    assert_int_equal(w->size, 16);
    assert_int_equal(w->offset, 0);
    float f[4];
    assert_non_null(w->init);
    memcpy(f, w->init, sizeof f);
    assert_true(f[0] == 0.5f && f[1] == 1.0f && f[2] == -2.0f && f[3] == 8.0f);

    const ptx_symbol *o = symbol(fixture_symbol(&fx, "offsets", -1));
    assert_int_equal(o->offset, 16);
    assert_int_equal(o->size, 12);
    int32_t ints[3];
    memcpy(ints, o->init, sizeof ints);   /* 9 bytes given, the rest zero */
    assert_int_equal(ints[0], 1);
    assert_int_equal(ints[1], -1);
    assert_int_equal(ints[2], 16);

    const ptx_symbol *t = symbol(fixture_symbol(&fx, "total", -1));
    assert_int_equal(t->space, PTX_S_GLOBAL);
    assert_int_equal(t->type, PTX_T_U64);
    assert_int_equal(t->offset, 32);
    uint64_t total;
    memcpy(&total, t->init, sizeof total);
    assert_int_equal(total, 5);

    const ptx_symbol *s = symbol(fixture_symbol(&fx, "scale", -1));
    assert_int_equal(s->offset, 40);
    assert_int_equal(s->align, 8);
    double d[2];
    memcpy(d, s->init, sizeof d);
    assert_true(d[0] == 1.5 && d[1] == -0.25);
    assert_int_equal(m->global_bytes, 56);

    const ptx_instr *ld = must_find("[weights+4]", PTX_OP_LD);
    assert_int_equal(ld->space, PTX_S_CONST);
    assert_int_equal(ld->ops[1].sym, fixture_symbol(&fx, "weights", -1));
    assert_int_equal(ld->ops[1].imm, 4);
}

static void shared_and_local_layout(void **state)
{
    (void)state;
    const cured_model_module *m = fx.module;
    const ptx_function *k = &m->functions[kernel];
    const ptx_symbol *tile = symbol(fixture_symbol(&fx, "_ZZ8sum_longPK6float4PfyE4tile",
                                                   kernel));
    assert_int_equal(tile->space, PTX_S_SHARED);
    assert_int_equal(tile->offset, 0);
    assert_int_equal(tile->size, 512);
    const ptx_symbol *dyn = symbol(fixture_symbol(&fx, "dynamic_smem", -1));
    assert_true(dyn->is_extern);
    assert_int_equal(dyn->size, 0);
    assert_int_equal(dyn->align, 16);
    assert_int_equal(dyn->offset, 512);
    assert_int_equal(m->shared_extern_align, 16);
    assert_int_equal(k->shared_static_bytes, 512);
    assert_int_equal(m->functions[add3].shared_static_bytes, 0);

    const ptx_symbol *depot = symbol(fixture_symbol(&fx, "__local_depot3", kernel));
    assert_int_equal(depot->space, PTX_S_LOCAL);
    assert_int_equal(depot->offset, 0);
    assert_int_equal(depot->size, 64);
    assert_int_equal(k->local_bytes, 64);
    const ptx_instr *mov = must_find("%SPL, __local_depot3", PTX_OP_MOV);
    assert_int_equal(mov->ops[1].kind, PTX_OPND_SYM);
    assert_int_equal(mov->ops[1].sym, fixture_symbol(&fx, "__local_depot3", kernel));
}

static void vector_memory_operands(void **state)
{
    (void)state;
    int f;
    const ptx_instr *ld = fixture_find(&fx, "ld.global.nc.v4.f32", PTX_OP_LD, 0, &f);
    assert_non_null(ld);
    assert_int_equal(ld->space, PTX_S_GLOBAL);
    assert_int_equal(ld->flags, PTX_F_NC);
    assert_int_equal(ld->vec, 4);
    assert_int_equal(ld->type, PTX_T_F32);
    assert_int_equal(ld->ops[0].kind, PTX_OPND_VEC);
    assert_int_equal(ld->ops[0].vec_count, 4);
    assert_int_equal(ld->ops[0].vec[0], fixture_reg(&fx, f, "%f13"));
    assert_int_equal(ld->ops[0].vec[3], fixture_reg(&fx, f, "%f16"));
    assert_int_equal(ld->ops[1].reg, fixture_reg(&fx, f, "%rd12"));
    /* __ldg inlined from sm_32_intrinsics.hpp at calls_memory.cu:28 */
    assert_int_equal(ld->src_file, 2);
    assert_int_equal(ld->src_line, 137);
    assert_int_equal(ld->site_file, 1);
    assert_int_equal(ld->site_line, 28);

    const ptx_instr *st = must_find("st.local.v4.f32 \t[%rd15+16]", PTX_OP_ST);
    assert_int_equal(st->space, PTX_S_LOCAL);
    assert_int_equal(st->vec, 4);
    assert_int_equal(st->ops[0].imm, 16);
    assert_int_equal(st->ops[1].kind, PTX_OPND_VEC);
    assert_int_equal(st->ops[1].vec_imm_mask, 0);
    const ptx_instr *sg = must_find("st.global.v4.f32", PTX_OP_ST);
    assert_int_equal(sg->ops[1].vec[1], fixture_reg(&fx, f, "%f61"));
}

static void loop_branches_and_lines(void **state)
{
    (void)state;
    int f;
    const ptx_instr *back = fixture_find(&fx, "@%p2 bra", PTX_OP_BRA, 0, &f);
    assert_non_null(back);
    const ptx_instr *head = must_find("shl.b64 \t%rd13, %rd30, 4", PTX_OP_SHL);
    assert_int_equal(back->ops[0].imm, fixture_index(&fx, f, head));
    assert_true(back->ops[0].imm < fixture_index(&fx, f, back));
    assert_int_equal(head->src_line, 28);
    assert_int_equal(head->site_line, 28);
    const ptx_instr *cmp = back - 1;
    assert_int_equal(cmp->op, PTX_OP_SETP);
    assert_int_equal(cmp->cmp, PTX_CMP_LT);
    assert_int_equal(cmp->type2, PTX_T_U64);
    /* `.loc 1 0 10`: compiler-made code without a line */
    const ptx_instr *zero = must_find("ld.const.f32 \t%f1, [weights]", PTX_OP_LD);
    assert_int_equal(zero->src_file, 1);
    assert_int_equal(zero->src_line, 0);
    const ptx_instr *atom = must_find("atom.global.add.u64", PTX_OP_ATOM);
    assert_int_equal(atom->sub, PTX_ATOM_ADD);
    assert_int_equal(atom->ops[2].imm, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(functions_and_param_blocks),
        cmocka_unit_test(calls_name_their_params),
        cmocka_unit_test(global_and_const_data_image),
        cmocka_unit_test(shared_and_local_layout),
        cmocka_unit_test(vector_memory_operands),
        cmocka_unit_test(loop_branches_and_lines),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
