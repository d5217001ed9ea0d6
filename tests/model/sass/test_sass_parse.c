/* test_sass_parse.c - the SASS reader (src/model/sass.c, sass_decode.c) on
 * real disassembler output and on malformed text.
 *
 *   ctest --test-dir build -R test_sass_parse
 *
 * fixtures/kernels.cu compiled by fixtures/regen.sh: kernels.sass is
 * `nvdisasm -gp -c` (PTX lines), kernels_g.sass `nvdisasm -g -c` (source
 * lines), kernels_cuobjdump.sass `cuobjdump -sass` (no lines). Expected
 * lines are found by searching the fixtures' own text, so a regenerated
 * fixture keeps the tests meaningful.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sass_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 1-based line of the first occurrence of needle in fixtures/file. */
static uint32_t line_of(const char *file, const char *needle)
{
    size_t len;
    char *text = fixture_text(file, &len);
    char *at = strstr(text, needle);
    if (at == NULL)
        fail_msg("'%s' not in %s", needle, file);
    uint32_t line = 1;
    for (char *p = text; p < at; p++)
        line += *p == '\n';
    free(text);
    return line;
}

/* The k-th instruction (0-based) of function fn whose opcode starts with
 * `opcode`, or fails. */
static const sass_instr *find(const sass_module *s, const char *fn,
                              const char *opcode, int k)
{
    int f = sass_find_function(s, fn);
    if (f < 0)
        fail_msg("no function %s", fn);
    for (int i = 0; i < s->functions[f].ncode; i++) {
        const sass_instr *ins = &s->functions[f].code[i];
        if (strncmp(ins->opcode, opcode, strlen(opcode)) == 0 && k-- == 0)
            return ins;
    }
    fail_msg("%s has no %s", fn, opcode);
    return NULL;
}

#define PAIRS "_Z5pairsPKfPf"
#define VEC "_Z10vec_unusedPK6float4Pf"
#define GUARDED "_Z7guardedPKfPfj"
#define ATOMICS "_Z7atomicsPKiPiPy"
#define BYTES "_Z5bytesPKhPti"

/* nvdisasm -gp: every kernel, the helper compiled into guarded's section,
 * PTX lines, widths, spaces, guards, addresses, stretches. */
static void test_ptx_lines(void **state)
{
    (void)state;
    sass_module *s = fixture_sass("kernels.sass");
    assert_int_equal(s->nfunctions, 6);
    assert_true(sass_find_function(s, "$" GUARDED "$_Z6helperPKfi") >= 0);
    assert_true(s->ptx_file > 0);
    assert_string_equal(s->files[s->ptx_file], ".nv_debug_ptx_txt");
    assert_true(s->has_lines);

    /* ptxas merged the two 4-byte shared loads into one LDS.64 on the
       first one's PTX line */
    const sass_instr *lds = find(s, PAIRS, "LDS", 0);
    assert_string_equal(lds->opcode, "LDS.64");
    assert_int_equal(lds->kind, SASS_K_MEMORY);
    assert_int_equal(lds->space, PTX_S_SHARED);
    assert_int_equal(lds->access, SASS_A_LOAD);
    assert_int_equal(lds->width, 8);
    assert_false(lds->guarded);
    assert_int_equal(lds->file, s->ptx_file);
    assert_int_equal(lds->line, line_of("kernels.ptx", "ld.shared.f32 \t%f2"));
    assert_int_equal(lds->text_line, line_of("kernels.sass", "LDS.64"));
    assert_string_equal(lds->addr_base, "R6+UR4");

    /* float4 with .y, .w unused: two 4-byte loads 8 bytes apart */
    const sass_instr *a = find(s, VEC, "LDG", 0), *b = find(s, VEC, "LDG", 1);
    assert_int_equal(a->width, 4);
    assert_int_equal(b->width, 4);
    assert_string_equal(a->addr_base, "R2.64");
    assert_int_equal(a->addr_offset, 0);
    assert_int_equal(b->addr_offset, 8);
    assert_int_equal(a->line, b->line);

    /* guards, control, barriers, stretches */
    const sass_instr *g = find(s, GUARDED, "LDS", 0);
    assert_true(g->guarded);
    assert_true(g->guard_neg);
    assert_int_equal(g->guard_pred, 0);
    assert_false(g->guard_uniform);
    assert_int_equal(find(s, GUARDED, "BAR", 0)->kind, SASS_K_BARRIER);
    assert_int_equal(find(s, GUARDED, "CALL", 0)->kind, SASS_K_CONTROL);
    const sass_instr *exit = find(s, GUARDED, "EXIT", 0);
    assert_int_equal(exit->kind, SASS_K_CONTROL);
    assert_true(exit->guarded);
    assert_true(find(s, GUARDED, "LDS", 2)->block > g->block);
    assert_int_equal(find(s, GUARDED, "LDG", 0)->guard_pred, 0);

    /* atomics: shared, global (predicated by the aggregation's leader),
       a 64-bit REDG */
    const sass_instr *as = find(s, ATOMICS, "ATOMS", 0);
    assert_int_equal(as->space, PTX_S_SHARED);
    assert_int_equal(as->access, SASS_A_ATOMIC);
    const sass_instr *ag = find(s, ATOMICS, "ATOMG", 0);
    assert_int_equal(ag->space, PTX_S_GLOBAL);
    assert_true(ag->guarded);
    assert_false(ag->guard_neg);
    assert_int_equal(ag->guard_pred, 1);
    const sass_instr *red = find(s, ATOMICS, "REDG.E.ADD.64", 0);
    assert_int_equal(red->access, SASS_A_REDUCTION);
    assert_int_equal(red->width, 8);
    assert_int_equal(find(s, ATOMICS, "REDUX", 0)->kind, SASS_K_OTHER);

    /* bytes and half-words; offsets step by 16 */
    assert_int_equal(find(s, BYTES, "LDG.E.U8", 0)->width, 1);
    assert_int_equal(find(s, BYTES, "STG.E.U16", 0)->width, 2);
    int f = sass_find_function(s, BYTES);
    assert_int_equal(s->functions[f].code[0].offset, 0);
    assert_int_equal(s->functions[f].code[1].offset, 0x10);
    assert_int_equal(find(s, BYTES, "LDG.E.U8", 1)->addr_offset, 1);
    sass_module_free(s);
}

/* nvdisasm -g: source lines of kernels.cu, no PTX file. */
static void test_source_lines(void **state)
{
    (void)state;
    sass_module *s = fixture_sass("kernels_g.sass");
    assert_int_equal(s->ptx_file, 0);
    assert_true(s->has_lines);
    const sass_instr *lds = find(s, PAIRS, "LDS.64", 0);
    assert_non_null(strstr(s->files[lds->file], "kernels.cu"));
    assert_int_equal(lds->line, line_of("kernels.cu", "float a = s["));
    sass_module_free(s);
}

/* cuobjdump -sass: the kernels, no lines, encodings skipped. */
static void test_cuobjdump(void **state)
{
    (void)state;
    sass_module *s = fixture_sass("kernels_cuobjdump.sass");
    assert_int_equal(s->nfunctions, 5);
    assert_false(s->has_lines);
    assert_int_equal(s->ptx_file, 0);
    assert_int_equal(find(s, PAIRS, "LDS.64", 0)->width, 8);
    assert_int_equal(find(s, PAIRS, "LDS.64", 0)->line, 0);
    sass_module_free(s);
}

/* One instruction's text, decoded. */
static sass_instr decoded(const char *text, int ok)
{
    sass_instr ins;
    char why[160];
    memset(&ins, 0, sizeof ins);
    int rc = sass_decode(text, strlen(text), &ins, why, sizeof why);
    if ((rc == 0) != ok)
        fail_msg("'%s': %s", text, rc == 0 ? "decoded" : why);
    return ins;
}

static void test_decode(void **state)
{
    (void)state;
    sass_instr i = decoded("@!UP2 LDG.E.128.CONSTANT R4, desc[UR4][R2.64+-0x10]", 1);
    assert_true(i.guarded);
    assert_true(i.guard_uniform);
    assert_true(i.guard_neg);
    assert_int_equal(i.guard_pred, 2);
    assert_int_equal(i.width, 16);
    assert_int_equal(i.addr_offset, -16);
    assert_string_equal(i.opcode, "LDG.E.128.CONSTANT");
    i = decoded("STS.U16 [R3+0x2], R5", 1);
    assert_int_equal(i.width, 2);
    assert_int_equal(i.access, SASS_A_STORE);
    assert_int_equal(i.addr_offset, 2);
    i = decoded("ATOMG.E.ADD.F64.RN.STRONG.GPU PT, R4, desc[UR4][R2.64], R6", 1);
    assert_int_equal(i.width, 8);
    assert_int_equal(i.access, SASS_A_ATOMIC);
    i = decoded("RED.E.ADD.STRONG.GPU desc[UR6][R2.64], R5", 1);
    assert_int_equal(i.space, PTX_S_GENERIC);
    assert_int_equal(i.access, SASS_A_REDUCTION);
    assert_int_equal(i.width, 4);
    i = decoded("LDL.64 R2, [R1+0x8]", 1);
    assert_int_equal(i.space, PTX_S_LOCAL);
    assert_int_equal(i.width, 8);
    i = decoded("LD.E.S8 R2, desc[UR4][R2.64]", 1);
    assert_int_equal(i.space, PTX_S_GENERIC);
    assert_int_equal(i.width, 1);
    assert_int_equal(decoded("BRA.DIV UR4, `(.L_x_1)", 1).kind, SASS_K_CONTROL);
    assert_int_equal(decoded("WARPSYNC.COLLECTIVE R4, `(.L_x_2)", 1).kind,
                     SASS_K_CONTROL);
    assert_int_equal(decoded("WARPSYNC 0xffffffff", 1).kind, SASS_K_OTHER);
    assert_int_equal(decoded("LDC R1, c[0x0][0x28]", 1).kind, SASS_K_OTHER);
    assert_int_equal(decoded("LDSM.16.M88.4 R4, [R2]", 1).kind, SASS_K_OTHER);
    assert_false(decoded("@PT LDS R0, [R1]", 1).guarded);
    assert_true(decoded("@!PT LDS R0, [R1]", 1).guarded);
    decoded("@Q0 LDS R0, [R1]", 0);
    decoded("@P7 LDS R0, [R1]", 0);
    decoded("@P0LDS R0, [R1]", 0);
    decoded("", 0);
    decoded("   ", 0);
    decoded("@P0", 0);
    decoded("lds r0, [r1]", 0);
}

/* Malformed text: the first error, its line and what it says. */
static void test_malformed(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t line;
        const char *says;
    } cases[] = {
        {"", 0, "no function"},
        {"\t.target sm_90\n// nothing\n", 0, "no function"},
        {"        /*0000*/ LDS R0, [R1] ;\n", 1, "outside any function"},
        {".type f,@function\nf:\n        /*0000*/ LDS R0, [R1]\n", 3,
         "without its ';'"},
        {".type f,@function\n        /*00g0*/ NOP ;\n", 2, "offset"},
        {".type f,@function\n        /*000000000*/ NOP ;\n", 2, "offset"},
        {".type f,@function\n        /*0000 NOP ;\n", 2, "offset"},
        {".type f,@function\n        /*0000*/ @Q1 NOP ;\n", 2, "guard"},
        {".type f,@function\n        /*0000*/ ;\n", 2, "no mnemonic"},
        {".type f,@function\n//## File \"a.cu, line 3\n", 2, "closing quote"},
        {".type f,@function\n//## File \"a.cu\", col 3\n", 2, ", line N"},
        {".type f,@function\n//## File \"a.cu\", line x\n", 2, ", line N"},
        {".type f,@function\n        /*0000*/ NOP ;\nwhat is this\n", 3,
         "unexpected text"},
        {".type ,@function\n", 1, "without a name"},
        {"\t\tFunction : \n", 1, "without a name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sass_error err;
        sass_module *s = sass_parse(cases[i].text, strlen(cases[i].text), &err);
        if (s != NULL)
            fail_msg("case %zu parsed", i);
        if (err.line != cases[i].line || strstr(err.message, cases[i].says) == NULL)
            fail_msg("case %zu: line %u, '%s'", i, err.line, err.message);
    }
    /* a NUL byte, and a line far too long */
    const char nul[] = ".type f,@function\n  /*0000*/ N\0P ;\n";
    sass_error err;
    assert_null(sass_parse(nul, sizeof nul - 1, &err));
    assert_int_equal(err.line, 2);
    assert_non_null(strstr(err.message, "NUL"));
    size_t n = 20000;
    char *longline = malloc(n + 32);
    strcpy(longline, ".type f,@function\n");
    memset(longline + strlen(longline), 'x', n);
    longline[18 + n] = '\0';
    assert_null(sass_parse(longline, strlen(longline), &err));
    assert_int_equal(err.line, 2);
    free(longline);
    /* NULL text and a NULL error are fine */
    assert_null(sass_parse(NULL, 10, NULL));
}

/* Every prefix of the fixture (whole lines and a cut line) and a thousand
 * corrupted copies parse or fail with a line; none crashes (run under the
 * sanitizers in CI's debug builds). */
static void test_truncated_and_corrupted(void **state)
{
    (void)state;
    size_t len;
    char *text = fixture_text("kernels.sass", &len);
    for (size_t cut = 0; cut < len; cut += 97) {
        sass_error err;
        sass_module *s = sass_parse(text, cut, &err);
        if (s == NULL)
            assert_true(err.message[0] != '\0');
        sass_module_free(s);
    }
    char *copy = malloc(len);
    uint64_t seed = 12345;
    for (int round = 0; round < 1000; round++) {
        memcpy(copy, text, len);
        for (int k = 0; k < 8; k++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(seed >> 33) % len;
            copy[at] = (char)(seed >> 20);
        }
        sass_error err;
        sass_module *s = sass_parse(copy, len, &err);
        if (s == NULL)
            assert_true(err.message[0] != '\0');
        sass_module_free(s);
    }
    free(copy);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptx_lines),
        cmocka_unit_test(test_source_lines),
        cmocka_unit_test(test_cuobjdump),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_truncated_and_corrupted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
