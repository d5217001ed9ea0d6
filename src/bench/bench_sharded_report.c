/* bench_sharded_report.c - the rows of `cured bench --gpus N` and their
 * table and CSV (bench_sharded.h). Pure C, unit-tested on the CPU.
 *
 * defines: bench_sharded_results_add, bench_sharded_results_free,
 *          bench_sharded_print_table, bench_sharded_print_csv
 */
#include "bench_sharded.h"
#include "grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int bench_sharded_results_add(bench_sharded_results *results,
                              const bench_sharded_row *row)
{
    if (cured_grow((void **)&results->items, &results->capacity, results->count + 1,
                   sizeof *results->items) != 0)
        return -1;
    results->items[results->count++] = *row;
    return 0;
}

void bench_sharded_results_free(bench_sharded_results *results)
{
    free(results->items);
    results->items = NULL;
    results->count = results->capacity = 0;
}

/* Input bytes over microseconds, in GB/s (1e9 bytes per second). */
static double gbps(uint64_t n, double us)
{
    return us > 0 ? (double)n * 4 / (us * 1e3) : NAN;
}

void bench_sharded_print_table(FILE *out, const bench_sharded_results *results)
{
    fprintf(out, "cured bench --gpus %d: f32 sum of n elements, %s (GPU 0)\n",
            results->gpus, results->device[0] ? results->device : "?");
    fprintf(out, "%5s %12s %11s %11s %9s %9s %8s %9s %7s  %s\n", "log2n", "n",
            "1 GPU us", "N GPUs us", "1 GB/s", "N GB/s", "speedup", "NCCL us",
            "NCCL %", "check");
    for (int i = 0; i < results->count; i++) {
        const bench_sharded_row *r = &results->items[i];
        double one = r->one_gpu.median, many = r->sharded.median, nccl = r->nccl.median;
        fprintf(out, "%5d %12llu %11.2f %11.2f %9.1f %9.1f %8.2f %9.2f %7.1f  %s%s%s\n",
                r->log2n, (unsigned long long)r->n, one, many, gbps(r->n, one),
                gbps(r->n, many), many > 0 ? one / many : NAN, nccl,
                many > 0 ? 100 * nccl / many : NAN, r->equal ? "equal" : "DIFFERENT",
                r->note[0] ? ": " : "", r->note);
    }
    fprintf(out, "us: median per call of back-to-back calls (no L2 flush); N GPUs: "
                 "cured_reduce_sharded_group on %d GPUs, each holding n/%d; NCCL: "
                 "the allgather of the %d-byte records alone; check: every rank's "
                 "bits against 1 GPU's\n",
            results->gpus, results->gpus, CURED_SHARD_RECORD_BYTES);
}

void bench_sharded_print_csv(FILE *out, const bench_sharded_results *results)
{
    fprintf(out, "gpus,log2n,n,one_gpu_us,one_gpu_q1,one_gpu_q3,one_gpu_runs,"
                 "sharded_us,sharded_q1,sharded_q3,sharded_runs,nccl_us,nccl_q1,"
                 "nccl_q3,nccl_runs,one_gpu_gbps,sharded_gbps,speedup,nccl_share,"
                 "equal\n");
    for (int i = 0; i < results->count; i++) {
        const bench_sharded_row *r = &results->items[i];
        const bench_summary *s[3] = {&r->one_gpu, &r->sharded, &r->nccl};
        fprintf(out, "%d,%d,%llu", results->gpus, r->log2n, (unsigned long long)r->n);
        for (int k = 0; k < 3; k++)
            fprintf(out, ",%.3f,%.3f,%.3f,%d", s[k]->median, s[k]->q1, s[k]->q3,
                    s[k]->runs);
        double one = r->one_gpu.median, many = r->sharded.median;
        fprintf(out, ",%.1f,%.1f,%.4f,%.4f,%d\n", gbps(r->n, one), gbps(r->n, many),
                many > 0 ? one / many : NAN, many > 0 ? r->nccl.median / many : NAN,
                r->equal);
    }
}
