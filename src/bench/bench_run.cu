/* bench_run.cu - the timing loop of `cured bench`: device setup, L2 flush,
 * CUDA events, adaptive run counts, and the check against the exact sum.
 *
 * defines: bench_run
 *
 * For each n = 2^k: the CPU reference first (src/reference: the exact sum
 * of the same fill the GPU made, extended from the previous n), then CUB,
 * the read ceiling and the chosen catalogue kernels through the public
 * API, cured_catalogue_run. Each (kernel, n) gets two untimed warm-up
 * calls (the first one's result is checked), then timed
 * runs: L2 flushed by a memset that completes before the start event, one
 * call between the events (its launch included), until both min_runs and
 * target_ms are reached, or past cap_ms once 5 runs are in (slow kernels
 * at 2^30 stay affordable).
 */
#include "bench.h"
#include "bench_device.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Which code a job runs. */
enum { JOB_CUB = -1, JOB_READ = -2 }; /* else a catalogue index */

/* Everything one run of the bench holds on the device. */
typedef struct bench_ctx {
    const bench_options *opts;
    char *err;
    size_t err_size;
    cured_dtype dtype;
    size_t elem;
    int max_blocks;              /* grid cap of the fill and read kernels */
    cured_device_shape shape;    /* what the catalogue's plans are made for */
    cured_ref_fill fill;         /* the input: src/reference's standard fill */
    cured_ref_sum ref;           /* its exact sum over the first ref.n values */
    cudaStream_t stream;
    cudaEvent_t start, stop;
    void *d_in;                  /* input for the largest n; smaller n use a prefix */
    void *d_out;                 /* one element: the sum */
    void *d_flush;               /* memset before every timed run */
    size_t flush_bytes;
    void *d_temp;                /* scratch, grown as needed */
    size_t temp_capacity;
    unsigned long long *d_sink;  /* the read kernel's never-written output */
    double *samples;             /* max_runs timings */
} bench_ctx;

/* Stores "what: CUDA's message" in the error line when e is an error.
 * Returns 1 when e is cudaSuccess, else 0. */
static int cuda_ok(bench_ctx *c, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 1;
    snprintf(c->err, c->err_size, "%s: %s", what, cudaGetErrorString(e));
    return 0;
}

/* Makes the scratch buffer at least `bytes` large. Returns 1, or 0 with
 * the error line set. */
static int ensure_temp(bench_ctx *c, size_t bytes)
{
    if (bytes <= c->temp_capacity)
        return 1;
    if (c->d_temp != NULL) {
        if (!cuda_ok(c, cudaStreamSynchronize(c->stream), "cudaStreamSynchronize") ||
            !cuda_ok(c, cudaFree(c->d_temp), "cudaFree(scratch)"))
            return 0;
        c->d_temp = NULL;
        c->temp_capacity = 0;
    }
    if (!cuda_ok(c, cudaMalloc(&c->d_temp, bytes), "cudaMalloc(scratch)"))
        return 0;
    c->temp_capacity = bytes;
    return 1;
}

/* Launches one call of job `kind` over n elements, asynchronously.
 * Returns the cured status (CURED_ERROR_CUDA for a CUDA error, which
 * cudaGetLastError then also reports). */
static cured_status launch(bench_ctx *c, int kind, uint64_t n, size_t temp_bytes)
{
    cudaError_t e;
    if (kind == JOB_CUB) {
        e = bench_cub_sum(c->dtype, c->d_temp, &temp_bytes, c->d_in, n, c->d_out,
                          c->stream);
    } else if (kind == JOB_READ) {
        e = bench_read(c->d_in, n * c->elem, c->d_sink, c->max_blocks, c->stream);
    } else {
        return cured_catalogue_run(kind, c->dtype, c->d_in, n, c->d_out,
                                   c->opts->block_size, c->d_temp, temp_bytes,
                                   c->stream);
    }
    return e == cudaSuccess ? CURED_SUCCESS : CURED_ERROR_CUDA;
}

/* A job's scratch size at n, into *bytes. Returns the cured status. */
static cured_status temp_bytes_for(bench_ctx *c, int kind, uint64_t n,
                                   size_t *bytes)
{
    *bytes = 0;
    if (kind == JOB_READ)
        return CURED_SUCCESS;
    if (kind == JOB_CUB)
        return bench_cub_sum(c->dtype, NULL, bytes, c->d_in, n, c->d_out,
                             c->stream) == cudaSuccess
                   ? CURED_SUCCESS
                   : CURED_ERROR_CUDA;
    return cured_catalogue_temp_bytes(kind, c->dtype, n, c->opts->block_size,
                                      bytes);
}

/* After a failed call: records CUDA's error in the row's note and tells
 * whether the context survived. Returns 1 when the bench can go on, 0
 * when the error is sticky (the error line is then set). */
static int after_cuda_failure(bench_ctx *c, bench_result *row, const char *when)
{
    cudaError_t e = cudaGetLastError();
    row->check = BENCH_CHECK_FAILED;
    snprintf(row->note, sizeof row->note, "%s: %s", when,
             e != cudaSuccess ? cudaGetErrorString(e) : "CUDA error");
    fprintf(stderr, "cured bench: %s at 2^%d FAILED: %s\n", row->kernel,
            row->log2n, row->note);
    cudaError_t sync = cudaDeviceSynchronize();
    if (sync != cudaSuccess) {
        snprintf(c->err, c->err_size, "%s at 2^%d left CUDA unusable: %s",
                 row->kernel, row->log2n, cudaGetErrorString(sync));
        return 0;
    }
    cudaGetLastError();
    return 1;
}

/* Times job `kind` at n = 2^log2n into *row (already named), checking its
 * result against c->ref (the exact sum of the first n values) unless it is
 * the read ceiling. Returns 1 to go on, 0 on a fatal CUDA error. */
static int measure(bench_ctx *c, int kind, int log2n, bench_result *row)
{
    const bench_options *o = c->opts;
    uint64_t n = (uint64_t)1 << log2n;
    size_t temp_bytes = 0;
    cured_status st = temp_bytes_for(c, kind, n, &temp_bytes);
    if (st == CURED_ERROR_CUDA)
        return after_cuda_failure(c, row, "scratch size");
    if (st != CURED_SUCCESS) {
        row->check = BENCH_CHECK_SKIPPED;
        snprintf(row->note, sizeof row->note, "%s", cured_status_string(st));
        return 1;
    }
    /* Catalogue scratch must start zero-filled; every kernel leaves it so. */
    if (!ensure_temp(c, temp_bytes > 0 ? temp_bytes : 1))
        return 0;
    if (kind >= 0 && temp_bytes > 0 &&
        !cuda_ok(c, cudaMemsetAsync(c->d_temp, 0, temp_bytes, c->stream),
                 "cudaMemsetAsync(scratch)"))
        return 0;
    /* Poison the result: a kernel that never writes it cannot pass. */
    if (!cuda_ok(c, cudaMemsetAsync(c->d_out, 0xff, 8, c->stream),
                 "cudaMemsetAsync(result)"))
        return 0;

    /* Warm-up 1, checked; warm-up 2. */
    unsigned char got[8] = {0};
    for (int w = 0; w < 2; w++) {
        st = launch(c, kind, n, temp_bytes);
        if (st == CURED_ERROR_CUDA)
            return after_cuda_failure(c, row, "warm-up");
        if (st != CURED_SUCCESS) {
            row->check = BENCH_CHECK_SKIPPED;
            snprintf(row->note, sizeof row->note, "%s", cured_status_string(st));
            return 1;
        }
        if (cudaStreamSynchronize(c->stream) != cudaSuccess ||
            cudaPeekAtLastError() != cudaSuccess)
            return after_cuda_failure(c, row, "warm-up");
        if (w == 0 && kind != JOB_READ &&
            !cuda_ok(c, cudaMemcpy(got, c->d_out, c->elem, cudaMemcpyDeviceToHost),
                     "cudaMemcpy(result)"))
            return 0;
    }
    if (kind != JOB_READ) {
        uint64_t h = bench_chain_length(kind >= 0 ? kind : -1, c->dtype, n,
                                        o->block_size, &c->shape);
        size_t at = row->is_exhibit ? strlen(strcpy(row->note, "exhibit: ")) : 0;
        if (bench_check_sum(&c->ref, got, h, &row->abs_diff, row->note + at,
                            sizeof row->note - at)) {
            row->check = BENCH_CHECK_OK;
            row->note[0] = '\0';
        } else {
            row->check = BENCH_CHECK_MISMATCH;
            fprintf(stderr, "cured bench: MISMATCH: %s at 2^%d: %s\n", row->kernel,
                    log2n, row->note);
        }
    }

    /* Timed runs. */
    int runs = 0;
    double t0 = bench_now_ms();
    while (runs < o->max_runs) {
        float ms = 0;
        /* Flush, and wait for it: the GPU is idle when the start event
         * fires, so the time includes the call's launch, as a caller of
         * one call on an idle stream sees it. */
        if (!cuda_ok(c, cudaMemsetAsync(c->d_flush, runs & 0xff, c->flush_bytes,
                                        c->stream),
                     "cudaMemsetAsync(L2 flush)") ||
            !cuda_ok(c, cudaStreamSynchronize(c->stream), "L2 flush") ||
            !cuda_ok(c, cudaEventRecord(c->start, c->stream), "cudaEventRecord"))
            return 0;
        st = launch(c, kind, n, temp_bytes);
        if (st != CURED_SUCCESS)
            return after_cuda_failure(c, row, "timed run");
        if (!cuda_ok(c, cudaEventRecord(c->stop, c->stream), "cudaEventRecord"))
            return 0;
        if (cudaEventSynchronize(c->stop) != cudaSuccess ||
            cudaPeekAtLastError() != cudaSuccess)
            return after_cuda_failure(c, row, "timed run");
        if (!cuda_ok(c, cudaEventElapsedTime(&ms, c->start, c->stop),
                     "cudaEventElapsedTime"))
            return 0;
        c->samples[runs++] = ms * 1e3;
        double elapsed = bench_now_ms() - t0;
        if (runs >= o->min_runs && elapsed >= o->target_ms)
            break;
        if (runs >= 5 && elapsed >= o->cap_ms)
            break;
    }
    bench_summarize(c->samples, runs, &row->us);
    return 1;
}

/* A fresh row for `name` at 2^log2n, statistics and derived columns NAN. */
static bench_result new_row(const char *name, int log2n, size_t elem)
{
    bench_result r;
    memset(&r, 0, sizeof r);
    snprintf(r.kernel, sizeof r.kernel, "%s", name);
    r.log2n = log2n;
    r.n = (uint64_t)1 << log2n;
    r.elem_bytes = elem;
    r.us.median = r.us.q1 = r.us.q3 = r.us.min = r.us.max = NAN;
    r.gbps = r.pct_read = r.x_cub = r.abs_diff = NAN;
    return r;
}

/* Opens the device and allocates everything; fills the input. Returns 1,
 * or 0 with the error line set. */
static int setup(bench_ctx *c, bench_results *results)
{
    cudaDeviceProp prop;
    if (!bench_open_device(&prop, c->err, c->err_size))
        return 0;
    snprintf(results->device, sizeof results->device, "%.95s", prop.name);
    c->max_blocks = prop.multiProcessorCount *
                    (prop.maxThreadsPerMultiProcessor / BENCH_READ_BLOCK);
    c->shape.sm_count = prop.multiProcessorCount;
    c->shape.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    c->shape.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
    if (c->max_blocks < 1)
        c->max_blocks = 1;
    /* Twice the L2, so that no line of the previous run survives. */
    results->l2_bytes = (size_t)prop.l2CacheSize;
    c->flush_bytes = 2 * (size_t)(prop.l2CacheSize > 0 ? prop.l2CacheSize : 1 << 20);

    uint64_t n_max = (uint64_t)1 << c->opts->max_log2;
    size_t in_bytes = (size_t)(n_max * c->elem);
    char what[96];
    snprintf(what, sizeof what, "cudaMalloc(input, %.2f GiB)",
             in_bytes / (double)(1u << 30));
    if (!cuda_ok(c, cudaStreamCreate(&c->stream), "cudaStreamCreate") ||
        !cuda_ok(c, cudaEventCreate(&c->start), "cudaEventCreate") ||
        !cuda_ok(c, cudaEventCreate(&c->stop), "cudaEventCreate") ||
        !cuda_ok(c, cudaMalloc(&c->d_in, in_bytes), what) ||
        !cuda_ok(c, cudaMalloc(&c->d_out, 8), "cudaMalloc(result)") ||
        !cuda_ok(c, cudaMalloc(&c->d_flush, c->flush_bytes), "cudaMalloc(L2 flush)") ||
        !cuda_ok(c, cudaMalloc((void **)&c->d_sink, sizeof *c->d_sink),
                 "cudaMalloc(sink)") ||
        !cuda_ok(c, cudaMemset(c->d_sink, 0, sizeof *c->d_sink), "cudaMemset(sink)") ||
        !cuda_ok(c, bench_fill(c->dtype, c->d_in, n_max, &c->fill,
                               c->max_blocks, c->stream),
                 "fill kernel") ||
        !cuda_ok(c, cudaStreamSynchronize(c->stream), "fill kernel"))
        return 0;
    c->samples = (double *)malloc((size_t)c->opts->max_runs * sizeof *c->samples);
    if (c->samples == NULL) {
        snprintf(c->err, c->err_size, "out of host memory");
        return 0;
    }
    fprintf(stderr,
            "cured bench: %s, %d SMs, L2 %.0f MiB (flush %.0f MiB), %s, n = 2^%d..2^%d\n",
            prop.name, prop.multiProcessorCount, prop.l2CacheSize / 1048576.0,
            c->flush_bytes / 1048576.0, cured_dtype_name(c->dtype),
            c->opts->min_log2, c->opts->max_log2);
    return 1;
}

/* Frees whatever setup allocated. Can't fail (errors are ignored: the
 * process is about to report and exit). */
static void teardown(bench_ctx *c)
{
    if (c->stream)
        cudaStreamSynchronize(c->stream);
    cudaFree(c->d_in);
    cudaFree(c->d_out);
    cudaFree(c->d_flush);
    cudaFree(c->d_sink);
    cudaFree(c->d_temp);
    if (c->start)
        cudaEventDestroy(c->start);
    if (c->stop)
        cudaEventDestroy(c->stop);
    if (c->stream)
        cudaStreamDestroy(c->stream);
    free(c->samples);
}

/* Measures one job and appends its row. Returns 1 to go on, 0 to stop. */
static int run_job(bench_ctx *c, bench_results *results, int kind, int log2n)
{
    const char *name = kind == JOB_CUB    ? BENCH_CUB
                       : kind == JOB_READ ? BENCH_READ
                                          : cured_catalogue_entry(kind)->name;
    bench_result row = new_row(name, log2n, c->elem);
    if (kind >= 0)
        row.is_exhibit = cured_catalogue_entry(kind)->is_exhibit;
    int go_on = measure(c, kind, log2n, &row);
    if (bench_results_add(results, &row) != 0) {
        snprintf(c->err, c->err_size, "out of host memory");
        return 0;
    }
    return go_on;
}

int bench_run(const bench_options *opts, bench_results *results, char *err,
              size_t err_size)
{
    bench_ctx c;
    memset(&c, 0, sizeof c);
    c.opts = opts;
    c.err = err;
    c.err_size = err_size;
    c.dtype = opts->dtype;
    c.elem = cured_dtype_size(opts->dtype);
    results->dtype = cured_dtype_name(opts->dtype);
    results->block_size = opts->block_size;
    if (c.elem == 0) {
        snprintf(err, err_size, "invalid element type");
        return -1;
    }
    /* "cured" in ASCII: any seed would do, this one every run */
    c.fill = cured_ref_fill_standard(0x6375726564ull);
    cured_ref_sum_init(&c.ref, c.dtype);
    int ok = setup(&c, results);
    for (int k = opts->min_log2; ok && k <= opts->max_log2; k++) {
        double t0 = bench_now_ms();
        cured_ref_sum_add_fill(&c.ref, &c.fill, c.ref.n, (uint64_t)1 << k);
        double t_ref = bench_now_ms() - t0;
        ok = run_job(&c, results, JOB_CUB, k) && run_job(&c, results, JOB_READ, k);
        for (int i = 0; ok && i < cured_catalogue_count() && i < 64; i++)
            if (opts->kernel_mask >> i & 1)
                ok = run_job(&c, results, i, k);
        if (ok)
            fprintf(stderr, "cured bench: 2^%d done in %.1f s (CPU reference %.1f s)\n",
                    k, (bench_now_ms() - t0) / 1e3, t_ref / 1e3);
    }
    teardown(&c);
    bench_derive(results);
    return ok ? 0 : -1;
}
