/* test_bench_options.c - the command line of `cured bench`: defaults,
 * every option, and one clear error line for each kind of bad input.
 *
 * CPU only.
 */
#include "bench_test.h"

#include <string.h>

#include "bench.h"

/* Parses a NULL-terminated list of words after "bench" (copied, since
 * getopt_long may permute argv). Returns the parse result; err is filled. */
static int parse(bench_options *opts, char *err, size_t err_size, ...)
{
    char words[16][64];
    char *argv[17];
    int argc = 0;
    va_list ap;
    va_start(ap, err_size);
    snprintf(words[argc], sizeof words[argc], "bench");
    argv[argc] = words[argc];
    argc++;
    for (const char *w; (w = va_arg(ap, const char *)) != NULL && argc < 16; argc++) {
        snprintf(words[argc], sizeof words[argc], "%s", w);
        argv[argc] = words[argc];
    }
    va_end(ap);
    argv[argc] = NULL;
    int r = bench_parse_options(argc, argv, opts, err, err_size);
    /* paths point into words[]: keep only whether they were set */
    if (opts->csv_path)
        opts->csv_path = strcmp(opts->csv_path, "out.csv") == 0 ? "out.csv" : "?";
    if (opts->json_path)
        opts->json_path = strcmp(opts->json_path, "out.json") == 0 ? "out.json" : "?";
    if (opts->svg_path)
        opts->svg_path = strcmp(opts->svg_path, "out.svg") == 0 ? "out.svg" : "?";
    return r;
}

/* Expects a parse error whose message contains `needle`. */
#define assert_error(needle, ...)                                              \
    do {                                                                       \
        bench_options o_;                                                      \
        char e_[256] = "";                                                     \
        assert_int_equal(parse(&o_, e_, sizeof e_, __VA_ARGS__, NULL),         \
                         BENCH_PARSE_ERROR);                                   \
        if (strstr(e_, needle) == NULL)                                        \
            fail_msg("error '%s' lacks '%s'", e_, needle);                     \
        assert_null(strchr(e_, '\n'));                                         \
    } while (0)

static void test_defaults(void **state)
{
    (void)state;
    bench_options o;
    char err[256] = "x";
    assert_int_equal(parse(&o, err, sizeof err, NULL), BENCH_PARSE_RUN);
    assert_string_equal(err, "");
    assert_int_equal(o.min_log2, 10);
    assert_int_equal(o.max_log2, 30);
    assert_int_equal(o.dtype, CURED_F32);
    /* every catalogue kernel */
    int count = cured_catalogue_count();
    assert_true(count >= 12 && count < 64);
    assert_true(o.kernel_mask == ((uint64_t)1 << count) - 1);
    assert_int_equal(o.block_size, 256);
    assert_int_equal(o.min_runs, 20);
    assert_near(o.target_ms, 50, 0);
    assert_near(o.cap_ms, 500, 0);
    assert_int_equal(o.max_runs, 1000);
    assert_int_equal(o.stdout_format, BENCH_FORMAT_TABLE);
    assert_null(o.csv_path);
    assert_null(o.json_path);
}

static void test_every_option(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--min-log2", "12", "--max-log2=14",
                           "--dtype", "i64", "--kernels", "shuffle,cub,divergent,read",
                           "--runs", "7", "--target-ms", "2.5", "--block", "512",
                           "--csv=out.csv", "--json", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.min_log2, 12);
    assert_int_equal(o.max_log2, 14);
    assert_int_equal(o.dtype, CURED_I64);
    int shuffle, divergent;
    assert_int_equal(cured_catalogue_find("shuffle", &shuffle), CURED_SUCCESS);
    assert_int_equal(cured_catalogue_find("divergent", &divergent), CURED_SUCCESS);
    assert_true(o.kernel_mask == (((uint64_t)1 << shuffle) | ((uint64_t)1 << divergent)));
    assert_int_equal(o.min_runs, 7);
    assert_near(o.target_ms, 2.5, 0);
    assert_near(o.cap_ms, 25, 1e-12);
    assert_int_equal(o.block_size, 512);
    assert_string_equal(o.csv_path, "out.csv");
    assert_null(o.json_path);
    assert_int_equal(o.stdout_format, BENCH_FORMAT_JSON);
}

static void test_csv_on_stdout_and_json_to_a_file(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--csv", "--json=out.json", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.stdout_format, BENCH_FORMAT_CSV);
    assert_null(o.csv_path);
    assert_string_equal(o.json_path, "out.json");
}

static void test_anchors_alone_select_no_catalogue_kernel(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--kernels", "cub,read", NULL),
                     BENCH_PARSE_RUN);
    assert_true(o.kernel_mask == 0);
}

static void test_many_runs_raise_the_run_ceiling(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--runs", "5000", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.min_runs, 5000);
    assert_int_equal(o.max_runs, 5000);
}

/* --block is `cured model`'s spelling; --block-size, the old one, still
 * works. Numbers are decimal (a leading zero too) or 0x hex, never octal. */
static void test_block_spellings_and_numbers(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--block-size", "128", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.block_size, 128);
    assert_int_equal(parse(&o, err, sizeof err, "--block", "0x40", "--runs", "010",
                           "--min-log2", "08", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.block_size, 64);
    assert_int_equal(o.min_runs, 10);
    assert_int_equal(o.min_log2, 8);
}

static void test_help(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--help", NULL), BENCH_PARSE_HELP);
    assert_int_equal(parse(&o, err, sizeof err, "-h", NULL), BENCH_PARSE_HELP);
}

static void test_bad_input_gives_one_clear_line(void **state)
{
    (void)state;
    assert_error("unrecognized option '--frobnicate'", "--frobnicate");
    assert_error("option '--runs' needs a value", "--runs");
    assert_error("--runs '0': out of range (1 to 100000)", "--runs", "0");
    assert_error("--min-log2 'ten': not a whole number (decimal, or hex after 0x)",
                 "--min-log2", "ten");
    assert_error("--max-log2 '33': out of range (0 to 32)", "--max-log2", "33");
    assert_error("--max-log2 '20x': not a whole number", "--max-log2", "20x");
    assert_error("--max-log2 ' 20': not a whole number", "--max-log2", " 20");
    assert_error("--runs '': no number", "--runs", "");
    assert_error("--min-log2 20 is above --max-log2 12", "--min-log2", "20",
                 "--max-log2", "12");
    assert_error("--dtype: unknown type 'f8'", "--dtype", "f8");
    assert_error("--kernels: unknown kernel 'nope' (see cured list)", "--kernels",
                 "shuffle,nope");
    assert_error("--kernels: empty name in 'shuffle,,atomic'", "--kernels",
                 "shuffle,,atomic");
    assert_error("--kernels: empty name", "--kernels", "");
    assert_error("--block '48': not a power of two from 32 to 1024", "--block", "48");
    assert_error("--block '2048': not a power of two from 32 to 1024", "--block", "2048");
    assert_error("--block '-64': out of range", "--block-size", "-64");
    assert_error("--target-ms: '-1' is not a number", "--target-ms", "-1");
    assert_error("--csv and --json both on stdout", "--csv", "--json");
    assert_error("unexpected argument 'results.csv'", "--csv", "results.csv");
    assert_error("unrecognized option '--help=yes'", "--help=yes");
}

/* --api: cured_reduce against CUB; its dtypes, the plot, what it refuses. */
static void test_api(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    unsigned all = 1u << CURED_F32 | 1u << CURED_F64 | 1u << CURED_I32 | 1u << CURED_F16;
    assert_int_equal(parse(&o, err, sizeof err, NULL), BENCH_PARSE_RUN);
    assert_int_equal(o.api, 0);
    assert_int_equal(o.api_dtypes, all);
    assert_null(o.svg_path);
    assert_int_equal(parse(&o, err, sizeof err, "--api", "--svg", "out.svg", "--csv=out.csv",
                           "--max-log2", "20", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.api, 1);
    assert_int_equal(o.api_dtypes, all);
    assert_string_equal(o.svg_path, "out.svg");
    assert_string_equal(o.csv_path, "out.csv");
    assert_int_equal(o.max_log2, 20);
    /* --dtype before or after --api: a list in API mode */
    assert_int_equal(parse(&o, err, sizeof err, "--dtype", "f16,f32", "--api", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.api_dtypes, 1u << CURED_F16 | 1u << CURED_F32);
    assert_int_equal(parse(&o, err, sizeof err, "--api", "--dtype", "i32", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.api_dtypes, 1u << CURED_I32);
    assert_error("--dtype: 'bf16' is not one --api times (f32, f64, i32, f16)", "--api",
                 "--dtype", "f32,bf16");
    assert_error("--dtype: '' is not one --api times", "--api", "--dtype", "f32,");
    assert_error("--dtype: the catalogue has no f16 kernels", "--dtype", "f16");
    assert_error("--kernels: not with --api", "--api", "--kernels", "shuffle");
    assert_error("--block: not with --api", "--block", "128", "--api");
    assert_error("--svg: only with --api", "--svg", "out.svg");
    assert_error("option '--svg' needs a value", "--api", "--svg");
}

/* --gpus N: the sharded bench; f32 only, to 2^34, no catalogue options. */
static void test_gpus(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, NULL), BENCH_PARSE_RUN);
    assert_int_equal(o.gpus, 0);
    assert_int_equal(parse(&o, err, sizeof err, "--gpus", "2", "--min-log2", "31",
                           "--max-log2", "34", "--dtype", "f32", "--csv", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.gpus, 2);
    assert_int_equal(o.max_log2, 34);
    assert_int_equal(o.stdout_format, BENCH_FORMAT_CSV);
    /* the order of the options does not matter */
    assert_int_equal(parse(&o, err, sizeof err, "--max-log2", "33", "--gpus", "8", NULL),
                     BENCH_PARSE_RUN);
    assert_int_equal(o.gpus, 8);
    assert_error("--gpus '0': out of range (1 to 16)", "--gpus", "0");
    assert_error("--gpus '17': out of range (1 to 16)", "--gpus", "17");
    assert_error("--max-log2 '35': out of range (0 to 34)", "--gpus", "2", "--max-log2", "35");
    assert_error("--max-log2 '34': out of range (0 to 32)", "--max-log2", "34");
    assert_error("--gpus: --kernels is not for --gpus", "--gpus", "2", "--kernels",
                 "shuffle");
    assert_error("--gpus: --block is not for --gpus", "--block", "64", "--gpus", "2");
    assert_error("--gpus: --dtype other than f32 is not for --gpus", "--gpus", "2",
                 "--dtype", "f64");
    assert_error("--gpus: --api is not for --gpus", "--gpus", "2", "--api");
    assert_error("--gpus: no --json (use --csv)", "--gpus", "2", "--json");
    assert_error("--gpus: no --json (use --csv)", "--gpus", "2", "--json=out.json");
}

static void test_parsing_again_starts_afresh(void **state)
{
    (void)state;
    bench_options o;
    char err[256];
    assert_int_equal(parse(&o, err, sizeof err, "--runs", NULL), BENCH_PARSE_ERROR);
    assert_int_equal(parse(&o, err, sizeof err, "--runs", "3", NULL), BENCH_PARSE_RUN);
    assert_int_equal(o.min_runs, 3);
    assert_int_equal(parse(&o, err, sizeof err, NULL), BENCH_PARSE_RUN);
    assert_int_equal(o.min_runs, 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_every_option),
        cmocka_unit_test(test_csv_on_stdout_and_json_to_a_file),
        cmocka_unit_test(test_anchors_alone_select_no_catalogue_kernel),
        cmocka_unit_test(test_many_runs_raise_the_run_ceiling),
        cmocka_unit_test(test_block_spellings_and_numbers),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_bad_input_gives_one_clear_line),
        cmocka_unit_test(test_api),
        cmocka_unit_test(test_gpus),
        cmocka_unit_test(test_parsing_again_starts_afresh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
