/* bench.h - the GPU benchmark harness behind `cured bench`.
 *
 * defines: bench_options, bench_summary, bench_result, bench_results,
 *          bench_parse_options, bench_print_usage          (bench_options.c)
 *          bench_quantile, bench_summarize, bench_noise_pct (bench_stats.c)
 *          bench_chain_length, bench_check_sum              (bench_check.c)
 *          bench_results_add, bench_results_free, bench_derive,
 *          bench_print_table, bench_print_csv, bench_print_json (bench_report.c)
 *          bench_run                                        (bench_run.cu)
 *
 * The pure-C parts (options, statistics, checks, report formats) build
 * everywhere and are unit-tested on the CPU; bench_run needs the CUDA build.
 * Times are in microseconds throughout.
 */
#ifndef CURED_BENCH_H
#define CURED_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cured.h"
#include "ref_sum.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The two anchors measured beside the catalogue: CUB's DeviceReduce::Sum
 * and the read-ceiling kernel. */
#define BENCH_CUB "cub"
#define BENCH_READ "read"

/* What to measure and how to print it. */
typedef struct bench_options {
    int min_log2, max_log2;   /* n = 2^k for k in [min_log2, max_log2] */
    cured_dtype dtype;
    uint64_t kernel_mask;     /* bit i: catalogue kernel i is measured */
    int block_size;           /* passed to cured_catalogue_run */
    int min_runs;             /* timed runs per (kernel, n), at least */
    double target_ms;         /* keep timing until this much wall time ... */
    double cap_ms;            /* ... and stop past this, once 5 runs are in */
    int max_runs;             /* never more timed runs than this */
    int stdout_format;        /* BENCH_FORMAT_* printed on stdout */
    const char *csv_path;     /* also write CSV here (NULL: don't) */
    const char *json_path;    /* also write JSON here (NULL: don't) */
    int api;                  /* --api: cured_reduce against CUB (bench_api.h) */
    unsigned api_dtypes;      /* --api: bit d for each cured_dtype d timed */
    const char *svg_path;     /* --api: the plot here (NULL: none) */
    int gpus;                 /* > 0: `--gpus N`, the sharded bench (bench_sharded.h) */
} bench_options;

enum { BENCH_FORMAT_TABLE = 0, BENCH_FORMAT_CSV, BENCH_FORMAT_JSON };

/* What bench_parse_options found. */
enum { BENCH_PARSE_RUN = 0, BENCH_PARSE_HELP, BENCH_PARSE_ERROR };

/* Order statistics of one (kernel, n)'s timed runs. */
typedef struct bench_summary {
    double median, q1, q3, min, max; /* microseconds */
    int runs;
} bench_summary;

/* How a job's result compared with the exact sum of its input. */
typedef enum bench_check {
    BENCH_CHECK_NONE = 0, /* not checked: the read ceiling, which sums nothing */
    BENCH_CHECK_OK,
    BENCH_CHECK_MISMATCH,
    BENCH_CHECK_SKIPPED,  /* not run: the kernel refused this dtype or n */
    BENCH_CHECK_FAILED    /* a CUDA error during this kernel's runs */
} bench_check;

/* One row: one kernel at one n. Derived fields are NAN until bench_derive. */
typedef struct bench_result {
    char kernel[32];
    int log2n;
    uint64_t n;
    size_t elem_bytes;
    bench_summary us;
    double gbps;     /* input bytes / median time, 1e9 bytes per second */
    double pct_read; /* 100 * read kernel's median / this median, same n */
    double x_cub;    /* this median / CUB's median, same n */
    bench_check check;
    int is_exhibit;  /* a catalogue exhibit (unroll_warp): may mismatch */
    double abs_diff; /* |result - exact sum| (NAN when not checked) */
    char note[96];   /* why skipped or failed, or the mismatching values */
} bench_result;

/* A growing list of rows plus what they were measured on. */
typedef struct bench_results {
    bench_result *items;
    int count;
    size_t capacity;
    char device[96];       /* "NVIDIA H200", or "" */
    size_t l2_bytes;       /* the flushed L2's size */
    const char *dtype;     /* "f32", ... */
    int block_size;
} bench_results;

/* ---- bench_options.c ---------------------------------------------------- */

/* Fills *opts with the defaults, then parses argv (argv[0] is the command's
 * name, as getopt_long expects). Returns BENCH_PARSE_RUN, BENCH_PARSE_HELP
 * (--help: the caller prints usage) or BENCH_PARSE_ERROR with one line,
 * without a trailing newline, in err. Prints nothing itself. */
int bench_parse_options(int argc, char **argv, bench_options *opts, char *err,
                        size_t err_size);

/* Prints `cured bench --help`. Can't fail. */
void bench_print_usage(FILE *out);

/* ---- bench_stats.c ------------------------------------------------------ */

/* The q-quantile (0 <= q <= 1) of sorted[0..count), linearly interpolated
 * between the closest ranks (numpy's default), so q = 0.5 is the median of
 * odd and even counts alike. Returns NAN when count < 1. */
double bench_quantile(const double *sorted, int count, double q);

/* Sorts samples[0..count) in place and stores their median, quartiles,
 * min, max and count in *out (NAN statistics when count < 1). */
void bench_summarize(double *samples, int count, bench_summary *out);

/* The noise of a summary: interquartile range over median, in percent.
 * NAN when the median is not positive. */
double bench_noise_pct(const bench_summary *s);

/* ---- bench_check.c ------------------------------------------------------ */

/* The longest chain of roundings an input element goes through in job
 * `kernel`'s sum of n elements of dtype at `block` on a device of shape dev:
 * the catalogue plan's (cured_catalogue_plan_on, cured_catalogue_chain_length);
 * for kernel < 0 (CUB, whose order is its own) n - 1, which every order of
 * n values keeps to. 0 for n = 0 or a shape the dispatch refuses. Can't
 * fail. */
uint64_t bench_chain_length(int kernel, cured_dtype dtype, uint64_t n, int block,
                            const cured_device_shape *dev);

/* Checks one job's result (one element of ref's dtype at got, as copied
 * back) against the reference sum of its input: integers exactly, floats
 * within the bound for h roundings (cured_ref_sum_check; a NaN, such as
 * the 0xff poison, never passes). Stores |got - exact| in *abs_diff when
 * not NULL. Returns 1 for a match, else 0 with one line ("GOT, exact E,
 * bound B (h H)") in note when note is not NULL. */
int bench_check_sum(const cured_ref_sum *ref, const void *got, uint64_t h,
                    double *abs_diff, char *note, size_t cap);

/* ---- bench_report.c ----------------------------------------------------- */

/* Appends a copy of *row. Returns 0, or -1 when out of memory. */
int bench_results_add(bench_results *results, const bench_result *row);

/* Frees the rows; the list is empty and reusable afterwards. */
void bench_results_free(bench_results *results);

/* Fills gbps, pct_read and x_cub of every row from its median and the
 * "read" and "cub" rows of the same n (NAN where one is missing). */
void bench_derive(bench_results *results);

/* Print the rows: an aligned table for people, CSV with a header line, or
 * one JSON object (meta data and a "results" array; NAN as null). */
void bench_print_table(FILE *out, const bench_results *results);
void bench_print_csv(FILE *out, const bench_results *results);
void bench_print_json(FILE *out, const bench_results *results);

/* ---- bench_run.cu (CUDA build only) ------------------------------------- */

/* Runs the benchmark that *opts describes on the current CUDA device,
 * appending one row per (kernel, n) to *results, with progress on stderr.
 * Returns 0 when everything ran (rows may still show mismatches), or -1
 * after a CUDA error that ends the run (no device, out of memory, a sticky
 * launch failure), with one line in err; the rows so far stay valid. */
int bench_run(const bench_options *opts, bench_results *results, char *err,
              size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* CURED_BENCH_H */
