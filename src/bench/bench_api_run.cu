/* bench_api_run.cu - the timing loop of `cured bench --api`: cured_reduce,
 * CUB's DeviceReduce::Sum, an empty kernel and the read kernel, in one
 * process, on one stream, over the standard fill.
 *
 * defines: bench_api_run
 *
 * Per dtype the input is the standard fill for the largest n (smaller n
 * read a prefix), made on the GPU; per n the reference is src/reference's
 * exact sum of the same elements (extended from the previous n: from the
 * fill itself for f32, f64 and i32, and for f16, which src/reference has
 * no fill of, from the elements copied back). Each job gets:
 * - a check: one call into a poisoned result, its distance in ulps from
 *   the exact sum rounded to the result's format (cured's must be 0);
 * - warm: after warm-up, BATCHES batches of back-to-back calls on the
 *   stream between two events; per call = batch time / calls (a batch
 *   lasts about BATCH_MS); the median batch;
 * - cold: runs of one call, each after a memset of twice the L2 that
 *   completes before the start event (as `cured bench` does), until
 *   --runs and --target-ms are both met (or past 10x --target-ms once 5
 *   are in); the median run.
 * The jobs take turns, batch by batch and run by run, so that a drift of
 * the machine over the minutes of a run (the empty kernel's launch moved
 * from 2.6 to 4.1 us in one) weighs on every job of a size alike.
 */
#include "bench_api.h"
#include "bench_device.h"
#include "reduce.h"
#include "ref_sum.h"

#include <cuda_fp16.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { BATCHES = 9 };
#define REF_CHUNK ((uint64_t)1 << 22) /* f16 elements copied back at a time */
#define BATCH_MS 4.0
enum { JOB_CURED, JOB_CUB, JOB_LAUNCH, JOB_READ, JOBS };
static const char *const job_names[JOBS] = {BENCH_API_CURED, BENCH_API_CUB,
                                            BENCH_API_LAUNCH, BENCH_API_READ};

/* What one run holds on the device and the host. */
typedef struct api_ctx {
    const bench_options *opts;
    char *err;
    size_t err_size;
    cudaStream_t stream;
    cudaEvent_t start, stop;
    cured_reducer *reducer;
    int max_blocks;               /* grid cap of the fill and read kernels */
    int dependent_launch;         /* the floor launched as cured_reduce's kernels */
    void *d_in;                   /* the input of the dtype being timed */
    void *d_out;                  /* 8 bytes: a result */
    void *d_flush;
    size_t flush_bytes;
    void *d_temp;                 /* CUB's scratch, grown as needed */
    size_t temp_capacity;
    unsigned long long *d_sink;   /* the read kernel's never-written output */
    double *samples;
    int max_samples;
    /* the reference of the dtype being timed, over its first ref_n elements */
    cured_dtype dtype;
    cured_ref_sum ref;            /* f32, f64, i32 */
    cured_ref_exact exact16;      /* f16 */
    uint64_t ref_n;
} api_ctx;

/* Stores "what: CUDA's message" in the error line when e is an error.
 * Returns 1 when e is cudaSuccess, else 0. */
static int ok(api_ctx *c, cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 1;
    snprintf(c->err, c->err_size, "%s: %s", what, cudaGetErrorString(e));
    return 0;
}

/* Makes CUB's scratch at least `bytes` large. Returns 1, or 0 with the
 * error line set. */
static int ensure_temp(api_ctx *c, size_t bytes)
{
    if (bytes <= c->temp_capacity)
        return 1;
    if (c->d_temp != NULL && (!ok(c, cudaStreamSynchronize(c->stream), "sync") ||
                              !ok(c, cudaFree(c->d_temp), "cudaFree(scratch)")))
        return 0;
    c->d_temp = NULL;
    c->temp_capacity = 0;
    if (!ok(c, cudaMalloc(&c->d_temp, bytes), "cudaMalloc(scratch)"))
        return 0;
    c->temp_capacity = bytes;
    return 1;
}

/* The dtype of a job's result. */
static cured_dtype result_dtype(int job, cured_dtype d)
{
    if (job == JOB_CUB || d == CURED_F64 || d == CURED_I32)
        return d;
    return CURED_F32; /* cured_reduce: f16 and f32 sums round to f32 */
}

/* Queues one call of job over n elements. Returns 1, or 0 with the error
 * line set (cured_reduce's status, or the CUDA error). */
static int launch(api_ctx *c, int job, uint64_t n)
{
    size_t elem = cured_dtype_size(c->dtype);
    cudaError_t e;
    switch (job) {
    case JOB_CURED: {
        cured_status st = cured_reduce(c->reducer, CURED_OP_SUM, c->dtype, c->d_in, n,
                                       c->d_out, 0, (cured_stream)c->stream);
        if (st == CURED_SUCCESS)
            return 1;
        snprintf(c->err, c->err_size, "cured_reduce: %s", cured_status_string(st));
        return 0;
    }
    case JOB_CUB: {
        size_t bytes = c->temp_capacity;
        e = bench_cub_sum(c->dtype, c->d_temp, &bytes, c->d_in, n, c->d_out, c->stream);
        break;
    }
    case JOB_LAUNCH: e = bench_empty(c->dependent_launch, c->stream); break;
    default: e = bench_read(c->d_in, n * elem, c->d_sink, c->max_blocks, c->stream);
    }
    return ok(c, e, job_names[job]);
}

/* Extends the reference to the first n elements. Returns 1, or 0 with the
 * error line set. */
static int extend_reference(api_ctx *c, uint64_t n)
{
    if (c->dtype != CURED_F16) {
        cured_ref_fill f = cured_ref_fill_standard(0x6375726564ull); /* "cured" */
        cured_ref_sum_add_fill(&c->ref, &f, c->ref_n, n);
        c->ref_n = n;
        return 1;
    }
    uint16_t *h = (uint16_t *)malloc(REF_CHUNK * sizeof *h);
    double *x = (double *)malloc(REF_CHUNK * sizeof *x);
    int good = h != NULL && x != NULL;
    if (!good)
        snprintf(c->err, c->err_size, "out of host memory");
    while (good && c->ref_n < n) {
        uint64_t m = n - c->ref_n < REF_CHUNK ? n - c->ref_n : REF_CHUNK;
        good = ok(c, cudaMemcpy(h, (const uint16_t *)c->d_in + c->ref_n, m * 2,
                                cudaMemcpyDeviceToHost), "cudaMemcpy(f16 input)");
        for (uint64_t i = 0; good && i < m; i++)
            x[i] = bench_half_to_double(h[i]);
        if (good)
            cured_ref_exact_add_doubles(&c->exact16, NULL, x, (size_t)m);
        c->ref_n += m;
    }
    free(h);
    free(x);
    return good;
}

/* The bits of the exact sum rounded to `out` (the reference's format for
 * f32, f64 and i32). */
static uint64_t wanted_bits(api_ctx *c, cured_dtype out)
{
    uint64_t bits = 0;
    if (c->dtype != CURED_F16) {
        cured_ref_sum_element(&c->ref, &bits);
        return bits;
    }
    if (out == CURED_F16)
        return bench_half_nearest(&c->exact16);
    float f = cured_ref_exact_to_float(&c->exact16);
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* One call into a poisoned result: row->ulps. Returns 1, or 0 with the
 * error line set. */
static int check(api_ctx *c, int job, bench_api_row *row)
{
    row->ulps = NAN;
    if (job != JOB_CURED && job != JOB_CUB)
        return 1;
    if (!ok(c, cudaMemsetAsync(c->d_out, 0xff, 8, c->stream), "poison") ||
        !launch(c, job, row->n) ||
        !ok(c, cudaStreamSynchronize(c->stream), job_names[job]))
        return 0;
    uint64_t got = 0;
    if (!ok(c, cudaMemcpy(&got, c->d_out, cured_dtype_size(row->out),
                          cudaMemcpyDeviceToHost), "cudaMemcpy(result)"))
        return 0;
    uint64_t d = bench_ulp_distance(row->out, got, wanted_bits(c, row->out));
    row->ulps = d == UINT64_MAX ? INFINITY : (double)d;
    if (job == JOB_CURED && d != 0)
        snprintf(row->note, sizeof row->note, "MISMATCH: not the correctly rounded sum");
    return 1;
}

/* One batch of `calls` back-to-back calls of job between the two events:
 * *us = the time per call. Returns 1, or 0 with the error line set. */
static int time_batch(api_ctx *c, int job, uint64_t n, int calls, double *us)
{
    float ms = 0;
    if (!ok(c, cudaEventRecord(c->start, c->stream), "cudaEventRecord"))
        return 0;
    for (int i = 0; i < calls; i++)
        if (!launch(c, job, n))
            return 0;
    if (!ok(c, cudaEventRecord(c->stop, c->stream), "cudaEventRecord") ||
        !ok(c, cudaEventSynchronize(c->stop), job_names[job]) ||
        !ok(c, cudaEventElapsedTime(&ms, c->start, c->stop), "cudaEventElapsedTime"))
        return 0;
    *us = ms * 1e3 / calls;
    return 1;
}

/* The samples of job j (c->max_samples of them). */
static double *job_samples(api_ctx *c, int job)
{
    return c->samples + (size_t)job * c->max_samples;
}

/* Warm, every job at n: a probe batch sizes each job's batches (about
 * BATCH_MS each), then BATCHES rounds, each one batch of every job in a
 * rotating order, after one untimed call of it (so that a slow drift of
 * the GPU's clocks or of the launch queue falls on all jobs alike);
 * row[job].us over its batches. Returns 1, or 0 with the error line set. */
static int time_warm(api_ctx *c, uint64_t n, bench_api_row *rows)
{
    int calls[JOBS];
    for (int job = 0; job < JOBS; job++) {
        double us = 0;
        for (int w = 0; w < 3; w++)
            if (!launch(c, job, n))
                return 0;
        if (!time_batch(c, job, n, 10, &us))
            return 0;
        double want = BATCH_MS * 1e3 / (us > 0 ? us : 1);
        calls[job] = want < 5 ? 5 : want > 2000 ? 2000 : (int)want;
    }
    for (int round = 0; round < BATCHES; round++)
        for (int k = 0; k < JOBS; k++) {
            int job = (round + k) % JOBS;
            if (!launch(c, job, n) ||
                !time_batch(c, job, n, calls[job], &job_samples(c, job)[round]))
                return 0;
        }
    for (int job = 0; job < JOBS; job++) {
        rows[job].calls = calls[job];
        bench_summarize(job_samples(c, job), BATCHES, &rows[job].us);
    }
    return 1;
}

/* Cold, every job at n: rounds of one call of every job in a rotating
 * order, each call after a memset of twice the L2 that completes before
 * the start event (as `cured bench` does), until every job has --runs and
 * the rounds took --target-ms a job (or past 10x that once 5 rounds are
 * in); row[job].us over its runs. Returns 1, or 0 with the error line
 * set. */
static int time_cold(api_ctx *c, uint64_t n, bench_api_row *rows)
{
    const bench_options *o = c->opts;
    int runs = 0;
    double t0 = bench_now_ms();
    while (runs < c->max_samples) {
        for (int k = 0; k < JOBS; k++) {
            int job = (runs + k) % JOBS;
            float ms = 0;
            if (!ok(c, cudaMemsetAsync(c->d_flush, runs & 0xff, c->flush_bytes, c->stream),
                    "L2 flush") ||
                !ok(c, cudaStreamSynchronize(c->stream), "L2 flush") ||
                !ok(c, cudaEventRecord(c->start, c->stream), "cudaEventRecord") ||
                !launch(c, job, n) ||
                !ok(c, cudaEventRecord(c->stop, c->stream), "cudaEventRecord") ||
                !ok(c, cudaEventSynchronize(c->stop), job_names[job]) ||
                !ok(c, cudaEventElapsedTime(&ms, c->start, c->stop), "cudaEventElapsedTime"))
                return 0;
            job_samples(c, job)[runs] = ms * 1e3;
        }
        runs++;
        double elapsed = bench_now_ms() - t0;
        if (runs >= o->min_runs && elapsed >= JOBS * o->target_ms)
            break;
        if (runs >= 5 && elapsed >= JOBS * o->cap_ms)
            break;
    }
    for (int job = 0; job < JOBS; job++) {
        rows[job].calls = 1;
        bench_summarize(job_samples(c, job), runs, &rows[job].us);
    }
    return 1;
}

/* A fresh row, statistics and derived columns NAN. */
static bench_api_row new_row(int job, const char *mode, cured_dtype d, int log2n)
{
    bench_api_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.job, sizeof r.job, "%s", job_names[job]);
    snprintf(r.mode, sizeof r.mode, "%s", mode);
    r.dtype = d;
    r.out = result_dtype(job, d);
    r.log2n = log2n;
    r.n = (uint64_t)1 << log2n;
    r.us.median = r.us.q1 = r.us.q3 = r.us.min = r.us.max = NAN;
    r.gbps = r.pct_read = r.cub_over = r.ulps = NAN;
    return r;
}

/* Times every job at n = 2^log2n, warm then cold. Returns 1, or 0 with
 * the error line set. */
static int measure_size(api_ctx *c, bench_api_results *r, int log2n)
{
    uint64_t n = (uint64_t)1 << log2n;
    size_t temp = 0;
    if (!ok(c, bench_cub_sum(c->dtype, NULL, &temp, c->d_in, n, c->d_out, c->stream),
            "CUB (scratch size)") ||
        !ensure_temp(c, temp > 0 ? temp : 1))
        return 0;
    double t0 = bench_now_ms();
    if (!extend_reference(c, n))
        return 0;
    double t_ref = bench_now_ms() - t0;
    bench_api_row rows[2][JOBS];
    for (int job = 0; job < JOBS; job++) {
        rows[0][job] = new_row(job, BENCH_API_WARM, c->dtype, log2n);
        rows[1][job] = new_row(job, BENCH_API_COLD, c->dtype, log2n);
        if (!check(c, job, &rows[0][job]))
            return 0;
        rows[1][job].ulps = rows[0][job].ulps;
        memcpy(rows[1][job].note, rows[0][job].note, sizeof rows[1][job].note);
    }
    if (!time_warm(c, n, rows[0]) || !time_cold(c, n, rows[1]))
        return 0;
    for (int m = 0; m < 2; m++)
        for (int job = 0; job < JOBS; job++)
            if (bench_api_add(r, &rows[m][job]) != 0) {
                snprintf(c->err, c->err_size, "out of host memory");
                return 0;
            }
    if (rows[0][JOB_CURED].ulps != 0)
        fprintf(stderr, "cured bench --api: MISMATCH: cured %s at 2^%d is %.0f ulps "
                        "from the exact sum\n", cured_dtype_name(c->dtype), log2n,
                rows[0][JOB_CURED].ulps);
    fprintf(stderr, "cured bench --api: %s 2^%d done in %.1f s (reference %.1f s)\n",
            cured_dtype_name(c->dtype), log2n, (bench_now_ms() - t0) / 1e3, t_ref / 1e3);
    return 1;
}

/* Allocates and fills the input of dtype d for the largest n, and resets
 * the reference. Returns 1, or 0 with the error line set. */
static int prepare_dtype(api_ctx *c, cured_dtype d)
{
    if (c->d_in != NULL && !ok(c, cudaFree(c->d_in), "cudaFree(input)"))
        return 0;
    c->d_in = NULL;
    c->dtype = d;
    uint64_t n = (uint64_t)1 << c->opts->max_log2;
    size_t bytes = (size_t)(n * cured_dtype_size(d));
    char what[96];
    snprintf(what, sizeof what, "cudaMalloc(%s input, %.2f GiB)", cured_dtype_name(d),
             bytes / (double)(1u << 30));
    cured_ref_fill f = cured_ref_fill_standard(0x6375726564ull); /* "cured" */
    if (!ok(c, cudaMalloc(&c->d_in, bytes), what) ||
        !ok(c, bench_fill(d, c->d_in, n, &f, c->max_blocks, c->stream), "fill kernel") ||
        !ok(c, cudaStreamSynchronize(c->stream), "fill kernel"))
        return 0;
    if (d != CURED_F16)
        cured_ref_sum_init(&c->ref, d);
    cured_ref_exact_clear(&c->exact16);
    c->ref_n = 0;
    return 1;
}

/* Opens the device, makes the stream, events, buffers and the reducer.
 * Returns 1, or 0 with the error line set. */
static int setup(api_ctx *c, bench_api_results *r)
{
    cudaDeviceProp prop;
    if (!bench_open_device(&prop, c->err, c->err_size))
        return 0;
    snprintf(r->device, sizeof r->device, "%.95s", prop.name);
    r->l2_bytes = (size_t)prop.l2CacheSize;
    c->max_blocks = prop.multiProcessorCount *
                    (prop.maxThreadsPerMultiProcessor / BENCH_READ_BLOCK);
    if (c->max_blocks < 1)
        c->max_blocks = 1;
    c->flush_bytes = 2 * (size_t)(prop.l2CacheSize > 0 ? prop.l2CacheSize : 1 << 20);
    c->max_samples = c->opts->max_runs > BATCHES ? c->opts->max_runs : BATCHES;
    c->samples = (double *)malloc((size_t)JOBS * c->max_samples * sizeof *c->samples);
    if (c->samples == NULL) {
        snprintf(c->err, c->err_size, "out of host memory");
        return 0;
    }
    cured_status st = cured_reducer_create(NULL, 0, &c->reducer);
    if (st != CURED_SUCCESS) {
        snprintf(c->err, c->err_size, "cured_reducer_create: %s", cured_status_string(st));
        return 0;
    }
    c->dependent_launch = cured_reducer_dependent_launch(c->reducer);
    if (!ok(c, cudaStreamCreate(&c->stream), "cudaStreamCreate") ||
        !ok(c, cudaEventCreate(&c->start), "cudaEventCreate") ||
        !ok(c, cudaEventCreate(&c->stop), "cudaEventCreate") ||
        !ok(c, cudaMalloc(&c->d_out, 8), "cudaMalloc(result)") ||
        !ok(c, cudaMalloc(&c->d_flush, c->flush_bytes), "cudaMalloc(L2 flush)") ||
        !ok(c, cudaMalloc((void **)&c->d_sink, sizeof *c->d_sink), "cudaMalloc(sink)") ||
        !ok(c, cudaMemset(c->d_sink, 0, sizeof *c->d_sink), "cudaMemset(sink)"))
        return 0;
    fprintf(stderr, "cured bench --api: %s, %d SMs, L2 %.0f MiB (flush %.0f MiB), "
                    "n = 2^%d..2^%d\n", prop.name, prop.multiProcessorCount,
            prop.l2CacheSize / 1048576.0, c->flush_bytes / 1048576.0, c->opts->min_log2,
            c->opts->max_log2);
    return 1;
}

/* Frees what setup and prepare_dtype made; errors are ignored (the
 * process is about to report and exit). */
static void teardown(api_ctx *c)
{
    if (c->stream)
        cudaStreamSynchronize(c->stream);
    cured_reducer_destroy(c->reducer);
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

int bench_api_run(const bench_options *opts, bench_api_results *r, char *err,
                  size_t err_size)
{
    static const cured_dtype order[] = {CURED_F32, CURED_F64, CURED_I32, CURED_F16};
    api_ctx c;
    memset(&c, 0, sizeof c);
    c.opts = opts;
    c.err = err;
    c.err_size = err_size;
    int good = setup(&c, r);
    for (size_t t = 0; good && t < sizeof order / sizeof *order; t++) {
        if (!(opts->api_dtypes >> order[t] & 1u))
            continue;
        good = prepare_dtype(&c, order[t]);
        for (int k = opts->min_log2; good && k <= opts->max_log2; k++)
            good = measure_size(&c, r, k);
    }
    teardown(&c);
    bench_api_derive(r);
    return good ? 0 : -1;
}
