/* test_ptx_misc_asm.c - the parser on PTX forms that reach nvcc's output
 * only through inline asm (fixtures/misc_asm.cu): special registers,
 * immediates in every notation, memory orders and cache qualifiers, red,
 * prefetch, fences, barriers with thread counts, prmt modes, testp, slct,
 * set, carries, vector moves, block-scope registers, exit and trap.
 *
 *   ctest --test-dir build -R test_ptx_misc_asm
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ptx_fixture.h"

static ptx_fixture fx;

static int setup(void **state)
{
    (void)state;
    return fixture_load(&fx, "misc_asm.ptx");
}

static int teardown(void **state)
{
    (void)state;
    fixture_free(&fx);
    return 0;
}

static const ptx_instr *nth(const char *snippet, ptx_opcode op, int n)
{
    return fixture_must_find(&fx, snippet, op, n, NULL);
}

static const ptx_instr *must_find(const char *snippet, ptx_opcode op)
{
    return nth(snippet, op, 0);
}

static void special_registers(void **state)
{
    (void)state;
    static const struct { const char *snippet; int sreg; int comp; } regs[] = {
        {"%laneid;", PTX_SREG_LANEID, 0},
        {"%warpid;", PTX_SREG_WARPID, 0},
        {"%nwarpid;", PTX_SREG_NWARPID, 0},
        {"%smid;", PTX_SREG_SMID, 0},
        {"%nsmid;", PTX_SREG_NSMID, 0},
        {"%lanemask_eq;", PTX_SREG_LANEMASK_EQ, 0},
        {"%lanemask_le;", PTX_SREG_LANEMASK_LE, 0},
        {"%lanemask_lt;", PTX_SREG_LANEMASK_LT, 0},
        {"%lanemask_ge;", PTX_SREG_LANEMASK_GE, 0},
        {"%lanemask_gt;", PTX_SREG_LANEMASK_GT, 0},
        {"%clock;", PTX_SREG_CLOCK, 0},
        {"%dynamic_smem_size;", PTX_SREG_DYNAMIC_SMEM_SIZE, 0},
        {"%total_smem_size;", PTX_SREG_TOTAL_SMEM_SIZE, 0},
        {"%clusterid.x;", PTX_SREG_CLUSTERID, 0},
        {"%cluster_ctarank;", PTX_SREG_CLUSTER_CTARANK, 0},
        {"%nctaid.z;", PTX_SREG_NCTAID, 2},
        {"%ctaid.y;", PTX_SREG_CTAID, 1},
        {"%ntid.y;", PTX_SREG_NTID, 1},
        {"%clock64;", PTX_SREG_CLOCK64, 0},
        {"%globaltimer;", PTX_SREG_GLOBALTIMER, 0},
        {"%gridid;", PTX_SREG_GRIDID, 0},
    };
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
        const ptx_instr *mov = must_find(regs[i].snippet, PTX_OP_MOV);
        assert_int_equal(mov->ops[1].kind, PTX_OPND_SREG);
        assert_int_equal(mov->ops[1].sreg, regs[i].sreg);
        assert_int_equal(mov->ops[1].comp, regs[i].comp);
        assert_int_equal(mov->ops[1].reg, -1);
    }
    assert_int_equal(must_find("%rd1, %clock64", PTX_OP_MOV)->type, PTX_T_U64);
}

static void immediates_in_every_notation(void **state)
{
    (void)state;
    static const struct { const char *snippet; ptx_opcode op; uint64_t bits; } imms[] = {
        {"0x1F;", PTX_OP_ADD, 31},
        {"017;", PTX_OP_ADD, 15},
        {"0b101;", PTX_OP_ADD, 5},
        {"-42;", PTX_OP_ADD, (uint64_t)-42},
        {"4000000000U;", PTX_OP_ADD, 4000000000u},
        {"0xFFFFFFFF;", PTX_OP_AND, 0xFFFFFFFFu},
        {"0f3FC00000;", PTX_OP_ADD, 0x3FC00000u},               /* 1.5f */
        {"1.5;", PTX_OP_MUL, 0x3FC00000u},                      /* as f32 */
        {"0d3FF8000000000000;", PTX_OP_ADD, 0x3FF8000000000000ull},
        {"1e-3;", PTX_OP_MUL, 0x3F50624DD2F1A9FCull},           /* 0.001 */
    };
    for (size_t i = 0; i < sizeof imms / sizeof imms[0]; i++) {
        const ptx_instr *ins = must_find(imms[i].snippet, imms[i].op);
        assert_int_equal(ins->ops[2].kind, PTX_OPND_IMM);
        assert_int_equal((uint64_t)ins->ops[2].imm, imms[i].bits);
    }
}

static void memory_orders_and_cache_qualifiers(void **state)
{
    (void)state;
    const ptx_instr *vol = must_find("ld.volatile.global.u32", PTX_OP_LD);
    assert_int_equal(vol->flags, PTX_F_VOLATILE);
    assert_int_equal(vol->space, PTX_S_GLOBAL);
    const ptx_instr *rel = must_find("ld.relaxed.gpu.global.u32", PTX_OP_LD);
    assert_int_equal(rel->flags, PTX_F_RELAXED);
    assert_int_equal(rel->ops[1].imm, 4);
    assert_int_equal(must_find("ld.acquire.gpu.global.u32", PTX_OP_LD)->flags, PTX_F_RELAXED);
    const ptx_instr *ldu = must_find("ldu.global.u32", PTX_OP_LDU);
    assert_int_equal(ldu->space, PTX_S_GLOBAL);
    assert_int_equal(ldu->ops[1].imm, 12);
    const ptx_instr *hint = must_find("L1::no_allocate.L2::128B.v4.f32", PTX_OP_LD);
    assert_int_equal(hint->vec, 4);
    assert_int_equal(hint->flags, 0);
    assert_int_equal(hint->ops[0].vec_count, 4);
    const ptx_instr *cg = must_find("ld.global.cg.v2.f32", PTX_OP_LD);
    assert_int_equal(cg->vec, 2);
    assert_int_equal(cg->ops[1].imm, 16);
    const ptx_instr *st = must_find("st.release.gpu.global.u32", PTX_OP_ST);
    assert_int_equal(st->flags, PTX_F_RELAXED);
    assert_int_equal(st->ops[0].imm, 16);
    assert_int_equal(must_find("st.volatile.global.u32", PTX_OP_ST)->flags, PTX_F_VOLATILE);
    const ptx_instr *wb = must_find("st.global.wb.v2.f32", PTX_OP_ST);
    assert_int_equal(wb->ops[0].imm, -16);
    assert_int_equal(wb->vec, 2);
    const ptx_instr *sink = must_find("ld.global.v2.f32 {_, %f9}", PTX_OP_LD);
    assert_int_equal(sink->ops[0].vec[0], -1);
    assert_int_not_equal(sink->ops[0].vec[1], -1);
    assert_int_equal(sink->ops[0].vec_imm_mask, 0);
}

static void reductions_prefetch_fences_barriers(void **state)
{
    (void)state;
    const ptx_instr *red = must_find("red.global.add.u32", PTX_OP_RED);
    assert_int_equal(red->space, PTX_S_GLOBAL);
    assert_int_equal(red->sub, PTX_ATOM_ADD);
    assert_int_equal(red->nops, 2);
    assert_int_equal(red->ndst, 0);
    assert_int_equal(red->ops[0].kind, PTX_OPND_ADDR);
    assert_int_equal(red->ops[1].imm, 1);
    const ptx_instr *rmax = must_find("red.relaxed.gpu.global.max.s32", PTX_OP_RED);
    assert_int_equal(rmax->sub, PTX_ATOM_MAX);
    assert_int_equal(rmax->type, PTX_T_S32);
    assert_int_equal(rmax->flags, PTX_F_RELAXED);
    assert_int_equal(must_find("red.shared.add.u32", PTX_OP_RED)->space, PTX_S_SHARED);
    const ptx_instr *xchg = must_find("atom.acq_rel.gpu.global.exch.b32", PTX_OP_ATOM);
    assert_int_equal(xchg->sub, PTX_ATOM_EXCH);
    assert_int_equal(xchg->ops[1].imm, 24);
    assert_int_equal(xchg->ops[2].imm, 7);

    assert_int_equal(must_find("prefetch.global.L2", PTX_OP_PREFETCH)->space, PTX_S_GLOBAL);
    const ptx_instr *pf = must_find("prefetch.L1", PTX_OP_PREFETCH);
    assert_int_equal(pf->space, PTX_S_GENERIC);
    assert_int_equal(pf->ops[0].imm, 128);
    assert_int_equal(pf->nops, 1);

    assert_int_equal(must_find("fence.sc.cta", PTX_OP_MEMBAR)->sub, PTX_SCOPE_CTA);
    assert_int_equal(must_find("fence.acq_rel.gpu", PTX_OP_MEMBAR)->sub, PTX_SCOPE_GPU);
    assert_int_equal(must_find("fence.acq_rel.sys", PTX_OP_MEMBAR)->sub, PTX_SCOPE_SYS);
    assert_int_equal(must_find("fence.proxy.alias", PTX_OP_MEMBAR)->sub, 0);
    assert_int_equal(must_find("nanosleep.u32 %r2", PTX_OP_NANOSLEEP)->ops[0].kind,
                     PTX_OPND_REG);
    assert_int_equal(must_find("nanosleep.u32 100", PTX_OP_NANOSLEEP)->ops[0].imm, 100);

    const ptx_instr *b1 = must_find("barrier.sync.aligned 1, 64", PTX_OP_BAR);
    assert_int_equal(b1->sub, PTX_BAR_SYNC);
    assert_int_equal(b1->flags, PTX_F_ALIGNED);
    assert_int_equal(b1->nops, 2);
    assert_int_equal(b1->ops[0].imm, 1);
    assert_int_equal(b1->ops[1].imm, 64);
    const ptx_instr *b2 = must_find("barrier.sync 2", PTX_OP_BAR);
    assert_int_equal(b2->flags, 0);
    assert_int_equal(b2->nops, 1);
    const ptx_instr *b3 = must_find("bar.arrive 3, 96", PTX_OP_BAR);
    assert_int_equal(b3->sub, PTX_BAR_ARRIVE);
    assert_int_equal(b3->flags, PTX_F_ALIGNED);
    assert_int_equal(b3->ops[1].imm, 96);
}

static void permutes_fields_selects(void **state)
{
    (void)state;
    assert_int_equal(must_find("prmt.b32.f4e", PTX_OP_PRMT)->sub, PTX_PRMT_F4E);
    assert_int_equal(must_find("prmt.b32.b4e", PTX_OP_PRMT)->sub, PTX_PRMT_B4E);
    assert_int_equal(must_find("prmt.b32.ecl", PTX_OP_PRMT)->sub, PTX_PRMT_ECL);
    const ptx_instr *bfe = must_find("bfe.u32", PTX_OP_BFE);
    assert_int_equal(bfe->ops[2].imm, 4);
    assert_int_equal(bfe->ops[3].imm, 8);
    const ptx_instr *bfi = must_find("bfi.b32", PTX_OP_BFI);
    assert_int_equal(bfi->nops, 5);
    assert_int_equal(bfi->ops[4].imm, 4);
    assert_int_equal(must_find("mul24.lo.u32", PTX_OP_MUL24)->flags, PTX_F_LO);
    assert_int_equal(must_find("mad24.lo.s32", PTX_OP_MAD24)->nops, 4);
    const ptx_instr *slct = must_find("slct.u32.s32", PTX_OP_SLCT);
    assert_int_equal(slct->type, PTX_T_U32);
    assert_int_equal(slct->type2, PTX_T_S32);
    const ptx_instr *set = must_find("set.lt.u32.f32", PTX_OP_SET);
    assert_int_equal(set->cmp, PTX_CMP_LT);
    assert_int_equal(set->type, PTX_T_U32);
    assert_int_equal(set->type2, PTX_T_F32);
    assert_int_equal(set->ops[2].imm, 0);
    assert_int_equal(must_find("cnot.b32", PTX_OP_CNOT)->nops, 2);
    assert_int_equal(must_find("neg.f32", PTX_OP_NEG)->type, PTX_T_F32);
    assert_int_equal(must_find("div.full.f32", PTX_OP_DIV)->flags, PTX_F_FULL);
}

static void block_scope_predicates(void **state)
{
    (void)state;
    int f;
    const char *line = "setp.lt.and.s32 p|q";
    const ptx_instr *setp = fixture_find(&fx, line, PTX_OP_SETP, 0, &f);
    assert_non_null(setp);
    const ptx_function *fn = &fx.module->functions[f];
    assert_int_equal(setp->boolop, PTX_BOOL_AND);
    assert_int_equal(setp->cmp, PTX_CMP_LT);
    assert_int_equal(setp->ndst, 2);
    assert_int_equal(setp->nops, 5);
    assert_string_equal(fn->regs[setp->ops[0].reg].name, "p");
    assert_string_equal(fn->regs[setp->ops[1].reg].name, "q");
    assert_int_equal(setp->ops[4].kind, PTX_OPND_IMM);
    assert_int_equal(setp->ops[4].imm, 1);
    const ptx_instr *finite = nth(line, PTX_OP_TESTP, 0);
    assert_int_equal(finite->sub, PTX_TESTP_FINITE);
    assert_int_equal(finite->ops[0].reg, setp->ops[0].reg);
    const ptx_instr *nan = nth(line, PTX_OP_TESTP, 1);
    assert_int_equal(nan->sub, PTX_TESTP_NOTANUMBER);
    const ptx_instr *add = nth(line, PTX_OP_ADD, 0);
    assert_int_equal(add->guard, setp->ops[1].reg);
    assert_int_equal(add->guard_neg, 1);

    const ptx_instr *vote = must_find("vote.sync.any.pred p, !p", PTX_OP_VOTE);
    assert_int_equal(vote->ops[1].neg, 1);
    assert_int_equal(vote->ops[0].reg, vote->ops[1].reg);
    assert_int_not_equal(vote->ops[0].reg, setp->ops[0].reg);   /* another block's p */
    assert_int_equal(vote->ops[2].imm, 0xffffffff);
}

static void carries_wide_and_vector_moves(void **state)
{
    (void)state;
    const char *carry = "sub.cc.u64";
    assert_int_equal(nth(carry, PTX_OP_SUB, 0)->flags, PTX_F_CC);
    assert_int_equal(nth(carry, PTX_OP_SUB, 1)->flags, PTX_F_CARRY_IN);
    assert_int_equal(must_find("mad.wide.u32", PTX_OP_MAD)->flags, PTX_F_WIDE);
    const char *mad = "mad.hi.cc.u32";
    assert_int_equal(nth(mad, PTX_OP_MAD, 0)->flags, PTX_F_HI | PTX_F_CC);
    assert_int_equal(nth(mad, PTX_OP_MAD, 1)->flags, PTX_F_LO | PTX_F_CARRY_IN);

    const char *moves = "mov.b64 {lo32, hi32}";
    const ptx_instr *split = nth(moves, PTX_OP_MOV, 0);
    assert_int_equal(split->ops[0].kind, PTX_OPND_VEC);
    assert_int_equal(split->ops[0].vec_count, 2);
    assert_int_equal(split->ndst, 1);
    assert_int_equal(split->ops[1].kind, PTX_OPND_REG);
    const ptx_instr *join = nth(moves, PTX_OP_MOV, 1);
    assert_int_equal(join->ops[0].kind, PTX_OPND_REG);
    assert_int_equal(join->ops[1].kind, PTX_OPND_VEC);
    assert_int_equal(join->ops[1].vec[0], split->ops[0].vec[0]);

    const ptx_instr *bf = must_find("cvt.rn.bf16x2.f32", PTX_OP_CVT);
    assert_int_equal(bf->type, PTX_T_BF16X2);
    assert_int_equal(bf->nops, 3);
}

static void exit_trap_and_shared(void **state)
{
    (void)state;
    int f;
    const ptx_instr *ex = fixture_find(&fx, "exit;", PTX_OP_EXIT, 0, &f);
    assert_non_null(ex);
    assert_int_equal(ex->nops, 0);
    assert_int_equal(must_find("trap;", PTX_OP_TRAP)->nops, 0);
    const ptx_instr *uni = ex + 1;
    assert_int_equal(uni->op, PTX_OP_BRA);
    assert_int_equal(uni->flags, PTX_F_UNI);
    const ptx_function *fn = &fx.module->functions[f];
    assert_int_equal(uni->ops[0].imm, fn->ncode - 1);   /* $L__BB3_4: ret */
    assert_int_equal(fn->code[fn->ncode - 1].op, PTX_OP_RET);

    int mo = fixture_function(&fx, "memory_orders");
    int sh = fixture_symbol(&fx, "_ZZ13memory_ordersPiP6float4E2sh", mo);
    assert_true(sh >= 0);
    assert_int_equal(fx.module->symbols[sh].offset, 0);
    assert_int_equal(fx.module->functions[mo].shared_static_bytes, 256);
    assert_int_equal(fx.module->functions[fixture_function(&fx, "immediates")]
                         .shared_static_bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(special_registers),
        cmocka_unit_test(immediates_in_every_notation),
        cmocka_unit_test(memory_orders_and_cache_qualifiers),
        cmocka_unit_test(reductions_prefetch_fences_barriers),
        cmocka_unit_test(permutes_fields_selects),
        cmocka_unit_test(block_scope_predicates),
        cmocka_unit_test(carries_wide_and_vector_moves),
        cmocka_unit_test(exit_trap_and_shared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
