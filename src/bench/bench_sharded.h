/* bench_sharded.h - `cured bench --gpus N`: the sharded reduction over N
 * GPUs of one process against cured_reduce on one GPU.
 *
 * defines: bench_sharded_row, bench_sharded_results,
 *          bench_sharded_results_add, bench_sharded_results_free,
 *          bench_sharded_print_table, bench_sharded_print_csv
 *                                        (bench_sharded_report.c, pure C)
 *          bench_sharded_run             (bench_sharded.cu, CUDA builds)
 *
 * For each n = 2^k (f32, the bench's standard fill): the whole array on
 * GPU 0 and one shard per GPU (equal sizes, contiguous; GPU 0's inside the
 * whole array); times of back-to-back calls (CUDA events around batches,
 * no L2 flush, the communicators made before): cured_reduce over the
 * whole array on GPU 0, cured_reduce_sharded_group over the N GPUs, and
 * NCCL's part alone (the allgather of one record per rank on the same
 * communicators); the sharded result of every rank against GPU 0's bits.
 * Times are microseconds per call.
 */
#ifndef CURED_BENCH_SHARDED_H
#define CURED_BENCH_SHARDED_H

#include <stdint.h>
#include <stdio.h>

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One n: the three times and whether every rank's bits were GPU 0's. */
typedef struct bench_sharded_row {
    int log2n;
    uint64_t n;
    bench_summary one_gpu;  /* cured_reduce, whole array, GPU 0 */
    bench_summary sharded;  /* cured_reduce_sharded_group, N GPUs */
    bench_summary nccl;     /* the allgather of the records alone */
    int equal;              /* every rank's bits == GPU 0's */
    char note[96];          /* why not equal, or what failed */
} bench_sharded_row;

typedef struct bench_sharded_results {
    bench_sharded_row *items;
    int count;
    size_t capacity;
    int gpus;
    char device[96]; /* GPU 0's name */
} bench_sharded_results;

/* Appends a copy of *row. Returns 0, or -1 when out of memory. */
int bench_sharded_results_add(bench_sharded_results *results,
                              const bench_sharded_row *row);

/* Frees the rows; the list is empty and reusable afterwards. */
void bench_sharded_results_free(bench_sharded_results *results);

/* An aligned table for people: n, the three medians, GB/s of both ways,
 * the speed-up, NCCL's share of the sharded call, the check. */
void bench_sharded_print_table(FILE *out, const bench_sharded_results *results);

/* The same as CSV with a header line (medians, quartiles, run counts). */
void bench_sharded_print_csv(FILE *out, const bench_sharded_results *results);

/* Runs `cured bench --gpus opts->gpus` over n = 2^min_log2 .. 2^max_log2,
 * appending one row per n, progress on stderr. Returns 0 when everything
 * ran (rows may still show a mismatch), or -1 with one line in err (fewer
 * GPUs than asked, a build without NCCL, no memory for the largest n, a
 * CUDA or NCCL failure); rows so far stay valid. */
int bench_sharded_run(const bench_options *opts, bench_sharded_results *results,
                      char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* CURED_BENCH_SHARDED_H */
