/* test_bind.c - binding arguments to a kernel's parameters
 * (src/model/host/bind.c) and the one size rule every buffer keeps
 * (cured_model_buffer_bytes): --arg buffers, the buffers `--n` builds
 * (cured_model_catalogue_launch_make) and a whole plan's input.
 *
 * CPU only; the kernel is a small PTX module written here, whose
 * parameters have the types the binding checks.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured_model_host.h"

/* One kernel, one parameter of each kind the binding tells apart: a
 * pointer, unsigned, signed, float, untyped bits, double. */
static const char ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 k_ptr, .param .u32 k_u, .param .s32 k_s,\n"
    "                  .param .f32 k_f, .param .b32 k_b, .param .f64 k_d)\n"
    "{\n"
    "    ret;\n"
    "}\n";

typedef struct bind_fixture {
    cured_model_module *module;
    cured_model_memory *memory;
    int function;
} bind_fixture;

static int setup(void **state)
{
    bind_fixture *fx = calloc(1, sizeof *fx);
    cured_model_parse_error perr;
    fx->module = cured_model_parse(ptx, sizeof ptx - 1, &perr);
    if (fx->module == NULL) {
        fprintf(stderr, "fixture PTX: %s\n", perr.message);
        return -1;
    }
    fx->function = cured_model_find_function(fx->module, "k");
    fx->memory = cured_model_memory_new();
    *state = fx;
    return fx->function < 0 || fx->memory == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    bind_fixture *fx = *state;
    cured_model_memory_free(fx->memory);
    cured_model_module_free(fx->module);
    free(fx);
    return 0;
}

/* Parses the six specs and binds them; returns bind's status, err its line. */
static int bind(bind_fixture *fx, const char *const specs[6], char *err, size_t cap)
{
    cured_model_arg args[6];
    for (int i = 0; i < 6; i++)
        if (cured_model_arg_parse(specs[i], &args[i], err, cap) != 0)
            fail_msg("spec '%s': %s", specs[i], err);
    uint8_t *params = NULL;
    size_t size = 0;
    int rc = cured_model_args_bind(fx->module, fx->function, args, 6, fx->memory,
                                   &params, &size, err, cap);
    free(params);
    return rc;
}

static void test_binds_matching_types(void **state)
{
    bind_fixture *fx = *state;
    char err[256] = "";
    const char *specs[6] = {"x=f32[4]:ones", "u32:7", "s32:-7", "f32:1.5", "f32:2",
                            "f64:0.25"};
    assert_int_equal(bind(fx, specs, err, sizeof err), 0);
    assert_non_null(cured_model_memory_find_named(fx->memory, "x"));
}

/* Binds specs with `spec` in place `index` and expects the failure
 * `message`. */
static void bind_fails(bind_fixture *fx, int index, const char *spec, const char *message)
{
    const char *specs[6] = {"x=f32[4]:ones", "u32:7", "s32:-7", "f32:1.5", "f32:2",
                            "f64:0.25"};
    specs[index] = spec;
    char err[256] = "";
    assert_int_equal(bind(fx, specs, err, sizeof err), -1);
    assert_string_equal(err, message);
}

/* Binds specs with `spec` in place `index`; expects success and the
 * parameter's bytes to be `bits`. */
static void bind_bits(bind_fixture *fx, int index, const char *spec, uint64_t bits)
{
    const char *specs[6] = {"x=f32[4]:ones", "u32:7", "s32:-7", "f32:1.5", "f32:2",
                            "f64:0.25"};
    specs[index] = spec;
    cured_model_arg args[6];
    char err[256] = "";
    for (int i = 0; i < 6; i++)
        assert_int_equal(cured_model_arg_parse(specs[i], &args[i], err, sizeof err), 0);
    uint8_t *params = NULL;
    size_t size = 0;
    if (cured_model_args_bind(fx->module, fx->function, args, 6, fx->memory, &params,
                              &size, err, sizeof err) != 0)
        fail_msg("'%s' for parameter %d: %s", spec, index + 1, err);
    /* offsets: ptr 0, u 8, s 12, f 16, b 20, d 24 */
    static const size_t offset[6] = {0, 8, 12, 16, 20, 24};
    uint64_t got = 0;
    memcpy(&got, params + offset[index], index == 5 || index == 0 ? 8 : 4);
    free(params);
    assert_int_equal(got, bits);
}

/* A float for an integer parameter, or an integer for a float one, is
 * refused, naming the parameter and both types: f32:1000 for a .u32 once
 * ran with the bits of 1000.0f (1148846080). */
static void test_float_integer_mismatch(void **state)
{
    bind_fixture *fx = *state;
    bind_fails(fx, 1, "f32:1000",
               "--arg 2 is f32:1000, a float, but parameter 2 (k_u, .u32, 4 bytes) is an "
               "integer: give u32:VALUE, or the float's bits in hex, u32:0x447a0000");
    bind_fails(fx, 2, "f32:-1.5",
               "--arg 3 is f32:-1.5, a float, but parameter 3 (k_s, .s32, 4 bytes) is an "
               "integer: give s32:VALUE, or the float's bits in hex, s32:0xbfc00000");
    bind_fails(fx, 3, "u32:2",
               "--arg 4 is u32:2, an integer, but parameter 4 (k_f, .f32, 4 bytes) is a "
               "float: give f32:VALUE");
    bind_fails(fx, 5, "s64:1",
               "--arg 6 is s64:1, an integer, but parameter 6 (k_d, .f64, 8 bytes) is a "
               "float: give f64:VALUE");
    bind_fails(fx, 5, "d=f64[2]:ones",
               "--arg 6 is buffer d, but parameter 6 (k_d, .f64, 8 bytes) is a float, not "
               "an address");
    /* the float's bits, asked for in hex, are fine */
    bind_bits(fx, 1, "u32:0x447a0000", 0x447a0000u);
}

/* Signed for unsigned and back: fine while the value is one both types
 * hold, refused (with the value the parameter would read) when not. */
static void test_signedness(void **state)
{
    bind_fixture *fx = *state;
    bind_bits(fx, 1, "s32:5", 5);
    bind_bits(fx, 2, "u32:7", 7);
    bind_bits(fx, 2, "u32:2147483647", 2147483647u);
    bind_fails(fx, 1, "s32:-1",
               "--arg 2 is s32:-1, but parameter 2 (k_u, .u32, 4 bytes) is unsigned and "
               "reads those bits as 4294967295: give u32:4294967295 if that is meant");
    bind_fails(fx, 2, "u32:4294967295",
               "--arg 3 is u32:4294967295, but parameter 3 (k_s, .s32, 4 bytes) is signed "
               "and reads those bits as -1: give s32:-1 if that is meant");
    bind_fails(fx, 2, "u32:0x80000000",
               "--arg 3 is u32:2147483648, but parameter 3 (k_s, .s32, 4 bytes) is signed "
               "and reads those bits as -2147483648: give s32:-2147483648 if that is meant");
}

/* An untyped .b32 takes any 4-byte scalar: its bits as written. */
static void test_untyped_takes_any_kind(void **state)
{
    bind_fixture *fx = *state;
    bind_bits(fx, 4, "f32:1.5", 0x3fc00000u);
    bind_bits(fx, 4, "s32:-1", 0xffffffffu);
    bind_bits(fx, 4, "u32:9", 9);
    bind_fails(fx, 4, "u64:9",
               "--arg 5 is a 8-byte u64, but parameter 5 (k_b, .b32, 4 bytes)");
}

// ----------------------------------------------------------------------------
// The size rule

/* A buffer whose bytes wrap to 0 in 64 bits (2^62 floats) is refused
 * before anything is allocated, as an --arg spec of that size is. */
static void test_bind_refuses_wrapping_buffer(void **state)
{
    bind_fixture *fx = *state;
    cured_model_arg args[6];
    char err[256] = "";
    const char *specs[6] = {"x=f32[4]:ones", "u32:7", "s32:-7", "f32:1.5", "f32:2",
                            "f64:0.25"};
    for (int i = 0; i < 6; i++)
        assert_int_equal(cured_model_arg_parse(specs[i], &args[i], err, sizeof err), 0);
    args[0].count = (uint64_t)1 << 62;     /* as a program might fill it */
    uint8_t *params = NULL;
    size_t size = 0;
    assert_int_equal(cured_model_args_bind(fx->module, fx->function, args, 6, fx->memory,
                                           &params, &size, err, sizeof err), -1);
    assert_string_equal(err, "x=f32[4611686018427387904] is 1.718e+10 GiB, over the "
                             "model's 4 GiB per buffer");
    assert_null(params);
    assert_null(cured_model_memory_find_named(fx->memory, "x"));
}

static void test_buffer_bytes_rule(void **state)
{
    (void)state;
    uint64_t bytes = 0;
    char err[200];
    assert_int_equal(cured_model_buffer_bytes("in", "f32", (uint64_t)1 << 30, 4, &bytes,
                                              err, sizeof err), 0);
    assert_int_equal(bytes, CURED_MODEL_MAX_BUFFER_BYTES);
    assert_int_equal(cured_model_buffer_bytes("in", "f32", ((uint64_t)1 << 30) + 1, 4,
                                              &bytes, err, sizeof err), -1);
    assert_string_equal(err, "in=f32[1073741825] is 4 GiB, over the model's 4 GiB per "
                             "buffer");
    /* the products that wrap to 0 or to a small number */
    assert_int_equal(cured_model_buffer_bytes("in", "f64", (uint64_t)1 << 61, 8, &bytes,
                                              err, sizeof err), -1);
    assert_int_equal(cured_model_buffer_bytes("in", "f32", ((uint64_t)1 << 62) + 1, 4,
                                              &bytes, err, sizeof err), -1);
    assert_int_equal(cured_model_buffer_bytes("in", "u8", UINT64_MAX, 1, &bytes, err,
                                              sizeof err), -1);
    assert_int_equal(cured_model_buffer_bytes("in", "?", 1, 0, &bytes, err, sizeof err), -1);
    assert_int_equal(cured_model_buffer_bytes("in", "u8", 0, 1, &bytes, err, sizeof err), 0);
    assert_int_equal(bytes, 0);
}

/* The buffers `cured model KERNEL --n N` builds keep the same rule (they
 * once wrapped: n x 4 = 0 bytes, then the fill wrote 2^62 floats). */
static void test_catalogue_n_keeps_the_rule(void **state)
{
    (void)state;
    const cured_device_shape *h200 = &cured_device_preset_find("h200")->shape;
    static const struct {
        const char *kernel;
        cured_dtype dtype;
        uint64_t n;
        const char *message;
    } cases[] = {
        {"two_pass", CURED_F32, (uint64_t)1 << 62,
         "--n 4611686018427387904: in=f32[4611686018427387904] is 1.718e+10 GiB, over "
         "the model's 4 GiB per buffer"},
        {"atomic", CURED_F64, (uint64_t)1 << 61,
         "--n 2305843009213693952: in=f64[2305843009213693952] is 1.718e+10 GiB, over "
         "the model's 4 GiB per buffer"},
        {"single_pass", CURED_I32, ((uint64_t)1 << 30) + 1,
         "--n 1073741825: in=s32[1073741825] is 4 GiB, over the model's 4 GiB per "
         "buffer"},
        {"divergent", CURED_F32, 4294967295u,
         "--n 4294967295: in=f32[4294967295] is 16 GiB, over the model's 4 GiB per "
         "buffer"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int kernel;
        assert_int_equal(cured_catalogue_find(cases[i].kernel, &kernel), CURED_SUCCESS);
        cured_model_catalogue_launch launch;
        char err[256] = "";
        assert_int_equal(cured_model_catalogue_launch_make(kernel, cases[i].dtype,
                                                           cases[i].n, 256, 1, h200,
                                                           &launch, err, sizeof err), -1);
        assert_string_equal(err, cases[i].message);
    }
    /* 4 GiB exactly is the limit, not over it */
    int kernel;
    cured_model_catalogue_launch launch;
    char err[256] = "";
    assert_int_equal(cured_catalogue_find("two_pass", &kernel), CURED_SUCCESS);
    assert_int_equal(cured_model_catalogue_launch_make(kernel, CURED_F32, (uint64_t)1 << 30,
                                                       256, 1, h200, &launch, err,
                                                       sizeof err), 0);
    assert_int_equal(launch.args[0].count, (uint64_t)1 << 30);
}

/* A whole plan's input keeps it too (the runner is refused before it
 * reads the input, so none is needed here). */
static void test_whole_plan_input_keeps_the_rule(void **state)
{
    bind_fixture *fx = *state;
    int kernel;
    assert_int_equal(cured_catalogue_find("two_pass", &kernel), CURED_SUCCESS);
    static cured_model_plan_result r;
    static const float none[1];
    assert_int_equal(cured_model_plan_run_catalogue(fx->module, kernel, CURED_F32, none,
                                                    (uint64_t)1 << 62, 256,
                                                    &cured_device_preset_find("h200")->shape,
                                                    &r), -1);
    assert_string_equal(r.error, "in=f32[4611686018427387904] is 1.718e+10 GiB, over the "
                                 "model's 4 GiB per buffer");
    cured_model_plan_result_clear(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_binds_matching_types, setup, teardown),
        cmocka_unit_test_setup_teardown(test_float_integer_mismatch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_signedness, setup, teardown),
        cmocka_unit_test_setup_teardown(test_untyped_takes_any_kind, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bind_refuses_wrapping_buffer, setup, teardown),
        cmocka_unit_test(test_buffer_bytes_rule),
        cmocka_unit_test(test_catalogue_n_keeps_the_rule),
        cmocka_unit_test_setup_teardown(test_whole_plan_input_keeps_the_rule, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
