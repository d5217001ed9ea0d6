/* cmd_bench.c - `cured bench`: time the catalogue against CUB and the read
 * ceiling on the GPU (CUDA builds only); with --api, cured_reduce against
 * CUB; with --gpus N, the sharded reduction over N GPUs against
 * cured_reduce on one.
 *
 *   cured bench [--min-log2 K] [--max-log2 K] [--dtype T] [--kernels A,B]
 *               [--runs N] [--csv[=FILE]] [--json[=FILE]]
 *   cured bench --api [--dtype f32,f64,i32,f16] [--svg FILE] [...]
 *   cured bench --gpus N [--min-log2 K] [--max-log2 K] [--runs N] [--csv[=FILE]]
 *
 * The work is in src/bench/; this file turns its results into output and
 * an exit status.
 */
#include "bench.h"
#include "bench_api.h"
#include "bench_sharded.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Opens path for writing, or returns NULL after one line on stderr. */
static FILE *open_output(const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL)
        cli_fail("bench", "cannot write '%s': %s", path, strerror(errno));
    return f;
}

/* Closes an output file opened by open_output; removes it when nothing
 * was measured, so no empty report is left behind. Returns 0, or -1 after
 * a line on stderr when the write failed. */
static int close_output(FILE *f, const char *path, int keep)
{
    if (f == NULL)
        return 0;
    int failed = ferror(f) | (fclose(f) != 0);
    if (!keep)
        remove(path);
    if (failed && keep) {
        cli_fail("bench", "writing '%s' failed", path);
        return -1;
    }
    return 0;
}

/* `cured bench --api`: the rows on stdout (the table ends with the short
 * summary), the files asked for. Exit 1 when a run failed, a file could
 * not be written, or a cured sum was not the correctly rounded one. */
static int run_api(const bench_options *opts)
{
    FILE *csv = NULL, *json = NULL, *svg = NULL;
    if (opts->csv_path != NULL && (csv = open_output(opts->csv_path)) == NULL)
        return 2;
    if (opts->json_path != NULL && (json = open_output(opts->json_path)) == NULL) {
        close_output(csv, opts->csv_path, 0);
        return 2;
    }
    if (opts->svg_path != NULL && (svg = open_output(opts->svg_path)) == NULL) {
        close_output(csv, opts->csv_path, 0);
        close_output(json, opts->json_path, 0);
        return 2;
    }
    char err[256];
    bench_api_results results;
    memset(&results, 0, sizeof results);
    int run_failed = bench_api_run(opts, &results, err, sizeof err) != 0;
    int have_rows = results.count > 0;
    if (have_rows) {
        if (opts->stdout_format == BENCH_FORMAT_CSV) {
            bench_api_print_csv(stdout, &results);
        } else if (opts->stdout_format == BENCH_FORMAT_JSON) {
            bench_api_print_json(stdout, &results);
        } else {
            bench_api_print_table(stdout, &results);
            fputc('\n', stdout);
            bench_api_print_summary(stdout, &results);
        }
        if (csv)
            bench_api_print_csv(csv, &results);
        if (json)
            bench_api_print_json(json, &results);
        if (svg)
            bench_api_print_svg(svg, &results);
    }
    int write_failed = close_output(csv, opts->csv_path, have_rows) != 0;
    write_failed |= close_output(json, opts->json_path, have_rows) != 0;
    write_failed |= close_output(svg, opts->svg_path, have_rows) != 0;
    int mismatches = 0;
    for (int i = 0; i < results.count; i++)
        mismatches += strcmp(results.items[i].job, BENCH_API_CURED) == 0 &&
                      results.items[i].ulps != 0;
    bench_api_free(&results);
    if (run_failed)
        fprintf(stderr, "cured bench: %s\n", err);
    if (mismatches)
        fprintf(stderr, "cured bench: %d cured_reduce result(s) not the correctly "
                        "rounded sum (see the ulps column)\n", mismatches);
    return run_failed || write_failed || mismatches ? 1 : 0;
}

/* `cured bench --gpus N`: its rows on stdout (table or CSV) and to the CSV
 * file. Exit 1 after a failed run, a file not written, or a size where a
 * rank's bits differ from one GPU's. */
static int run_gpus(const bench_options *opts)
{
    FILE *csv = NULL;
    if (opts->csv_path != NULL && (csv = open_output(opts->csv_path)) == NULL)
        return 2;
    char err[256];
    bench_sharded_results results;
    memset(&results, 0, sizeof results);
    int run_failed = bench_sharded_run(opts, &results, err, sizeof err) != 0;
    int have_rows = results.count > 0, different = 0;
    if (have_rows) {
        if (opts->stdout_format == BENCH_FORMAT_CSV)
            bench_sharded_print_csv(stdout, &results);
        else
            bench_sharded_print_table(stdout, &results);
        if (csv)
            bench_sharded_print_csv(csv, &results);
    }
    int write_failed = close_output(csv, opts->csv_path, have_rows) != 0;
    for (int i = 0; i < results.count; i++)
        different += !results.items[i].equal;
    bench_sharded_results_free(&results);
    if (run_failed)
        fprintf(stderr, "cured bench: %s\n", err);
    if (different)
        fprintf(stderr, "cured bench: %d size(s) where a rank's bits differ from one "
                        "GPU's (see the check column)\n", different);
    return run_failed || write_failed || different ? 1 : 0;
}

int cmd_bench(int argc, char **argv)
{
    bench_options opts;
    char err[256];
    int parsed = bench_parse_options(argc, argv, &opts, err, sizeof err);
    if (parsed == BENCH_PARSE_HELP) {
        bench_print_usage(stdout);
        return 0;
    }
    if (parsed == BENCH_PARSE_ERROR)
        return cli_fail("bench", "%s", err);
    if (opts.api)
        return run_api(&opts);
    if (opts.gpus > 0)
        return run_gpus(&opts);

    /* Open the files first: a bad path should fail before minutes of GPU. */
    FILE *csv = NULL, *json = NULL;
    if (opts.csv_path != NULL && (csv = open_output(opts.csv_path)) == NULL)
        return 2;
    if (opts.json_path != NULL && (json = open_output(opts.json_path)) == NULL) {
        close_output(csv, opts.csv_path, 0);
        return 2;
    }

    bench_results results;
    memset(&results, 0, sizeof results);
    int run_failed = bench_run(&opts, &results, err, sizeof err) != 0;
    int have_rows = results.count > 0;
    if (have_rows) {
        if (opts.stdout_format == BENCH_FORMAT_CSV)
            bench_print_csv(stdout, &results);
        else if (opts.stdout_format == BENCH_FORMAT_JSON)
            bench_print_json(stdout, &results);
        else
            bench_print_table(stdout, &results);
        if (csv)
            bench_print_csv(csv, &results);
        if (json)
            bench_print_json(json, &results);
    }
    int write_failed = close_output(csv, opts.csv_path, have_rows) != 0;
    write_failed |= close_output(json, opts.json_path, have_rows) != 0;

    int mismatches = 0, failures = 0;
    for (int i = 0; i < results.count; i++) {
        const bench_result *r = &results.items[i];
        mismatches += r->check == BENCH_CHECK_MISMATCH && !r->is_exhibit;
        failures += r->check == BENCH_CHECK_FAILED;
    }
    bench_results_free(&results);
    if (run_failed)
        fprintf(stderr, "cured bench: %s\n", err);
    if (mismatches || failures)
        fprintf(stderr, "cured bench: %d result(s) disagree with CUB, %d run(s) "
                        "failed (see the check column)\n", mismatches, failures);
    return run_failed || write_failed || mismatches || failures ? 1 : 0;
}
