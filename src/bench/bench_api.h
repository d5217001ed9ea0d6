/* bench_api.h - `cured bench --api`: cured_reduce against CUB's
 * DeviceReduce::Sum in one process, calls back to back and with a cold L2,
 * beside an empty kernel (the launch floor) and the read ceiling, with each
 * sum's error against the exact sum in ulps.
 *
 * defines: BENCH_API_*, bench_api_row, bench_api_results,
 *          bench_api_add, bench_api_free, bench_api_derive    (bench_api_report.c)
 *          bench_api_print_table, bench_api_print_csv,
 *          bench_api_print_json, bench_api_print_summary      (bench_api_report.c)
 *          bench_api_print_svg                                (bench_svg.c)
 *          bench_ulp_distance, bench_half_to_double,
 *          bench_half_nearest                                 (bench_ulps.c)
 *          bench_api_run                                      (bench_api_run.cu)
 *
 * Times are in microseconds. The pure-C parts (rows, derived columns,
 * formats, the plot, the ulps) build everywhere and are unit-tested on
 * the CPU (tests/bench); bench_api_run needs the CUDA build.
 */
#ifndef CURED_BENCH_API_H
#define CURED_BENCH_API_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench.h"
#include "cured.h"
#include "ref_exact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The jobs of a size: cured_reduce, CUB, an empty kernel, the read kernel. */
#define BENCH_API_CURED "cured"
#define BENCH_API_CUB "cub"
#define BENCH_API_LAUNCH "launch"
#define BENCH_API_READ "read"
/* How they are timed: calls back to back on one stream, L2 warm (total
 * time of a batch over its calls, the median of batches); or one call at a
 * time after the L2 was flushed (the median of runs). */
#define BENCH_API_WARM "warm"
#define BENCH_API_COLD "cold"

/* One job at one n in one mode. Derived fields are NAN until
 * bench_api_derive; ulps is NAN where nothing is summed. */
typedef struct bench_api_row {
    char job[8];          /* BENCH_API_CURED ... */
    char mode[8];         /* BENCH_API_WARM or BENCH_API_COLD */
    cured_dtype dtype;    /* of the input */
    cured_dtype out;      /* of the result (f16 sums: cured f32, CUB f16) */
    int log2n;
    uint64_t n;
    bench_summary us;     /* per call */
    int calls;            /* warm: calls per batch (runs counts batches) */
    double gbps;          /* input bytes / median */
    double pct_read;      /* 100 * read's median / this median, same n, mode */
    double cub_over;      /* cured rows: CUB's median / this median */
    double ulps;          /* result against the exact sum rounded to `out` */
    char note[96];        /* why not measured, a mismatch */
} bench_api_row;

typedef struct bench_api_results {
    bench_api_row *items;
    int count;
    size_t capacity;
    char device[96];
    size_t l2_bytes;
    double floor_us;      /* the median of the warm launch rows (NAN if none) */
} bench_api_results;

/* ---- bench_api_report.c ------------------------------------------------ */

/* Appends a copy of *row. Returns 0, or -1 when out of memory. */
int bench_api_add(bench_api_results *r, const bench_api_row *row);

/* Frees the rows; the list is empty and reusable afterwards. */
void bench_api_free(bench_api_results *r);

/* Fills gbps, pct_read and cub_over of every row from its median and the
 * read and CUB rows of the same dtype, n and mode (NAN where one is
 * missing), and floor_us. */
void bench_api_derive(bench_api_results *r);

/* Prints the rows: an aligned table, CSV with a header line, one JSON
 * object (meta data and a "results" array; NAN as null). */
void bench_api_print_table(FILE *out, const bench_api_results *r);
void bench_api_print_csv(FILE *out, const bench_api_results *r);
void bench_api_print_json(FILE *out, const bench_api_results *r);

/* The short table: per dtype and n, warm and cold, cured's time, CUB's,
 * CUB/cured, cured / launch floor, and both errors in ulps. */
void bench_api_print_summary(FILE *out, const bench_api_results *r);

/* ---- bench_svg.c ------------------------------------------------------- */

/* Writes a self-contained SVG: time per call against n, log-log, one
 * panel per dtype measured (warm calls solid, cold dashed; cured, CUB and
 * the launch floor), axes with powers of two and ten, a legend. Returns 0,
 * or -1 when there is nothing to plot (no timed row). */
int bench_api_print_svg(FILE *out, const bench_api_results *r);

/* ---- bench_ulps.c ------------------------------------------------------ */

/* How many values of the float dtype d (f16, bf16, f32, f64; bits given
 * zero-extended) lie from `want` to `got`, counting one of them: 0 when
 * they are the same value (+0 and -0 too). For integer dtypes the
 * difference of the two values. UINT64_MAX when exactly one is NaN, or
 * for an unknown dtype. Can't fail. */
uint64_t bench_ulp_distance(cured_dtype d, uint64_t got, uint64_t want);

/* The value of f16 bits, exact. Can't fail. */
double bench_half_to_double(uint16_t h);

/* The exact sum a rounded once to f16 (to nearest, ties to even; beyond
 * the range +-inf; a zero +0; NaN or infinities as IEEE sums give them).
 * Can't fail. */
uint16_t bench_half_nearest(const cured_ref_exact *a);

/* ---- bench_api_run.cu (CUDA build only) -------------------------------- */

/* Runs the API benchmark *opts describes (opts->api; the dtypes in
 * opts->api_dtypes, n = 2^min_log2 .. 2^max_log2) on the current device,
 * appending rows to *r, progress on stderr. Returns 0, or -1 after an
 * error that ends the run, with one line in err (the rows so far stay). */
int bench_api_run(const bench_options *opts, bench_api_results *r, char *err,
                  size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* CURED_BENCH_API_H */
