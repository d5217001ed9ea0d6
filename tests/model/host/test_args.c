/* test_model_args.c - `cured model --arg` specs: every INIT kind, scalars,
 * launch shapes, and the exact message of each malformed spec.
 *
 * CPU only, no model run: parsing and filling are pure C.
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
#include "ptx.h"

/* Parses text, asserting success. */
static cured_model_arg parse_ok(const char *text)
{
    cured_model_arg s;
    char err[256] = "";
    int rc = cured_model_arg_parse(text, &s, err, sizeof err);
    if (rc != 0)
        fail_msg("'%s' did not parse: %s", text, err);
    return s;
}

/* Parses text, asserting failure with exactly `message`. */
static void parse_fails(const char *text, const char *message)
{
    cured_model_arg s;
    char err[256] = "";
    assert_int_equal(cured_model_arg_parse(text, &s, err, sizeof err), -1);
    assert_string_equal(err, message);
}

static void test_buffer_inits(void **state)
{
    (void)state;
    cured_model_arg s = parse_ok("in=f32[64]:random");
    assert_true(s.is_buffer);
    assert_string_equal(s.name, "in");
    assert_int_equal(s.type, PTX_T_F32);
    assert_int_equal(s.count, 64);
    assert_int_equal(s.init, CURED_MODEL_ARG_RANDOM);
    assert_int_equal(s.seed, CURED_MODEL_ARG_DEFAULT_SEED);

    s = parse_ok("x=s32[3]:random@42");
    assert_int_equal(s.type, PTX_T_S32);
    assert_int_equal(s.init, CURED_MODEL_ARG_RANDOM);
    assert_int_equal(s.seed, 42);

    assert_int_equal(parse_ok("a=u64[1]:ones").init, CURED_MODEL_ARG_ONES);
    assert_int_equal(parse_ok("a=i32[2]:iota").type, PTX_T_S32);
    assert_int_equal(parse_ok("a=u8[2]:iota").init, CURED_MODEL_ARG_IOTA);
    assert_int_equal(parse_ok("a=f64[0x10]:zeros").count, 16);
    assert_int_equal(parse_ok("out_1=f32[8]:uninit").init, CURED_MODEL_ARG_UNINIT);

    s = parse_ok("d=f32[]:file:/tmp/a=b:c.bin");
    assert_int_equal(s.init, CURED_MODEL_ARG_FILE);
    assert_int_equal(s.count, 0);
    assert_string_equal(s.path, "/tmp/a=b:c.bin");
    s = parse_ok("d=u16:file:data.bin");
    assert_true(s.is_buffer);
    assert_int_equal(s.type, PTX_T_U16);
    assert_string_equal(s.path, "data.bin");
    assert_int_equal(parse_ok("d=f32[4]:file:x").count, 4);
}

static void test_scalars(void **state)
{
    (void)state;
    cured_model_arg s = parse_ok("u32:5");
    assert_false(s.is_buffer);
    assert_string_equal(s.name, "");
    assert_int_equal(s.type, PTX_T_U32);
    assert_int_equal(s.bits, 5);
    assert_int_equal(parse_ok("s32:-1").bits, 0xffffffffu);
    assert_int_equal(parse_ok("n=u64:0x100000000").bits, 0x100000000ull);
    assert_string_equal(parse_ok("n=u64:7").name, "n");
    assert_int_equal(parse_ok("f32:1.5").bits, 0x3fc00000u);
    assert_int_equal(parse_ok("f64:-2").bits, 0xc000000000000000ull);
    assert_int_equal(parse_ok("s8:-128").bits, 0x80);
    assert_int_equal(parse_ok("s64:-1").bits, UINT64_MAX);
    /* decimal even with a leading zero, hex only after 0x */
    assert_int_equal(parse_ok("u32:010").bits, 10);
    assert_int_equal(parse_ok("s32:-010").bits, (uint32_t)-10);
    assert_int_equal(parse_ok("u32:0x10").bits, 16);
    assert_int_equal(parse_ok("x=f32[010]:ones").count, 10);
    assert_int_equal(parse_ok("x=f32[4]:random@010").seed, 10);
    assert_int_equal(parse_ok("x=f32[1073741824]:uninit").count, 1073741824); /* 4 GiB */
    assert_int_equal(parse_ok("u16:65535").bits, 0xffff);
}

static void test_bad_specs(void **state)
{
    (void)state;
    parse_fails("", "empty spec in --arg ''");
    parse_fails("x=f33[4]:ones",
                "unknown type 'f33' (f32 f64 s8 s16 s32 s64 u8 u16 u32 u64) "
                "in --arg 'x=f33[4]:ones'");
    parse_fails("x=f32[4]:twos",
                "unknown INIT 'twos' (random[@SEED] ones iota zeros uninit "
                "file:PATH) in --arg 'x=f32[4]:twos'");
    parse_fails("x=f32[4]", "missing ':INIT' after ']' in --arg 'x=f32[4]'");
    parse_fails("x=f32[4:ones", "missing ']' in --arg 'x=f32[4:ones'");
    parse_fails("x=f32[0]:ones", "COUNT '0': out of range (1 to 18446744073709551615) "
                                 "in --arg 'x=f32[0]:ones'");
    parse_fails("x=f32[-3]:ones", "COUNT '-3': out of range (1 to 18446744073709551615) "
                                  "in --arg 'x=f32[-3]:ones'");
    parse_fails("x=f32[4x]:ones", "COUNT '4x': not a whole number (decimal, or hex "
                                  "after 0x) in --arg 'x=f32[4x]:ones'");
    parse_fails("x=f32[]:ones",
                "missing COUNT (only file: may omit it) in --arg 'x=f32[]:ones'");
    parse_fails("f32[4]:ones",
                "a buffer needs a NAME= (x=f32[64]:random) in --arg 'f32[4]:ones'");
    parse_fails("=f32[4]:ones", "empty name before '=' in --arg '=f32[4]:ones'");
    parse_fails("9x=f32[4]:ones",
                "bad name '9x' (letters, digits, _) in --arg '9x=f32[4]:ones'");
    parse_fails("x=f32[4]:random@abc", "SEED 'abc': not a whole number (decimal, or hex "
                                       "after 0x) in --arg 'x=f32[4]:random@abc'");
    parse_fails("x=f32[4]:file:", "missing path after 'file:' in --arg 'x=f32[4]:file:'");
    parse_fails("u32:-1",
                "bad u32 value '-1': out of range (0 to 4294967295) in --arg 'u32:-1'");
    parse_fails("u32:4294967296", "bad u32 value '4294967296': out of range (0 to "
                                  "4294967295) in --arg 'u32:4294967296'");
    parse_fails("s8:128", "bad s8 value '128': out of range (-128 to 127) in --arg 's8:128'");
    parse_fails("s32: 1", "bad s32 value ' 1': not a whole number (decimal, or hex after "
                          "0x) in --arg 's32: 1'");
    parse_fails("f32:1.5x", "bad f32 value '1.5x': not a number in --arg 'f32:1.5x'");
    parse_fails("u32:", "bad u32 value '': no number in --arg 'u32:'");
    parse_fails("f32:", "bad f32 value '': no number in --arg 'f32:'");
    parse_fails("u32", "expected NAME=TYPE[COUNT]:INIT or TYPE:VALUE in --arg 'u32'");
    parse_fails("x=f32[1073741825]:ones",
                "x=f32[1073741825] is 4 GiB, over the model's 4 GiB per buffer "
                "in --arg 'x=f32[1073741825]:ones'");
    /* count * 4 wraps to 0 in 64 bits: still over, not an empty buffer */
    parse_fails("x=f32[4611686018427387904]:ones",
                "x=f32[4611686018427387904] is 1.718e+10 GiB, over the model's 4 GiB "
                "per buffer in --arg 'x=f32[4611686018427387904]:ones'");
}

static void test_fill_values(void **state)
{
    (void)state;
    float f[8];
    cured_model_arg s = parse_ok("x=f32[8]:iota");
    cured_model_arg_fill(&s, f);
    assert_true(f[0] == 0.0f && f[7] == 7.0f);
    s = parse_ok("x=f32[8]:ones");
    cured_model_arg_fill(&s, f);
    assert_true(f[3] == 1.0f);
    s = parse_ok("x=f32[8]:zeros");
    f[2] = 9;
    cured_model_arg_fill(&s, f);
    assert_true(f[2] == 0.0f);

    int32_t iv[4];
    s = parse_ok("x=s32[4]:iota");
    cured_model_arg_fill(&s, iv);
    assert_int_equal(iv[3], 3);
    uint8_t b[300];
    s = parse_ok("x=u8[300]:iota");
    cured_model_arg_fill(&s, b);
    assert_int_equal(b[299], 299 & 0xff);
    uint16_t h[2];
    s = parse_ok("x=u16[2]:ones");
    cured_model_arg_fill(&s, h);
    assert_int_equal(h[1], 1);
}

/* Random values: in range, deterministic per seed, different across seeds,
 * floats exact multiples of 2^-24 so a float sum of a few is exact. */
static void test_fill_random(void **state)
{
    (void)state;
    enum { N = 4096 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    cured_model_arg s = parse_ok("x=f32[4096]:random@7");
    cured_model_arg_fill(&s, a);
    cured_model_arg_fill(&s, b);
    assert_memory_equal(a, b, N * sizeof *a);
    double mean = 0;
    for (int i = 0; i < N; i++) {
        assert_true(a[i] >= -0.5f && a[i] < 0.5f);
        assert_true(a[i] * 16777216.0f == (float)(long)(a[i] * 16777216.0f));
        mean += a[i];
    }
    mean /= N;
    assert_true(mean > -0.05 && mean < 0.05);
    s = parse_ok("x=f32[4096]:random@8");
    cured_model_arg_fill(&s, b);
    assert_memory_not_equal(a, b, N * sizeof *a);
    free(a);
    free(b);

    int32_t iv[N];
    s = parse_ok("x=s32[4096]:random");
    cured_model_arg_fill(&s, iv);
    int lo = 0, hi = 0;
    for (int i = 0; i < N; i++) {
        assert_true(iv[i] >= -8 && iv[i] < 8);
        lo |= iv[i] == -8;
        hi |= iv[i] == 7;
    }
    assert_true(lo && hi);
    uint64_t uv[64];
    s = parse_ok("x=u64[64]:random@3");
    cured_model_arg_fill(&s, uv);
    for (int i = 0; i < 64; i++)
        assert_true(uv[i] < 16);
    double dv[64];
    s = parse_ok("x=f64[64]:random@3");
    cured_model_arg_fill(&s, dv);
    for (int i = 0; i < 64; i++)
        assert_true(dv[i] >= -0.5 && dv[i] < 0.5);
}

static void test_read_file(void **state)
{
    (void)state;
    char path[] = "/tmp/cured-test-args-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    float v[3] = {1.5f, -2.0f, 3.25f};
    fwrite(v, sizeof v, 1, f);
    fclose(f);

    char spec[128], err[256] = "";
    snprintf(spec, sizeof spec, "d=f32[]:file:%s", path);
    cured_model_arg s = parse_ok(spec);
    uint64_t bytes = 0;
    float *data = cured_model_arg_read_file(&s, &bytes, err, sizeof err);
    assert_non_null(data);
    assert_int_equal(bytes, 12);
    assert_true(data[2] == 3.25f);
    free(data);

    snprintf(spec, sizeof spec, "d=f32[4]:file:%s", path);
    s = parse_ok(spec);
    assert_null(cured_model_arg_read_file(&s, &bytes, err, sizeof err));
    char expect[256];
    snprintf(expect, sizeof expect, "'%s' has 12 bytes but d=f32[4] needs 16", path);
    assert_string_equal(err, expect);

    snprintf(spec, sizeof spec, "d=f64:file:%s", path);
    s = parse_ok(spec);
    assert_null(cured_model_arg_read_file(&s, &bytes, err, sizeof err));
    snprintf(expect, sizeof expect, "'%s' has 12 bytes, not a whole number (>= 1) "
             "of f64 elements of 8 bytes", path);
    assert_string_equal(err, expect);
    remove(path);

    s = parse_ok("d=f32:file:/nonexistent/cured.bin");
    assert_null(cured_model_arg_read_file(&s, &bytes, err, sizeof err));
    assert_string_equal(err, "cannot read '/nonexistent/cured.bin' for --arg d: "
                             "No such file or directory");
}

static void test_dim3(void **state)
{
    (void)state;
    cured_model_dim3 d;
    char err[256];
    assert_int_equal(cured_model_dim3_parse("64", "--block", &d, err, sizeof err), 0);
    assert_true(d.x == 64 && d.y == 1 && d.z == 1);
    assert_int_equal(cured_model_dim3_parse("4,2", "--grid", &d, err, sizeof err), 0);
    assert_true(d.x == 4 && d.y == 2 && d.z == 1);
    assert_int_equal(cured_model_dim3_parse("4,2,3", "--grid", &d, err, sizeof err), 0);
    assert_true(d.z == 3);
    assert_int_equal(cured_model_dim3_parse("010,0x10", "--grid", &d, err, sizeof err), 0);
    assert_true(d.x == 10 && d.y == 16 && d.z == 1);
    static const char *bad[] = {"", "0", "4,", "4,2,3,1", "x", "4,-1", "1 ", " 1",
                                "4294967296", "+4", ",4", "0x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(cured_model_dim3_parse(bad[i], "--grid", &d, err, sizeof err), -1);
        char expect[128];
        snprintf(expect, sizeof expect,
                 "bad --grid '%s' (X[,Y,Z], each a whole number >= 1)", bad[i]);
        assert_string_equal(err, expect);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffer_inits),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_fill_values),
        cmocka_unit_test(test_fill_random),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_dim3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
