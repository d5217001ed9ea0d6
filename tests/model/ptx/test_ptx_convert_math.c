/* test_ptx_convert_math.c - the parser on nvcc's PTX for conversions and
 * arithmetic (fixtures/convert_math.cu): f16/bf16/f16x2 cvt with rounding
 * and saturation, float math with .approx/.rn, bit operations, carries,
 * float immediates in f32 and f64 form.
 *
 *   ctest --test-dir build -R test_ptx_convert_math
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
    return fixture_load(&fx, "convert_math.ptx");
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

/* Checks a cvt's destination type, source type, rounding and flags. */
static void expect_cvt(const char *snippet, ptx_type to, ptx_type from,
                       ptx_round rnd, uint32_t flags)
{
    const ptx_instr *cvt = must_find(snippet, PTX_OP_CVT);
    assert_int_equal(cvt->type, to);
    assert_int_equal(cvt->type2, from);
    assert_int_equal(cvt->rnd, rnd);
    assert_int_equal(cvt->flags, flags);
    assert_int_equal(cvt->nops, 2);
    assert_int_equal(cvt->ndst, 1);
}

static void conversions_between_every_width(void **state)
{
    (void)state;
    expect_cvt("cvt.rn.f16.f32 %rs1", PTX_T_F16, PTX_T_F32, PTX_RND_RN, 0);
    expect_cvt("cvt.rz.f16.f32 %rs2", PTX_T_F16, PTX_T_F32, PTX_RND_RZ, 0);
    expect_cvt("cvt.rn.bf16.f32 %rs6", PTX_T_BF16, PTX_T_F32, PTX_RND_RN, 0);
    expect_cvt("cvt.f32.f16 %f6", PTX_T_F32, PTX_T_F16, PTX_RND_NONE, 0);
    expect_cvt("cvt.f32.bf16 %f7", PTX_T_F32, PTX_T_BF16, PTX_RND_NONE, 0);
    expect_cvt("cvt.f64.f32 \t%fd1", PTX_T_F64, PTX_T_F32, PTX_RND_NONE, 0);
    expect_cvt("cvt.rzi.s32.f32 \t%r7", PTX_T_S32, PTX_T_F32, PTX_RND_RZI, 0);
    expect_cvt("cvt.rni.s32.f32 \t%r8", PTX_T_S32, PTX_T_F32, PTX_RND_RNI, 0);
    expect_cvt("cvt.rmi.s32.f64 \t%r10", PTX_T_S32, PTX_T_F64, PTX_RND_RMI, 0);
    expect_cvt("cvt.rpi.u32.f32 \t%r12", PTX_T_U32, PTX_T_F32, PTX_RND_RPI, 0);
    expect_cvt("cvt.rzi.s64.f64 \t%rd26", PTX_T_S64, PTX_T_F64, PTX_RND_RZI, 0);
    expect_cvt("cvt.u32.u64 \t%r14", PTX_T_U32, PTX_T_U64, PTX_RND_NONE, 0);
    expect_cvt("cvt.sat.f32.f32 \t%f9", PTX_T_F32, PTX_T_F32, PTX_RND_NONE, PTX_F_SAT);
    expect_cvt("cvt.rn.f32.s32 \t%f36", PTX_T_F32, PTX_T_S32, PTX_RND_RN, 0);
    expect_cvt("cvt.rn.f32.u64 \t%f38", PTX_T_F32, PTX_T_U64, PTX_RND_RN, 0);

    const ptx_instr *pack = must_find("cvt.rn.f16x2.f32 %r1", PTX_OP_CVT);
    assert_int_equal(pack->type, PTX_T_F16X2);
    assert_int_equal(pack->type2, PTX_T_F32);
    assert_int_equal(pack->nops, 3);
    assert_int_equal(pack->ndst, 1);
    const ptx_function *fn = &fx.module->functions[0];
    assert_string_equal(fn->regs[pack->ops[1].reg].name, "%f2");
    assert_string_equal(fn->regs[pack->ops[2].reg].name, "%f1");
}

static void half_arithmetic_inside_asm_braces(void **state)
{
    (void)state;
    const ptx_instr *add = must_find("add.f16 %rs3", PTX_OP_ADD);
    assert_int_equal(add->type, PTX_T_F16);
    assert_int_equal(add->nops, 3);
    const ptx_instr *mul = must_find("mul.bf16 %rs7", PTX_OP_MUL);
    assert_int_equal(mul->type, PTX_T_BF16);
    assert_int_equal(mul->flags, 0);
}

static void float_math_modifiers_and_immediates(void **state)
{
    (void)state;
    const ptx_instr *mul = must_find("0d4008000000000000", PTX_OP_MUL);
    assert_int_equal(mul->type, PTX_T_F64);
    assert_int_equal(mul->ops[2].kind, PTX_OPND_IMM);
    assert_int_equal((uint64_t)mul->ops[2].imm, 0x4008000000000000ull);   /* 3.0 */
    const ptx_instr *fma = must_find("0f3F317218", PTX_OP_FMA);
    assert_int_equal(fma->rnd, PTX_RND_RN);
    assert_int_equal(fma->ops[2].imm, 0x3F317218);
    assert_int_equal(fma->nops, 4);

    static const struct { const char *snippet; ptx_opcode op; ptx_round rnd;
                          uint32_t flags; } math[] = {
        {"sqrt.rn.f32 \t%f10", PTX_OP_SQRT, PTX_RND_RN, 0},
        {"rsqrt.approx.f32", PTX_OP_RSQRT, PTX_RND_NONE, PTX_F_APPROX},
        {"ex2.approx.f32", PTX_OP_EX2, PTX_RND_NONE, PTX_F_APPROX},
        {"lg2.approx.f32", PTX_OP_LG2, PTX_RND_NONE, PTX_F_APPROX},
        {"sin.approx.f32", PTX_OP_SIN, PTX_RND_NONE, PTX_F_APPROX},
        {"cos.approx.f32", PTX_OP_COS, PTX_RND_NONE, PTX_F_APPROX},
        {"div.approx.f32", PTX_OP_DIV, PTX_RND_NONE, PTX_F_APPROX},
        {"div.rn.f32", PTX_OP_DIV, PTX_RND_RN, 0},
        {"rcp.rn.f32", PTX_OP_RCP, PTX_RND_RN, 0},
        {"rcp.rn.f64", PTX_OP_RCP, PTX_RND_RN, 0},
        {"sqrt.rn.f64", PTX_OP_SQRT, PTX_RND_RN, 0},
        {"copysign.f32", PTX_OP_COPYSIGN, PTX_RND_NONE, 0},
        {"abs.f32", PTX_OP_ABS, PTX_RND_NONE, 0},
        {"min.f32", PTX_OP_MIN, PTX_RND_NONE, 0},
        {"max.f32", PTX_OP_MAX, PTX_RND_NONE, 0},
    };
    for (size_t i = 0; i < sizeof math / sizeof math[0]; i++) {
        const ptx_instr *ins = must_find(math[i].snippet, math[i].op);
        assert_int_equal(ins->rnd, math[i].rnd);
        assert_int_equal(ins->flags, math[i].flags);
    }
    const ptx_instr *mov = must_find("0d3FD0000000000000", PTX_OP_MOV);
    assert_int_equal(mov->type, PTX_T_F64);
    assert_int_equal((uint64_t)mov->ops[1].imm, 0x3FD0000000000000ull);   /* 0.25 */
}

static void integer_bit_operations(void **state)
{
    (void)state;
    assert_int_equal(must_find("popc.b32", PTX_OP_POPC)->type, PTX_T_B32);
    assert_int_equal(must_find("clz.b32", PTX_OP_CLZ)->type, PTX_T_B32);
    assert_int_equal(must_find("brev.b32", PTX_OP_BREV)->type, PTX_T_B32);
    const ptx_instr *bfind = must_find("bfind.shiftamt.u32", PTX_OP_BFIND);
    assert_int_equal(bfind->flags, PTX_F_SHIFTAMT);
    assert_int_equal(bfind->type, PTX_T_U32);
    const ptx_instr *prmt = must_find("prmt.b32 \t%r23", PTX_OP_PRMT);
    assert_int_equal(prmt->sub, 0);
    assert_int_equal(prmt->nops, 4);
    const ptx_instr *shf = must_find("shf.l.wrap.b32", PTX_OP_SHF);
    assert_int_equal(shf->sub, PTX_SHF_L);
    assert_int_equal(shf->flags & PTX_F_CLAMP, 0);
    assert_int_equal(shf->nops, 4);
    const ptx_instr *hi = must_find("mul.hi.s32", PTX_OP_MUL);
    assert_int_equal(hi->flags, PTX_F_HI);
    assert_int_equal(hi->type, PTX_T_S32);
    assert_int_equal(must_find("mul.hi.u64", PTX_OP_MUL)->type, PTX_T_U64);
    const ptx_instr *sad = must_find("sad.s32", PTX_OP_SAD);
    assert_int_equal(sad->nops, 4);
    const ptx_instr *selp = must_find("selp.b32 \t%r32, 4, 11, %p1", PTX_OP_SELP);
    assert_int_equal(selp->ops[1].imm, 4);
    assert_int_equal(selp->ops[2].imm, 11);
    const ptx_instr *mad = must_find("mad.lo.s32", PTX_OP_MAD);
    assert_int_equal(mad->flags, PTX_F_LO);
    assert_int_equal(mad->ops[2].imm, 3);
    const ptx_instr *shr = must_find("shr.s64", PTX_OP_SHR);
    assert_int_equal(shr->type, PTX_T_S64);
    assert_int_equal(shr->ops[2].imm, 41);
}

static void carry_chain(void **state)
{
    (void)state;
    const ptx_instr *add = must_find("add.cc.s64", PTX_OP_ADD);
    assert_int_equal(add->flags, PTX_F_CC);
    const ptx_instr *addc = must_find("addc.cc.s64", PTX_OP_ADD);
    assert_int_equal(addc->flags, PTX_F_CC | PTX_F_CARRY_IN);
    assert_int_equal(addc->ops[2].kind, PTX_OPND_IMM);
    assert_int_equal(addc->ops[2].imm, 0);
    assert_ptr_equal(addc, add + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(conversions_between_every_width),
        cmocka_unit_test(half_arithmetic_inside_asm_braces),
        cmocka_unit_test(float_math_modifiers_and_immediates),
        cmocka_unit_test(integer_bit_operations),
        cmocka_unit_test(carry_chain),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
