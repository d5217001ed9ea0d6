/* bench_options.c - the command line of `cured bench`: defaults, parsing, usage.
 *
 * defines: bench_parse_options, bench_print_usage
 *
 * Pure C, so the parsing is unit-tested without a GPU. Errors come back as
 * one line of text; the CLI prints it and exits 2.
 */
#include "bench.h"

#include "numbers.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* n = 2^max_log2 elements of 8 bytes must fit on the card with room to
 * spare: 2^32 f64 values are 32 GiB. `--gpus N` (f32 only, the whole array
 * on GPU 0 for the one-GPU time) goes to 2^34 f32 elements, 64 GiB. */
#define MAX_LOG2 32
#define MAX_LOG2_GPUS 34

/* Writes one formatted line into err and returns BENCH_PARSE_ERROR. */
static int parse_error(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int parse_error(char *err, size_t err_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err != NULL && err_size > 0)
        vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
    return BENCH_PARSE_ERROR;
}

/* Parses a whole number in [lo, hi] (numbers.h: decimal or 0x hex) into
 * *out. Returns 0, or -1 with one line in err ("--runs '0': out of range
 * (1 to 100000)"). */
static int parse_int(const char *what, const char *text, int lo, int hi, int *out,
                     char *err, size_t err_size)
{
    int64_t v;
    if (cured_number_signed(what, text, lo, hi, &v, err, err_size) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* Parses a positive decimal number (milliseconds) into *out; 0 or -1. */
static int parse_ms(const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !(v > 0) || v > 1e6)
        return -1;
    *out = v;
    return 0;
}

/* Parses "a,b,c" into a mask of catalogue indices; "cub" and "read" are
 * accepted and ignored (the anchors always run). Returns BENCH_PARSE_RUN
 * or BENCH_PARSE_ERROR with a message. */
static int parse_kernels(const char *list, uint64_t *mask, char *err,
                         size_t err_size)
{
    uint64_t m = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[64];
        if (len == 0)
            return parse_error(err, err_size,
                               "--kernels: empty name in '%s'", list);
        if (len >= sizeof name)
            return parse_error(err, err_size,
                               "--kernels: name too long in '%s'", list);
        memcpy(name, p, len);
        name[len] = '\0';
        int index;
        if (strcmp(name, BENCH_CUB) != 0 && strcmp(name, BENCH_READ) != 0) {
            if (cured_catalogue_find(name, &index) != CURED_SUCCESS)
                return parse_error(err, err_size,
                                   "--kernels: unknown kernel '%s' (see cured list)",
                                   name);
            if (index < 64)
                m |= (uint64_t)1 << index;
        }
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    *mask = m;
    return BENCH_PARSE_RUN;
}

/* The dtypes `--api` times, and its default: all of them. */
static const cured_dtype api_types[] = {CURED_F32, CURED_F64, CURED_I32, CURED_F16};
#define API_TYPES_TEXT "f32, f64, i32, f16"

/* Parses "f32,f16" into a mask of api_types (bit = cured_dtype). Returns
 * BENCH_PARSE_RUN or BENCH_PARSE_ERROR with a message. */
static int parse_api_dtypes(const char *list, unsigned *mask, char *err,
                            size_t err_size)
{
    unsigned m = 0;
    const char *p = list;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        char name[16];
        cured_dtype d;
        int known = 0;
        if (len > 0 && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            if (cured_dtype_from_name(name, &d) == CURED_SUCCESS)
                for (size_t i = 0; i < sizeof api_types / sizeof *api_types; i++)
                    known |= api_types[i] == d;
        }
        if (!known)
            return parse_error(err, err_size,
                               "--dtype: '%.*s' is not one --api times (" API_TYPES_TEXT ")",
                               (int)(len < 32 ? len : 32), p);
        m |= 1u << d;
        if (comma == NULL)
            break;
        p = comma + 1;
    }
    *mask = m;
    return BENCH_PARSE_RUN;
}

/* Fills *opts with the defaults that `cured bench --help` states. */
static void set_defaults(bench_options *opts)
{
    memset(opts, 0, sizeof *opts);
    opts->min_log2 = 10;
    opts->max_log2 = 30;
    opts->dtype = CURED_F32;
    int count = cured_catalogue_count();
    opts->kernel_mask = count >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << count) - 1;
    opts->block_size = 256;
    opts->min_runs = 20;
    opts->target_ms = 50;
    opts->cap_ms = 500;
    opts->max_runs = 1000;
    opts->stdout_format = BENCH_FORMAT_TABLE;
    for (size_t i = 0; i < sizeof api_types / sizeof *api_types; i++)
        opts->api_dtypes |= 1u << api_types[i];
}

int bench_parse_options(int argc, char **argv, bench_options *opts, char *err,
                        size_t err_size)
{
    enum { OPT_MIN = 256, OPT_MAX, OPT_DTYPE, OPT_KERNELS, OPT_RUNS,
           OPT_TARGET, OPT_BLOCK, OPT_CSV, OPT_JSON, OPT_API, OPT_SVG, OPT_GPUS };
    static const struct option options[] = {
        {"min-log2", required_argument, NULL, OPT_MIN},
        {"max-log2", required_argument, NULL, OPT_MAX},
        {"dtype", required_argument, NULL, OPT_DTYPE},
        {"kernels", required_argument, NULL, OPT_KERNELS},
        {"runs", required_argument, NULL, OPT_RUNS},
        {"target-ms", required_argument, NULL, OPT_TARGET},
        {"block", required_argument, NULL, OPT_BLOCK},
        {"block-size", required_argument, NULL, OPT_BLOCK}, /* its old name */
        {"csv", optional_argument, NULL, OPT_CSV},
        {"json", optional_argument, NULL, OPT_JSON},
        {"api", no_argument, NULL, OPT_API},
        {"svg", required_argument, NULL, OPT_SVG},
        {"gpus", required_argument, NULL, OPT_GPUS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    set_defaults(opts);
    if (err != NULL && err_size > 0)
        err[0] = '\0';
    int csv_stdout = 0, json_stdout = 0, opt;
    const char *dtype_text = NULL, *kernels_text = NULL, *block_text = NULL;
    const char *max_text = NULL; /* --max-log2's bound depends on --gpus */
    optind = 0; /* full re-initialisation (glibc, musl): parse may be called again */
    opterr = 0;
    while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        const char *word = argv[optind - 1];
        switch (opt) {
        case OPT_MIN:
            if (parse_int("--min-log2", optarg, 0, MAX_LOG2, &opts->min_log2, err,
                          err_size) != 0)
                return BENCH_PARSE_ERROR;
            break;
        case OPT_MAX:
            if (parse_int("--max-log2", optarg, 0, MAX_LOG2_GPUS, &opts->max_log2, err,
                          err_size) != 0)
                return BENCH_PARSE_ERROR;
            max_text = optarg;
            break;
        case OPT_DTYPE: /* read once all options are in: --api changes it */
            dtype_text = optarg;
            break;
        case OPT_KERNELS:
            kernels_text = optarg;
            if (parse_kernels(optarg, &opts->kernel_mask, err, err_size) !=
                BENCH_PARSE_RUN)
                return BENCH_PARSE_ERROR;
            break;
        case OPT_API:
            opts->api = 1;
            break;
        case OPT_GPUS:
            if (parse_int("--gpus", optarg, 1, 16, &opts->gpus, err, err_size) != 0)
                return BENCH_PARSE_ERROR;
            break;
        case OPT_SVG:
            opts->svg_path = optarg;
            break;
        case OPT_RUNS:
            if (parse_int("--runs", optarg, 1, 100000, &opts->min_runs, err,
                          err_size) != 0)
                return BENCH_PARSE_ERROR;
            if (opts->max_runs < opts->min_runs)
                opts->max_runs = opts->min_runs;
            break;
        case OPT_TARGET:
            if (parse_ms(optarg, &opts->target_ms) != 0)
                return parse_error(err, err_size,
                                   "--target-ms: '%s' is not a number in (0, 1e6]",
                                   optarg);
            opts->cap_ms = 10 * opts->target_ms;
            break;
        case OPT_BLOCK:
            block_text = optarg;
            if (parse_int("--block", optarg, 0, INT32_MAX, &opts->block_size, err,
                          err_size) != 0)
                return BENCH_PARSE_ERROR;
            if (opts->block_size < 32 || opts->block_size > 1024 ||
                (opts->block_size & (opts->block_size - 1)) != 0)
                return parse_error(err, err_size,
                                   "--block '%s': not a power of two from 32 to 1024",
                                   optarg);
            break;
        case OPT_CSV:
            if (optarg != NULL && optarg[0] != '\0')
                opts->csv_path = optarg;
            else
                csv_stdout = 1;
            break;
        case OPT_JSON:
            if (optarg != NULL && optarg[0] != '\0')
                opts->json_path = optarg;
            else
                json_stdout = 1;
            break;
        case 'h':
            return BENCH_PARSE_HELP;
        case ':':
            return parse_error(err, err_size, "option '%s' needs a value", word);
        default:
            return parse_error(err, err_size,
                               "unrecognized option '%s' (see cured bench --help)",
                               word);
        }
    }
    if (optind < argc)
        return parse_error(err, err_size,
                           "unexpected argument '%s' (files go as --csv=FILE, --json=FILE)",
                           argv[optind]);
    if (opts->gpus == 0 && opts->max_log2 > MAX_LOG2)
        return parse_error(err, err_size, "--max-log2 '%s': out of range (0 to %d)",
                           max_text, MAX_LOG2);
    if (opts->gpus > 0) {
        const char *other = opts->api            ? "--api"
                            : kernels_text != NULL ? "--kernels"
                            : block_text != NULL   ? "--block"
                            : opts->svg_path != NULL ? "--svg"
                            : dtype_text != NULL && strcmp(dtype_text, "f32") != 0
                                ? "--dtype other than f32"
                                : NULL;
        if (other != NULL)
            return parse_error(err, err_size, "--gpus: %s is not for --gpus (it times "
                               "f32 sums of cured_reduce_sharded)", other);
        if (json_stdout || opts->json_path != NULL)
            return parse_error(err, err_size, "--gpus: no --json (use --csv)");
    } else if (opts->api) {
        if (kernels_text != NULL)
            return parse_error(err, err_size,
                               "--kernels: not with --api (it times cured_reduce and CUB)");
        if (block_text != NULL)
            return parse_error(err, err_size,
                               "--block: not with --api (cured_reduce picks its own)");
        if (dtype_text != NULL &&
            parse_api_dtypes(dtype_text, &opts->api_dtypes, err, err_size) != BENCH_PARSE_RUN)
            return BENCH_PARSE_ERROR;
    } else {
        if (opts->svg_path != NULL)
            return parse_error(err, err_size, "--svg: only with --api");
        if (dtype_text != NULL) {
            if (cured_dtype_from_name(dtype_text, &opts->dtype) != CURED_SUCCESS)
                return parse_error(err, err_size,
                                   "--dtype: unknown type '%s' (f32 f64 i32 i64 u32 u64)",
                                   dtype_text);
            if ((unsigned)opts->dtype >= CURED_CATALOGUE_DTYPES)
                return parse_error(err, err_size,
                                   "--dtype: the catalogue has no %s kernels (f32 f64 i32 i64 u32 u64)",
                                   dtype_text);
        }
    }
    if (opts->min_log2 > opts->max_log2)
        return parse_error(err, err_size, "--min-log2 %d is above --max-log2 %d",
                           opts->min_log2, opts->max_log2);
    if (csv_stdout && json_stdout)
        return parse_error(err, err_size,
                           "--csv and --json both on stdout: give one of them a file (--json=FILE)");
    opts->stdout_format = csv_stdout    ? BENCH_FORMAT_CSV
                          : json_stdout ? BENCH_FORMAT_JSON
                                        : BENCH_FORMAT_TABLE;
    return BENCH_PARSE_RUN;
}

void bench_print_usage(FILE *out)
{
    fprintf(out,
"usage: cured bench [options]\n"
"Times every catalogue kernel, CUB's DeviceReduce::Sum and a read-only\n"
"streaming kernel (the practical ceiling) for n = 2^k elements on the GPU.\n"
"Each time is one call including its launch: CUDA events, after warm-up, L2\n"
"flushed before every run, the median of many runs.\n"
"\n"
"  --min-log2 K      smallest n = 2^K (default 10)\n"
"  --max-log2 K      largest n = 2^K (default 30, at most %d)\n"
"  --dtype T         f32 (default), f64, i32, i64, u32, u64\n"
"  --kernels A,B,..  catalogue kernels to time (default: all; see cured list);\n"
"                    cub and read are always timed\n"
"  --runs N          timed runs per kernel and n, at least (default 20)\n"
"  --target-ms MS    keep timing each kernel and n for this long (default 50);\n"
"                    stop after 10x this once 5 runs are in\n"
"  --block B         threads per block of the catalogue kernels: a power of\n"
"                    two from 32 to 1024 (default 256), as `cured model --block`\n"
"  --csv[=FILE]      CSV on stdout instead of the table, or also to FILE\n"
"  --json[=FILE]     JSON on stdout instead of the table, or also to FILE\n"
"  --api             time cured_reduce (the library's exact sum) against CUB's\n"
"                    DeviceReduce::Sum instead: calls back to back (warm L2,\n"
"                    total time of a batch over its calls, median of batches)\n"
"                    and one call after an L2 flush (cold), beside an empty\n"
"                    kernel launched the same way (the launch floor) and the\n"
"                    read kernel; each sum's error against the exact sum in\n"
"                    ulps; --dtype takes a list of " API_TYPES_TEXT " (default\n"
"                    all; CUB sums f16 in f16, cured rounds it to f32)\n"
"  --svg FILE        with --api: the plot of time per call against n (SVG)\n"
"  --gpus N          instead: cured_reduce_sharded over GPUs 0 .. N-1 of this\n"
"                    process against cured_reduce on GPU 0, f32 sums (n up to\n"
"                    2^%d), communicators made before timing; times of\n"
"                    back-to-back calls, throughput, NCCL's share of a call\n"
"  -h, --help        this help\n"
"\n"
"Columns: us = median microseconds per call; noise = interquartile range /\n"
"median; GB/s = input bytes / median; %% read = read kernel's time / this\n"
"time; x CUB = this time / CUB's time; check = result against the exact\n"
"sum of the input (floats within the proven bound of the kernel's order).\n"
"Progress goes to stderr. Exit status: 0, 1 (no GPU, CUDA error or a\n"
"mismatch), 2 (bad options).\n",
            MAX_LOG2, MAX_LOG2_GPUS);
}
