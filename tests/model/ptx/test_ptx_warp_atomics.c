/* test_ptx_warp_atomics.c - the parser on nvcc's PTX for warp operations
 * (fixtures/warp_ops.cu) and atomics (fixtures/atomics.cu): shuffles,
 * votes, match, redux, activemask, block votes in nested scopes, atomics on
 * global and shared memory, fences, demoted shared variables, branches.
 *
 *   ctest --test-dir build -R test_ptx_warp_atomics
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ptx_fixture.h"

static ptx_fixture warp, atomics;

static int setup(void **state)
{
    (void)state;
    if (fixture_load(&warp, "warp_ops.ptx") != 0 ||
        fixture_load(&atomics, "atomics.ptx") != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    fixture_free(&warp);
    fixture_free(&atomics);
    return 0;
}

/* The instruction on the line holding `snippet`, asserted present. */
static const ptx_instr *must_find(const ptx_fixture *fx, const char *snippet,
                                  ptx_opcode op, int *function)
{
    return fixture_must_find(fx, snippet, op, 0, function);
}

static void module_header_and_kernel_params(void **state)
{
    (void)state;
    const cured_model_module *m = warp.module;
    assert_int_equal(m->version_major, 9);
    assert_int_equal(m->version_minor, 0);
    assert_string_equal(m->target, "sm_90");
    assert_int_equal(m->address_size, 64);
    assert_int_equal(m->nfunctions, 1);
    const ptx_function *fn = &m->functions[0];
    assert_string_equal(fn->name, "_Z8warp_opsPiPKiPf");
    assert_true(fn->is_entry);
    assert_true(fn->is_visible);
    assert_true(fn->has_body);
    assert_int_equal(fn->nparams, 3);
    for (int i = 0; i < 3; i++) {
        const ptx_symbol *s = &m->symbols[fn->params[i]];
        assert_int_equal(s->space, PTX_S_PARAM);
        assert_int_equal(s->type, PTX_T_U64);
        assert_int_equal(s->offset, 8 * i);
        assert_int_equal(s->size, 8);
        assert_int_equal(s->function, 0);
    }
    assert_int_equal(fn->param_bytes, 24);
    /* %p<17> %f<4> %r<52> %rd<11> plus six block-scope predicates */
    assert_int_equal(fn->nregs, 17 + 4 + 52 + 11 + 5);
    assert_string_equal(m->files[1], "/work/main/tests/model/parser/fixtures/warp_ops.cu");
    assert_int_equal(m->nfiles, 5);
    assert_null(m->files[0]);
    assert_non_null(strstr(m->files[4], "crt/sm_80_rt.hpp"));
}

static void shuffles_decode_mode_pair_and_operands(void **state)
{
    (void)state;
    int f;
    const ptx_instr *up = must_find(&warp, "shfl.sync.up.b32", PTX_OP_SHFL, &f);
    assert_int_equal(up->sub, PTX_SHFL_UP);
    assert_int_equal(up->type, PTX_T_B32);
    assert_int_equal(up->nops, 6);
    assert_int_equal(up->ndst, 2);
    assert_int_equal(up->ops[0].kind, PTX_OPND_REG);
    assert_int_equal(up->ops[0].reg, fixture_reg(&warp, f, "%r7"));
    assert_int_equal(up->ops[1].reg, fixture_reg(&warp, f, "%p1"));
    assert_int_equal(up->ops[2].reg, fixture_reg(&warp, f, "%r3"));
    assert_int_equal(up->ops[5].reg, fixture_reg(&warp, f, "%r6"));
    assert_int_equal(up->guard, -1);
    /* inlined from sm_30_intrinsics.hpp (file 2) at warp_ops.cu:12 */
    assert_int_equal(up->src_file, 2);
    assert_int_equal(up->src_line, 385);
    assert_int_equal(up->site_file, 1);
    assert_int_equal(up->site_line, 12);
    assert_int_equal(must_find(&warp, "shfl.sync.down.b32", PTX_OP_SHFL, NULL)->sub,
                     PTX_SHFL_DOWN);
    assert_int_equal(must_find(&warp, "shfl.sync.bfly.b32", PTX_OP_SHFL, NULL)->sub,
                     PTX_SHFL_BFLY);
    const ptx_instr *idx = must_find(&warp, "shfl.sync.idx.b32", PTX_OP_SHFL, NULL);
    assert_int_equal(idx->sub, PTX_SHFL_IDX);
    assert_int_equal(idx->site_line, 15);
}

static void votes_match_redux_activemask(void **state)
{
    (void)state;
    int f;
    const ptx_instr *all = must_find(&warp, "vote.sync.all.pred", PTX_OP_VOTE, &f);
    assert_int_equal(all->sub, PTX_VOTE_ALL);
    assert_int_equal(all->type, PTX_T_PRED);
    assert_int_equal(all->nops, 3);
    assert_int_equal(all->ndst, 1);
    assert_int_equal(all->ops[0].reg, fixture_reg(&warp, f, "%p6"));
    assert_int_equal(all->ops[1].reg, fixture_reg(&warp, f, "%p5"));
    assert_int_equal(must_find(&warp, "vote.sync.any.pred", PTX_OP_VOTE, NULL)->sub,
                     PTX_VOTE_ANY);
    assert_int_equal(must_find(&warp, "vote.sync.uni.pred", PTX_OP_VOTE, NULL)->sub,
                     PTX_VOTE_UNI);
    const ptx_instr *ballot = must_find(&warp, "vote.sync.ballot.b32", PTX_OP_VOTE, NULL);
    assert_int_equal(ballot->sub, PTX_VOTE_BALLOT);
    assert_int_equal(ballot->type, PTX_T_B32);

    const ptx_instr *any = must_find(&warp, "match.any.sync.b32", PTX_OP_MATCH, NULL);
    assert_int_equal(any->sub, PTX_MATCH_ANY);
    assert_int_equal(any->ndst, 1);
    assert_int_equal(any->nops, 3);
    const ptx_instr *mall = must_find(&warp, "match.all.sync.b32", PTX_OP_MATCH, NULL);
    assert_int_equal(mall->sub, PTX_MATCH_ALL);
    assert_int_equal(mall->ndst, 2);
    assert_int_equal(mall->ops[1].reg, fixture_reg(&warp, f, "%p13"));

    const ptx_instr *add = must_find(&warp, "redux.sync.add.s32", PTX_OP_REDUX, NULL);
    assert_int_equal(add->sub, PTX_ATOM_ADD);
    assert_int_equal(add->type, PTX_T_S32);
    const ptx_instr *mn = must_find(&warp, "redux.sync.min.u32", PTX_OP_REDUX, NULL);
    assert_int_equal(mn->sub, PTX_ATOM_MIN);
    assert_int_equal(mn->type, PTX_T_U32);
    assert_int_equal(must_find(&warp, "redux.sync.max.s32", PTX_OP_REDUX, NULL)->sub,
                     PTX_ATOM_MAX);
    assert_int_equal(must_find(&warp, "redux.sync.and.b32", PTX_OP_REDUX, NULL)->sub,
                     PTX_ATOM_AND);

    const ptx_instr *am = must_find(&warp, "activemask.b32", PTX_OP_ACTIVEMASK, NULL);
    assert_int_equal(am->type, PTX_T_B32);
    assert_int_equal(am->nops, 1);
    assert_int_equal(am->ndst, 1);
    assert_int_equal(am->ops[0].reg, fixture_reg(&warp, f, "%r1"));
}

static void warp_sync_and_block_votes_in_nested_scopes(void **state)
{
    (void)state;
    int f;
    const ptx_instr *ws = must_find(&warp, "bar.warp.sync", PTX_OP_BAR_WARP, &f);
    assert_int_equal(ws->nops, 1);
    assert_int_equal(ws->ops[0].kind, PTX_OPND_IMM);
    assert_int_equal(ws->ops[0].imm, -1);
    assert_int_equal(ws->flags & PTX_F_ALIGNED, 0);

    const ptx_instr *popc = must_find(&warp, "bar.red.popc.u32", PTX_OP_BAR, NULL);
    assert_int_equal(popc->sub, PTX_BAR_RED);
    assert_int_equal(popc->red_op, PTX_ATOM_POPC);
    assert_int_equal(popc->type, PTX_T_U32);
    assert_int_equal(popc->nops, 4);
    assert_int_equal(popc->ndst, 1);
    assert_int_equal(popc->ops[0].reg, fixture_reg(&warp, f, "%r34"));
    assert_int_equal(popc->ops[1].kind, PTX_OPND_IMM);
    assert_int_equal(popc->ops[1].imm, 0);
    assert_int_equal(popc->ops[2].kind, PTX_OPND_NONE);
    /* the block's own `.reg .pred %p1`, not the function's %p1 */
    const ptx_function *fn = &warp.module->functions[f];
    int inner = popc->ops[3].reg;
    assert_int_equal(popc->ops[3].kind, PTX_OPND_REG);
    assert_string_equal(fn->regs[inner].name, "%p1");
    assert_int_equal(fn->regs[inner].type, PTX_T_PRED);
    assert_int_not_equal(inner, fixture_reg(&warp, f, "%p1"));
    /* and the setp just before it writes that same inner register */
    const ptx_instr *setp = popc - 1;
    assert_int_equal(setp->op, PTX_OP_SETP);
    assert_int_equal(setp->ops[0].reg, inner);

    const ptx_instr *band = must_find(&warp, "bar.red.and.pred", PTX_OP_BAR, NULL);
    assert_int_equal(band->red_op, PTX_ATOM_AND);
    assert_int_equal(band->type, PTX_T_PRED);
    assert_int_equal(must_find(&warp, "bar.red.or.pred", PTX_OP_BAR, NULL)->red_op,
                     PTX_ATOM_OR);
}

static void params_sregs_selects_and_memory(void **state)
{
    (void)state;
    int f;
    const ptx_instr *ld = must_find(&warp, "[_Z8warp_opsPiPKiPf_param_1]", PTX_OP_LD, &f);
    assert_int_equal(ld->space, PTX_S_PARAM);
    assert_int_equal(ld->type, PTX_T_U64);
    assert_int_equal(ld->ops[1].kind, PTX_OPND_ADDR);
    assert_int_equal(ld->ops[1].sym, warp.module->functions[f].params[1]);
    assert_int_equal(ld->ops[1].reg, -1);
    assert_int_equal(ld->ops[1].imm, 0);

    const ptx_instr *cvta = must_find(&warp, "cvta.to.global.u64 \t%rd4", PTX_OP_CVTA, NULL);
    assert_int_equal(cvta->space, PTX_S_GLOBAL);
    assert_int_equal(cvta->cvta_to, 1);
    assert_int_equal(cvta->type, PTX_T_U64);

    const ptx_instr *tid = must_find(&warp, "%r2, %tid.x", PTX_OP_MOV, NULL);
    assert_int_equal(tid->ops[1].kind, PTX_OPND_SREG);
    assert_int_equal(tid->ops[1].sreg, PTX_SREG_TID);
    assert_int_equal(tid->ops[1].comp, 0);

    const ptx_instr *wide = must_find(&warp, "mul.wide.u32", PTX_OP_MUL, NULL);
    assert_true(wide->flags & PTX_F_WIDE);
    assert_int_equal(wide->type, PTX_T_U32);
    assert_int_equal(wide->ops[2].imm, 4);

    const ptx_instr *selp = must_find(&warp, "%r19, 1, 0, %p6", PTX_OP_SELP, NULL);
    assert_int_equal(selp->ops[1].imm, 1);
    assert_int_equal(selp->ops[2].imm, 0);
    assert_int_equal(selp->ops[3].reg, fixture_reg(&warp, f, "%p6"));

    const ptx_instr *setp = must_find(&warp, "setp.eq.b32", PTX_OP_SETP, NULL);
    assert_int_equal(setp->cmp, PTX_CMP_EQ);
    assert_int_equal(setp->type, PTX_T_B32);
    assert_int_equal(setp->type2, PTX_T_B32);
    assert_int_equal(setp->ndst, 1);
    assert_int_equal(setp->boolop, PTX_BOOL_NONE);

    const ptx_instr *st = must_find(&warp, "st.global.f32", PTX_OP_ST, NULL);
    assert_int_equal(st->space, PTX_S_GLOBAL);
    assert_int_equal(st->ndst, 0);
    assert_int_equal(st->ops[0].kind, PTX_OPND_ADDR);
    assert_int_equal(st->ops[0].reg, fixture_reg(&warp, f, "%rd9"));
    assert_int_equal(st->ops[1].reg, fixture_reg(&warp, f, "%f3"));

    const ptx_function *fn = &warp.module->functions[f];
    assert_int_equal(fn->code[fn->ncode - 1].op, PTX_OP_RET);
}

static void atomics_on_global_and_shared(void **state)
{
    (void)state;
    int f;
    const ptx_instr *sh = must_find(&atomics, "atom.shared.add.u32", PTX_OP_ATOM, &f);
    assert_int_equal(sh->space, PTX_S_SHARED);
    assert_int_equal(sh->sub, PTX_ATOM_ADD);
    assert_int_equal(sh->type, PTX_T_U32);
    assert_int_equal(sh->nops, 3);
    assert_int_equal(sh->ndst, 1);
    assert_int_equal(sh->ops[1].kind, PTX_OPND_ADDR);
    assert_int_equal(sh->ops[1].reg, fixture_reg(&atomics, f, "%r3"));
    assert_int_equal(sh->ops[2].kind, PTX_OPND_IMM);
    assert_int_equal(sh->ops[2].imm, 1);

    const ptx_instr *fadd = must_find(&atomics, "atom.shared.add.f32", PTX_OP_ATOM, NULL);
    assert_int_equal(fadd->type, PTX_T_F32);
    assert_int_equal(fadd->ops[2].imm, 0x3F000000);   /* 0.5f */
    const ptx_instr *dadd = must_find(&atomics, "atom.global.add.f64", PTX_OP_ATOM, NULL);
    assert_int_equal(dadd->space, PTX_S_GLOBAL);
    assert_int_equal((uint64_t)dadd->ops[2].imm, 0x4000000000000000ull);
    assert_int_equal(must_find(&atomics, "atom.global.add.u64", PTX_OP_ATOM, NULL)->type,
                     PTX_T_U64);

    const ptx_instr *cas = must_find(&atomics, "atom.global.cas.b32", PTX_OP_ATOM, NULL);
    assert_int_equal(cas->sub, PTX_ATOM_CAS);
    assert_int_equal(cas->nops, 4);
    assert_int_equal(cas->ops[2].reg, fixture_reg(&atomics, f, "%r8"));
    assert_int_equal(cas->ops[3].reg, fixture_reg(&atomics, f, "%r7"));

    static const struct { const char *word; int sub; ptx_type type; } ops[] = {
        {"atom.global.exch.b32", PTX_ATOM_EXCH, PTX_T_B32},
        {"atom.global.min.s32", PTX_ATOM_MIN, PTX_T_S32},
        {"atom.global.max.u32", PTX_ATOM_MAX, PTX_T_U32},
        {"atom.global.inc.u32", PTX_ATOM_INC, PTX_T_U32},
        {"atom.global.dec.u32", PTX_ATOM_DEC, PTX_T_U32},
        {"atom.global.and.b32", PTX_ATOM_AND, PTX_T_B32},
        {"atom.global.or.b32", PTX_ATOM_OR, PTX_T_B32},
        {"atom.global.xor.b32", PTX_ATOM_XOR, PTX_T_B32},
        {"atom.shared.max.s32", PTX_ATOM_MAX, PTX_T_S32},
        {"atom.global.cta.add.u32", PTX_ATOM_ADD, PTX_T_U32},
        {"atom.global.sys.add.u32", PTX_ATOM_ADD, PTX_T_U32},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        const ptx_instr *a = must_find(&atomics, ops[i].word, PTX_OP_ATOM, NULL);
        assert_int_equal(a->sub, ops[i].sub);
        assert_int_equal(a->type, ops[i].type);
        assert_int_equal(a->nops, 3);
    }
    assert_int_equal(must_find(&atomics, "atom.global.min.s32", PTX_OP_ATOM, NULL)->ops[2].imm,
                     -2);
}

static void fences_branches_and_demoted_shared(void **state)
{
    (void)state;
    int f;
    assert_int_equal(must_find(&atomics, "membar.gl", PTX_OP_MEMBAR, NULL)->sub, PTX_SCOPE_GPU);
    assert_int_equal(must_find(&atomics, "membar.cta", PTX_OP_MEMBAR, NULL)->sub, PTX_SCOPE_CTA);
    assert_int_equal(must_find(&atomics, "membar.sys", PTX_OP_MEMBAR, NULL)->sub, PTX_SCOPE_SYS);

    const ptx_instr *bra = must_find(&atomics, "@%p1 bra", PTX_OP_BRA, &f);
    assert_int_equal(bra->guard, fixture_reg(&atomics, f, "%p1"));
    assert_int_equal(bra->guard_neg, 0);
    assert_int_equal(bra->ops[0].kind, PTX_OPND_LABEL);
    const ptx_instr *target = must_find(&atomics, "cvta.to.global.u64 \t%rd7", PTX_OP_CVTA, NULL);
    assert_int_equal(bra->ops[0].imm, fixture_index(&atomics, f, target));

    int counter = fixture_symbol(&atomics, "_ZZ7atomicsPfPdPiPjPyS1_E7counter", f);
    int fsum = fixture_symbol(&atomics, "_ZZ7atomicsPfPdPiPjPyS1_E4fsum", f);
    assert_true(counter >= 0 && fsum >= 0);
    const ptx_symbol *c = &atomics.module->symbols[counter];
    const ptx_symbol *s = &atomics.module->symbols[fsum];
    assert_int_equal(c->space, PTX_S_SHARED);
    assert_int_equal(c->type, PTX_T_U32);
    assert_int_equal(c->size, 4);
    assert_int_equal(c->offset, 0);
    assert_int_equal(s->type, PTX_T_F32);
    assert_int_equal(s->offset, 4);
    assert_int_equal(atomics.module->functions[f].shared_static_bytes, 8);

    const ptx_instr *st = must_find(&atomics, "[_ZZ7atomicsPfPdPiPjPyS1_E7counter], %r2",
                                    PTX_OP_ST, NULL);
    assert_int_equal(st->space, PTX_S_SHARED);
    assert_int_equal(st->ops[0].sym, counter);
    assert_int_equal(st->ops[0].reg, -1);
    const ptx_instr *mov = must_find(&atomics, "%r3, _ZZ7atomicsPfPdPiPjPyS1_E7counter",
                                     PTX_OP_MOV, NULL);
    assert_int_equal(mov->ops[1].kind, PTX_OPND_SYM);
    assert_int_equal(mov->ops[1].sym, counter);

    const ptx_instr *cvt = must_find(&atomics, "cvt.rzi.s32.f32 \t%r21", PTX_OP_CVT, NULL);
    assert_int_equal(cvt->type, PTX_T_S32);
    assert_int_equal(cvt->type2, PTX_T_F32);
    assert_int_equal(cvt->rnd, PTX_RND_RZI);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(module_header_and_kernel_params),
        cmocka_unit_test(shuffles_decode_mode_pair_and_operands),
        cmocka_unit_test(votes_match_redux_activemask),
        cmocka_unit_test(warp_sync_and_block_votes_in_nested_scopes),
        cmocka_unit_test(params_sregs_selects_and_memory),
        cmocka_unit_test(atomics_on_global_and_shared),
        cmocka_unit_test(fences_branches_and_demoted_shared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
