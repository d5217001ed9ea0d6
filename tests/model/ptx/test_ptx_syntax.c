/* test_ptx_syntax.c - the parser on hand-written PTX: the grammar's corners
 * nvcc seldom or never emits (prototypes and forward calls, nested scopes,
 * every literal and address form, initialisers, the shared layout across
 * kernels and callees, .loc inline chains, sections, directives), and the
 * forms of the sm_90 instructions (clusters, griddepcontrol).
 *
 *   ctest --test-dir build -R test_ptx_syntax
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ptx.h"

#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"

/* Parses `text`, failing the test with the parser's message on error. */
static cured_model_module *parse_ok(const char *text)
{
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse(text, strlen(text), &err);
    if (m == NULL)
        fail_msg("parse failed: %s", err.message);
    return m;
}

static const ptx_function *function(const cured_model_module *m, const char *name)
{
    int f = cured_model_find_function(m, name);
    if (f < 0)
        fail_msg("no function %s", name);
    return &m->functions[f];
}

static const ptx_symbol *symbol(const cured_model_module *m, const char *name)
{
    for (int s = 0; s < m->nsymbols; s++)
        if (strcmp(m->symbols[s].name, name) == 0)
            return &m->symbols[s];
    fail_msg("no symbol %s", name);
    return NULL;
}

static int symbol_index(const cured_model_module *m, const char *name)
{
    return (int)(symbol(m, name) - m->symbols);
}

static int reg(const ptx_function *fn, const char *name)
{
    for (int r = 0; r < fn->nregs; r++)
        if (strcmp(fn->regs[r].name, name) == 0)
            return r;
    fail_msg("no register %s", name);
    return -1;
}

static void empty_and_minimal_modules(void **state)
{
    (void)state;
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse("", 0, &err);
    assert_non_null(m);
    assert_int_equal(m->nfunctions, 0);
    cured_model_module_free(m);
    m = cured_model_parse(NULL, 0, NULL);
    assert_non_null(m);
    cured_model_module_free(m);
    cured_model_module_free(NULL);

    m = parse_ok("/* a block\n comment */ .version 7.8 // and a line comment\n"
                 ".target sm_80, texmode_independent\n.address_size 32\n"
                 ".visible .entry k()\n.maxntid 256, 2, 1\n.reqntid 128\n"
                 ".minnctapersm 2\n.pragma \"nounroll\";\n{\n\tret;\n}\n");
    assert_int_equal(m->version_major, 7);
    assert_int_equal(m->version_minor, 8);
    assert_string_equal(m->target, "sm_80");
    assert_int_equal(m->address_size, 32);
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->max_ntid[0], 256);
    assert_int_equal(k->max_ntid[1], 2);
    assert_int_equal(k->max_ntid[2], 1);
    assert_int_equal(k->reqntid[0], 128);
    assert_int_equal(k->reqntid[1], 0);
    assert_int_equal(k->nparams, 0);
    assert_int_equal(k->ncode, 1);
    assert_int_equal(k->code[0].op, PTX_OP_RET);
    assert_int_equal(k->code[0].ptx_line, 11);
    cured_model_module_free(m);
}

static void prototypes_forward_calls_and_externs(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".extern .func (.param .b32 status) vprintf(.param .b64 fmt, .param .b64 args);\n"
        ".func (.param .b32 r) twice(.param .b32 a);\n"
        ".visible .entry k(.param .u64 out)\n"
        "{\n"
        "  .reg .b32 %r<3>;\n"
        "  mov.u32 %r1, 21;\n"
        "  {\n"
        "    .param .b32 p0;\n"
        "    .param .b32 ret0;\n"
        "    st.param.b32 [p0], %r1;\n"
        "    call.uni (ret0), twice, (p0);\n"
        "    ld.param.b32 %r2, [ret0];\n"
        "  }\n"
        "  call later;\n"
        "  call.uni later, ();\n"
        "  ret;\n"
        "}\n"
        ".func (.param .b32 r) twice(.param .b32 a)\n"
        "{\n"
        "  .reg .b32 %x;\n"
        "  ld.param.b32 %x, [a];\n"
        "  add.s32 %x, %x, %x;\n"
        "  st.param.b32 [r], %x;\n"
        "  ret;\n"
        "}\n"
        ".func (.param .b32 r) twice(.param .b32 a);\n"   /* again, after */
        ".weak .func later()\n{\n  ret.uni;\n}\n");
    assert_int_equal(m->nfunctions, 4);
    const ptx_function *vp = function(m, "vprintf");
    assert_false(vp->has_body);
    assert_int_equal(vp->ncode, 0);
    assert_int_equal(vp->nparams, 2);
    assert_int_equal(vp->param_bytes, 16);
    const ptx_function *tw = function(m, "twice");
    assert_true(tw->has_body);
    assert_int_equal(tw->ncode, 4);
    assert_int_equal(tw->nparams, 1);
    /* the definition's own params, not either prototype's */
    assert_int_equal(tw->code[0].ops[1].sym, tw->params[0]);
    assert_int_equal(tw->code[2].ops[0].sym, tw->rets[0]);
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->code[2].op, PTX_OP_CALL);
    assert_int_equal(k->code[2].callee, cured_model_find_function(m, "twice"));
    assert_int_equal(k->code[2].call_nret, 1);
    assert_int_equal(k->code[2].call_nargs, 1);
    assert_int_equal(k->code[4].op, PTX_OP_CALL);
    assert_int_equal(k->code[4].callee, cured_model_find_function(m, "later"));
    assert_int_equal(k->code[4].call_nargs, 0);
    assert_int_equal(k->code[4].flags, 0);
    assert_int_equal(k->code[5].callee, cured_model_find_function(m, "later"));
    assert_int_equal(k->code[5].flags, PTX_F_UNI);
    const ptx_function *later = function(m, "later");
    assert_true(later->is_visible);
    assert_int_equal(later->code[0].flags, PTX_F_UNI);
    cured_model_module_free(m);
}

static void nested_scopes_shadow_and_unwind(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        "  .reg .b32 %r<0>;\n"
        "  .reg .b32 a, b;\n"
        "  .reg .pred %p<2>;\n"
        "  mov.u32 a, 1;\n"
        "  { .reg .b32 a; mov.u32 a, 2; { .reg .b32 a; mov.u32 a, 3; } mov.u32 a, 4; }\n"
        "  mov.u32 a, 5;\n"
        "  @!%p1 bra END;\n"
        "  mov.u32 b, a;\n"
        "END:\n"
        "}\n");
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->nregs, 2 + 2 + 2);
    int outer = reg(k, "a");
    int slot[5];
    for (int i = 0; i < 5; i++) {
        assert_int_equal(k->code[i].op, PTX_OP_MOV);
        assert_int_equal(k->code[i].ops[1].imm, i + 1);
        slot[i] = k->code[i].ops[0].reg;
    }
    assert_int_equal(slot[0], outer);
    assert_int_not_equal(slot[1], outer);
    assert_int_not_equal(slot[2], slot[1]);
    assert_int_equal(slot[3], slot[1]);
    assert_int_equal(slot[4], outer);
    const ptx_instr *bra = &k->code[5];
    assert_int_equal(bra->guard, reg(k, "%p1"));
    assert_int_equal(bra->guard_neg, 1);
    assert_int_equal(bra->ops[0].imm, 7);   /* a label at the very end: ncode */
    assert_int_equal(k->ncode, 7);
    cured_model_module_free(m);
}

/* Labels belong to their block, as ptxas scopes them: sibling blocks (two
 * copies of one inline asm) may reuse a name; a branch reaches its own
 * block's labels and its enclosing blocks', before or after it. */
static void labels_are_block_scoped(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        "  .reg .b32 %r; .reg .pred %p;\n"
        "  { @%p bra L1; add.u32 %r, %r, 1; L1: }\n"          /* 0 1 */
        "  { @%p bra L1; add.u32 %r, %r, 2; L1: bra OUT; }\n" /* 2 3 4 */
        "  L1:\n"
        "  { { bra L1; } }\n"                                  /* 5 */
        "  mov.u32 %r, 0;\n"                                   /* 6 */
        "OUT:\n"
        "  ret;\n"                                             /* 7 */
        "}\n");
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->ncode, 8);
    assert_int_equal(k->code[0].ops[0].imm, 2);   /* the first block's L1 */
    assert_int_equal(k->code[2].ops[0].imm, 4);   /* the second block's L1 */
    assert_int_equal(k->code[4].ops[0].imm, 7);   /* OUT, after the block */
    assert_int_equal(k->code[5].ops[0].imm, 5);   /* the outer L1 */
    cured_model_module_free(m);
}

static void literals_in_every_form(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        "  .reg .b32 %r<2>; .reg .b64 %rd<2>; .reg .f32 %f<2>; .reg .f64 %fd<2>;\n"
        "  .reg .pred %p;\n"
        "  add.s32 %r1, %r0, -0x10;\n"        /* 0 */
        "  add.s32 %r1, %r0, 0X1f;\n"
        "  add.s32 %r1, %r0, 0;\n"
        "  add.s32 %r1, %r0, 0B11;\n"
        "  add.u32 %r1, %r0, 1U;\n"
        "  add.s64 %rd1, %rd0, -9223372036854775808;\n"   /* 5 */
        "  add.u64 %rd1, %rd0, 18446744073709551615;\n"
        "  mov.f32 %f1, -0f3F800000;\n"
        "  mov.f32 %f1, 0d3FF0000000000000;\n"
        "  mov.f64 %fd1, 0f3F800000;\n"
        "  mov.f64 %fd1, 2.5;\n"                          /* 10 */
        "  mov.f64 %fd1, -1.;\n"
        "  setp.lt.f32 %p, %f1, 0.5;\n"
        "  mov.b32 %r1, 0f40490FDB;\n"
        "  mov.b64 %rd1, 0d400921FB54442D18;\n"
        "  cvt.rn.f32.f64 %f1, 0d3FF8000000000000;\n"     /* 15 */
        "  cvt.rn.f64.s32 %fd1, -3;\n"
        "}\n");
    const ptx_function *k = function(m, "k");
    static const uint64_t expect[] = {
        (uint64_t)-16, 31, 0, 3, 1, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFFFull,
        0xBF800000u, 0x3F800000u, 0x3FF0000000000000ull, 0x4004000000000000ull,
        0xBFF0000000000000ull, 0x3F000000u, 0x40490FDBu, 0x400921FB54442D18ull,
        0x3FF8000000000000ull, (uint64_t)-3,   /* cvt: the source type, f64 */
    };
    assert_int_equal(k->ncode, 17);
    for (int i = 0; i < k->ncode; i++) {
        const ptx_instr *ins = &k->code[i];
        const ptx_operand *imm = &ins->ops[ins->nops - 1];
        assert_int_equal(imm->kind, PTX_OPND_IMM);
        if ((uint64_t)imm->imm != expect[i])
            fail_msg("instruction %d: imm 0x%llx, expected 0x%llx", i,
                     (unsigned long long)imm->imm, (unsigned long long)expect[i]);
    }
    assert_int_equal(k->code[12].type2, PTX_T_F32);
    cured_model_module_free(m);
}

static void addresses_in_every_form(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".global .align 4 .u32 g[8];\n"
        ".entry k(.param .u64 .ptr .global .align 16 out)\n{\n"
        "  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
        "  ld.param.u64 %rd1, [out];\n"
        "  ld.u32 %r1, [%rd1+-4];\n"
        "  ld.u32 %r1, [%rd1-8];\n"
        "  ld.global.u32 %r1, [g];\n"
        "  ld.global.u32 %r1, [g+8];\n"
        "  ld.u32 %r1, [100];\n"
        "  ld.shared.u32 %r1, [%r0+0x10];\n"
        "  atom.add.u32 %r1, [%rd1], 1;\n"
        "  mov.u64 %rd1, g;\n"
        "  ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd0;\n"
        "}\n");
    const ptx_function *k = function(m, "k");
    const ptx_symbol *out = &m->symbols[k->params[0]];
    assert_true(out->is_ptr_param);
    assert_int_equal(out->align, 8);   /* the pointee's .align is not the param's */
    int g = symbol_index(m, "g");
    const struct { int reg; int sym; int64_t imm; } expect[] = {
        {-1, k->params[0], 0}, {reg(k, "%rd1"), -1, -4}, {reg(k, "%rd1"), -1, -8},
        {-1, g, 0}, {-1, g, 8}, {-1, -1, 100}, {reg(k, "%r0"), -1, 16},
    };
    for (int i = 0; i < 7; i++) {
        const ptx_operand *a = &k->code[i].ops[1];
        assert_int_equal(a->kind, PTX_OPND_ADDR);
        assert_int_equal(a->reg, expect[i].reg);
        assert_int_equal(a->sym, expect[i].sym);
        assert_int_equal(a->imm, expect[i].imm);
    }
    assert_int_equal(k->code[1].space, PTX_S_GENERIC);
    assert_int_equal(k->code[7].op, PTX_OP_ATOM);
    assert_int_equal(k->code[7].space, PTX_S_GENERIC);
    assert_int_equal(k->code[8].ops[1].kind, PTX_OPND_SYM);
    assert_int_equal(k->code[8].ops[1].sym, g);
    assert_int_equal(k->code[9].nops, 3);
    assert_int_equal(k->code[9].ops[2].reg, reg(k, "%rd0"));
    cured_model_module_free(m);
}

static void initialisers_and_data_image(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".global .u32 g[4] = {1, 2, 0xFFFFFFFF};\n"
        ".global .f32 one = 0f3F800000;\n"
        ".const .f64 d[2] = {1.5, -2.0};\n"
        ".global .b8 s[] = {104, 105, 0};\n"
        ".global .u16 grid[2][3] = {{1, 2, 3}, {4, 5, -1}};\n"
        ".global .v2 .u32 pair = {7, 8};\n"
        ".global .align 16 .b8 aligned[3];\n"
        ".common .global .s8 neg = -128;\n");
    const ptx_symbol *g = symbol(m, "g");
    assert_int_equal(g->size, 16);
    assert_int_equal(g->offset, 0);
    uint32_t gv[4];
    memcpy(gv, g->init, sizeof gv);
    assert_int_equal(gv[0], 1);
    assert_int_equal(gv[1], 2);
    assert_int_equal(gv[2], 0xFFFFFFFFu);
    assert_int_equal(gv[3], 0);
    const ptx_symbol *one = symbol(m, "one");
    assert_int_equal(one->offset, 16);
    float f;
    memcpy(&f, one->init, 4);
    assert_true(f == 1.0f);
    const ptx_symbol *d = symbol(m, "d");
    assert_int_equal(d->space, PTX_S_CONST);
    assert_int_equal(d->offset, 24);
    double dv[2];
    memcpy(dv, d->init, sizeof dv);
    assert_true(dv[0] == 1.5 && dv[1] == -2.0);
    const ptx_symbol *s = symbol(m, "s");
    assert_int_equal(s->size, 3);
    assert_int_equal(s->offset, 40);
    assert_memory_equal(s->init, "hi", 3);
    const ptx_symbol *grid = symbol(m, "grid");
    assert_int_equal(grid->size, 12);
    assert_int_equal(grid->offset, 44);
    uint16_t gr[6];
    memcpy(gr, grid->init, sizeof gr);
    assert_int_equal(gr[3], 4);
    assert_int_equal(gr[5], 0xFFFF);
    const ptx_symbol *pair = symbol(m, "pair");
    assert_int_equal(pair->size, 8);
    assert_int_equal(pair->align, 8);
    assert_int_equal(pair->offset, 56);
    const ptx_symbol *al = symbol(m, "aligned");
    assert_null(al->init);
    assert_int_equal(al->offset, 64);
    const ptx_symbol *neg = symbol(m, "neg");
    assert_int_equal(neg->offset, 67);
    assert_int_equal(neg->init[0], 0x80);
    assert_int_equal(m->global_bytes, 68);
    cured_model_module_free(m);
}

static void parameter_block_alignment(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k(.param .u8 a, .param .u64 b, .param .u16 c,\n"
        "         .param .align 16 .b8 d[20], .param .f32 e)\n{ ret; }\n");
    const ptx_function *k = function(m, "k");
    static const uint64_t offsets[] = {0, 8, 16, 32, 52};
    static const uint64_t sizes[] = {1, 8, 2, 20, 4};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(m->symbols[k->params[i]].offset, offsets[i]);
        assert_int_equal(m->symbols[k->params[i]].size, sizes[i]);
    }
    assert_int_equal(m->symbols[k->params[3]].align, 16);
    assert_int_equal(k->param_bytes, 56);
    cured_model_module_free(m);
}

static void shared_layout_across_kernels_and_callees(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".shared .align 8 .b8 common[24];\n"
        ".shared .align 4 .b8 only_b[100];\n"
        ".shared .align 4 .b8 unused[1000];\n"
        ".extern .shared .align 32 .b8 dyn[];\n"
        ".func helper()\n{\n .reg .b32 %r; mov.u32 %r, common; ret;\n}\n"
        ".entry a()\n{\n"
        "  .shared .align 4 .b8 own_a[40];\n"
        "  .reg .b32 %r;\n"
        "  mov.u32 %r, own_a;\n"
        "  call helper;\n"
        "  mov.u32 %r, dyn;\n"
        "}\n"
        ".entry b()\n{\n"
        "  .shared .align 16 .b8 own_b[16];\n"
        "  .reg .b32 %r;\n"
        "  ld.shared.u32 %r, [only_b+4];\n"
        "  ld.shared.u32 %r, [own_b];\n"
        "}\n"
        ".entry c()\n{\n ret;\n}\n");
    /* a uses common (through helper), own_a and dyn; b uses only_b, own_b */
    assert_int_equal(symbol(m, "common")->offset, 0);
    assert_int_equal(symbol(m, "only_b")->offset, 0);
    assert_int_equal(symbol(m, "unused")->offset, 0);
    assert_int_equal(symbol(m, "own_a")->offset, 24);
    assert_int_equal(symbol(m, "own_b")->offset, 112);
    assert_int_equal(m->shared_extern_align, 32);
    assert_int_equal(symbol(m, "dyn")->offset, 64);
    assert_int_equal(function(m, "a")->shared_static_bytes, 64);
    assert_int_equal(function(m, "b")->shared_static_bytes, 128);
    assert_int_equal(function(m, "c")->shared_static_bytes, 0);
    assert_int_equal(function(m, "helper")->shared_static_bytes, 24);
    cured_model_module_free(m);
}

static void loc_inline_chains_files_sections(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        "  .reg .f32 %f<3>;\n"
        "  .loc 1 4 30\n"
        "  mov.f32 %f1, 0f00000000;\n"
        "  .loc 1 3 73, function_name $L__info_string0, inlined_at 1 4 30\n"
        "  .loc 1 2 73, function_name $L__info_string1, inlined_at 1 3 73\n"
        "  .loc 2 1 73, function_name $L__info_string2+12, inlined_at 1 2 73\n"
        "  add.f32 %f2, %f1, %f1;\n"
        "  .loc 1 3 73, function_name $L__info_string0, inlined_at 1 4 30\n"
        "  add.f32 %f2, %f2, %f1;\n"
        "  .loc 3 9\n"
        "  ret;\n"
        "  .loc 7 1 1\n"
        "  ret;\n"
        "}\n"
        "\t.file\t1 \"/src/a.cu\"\n"
        "\t.file\t3 \"C:\\\\dir\\\\b.cuh\", 1700000000, 4096\n"
        "\t.file\t2 \"inner.cuh\"\n"
        "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,0\n{ nested }\n\t}\n"
        "\t.section .debug_info { .b32 $L__info_string0 }\n");
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->code[0].src_line, 4);
    assert_int_equal(k->code[0].site_line, 4);
    assert_int_equal(k->code[1].src_file, 2);
    assert_int_equal(k->code[1].src_line, 1);
    assert_int_equal(k->code[1].site_file, 1);
    assert_int_equal(k->code[1].site_line, 4);   /* outermost, through the chain */
    assert_int_equal(k->code[2].src_line, 3);
    assert_int_equal(k->code[2].site_line, 4);
    assert_int_equal(k->code[3].src_file, 3);
    assert_int_equal(k->code[3].src_line, 9);
    assert_int_equal(k->code[3].site_line, 9);
    assert_int_equal(k->code[4].src_file, 7);   /* no .file 7: ptxas warns */
    assert_int_equal(m->nfiles, 8);
    assert_null(m->files[7]);
    assert_null(m->files[5]);
    assert_string_equal(m->files[1], "/src/a.cu");
    assert_string_equal(m->files[3], "C:\\dir\\b.cuh");
    assert_string_equal(m->files[2], "inner.cuh");
    cured_model_module_free(m);
}

/* The user line: the innermost .loc outside the CUDA toolkit's headers.
 * An intrinsic inlined into a user header function inlined into the
 * kernel belongs to the header's calling line (warp.cuh:82), not the
 * intrinsic's (sm_30_intrinsics.hpp:440) nor the kernel's (k.cu:12); an
 * atomicAdd whose toolkit code calls more toolkit code belongs to the
 * kernel line that calls it (k.cu:20), through an inlined_at no recent
 * .loc named. `.file`s come last, as nvcc writes them. */
static void loc_user_lines_skip_toolkit_headers(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        "  .reg .f32 %f<3>;\n"
        "  .loc 1 12 5\n"
        "  mov.f32 %f1, 0f00000000;\n"
        "  .loc 2 82 9, function_name $L__info_string0, inlined_at 1 12 5\n"
        "  mov.f32 %f2, %f1;\n"
        "  .loc 3 440 9, function_name $L__info_string1, inlined_at 2 82 9\n"
        "  mov.f32 %f2, %f1;\n"
        "  .loc 5 91 3, function_name $L__info_string3, inlined_at 1 20 7\n"
        "  add.f32 %f2, %f2, %f1;\n"
        "  .loc 4 84 3, function_name $L__info_string2, inlined_at 5 91 3\n"
        "  add.f32 %f2, %f2, %f1;\n"
        "  .loc 3 7 1\n"
        "  ret;\n"
        "  .loc 1 0 0\n"
        "  ret;\n"
        "}\n"
        "\t.file\t1 \"/home/u/k.cu\"\n"
        "\t.file\t2 \"/home/u/warp.cuh\"\n"
        "\t.file\t3 \"/usr/local/cuda/bin/../targets/x86_64-linux/include/sm_30_intrinsics.hpp\"\n"
        "\t.file\t4 \"/opt/sdk/include/sm_20_atomic_functions.hpp\"\n"
        "\t.file\t5 \"device_atomic_functions.hpp\"\n");
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->code[0].user_file, 1);
    assert_int_equal(k->code[0].user_line, 12);
    assert_int_equal(k->code[1].user_file, 2);    /* a user header: itself */
    assert_int_equal(k->code[1].user_line, 82);
    assert_int_equal(k->code[2].src_file, 3);
    assert_int_equal(k->code[2].user_file, 2);    /* the intrinsic's caller */
    assert_int_equal(k->code[2].user_line, 82);
    assert_int_equal(k->code[2].site_line, 12);   /* the outermost, unchanged */
    assert_int_equal(k->code[3].src_file, 5);
    assert_int_equal(k->code[3].user_file, 1);
    assert_int_equal(k->code[3].user_line, 20);
    assert_int_equal(k->code[4].src_file, 4);
    assert_int_equal(k->code[4].user_file, 1);    /* two toolkit frames up */
    assert_int_equal(k->code[4].user_line, 20);
    assert_int_equal(k->code[5].user_file, 3);    /* toolkit code, no caller */
    assert_int_equal(k->code[5].user_line, 7);
    assert_int_equal(k->code[6].user_file, 0);    /* no line */
    assert_int_equal(k->code[6].user_line, 0);
    assert_true(ptx_toolkit_file(m, 3));
    assert_true(ptx_toolkit_file(m, 4));
    assert_true(ptx_toolkit_file(m, 5));
    assert_false(ptx_toolkit_file(m, 1));
    assert_false(ptx_toolkit_file(m, 2));
    assert_false(ptx_toolkit_file(m, 9));
    cured_model_module_free(m);
}

static void locals_in_device_functions(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".func f()\n{\n"
        "  .local .align 4 .b8 depot[12];\n"
        "  .local .align 8 .u64 slot;\n"
        "  .reg .b64 %rd;\n"
        "  mov.u64 %rd, depot;\n"
        "  st.local.u64 [slot], %rd;\n"
        "  ret;\n"
        "}\n");
    assert_int_equal(symbol(m, "depot")->offset, 0);
    assert_int_equal(symbol(m, "slot")->offset, 16);
    assert_int_equal(function(m, "f")->local_bytes, 24);
    cured_model_module_free(m);
}

/* Forms from CUDA's own headers and newer nvcc: directive words written
 * without spaces, .relu, vector atomics, %envreg, dotted section names. */
static void header_and_sm90_forms(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k(.param .u64 p)\n{\n"
        "  .reg .b64 %rd<2>; .reg .f32 %f<9>; .reg .b16 %h<4>; .reg .b32 %r;\n"
        "  {.reg.b32 f;\n .reg.b16 r;\n mov.b16 r, %h1;\n cvt.f32.f16 f, r;\n}\n"
        "  fma.rn.relu.f16 %h1, %h2, %h3, %h0;\n"
        "  atom.global.add.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};\n"
        "  red.global.add.v4.f32 [%rd1+16], {%f5, %f6, %f7, %f8};\n"
        "  atom.add.noftz.f16x2 %r, [%rd1], %r;\n"
        "  mov.u32 %r, %envreg31;\n"
        "  mov.u32 %r, %envreg2;\n"
        "  max.NaN.f16 %h1, %h2, %h3;\n"
        "}\n"
        ".section .nv.info { .b32 1 }\n");
    const ptx_function *k = function(m, "k");
    assert_int_equal(k->nregs, 2 + 9 + 4 + 1 + 2);
    assert_string_equal(k->regs[k->code[0].ops[0].reg].name, "r");
    assert_int_equal(k->regs[k->code[0].ops[0].reg].type, PTX_T_B16);
    assert_int_equal(k->regs[k->code[1].ops[0].reg].type, PTX_T_B32);
    assert_int_equal(k->code[2].op, PTX_OP_FMA);
    assert_int_equal(k->code[2].flags, PTX_F_RELU);
    const ptx_instr *atom = &k->code[3];
    assert_int_equal(atom->vec, 2);
    assert_int_equal(atom->type, PTX_T_F32);
    assert_int_equal(atom->ops[0].kind, PTX_OPND_VEC);
    assert_int_equal(atom->ops[0].vec_count, 2);
    assert_int_equal(atom->ops[2].kind, PTX_OPND_VEC);
    const ptx_instr *red = &k->code[4];
    assert_int_equal(red->vec, 4);
    assert_int_equal(red->ops[1].vec_count, 4);
    assert_int_equal(red->ops[0].imm, 16);
    assert_int_equal(k->code[5].type, PTX_T_F16X2);
    assert_int_equal(k->code[5].flags, PTX_F_NOFTZ);
    assert_int_equal(k->code[6].ops[1].sreg, PTX_SREG_ENVREG);
    assert_int_equal(k->code[6].ops[1].comp, 31);
    assert_int_equal(k->code[7].ops[1].comp, 2);
    assert_int_equal(k->code[8].flags, PTX_F_NAN);
    cured_model_module_free(m);
}

static void cluster_forms(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k(.param .u64 p)\n{\n"
        "  .reg .b64 %rd<3>; .reg .b32 %r<3>;\n"
        "  .shared .align 4 .b8 sh[64];\n"
        "  barrier.cluster.arrive;\n"
        "  barrier.cluster.arrive.release.aligned;\n"
        "  barrier.cluster.arrive.relaxed;\n"
        "  barrier.cluster.wait.acquire;\n"
        "  barrier.cluster.wait.aligned;\n"
        "  mapa.u64 %rd1, %rd2, %r1;\n"
        "  mapa.shared::cluster.u32 %r1, sh, 0;\n"
        "  getctarank.shared::cluster.u32 %r2, %r1;\n"
        "  ld.shared::cluster.u32 %r2, [%r1+4];\n"
        "  st.shared::cta.u32 [%r1], %r2;\n"
        "  atom.shared::cluster.add.u32 %r2, [%r1], 1;\n"
        "  red.relaxed.cluster.shared::cluster.add.u32 [%r1], 1;\n"
        "}\n");
    const ptx_function *k = function(m, "k");
    assert_null(k->unusable);
    const ptx_instr *c = k->code;
    for (int i = 0; i < 5; i++) {
        assert_int_equal(c[i].op, PTX_OP_BAR_CLUSTER);
        assert_int_equal(c[i].nops, 0);
        assert_int_equal(c[i].sub, i < 3 ? PTX_BAR_ARRIVE : PTX_BAR_WAIT);
    }
    assert_int_equal(c[0].flags, 0);
    assert_int_equal(c[1].flags, PTX_F_ALIGNED);
    assert_int_equal(c[2].flags, PTX_F_RELAXED);
    assert_int_equal(c[3].flags, 0);
    assert_int_equal(c[4].flags, PTX_F_ALIGNED);
    assert_int_equal(c[5].op, PTX_OP_MAPA);
    assert_int_equal(c[5].space, PTX_S_GENERIC);
    assert_int_equal(c[5].nops, 3);
    assert_int_equal(c[6].space, PTX_S_SHARED);
    assert_int_equal(c[6].flags, PTX_F_CLUSTER_WINDOW);
    assert_int_equal(c[6].ops[1].kind, PTX_OPND_SYM);
    assert_int_equal(c[6].ops[1].sym, symbol_index(m, "sh"));
    assert_int_equal(c[7].op, PTX_OP_GETCTARANK);
    assert_int_equal(c[7].nops, 2);
    assert_int_equal(c[7].flags, PTX_F_CLUSTER_WINDOW);
    for (int i = 8; i < 12; i++)
        assert_int_equal(c[i].space, PTX_S_SHARED);
    assert_int_equal(c[8].flags & PTX_F_CLUSTER_WINDOW, PTX_F_CLUSTER_WINDOW);
    assert_int_equal(c[9].flags & PTX_F_CLUSTER_WINDOW, 0);
    assert_int_equal(c[10].op, PTX_OP_ATOM);
    assert_int_equal(c[11].op, PTX_OP_RED);
    assert_string_equal(ptx_opcode_name(PTX_OP_BAR_CLUSTER), "barrier.cluster");
    cured_model_module_free(m);
    /* the cluster dimensions a kernel was compiled for, with the
     * dimensions it leaves out as 1; the other cluster directives parse */
    m = parse_ok(HEADER
        ".entry one() .reqnctapercluster 1, 1, 1\n{\n  barrier.cluster.arrive;\n  ret;\n}\n"
        ".entry two() .explicitcluster .reqnctapercluster 2\n{\n  ret;\n}\n"
        ".entry four() .reqnctapercluster 2, 2, 1 .maxclusterrank 8\n{\n  ret;\n}\n"
        ".entry none()\n{\n  ret;\n}\n");
    const uint32_t one[3] = {1, 1, 1}, two[3] = {2, 1, 1}, four[3] = {2, 2, 1}, none[3] = {0};
    const char *names[4] = {"one", "two", "four", "none"};
    const uint32_t *dims[4] = {one, two, four, none};
    for (int i = 0; i < 4; i++) {
        const ptx_function *f = function(m, names[i]);
        assert_null(f->unusable);
        for (int k = 0; k < 3; k++)
            assert_int_equal(f->reqnctapercluster[k], dims[i][k]);
    }
    cured_model_module_free(m);
}

/* Programmatic dependent launch: the two actions, with no operands, bare
 * or under a guard like any instruction. */
static void griddepcontrol_forms(void **state)
{
    (void)state;
    cured_model_module *m = parse_ok(HEADER
        ".entry k()\n{\n"
        "  .reg .pred %p<2>;\n"
        "  griddepcontrol.wait;\n"
        "  griddepcontrol.launch_dependents;\n"
        "  @%p1 griddepcontrol.wait;\n"
        "  @!%p1 griddepcontrol.launch_dependents ;\n"
        "  ret;\n"
        "}\n");
    const ptx_function *k = function(m, "k");
    assert_null(k->unusable);
    assert_int_equal(k->ncode, 5);
    const ptx_instr *c = k->code;
    for (int i = 0; i < 4; i++) {
        assert_int_equal(c[i].op, PTX_OP_GRIDDEPCONTROL);
        assert_int_equal(c[i].sub, i % 2 == 0 ? PTX_GDC_WAIT : PTX_GDC_LAUNCH_DEPENDENTS);
        assert_int_equal(c[i].nops, 0);
        assert_int_equal(c[i].ndst, 0);
        assert_int_equal(c[i].type, PTX_T_NONE);
        assert_int_equal(c[i].flags, 0);
        assert_int_equal(c[i].ptx_line, 7 + (uint32_t)i);
    }
    assert_int_equal(c[0].guard, -1);
    assert_int_equal(c[1].guard, -1);
    assert_int_equal(c[2].guard, reg(k, "%p1"));
    assert_int_equal(c[2].guard_neg, 0);
    assert_int_equal(c[3].guard, reg(k, "%p1"));
    assert_int_equal(c[3].guard_neg, 1);
    assert_string_equal(ptx_opcode_name(PTX_OP_GRIDDEPCONTROL), "griddepcontrol");
    cured_model_module_free(m);
}

static void name_tables(void **state)
{
    (void)state;
    assert_int_equal(ptx_type_size(PTX_T_PRED), 1);
    assert_int_equal(ptx_type_size(PTX_T_B128), 16);
    assert_int_equal(ptx_type_size(PTX_T_F16X2), 4);
    assert_int_equal(ptx_type_size(PTX_T_NONE), 0);
    assert_int_equal(ptx_type_size((ptx_type)200), 0);
    assert_string_equal(ptx_type_name(PTX_T_BF16X2), "bf16x2");
    assert_string_equal(ptx_type_name((ptx_type)-1), "?");
    assert_string_equal(ptx_opcode_name(PTX_OP_SHFL), "shfl.sync");
    assert_string_equal(ptx_opcode_name(PTX_OP_LD), "ld");
    assert_string_equal(ptx_opcode_name(PTX_OP_COUNT), "?");
    for (int op = 1; op < PTX_OP_COUNT; op++)
        assert_string_not_equal(ptx_opcode_name((ptx_opcode)op), "?");
    for (int t = 1; t < PTX_T_COUNT; t++)
        assert_true(ptx_type_size((ptx_type)t) > 0);
    assert_int_equal(cured_model_find_function(NULL, "x"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_and_minimal_modules),
        cmocka_unit_test(prototypes_forward_calls_and_externs),
        cmocka_unit_test(nested_scopes_shadow_and_unwind),
        cmocka_unit_test(labels_are_block_scoped),
        cmocka_unit_test(literals_in_every_form),
        cmocka_unit_test(addresses_in_every_form),
        cmocka_unit_test(initialisers_and_data_image),
        cmocka_unit_test(parameter_block_alignment),
        cmocka_unit_test(shared_layout_across_kernels_and_callees),
        cmocka_unit_test(loc_inline_chains_files_sections),
        cmocka_unit_test(loc_user_lines_skip_toolkit_headers),
        cmocka_unit_test(locals_in_device_functions),
        cmocka_unit_test(header_and_sm90_forms),
        cmocka_unit_test(cluster_forms),
        cmocka_unit_test(griddepcontrol_forms),
        cmocka_unit_test(name_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
