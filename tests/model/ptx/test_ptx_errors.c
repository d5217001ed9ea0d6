/* test_ptx_errors.c - the parser on malformed PTX: every error names the
 * problem and its line; truncated and corrupted fixtures never crash (run
 * it under ASan to also see no leak or out-of-bounds read).
 *
 *   ctest --test-dir build -R test_ptx_errors
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx_fixture.h"

/* Module header (lines 1-3) and the start of a kernel: its first body line
 * is line 7. */
#define HEADER ".version 8.0\n.target sm_90\n.address_size 64\n"
#define KERNEL HEADER ".visible .entry k(.param .u64 out)\n{\n" \
    "\t.reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .f32 %f<4>; .reg .pred %p<2>;\n"

typedef struct error_case {
    const char *text;
    unsigned line;
    const char *message;   /* expected within the error's message */
} error_case;

static const error_case cases[] = {
    /* unknown things, named (an unknown instruction in a well-formed
     * statement only makes its function unusable: see
     * unsupported_instructions_isolate_their_function) */
    {KERNEL "\tfoo.bar %r1\n}\n", 8, "expected ';' to end 'foo.bar', found '}'"},
    {KERNEL "\tfoo.bar %r1, {%r2, %r3}", 7, "expected ';' to end 'foo.bar', found end of input"},
    {KERNEL "\tadd.zz.s32 %r1, %r2\n\t.reg .b32 %x;\n}\n", 8,
     "expected ';' to end 'add.zz.s32', found '.reg'"},
    {HEADER ".foo 1\n", 4, "unknown directive '.foo'"},
    {KERNEL "\t.blah 3;\n}\n", 7, "unknown directive '.blah' in a function body"},
    {KERNEL "\t.reg .q32 %x;\n}\n", 7, "unknown word '.q32' in declaration"},
    {HEADER ".entry k() .maxthreads 4 { ret; }\n", 4,
     "unknown directive '.maxthreads' in function header"},
    {KERNEL "\t.loc 1 2 3, discriminator 4\n}\n", 7, "unknown .loc attribute 'discriminator'"},
    /* operands */
    {KERNEL "\tadd.s32 %r1, %r2;\n}\n", 7, "'add.s32' takes 3 operands, found 2"},
    {KERNEL "\tadd.s32 %r1, %r2, %r3, %r0;\n}\n", 7, "'add.s32' takes 3 operands, found ','"},
    {KERNEL "\tmov.u32 %r1, %r99;\n}\n", 7, "undeclared register '%r99'"},
    {KERNEL "\tmov.u32 %r1, %tid.w;\n}\n", 7, "undeclared register '%tid.w'"},
    {KERNEL "\tadd.s32 %r1, %r2, somewhere;\n}\n", 7, "undeclared name 'somewhere'"},
    {KERNEL "\tmov.u32 1, %r1;\n}\n", 7, "found the immediate '1'"},
    {KERNEL "\tld.global.f32 %f1, %rd1;\n}\n", 7, "register '%rd1' not allowed here"},
    {KERNEL "\tld.global.v4.f32 {%f1, %f2}, [%rd1];\n}\n", 7,
     "moves 4 values, the operand has 2"},
    {KERNEL "\tst.global.v2.f32 [%rd1], {%f1, _};\n}\n", 7, "sink '_' used as a source"},
    {KERNEL "\tld.global.v4.f32 {%f1, %f2, %f3}, [%rd1];\n}\n", 7,
     "vector operand with 3 elements"},
    {KERNEL "\tmatch.any.sync.b32 %r1|%p1, %r2, -1;\n}\n", 7,
     "match.any has no predicate result"},
    {KERNEL "\tsetp.lt.s32 %r1, %r2, %r3;\n}\n", 7, "'%r1' is not a .pred register"},
    {KERNEL "\t@%r1 bra $L;\n$L:\n}\n", 7, "guard '%r1' is not a .pred register"},
    {KERNEL "\t@%p1 add.s32 %r1, %r2, [%rd1];\n}\n", 7, "address operand not allowed here"},
    /* modifiers an opcode needs */
    {KERNEL "\tadd %r1, %r2, %r3;\n}\n", 7, "'add' needs 1 type"},
    {KERNEL "\tcvt.rn.f32 %f1, %r1;\n}\n", 7, "'cvt.rn.f32' needs 2 types"},
    {KERNEL "\tbra.u32 $L;\n$L:\n}\n", 7, "'bra.u32' takes no type"},
    {KERNEL "\tsetp.s32 %p1, %r2, %r3;\n}\n", 7, "'setp.s32' needs a comparison"},
    {KERNEL "\tshfl.down.b32 %r1, %r2, 1, 31, -1;\n}\n", 7, "'shfl.down.b32' needs .sync"},
    {KERNEL "\tshfl.sync.b32 %r1, %r2, 1, 31, -1;\n}\n", 7, "'shfl.sync.b32' needs a mode"},
    {KERNEL "\tatom.global.u32 %r1, [%rd1], 1;\n}\n", 7, "needs an operation"},
    {KERNEL "\tred.global.cas.b32 [%rd1], 1;\n}\n", 7, "red has no .cas"},
    {KERNEL "\tcvt.rn.rz.f32.f64 %f1, %f2;\n}\n", 7, "conflicting modifier '.rz'"},
    {KERNEL "\tbar 0;\n}\n", 7, "'bar' needs .sync, .arrive or .red"},
    {KERNEL "\tbar.red.u32 %r1, 0, %p1;\n}\n", 7, "needs .popc, .and or .or"},
    {KERNEL "\tmembar;\n}\n", 7, "'membar' needs .cta, .gl or .sys"},
    {KERNEL "\tatom.global.cas.v2.b32 {%r1, %r2}, [%rd1], 1, 2;\n}\n", 7,
     "no vector .cas"},
    {KERNEL "\tatom.global.add.v2.f32 %f1, [%rd1], {%f1, %f2};\n}\n", 7,
     "moves 2 values, the operand has 1"},
    {KERNEL "\tmov.u32 %r1, %envreg32;\n}\n", 7, "undeclared register '%envreg32'"},
    {KERNEL "\tld.shared.nc.u32 %r1, [%r2];\n}\n", 7, ".nc needs .global"},
    /* the cluster forms */
    {KERNEL "\tbarrier.cluster;\n}\n", 7, "'barrier.cluster' needs .arrive or .wait"},
    {KERNEL "\tbarrier.cluster.sync;\n}\n", 7, "needs .arrive or .wait"},
    {KERNEL "\tbar.cluster.arrive;\n}\n", 7, "the cluster barrier is barrier.cluster"},
    {KERNEL "\tbarrier.cluster.arrive.acquire;\n}\n", 7,
     "arrive takes .release or .relaxed, wait takes .acquire"},
    {KERNEL "\tbarrier.cluster.wait.release;\n}\n", 7, "wait takes .acquire"},
    {KERNEL "\tbarrier.cluster.arrive 0;\n}\n", 7, "takes 0 operands"},
    {KERNEL "\tbarrier.sync.release 0;\n}\n", 7, "only barrier.cluster takes them"},
    {KERNEL "\tbarrier.wait;\n}\n", 7, "needs .sync, .arrive or .red"},
    {KERNEL "\tmapa.shared.u32 %r1, %r2, 0;\n}\n", 7,
     "takes .shared::cluster or no space, and .u32 or .u64"},
    {KERNEL "\tmapa.f32 %f1, %f2, 0;\n}\n", 7, "and .u32 or .u64"},
    {KERNEL "\tmapa.u64 %rd1, %rd2;\n}\n", 7, "'mapa.u64' takes 3 operands, found 2"},
    {KERNEL "\tgetctarank.global.u64 %r1, %rd2;\n}\n", 7, "takes .shared::cluster or no space"},
    /* griddepcontrol: one action of two, no operands, no type (an action
     * the model does not know: griddepcontrol_unknown_action) */
    {KERNEL "\tgriddepcontrol;\n}\n", 7,
     "'griddepcontrol' needs .wait or .launch_dependents"},
    {KERNEL "\tgriddepcontrol.wait %r1;\n}\n", 7, "'griddepcontrol.wait' takes 0 operands"},
    {KERNEL "\t@%p1 griddepcontrol.launch_dependents 0;\n}\n", 7,
     "'griddepcontrol.launch_dependents' takes 0 operands"},
    {KERNEL "\tgriddepcontrol.wait.launch_dependents;\n}\n", 7,
     "conflicting modifier '.launch_dependents' in 'griddepcontrol.wait.launch_dependents'"},
    {KERNEL "\tgriddepcontrol.launch_dependents.wait;\n}\n", 7,
     "conflicting modifier '.wait' in 'griddepcontrol.launch_dependents.wait'"},
    {KERNEL "\tgriddepcontrol.wait.b32;\n}\n", 7, "'griddepcontrol.wait.b32' takes no type"},
    {KERNEL "\tgriddepcontrol.wait\n}\n", 8,
     "'griddepcontrol.wait' takes 0 operands, found '}' after them"},
    /* literals */
    {KERNEL "\tadd.f32 %f1, %f2, 1;\n}\n", 7,
     "integer literal '1' where a .f32 value is expected"},
    {KERNEL "\tadd.s32 %r1, %r2, 1.5;\n}\n", 7,
     "float literal '1.5' where a .s32 value is expected"},
    {KERNEL "\tmov.b64 %rd1, 0f3F800000;\n}\n", 7,
     "float literal '0f3F800000' where a .b64 value is expected"},
    {KERNEL "\tadd.s32 %r1, %r2, 0x;\n}\n", 7, "malformed number '0x'"},
    {KERNEL "\tadd.s32 %r1, %r2, 08;\n}\n", 7, "malformed number '08'"},
    {KERNEL "\tadd.f32 %f1, %f2, 0f3F80;\n}\n", 7, "malformed number '0f3F80'"},
    {KERNEL "\tadd.s64 %rd1, %rd2, 18446744073709551616;\n}\n", 7,
     "number '18446744073709551616' out of range"},
    {KERNEL "\tadd.s64 %rd1, %rd2, -9223372036854775809;\n}\n", 7, "out of range"},
    /* names and labels */
    {KERNEL "\tbra $L_nowhere;\n}\n", 7, "undefined label '$L_nowhere'"},
    {KERNEL "$L:\n\tret;\n$L:\n}\n", 9, "duplicate label '$L'"},
    {KERNEL "\tbra INNER;\n\t{ INNER: ret; }\n}\n", 7, "undefined label 'INNER'"},
    {KERNEL "\t.reg .b32 %r1;\n}\n", 7, "duplicate declaration of '%r1'"},
    {KERNEL "\tcall.uni nope, ();\n}\n", 7, "call to undeclared function 'nope'"},
    {KERNEL "\tcall %rd1, ();\n}\n", 7, "indirect calls (through '%rd1') are not supported"},
    {KERNEL "\tcall.uni (%r1), f;\n}\n", 7,
     "call parameter '%r1' is not a declared .param variable"},
    {HEADER ".func f(.param .b32 a, .param .b32 b)\n{ ret; }\n"
            ".entry k()\n{\n\t{ .param .b32 p; call f, (p); }\n}\n", 8,
     "call to 'f' passes 1 argument, it takes 2"},
    {HEADER ".func f()\n{ ret; }\n.func f()\n{ ret; }\n", 6, "function 'f' defined twice"},
    {HEADER ".func f(.param .b32 a);\n.func f()\n{ ret; }\n", 5,
     "conflicting declarations of 'f'"},
    {HEADER ".global .u32 f;\n.func f()\n{ ret; }\n", 5,
     "'f' is already declared as a variable"},
    {HEADER ".extern .func f()\n{ ret; }\n", 4, ".extern function 'f' has a body"},
    /* declarations */
    {HEADER ".shared .align 3 .b8 s[4];\n", 4, ".align 3 is not a power of two"},
    {HEADER ".global .b8 g[];\n", 4, "array 'g' has no size"},
    {HEADER ".global .b8 g[0];\n", 4, "array size 0 is not positive"},
    {HEADER ".global .u32 g[2] = {1, 2, 3};\n", 4,
     "3 initialiser values for 'g', which holds 2"},
    {HEADER ".global .u8 g = 300;\n", 4, "initialiser 300 does not fit .u8"},
    {HEADER ".global .u32 a;\n.global .u64 p = a;\n", 5,
     "address initialisers ('a') are not supported"},
    {HEADER ".shared .u32 s = 1;\n", 4, "initialiser not allowed for 's'"},
    {HEADER ".global .f32 x = 1;\n", 4, "integer literal '1' where a .f32 value"},
    {HEADER ".global .b8 g[4]\n", 5, "expected ';' after the declaration, found end of input"},
    {HEADER ".local .u32 l;\n", 4, "module-scope .local variables are not supported"},
    {KERNEL "\t.reg .v4 .f32 %v;\n}\n", 7, "vector registers are not supported"},
    {KERNEL "\t.reg .b32 %x<99999999>;\n}\n", 7, "register range <99999999> too large"},
    {HEADER ".global .b8 big[1099511627777];\n", 4, "array too large"},
    /* directives */
    {".version 9\n", 1, ".version needs MAJOR.MINOR, found '9'"},
    {HEADER ".address_size 48\n", 4, ".address_size 48 is not 32 or 64"},
    {HEADER ".file 1 path.cu\n", 4, ".file needs a quoted path"},
    {HEADER ".section .debug_str {\n.b8 1\n", 4, "section '.debug_str' never closes"},
    {HEADER ".pragma nounroll;\n", 4, ".pragma needs a quoted string"},
    {HEADER "add.s32 %r1, %r2, %r3;\n", 4,
     "expected a directive at module scope, found 'add.s32'"},
    /* truncation and garbage */
    {KERNEL "\tadd.s32 %r1,", 7, "expected an operand, found end of input"},
    {KERNEL "\tret;\n", 5, "function 'k' never closes (missing '}')"},
    {HEADER ".entry k(.param .u64 a", 4, "expected ')' to close the parameter list"},
    {HEADER "/* never\nclosed", 4, "unterminated /* comment"},
    {HEADER ".file 1 \"open\n", 4, "unterminated string"},
    {HEADER "\x01", 4, "unexpected character (byte 0x01)"},
    {HEADER "#include <x>\n", 4, "preprocessor directives ('#') are not supported"},
    {KERNEL "\tmov.u32 %r1, 1 ^ 2;\n}\n", 7, "unexpected character '^'"},
};

static void each_malformed_input_names_problem_and_line(void **state)
{
    (void)state;
    int failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const error_case *c = &cases[i];
        cured_model_parse_error err;
        memset(&err, 0x5a, sizeof err);
        cured_model_module *m = cured_model_parse(c->text, strlen(c->text), &err);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "line %u: ", c->line);
        if (m != NULL) {
            fprintf(stderr, "case %zu parsed, expected \"%s\"\n", i, c->message);
            cured_model_module_free(m);
            failures++;
        } else if (err.line != c->line || strstr(err.message, c->message) == NULL ||
                   strncmp(err.message, prefix, strlen(prefix)) != 0) {
            fprintf(stderr, "case %zu: got line %u \"%s\", expected line %u \"%s\"\n",
                    i, err.line, err.message, c->line, c->message);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

/* An instruction the model cannot decode, in a statement that is well
 * formed, makes its function unusable, with the first such instruction's
 * message and line; the rest of the body still parses (a label after it
 * resolves), the other functions are whole, and a kernel calling an
 * unusable function is unusable too. */
static void unsupported_instructions_isolate_their_function(void **state)
{
    (void)state;
    const char *text = HEADER
        ".func helper()\n{\n"                                              /* 4 */
        "\t.reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
        "\tcp.async.ca.shared.global [%r1], [%rd1], 4;\n"                  /* 7 */
        "\tret;\n}\n"
        ".visible .entry a(.param .u64 out)\n{\n"                         /* 10 */
        "\t.reg .b32 %r<4>; .reg .pred %p<2>;\n"
        "\t.loc 1 20 3\n"
        "\t@%p1 bra $L_end;\n"                                             /* 14 */
        "\tfoo.bar.baz %r1, {%r2, %r3}, [%r1+4];\n"                        /* 15 */
        "\t.loc 1 21 3\n"
        "\twgmma.fence.sync.aligned;\n"                                    /* 17 */
        "$L_end:\n\tret;\n}\n"
        ".visible .entry b(.param .u64 out)\n{\n"                         /* 21 */
        "\t.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2, %r3;\n\tret;\n}\n"
        ".visible .entry c()\n{\n"                                        /* 27 */
        "\t.reg .b32 %r<4>;\n"
        "\tadd.s32 %r1, %r2, %r3;\n"
        "\tadd.zz.s32 %r1, %r2, %r3;\n"                                    /* 31 */
        "\tret;\n}\n"
        ".visible .entry d()\n{\n\tcall.uni helper, ();\n\tret;\n}\n"
        ".file 1 \"/home/u/k.cu\"\n";
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse(text, strlen(text), &err);
    if (m == NULL)
        fail_msg("parse failed: %s", err.message);
    int a = cured_model_find_function(m, "a"), b = cured_model_find_function(m, "b");
    int c = cured_model_find_function(m, "c"), d = cured_model_find_function(m, "d");
    int helper = cured_model_find_function(m, "helper");
    uint32_t ptx_line, line;
    const char *file;

    const char *why = cured_model_function_unusable(m, a, &ptx_line, &file, &line);
    assert_non_null(why);
    assert_string_equal(why, "unknown instruction 'foo.bar.baz'");
    assert_int_equal(ptx_line, 15);
    assert_string_equal(file, "k.cu");
    assert_int_equal(line, 20);
    const ptx_function *fa = &m->functions[a];
    assert_int_equal(fa->ncode, 2);                 /* bra, ret */
    assert_int_equal(fa->code[0].ops[0].imm, 1);    /* $L_end: the ret */

    assert_null(cured_model_function_unusable(m, b, &ptx_line, &file, &line));
    assert_int_equal(ptx_line, 0);
    assert_null(file);
    assert_int_equal(m->functions[b].ncode, 2);

    why = cured_model_function_unusable(m, c, &ptx_line, NULL, &line);
    assert_string_equal(why, "unknown modifier '.zz' in 'add.zz.s32'");
    assert_int_equal(ptx_line, 31);
    assert_int_equal(line, 0);                      /* no .loc */
    assert_int_equal(m->functions[c].ncode, 2);     /* add, ret */

    why = cured_model_function_unusable(m, helper, &ptx_line, NULL, NULL);
    assert_string_equal(why, "unknown instruction 'cp.async.ca.shared.global'");
    why = cured_model_function_unusable(m, d, &ptx_line, NULL, NULL);
    assert_string_equal(why, "calls 'helper', which the model cannot run: "
                             "unknown instruction 'cp.async.ca.shared.global'");
    assert_int_equal(ptx_line, 7);
    assert_null(cured_model_function_unusable(m, 99, NULL, NULL, NULL));
    cured_model_module_free(m);
}

/* griddepcontrol with an action the model does not know is such an
 * instruction too (as `barrier.cluster.foo` or `add.zz.s32`): its kernel
 * is unusable, naming it and its line; a kernel with the two known actions
 * in the same module is not. */
static void griddepcontrol_unknown_action(void **state)
{
    (void)state;
    const char *text = HEADER
        ".visible .entry known()\n{\n"                                     /* 4 */
        "\tgriddepcontrol.wait;\n\tgriddepcontrol.launch_dependents;\n\tret;\n}\n"
        ".visible .entry unknown()\n{\n"                                   /* 10 */
        "\tgriddepcontrol.foo;\n"                                          /* 12 */
        "\tret;\n}\n";
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse(text, strlen(text), &err);
    if (m == NULL)
        fail_msg("parse failed: %s", err.message);
    uint32_t ptx_line;
    assert_null(cured_model_function_unusable(m, cured_model_find_function(m, "known"),
                                              &ptx_line, NULL, NULL));
    const char *why = cured_model_function_unusable(m, cured_model_find_function(m, "unknown"),
                                                    &ptx_line, NULL, NULL);
    assert_non_null(why);
    assert_string_equal(why, "unknown modifier '.foo' in 'griddepcontrol.foo'");
    assert_int_equal(ptx_line, 12);
    cured_model_module_free(m);
}

static void deep_nesting_is_an_error_not_a_crash(void **state)
{
    (void)state;
    size_t depth = 100000;
    const char *head = KERNEL;
    size_t n = strlen(head);
    char *text = malloc(n + 2 * depth);
    assert_non_null(text);
    memcpy(text, head, n);
    memset(text + n, '{', depth);
    memset(text + n + depth, '}', depth);
    cured_model_parse_error err;
    cured_model_module *m = cured_model_parse(text, n + 2 * depth, &err);
    assert_null(m);
    assert_non_null(strstr(err.message, "blocks nested more than 256 deep"));
    /* initialisers: deep braces, also iterative */
    const char *init = HEADER ".global .u32 g[1] = ";
    n = strlen(init);
    memcpy(text, init, n);
    memset(text + n, '{', depth);
    m = cured_model_parse(text, n + depth, &err);
    assert_null(m);
    assert_non_null(strstr(err.message, "initialiser nested too deeply"));
    free(text);
}

static void null_error_pointer_is_allowed(void **state)
{
    (void)state;
    assert_null(cured_model_parse("garbage", 7, NULL));
    assert_null(cured_model_parse(NULL, 5, NULL));
}

/* The text is not NUL-terminated: a number, word or comment at the very
 * end of the buffer must be read only up to len. */
static void input_is_read_only_up_to_len(void **state)
{
    (void)state;
    static const char *tails[] = {"0x1F", "1e", "0f3F8", "/", "/*", "\"abc",
                                  ".version 9.", "%r", "$L", "a::", "0", "-"};
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        size_t n = strlen(tails[i]);
        char *exact = malloc(n);   /* no terminator after the text */
        assert_non_null(exact);
        memcpy(exact, tails[i], n);
        cured_model_parse_error err;
        cured_model_module *m = cured_model_parse(exact, n, &err);
        assert_null(m);
        assert_int_equal(err.line, 1);
        free(exact);
    }
    /* a valid module cut at every byte: parses or fails, never crashes,
     * and the error line is within the text */
    ptx_fixture fx;
    assert_int_equal(fixture_load(&fx, "warp_ops.ptx"), 0);
    unsigned lines = 1;
    for (size_t cut = 0; cut < fx.len; cut++) {
        if (cut > 0 && fx.text[cut - 1] == '\n')
            lines++;
        char *prefix = malloc(cut ? cut : 1);
        assert_non_null(prefix);
        memcpy(prefix, fx.text, cut);
        cured_model_parse_error err;
        cured_model_module *m = cured_model_parse(prefix, cut, &err);
        if (m == NULL && (err.line < 1 || err.line > lines))
            fail_msg("cut at %zu: line %u outside 1..%u: %s", cut, err.line, lines,
                     err.message);
        cured_model_module_free(m);
        free(prefix);
    }
    fixture_free(&fx);
}

/* Deterministic corruption of every fixture: flip, delete and duplicate
 * bytes; each result parses or fails cleanly. */
static void corrupted_fixtures_never_crash(void **state)
{
    (void)state;
    static const char *names[] = {"warp_ops.ptx", "atomics.ptx", "convert_math.ptx",
                                  "calls_memory.ptx", "misc_asm.ptx"};
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    int parsed = 0, failed = 0;
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
        ptx_fixture fx;
        assert_int_equal(fixture_load(&fx, names[f]), 0);
        char *copy = malloc(fx.len + 64);
        assert_non_null(copy);
        for (int round = 0; round < 200; round++) {
            memcpy(copy, fx.text, fx.len);
            size_t len = fx.len;
            for (int k = 0; k < 1 + round % 4; k++) {
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                size_t at = (size_t)(rng % len);
                switch ((rng >> 32) % 3) {
                case 0:
                    copy[at] = (char)(rng >> 40);
                    break;
                case 1:
                    memmove(copy + at, copy + at + 1, len - at - 1);
                    len--;
                    break;
                default:
                    if (len < fx.len + 60) {
                        memmove(copy + at + 1, copy + at, len - at);
                        len++;
                    }
                    break;
                }
            }
            cured_model_parse_error err;
            cured_model_module *m = cured_model_parse(copy, len, &err);
            if (m != NULL)
                parsed++;
            else
                failed++;
            if (m == NULL)
                assert_true(err.line >= 1 && strncmp(err.message, "line ", 5) == 0);
            cured_model_module_free(m);
        }
        free(copy);
        fixture_free(&fx);
    }
    assert_int_equal(parsed + failed, 1000);
    assert_true(failed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_malformed_input_names_problem_and_line),
        cmocka_unit_test(unsupported_instructions_isolate_their_function),
        cmocka_unit_test(griddepcontrol_unknown_action),
        cmocka_unit_test(deep_nesting_is_an_error_not_a_crash),
        cmocka_unit_test(null_error_pointer_is_allowed),
        cmocka_unit_test(input_is_read_only_up_to_len),
        cmocka_unit_test(corrupted_fixtures_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
