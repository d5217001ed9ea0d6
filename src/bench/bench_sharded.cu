/* bench_sharded.cu - the timing of `cured bench --gpus N` (bench_sharded.h):
 * cured_reduce_sharded_group over N GPUs of this process against
 * cured_reduce over the whole array on GPU 0, and NCCL's part alone.
 *
 * defines: bench_sharded_run
 *
 * Set-up (not timed): one communicator per GPU (cured_comm_create_all),
 * a stream per GPU, the whole array for the largest n on GPU 0 (the
 * bench's standard fill, bench_fill), a shard buffer on every other GPU.
 * Per n: the shards copied from GPU 0 (cudaMemcpyPeer; GPU 0's shard is
 * the start of the whole array), then for each of the three jobs a warm-up
 * and `runs` batches of back-to-back calls between two events on GPU 0's
 * stream (the other GPUs' streams wait for the start event and GPU 0's
 * stream for their ends, so a batch's time covers every GPU); one sample
 * per batch: its time over its calls. The batch size aims at about 2 ms.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_device.h"
#include "bench_sharded.h"

#ifdef CURED_BENCH_NCCL
#include <nccl.h>
#endif

#define MAX_GPUS 16

/* Stores "what: message" in err; returns -1. */
static int fail(char *err, size_t cap, const char *what, const char *message)
{
    snprintf(err, cap, "%s: %s", what, message);
    return -1;
}

#ifdef CURED_BENCH_NCCL

/* Everything the run holds. */
typedef struct sharded_ctx {
    int gpus;
    cured_comm *comms[MAX_GPUS];
    cudaStream_t streams[MAX_GPUS];
    cudaEvent_t start, stop, done[MAX_GPUS];
    void *d_shard[MAX_GPUS];    /* GPU 0: the whole array; others: their shard */
    uint64_t *d_out[MAX_GPUS];  /* per GPU: [0] the sharded result; GPU 0's [4]
                                   cured_reduce's over the whole array */
    void *d_records[MAX_GPUS];  /* NCCL's part alone: its own buffer */
    cured_reducer *one;         /* cured_reduce on GPU 0 */
    uint64_t first[MAX_GPUS + 1];
} sharded_ctx;

enum { JOB_ONE_GPU, JOB_SHARDED, JOB_NCCL };

/* One call of job j at n (the shards in place). cudaSuccess or an error;
 * cured statuses come back as cudaErrorUnknown with *st set. */
static cudaError_t run_job(sharded_ctx *c, int job, uint64_t n, cured_status *st)
{
    *st = CURED_SUCCESS;
    if (job == JOB_ONE_GPU) {
        cudaSetDevice(0);
        *st = cured_reduce(c->one, CURED_OP_SUM, CURED_F32, c->d_shard[0], n,
                           c->d_out[0] + 4, 0, (cured_stream)c->streams[0]);
    } else if (job == JOB_SHARDED) {
        cured_shard s[MAX_GPUS];
        for (int r = 0; r < c->gpus; r++) {
            uint64_t count = c->first[r + 1] - c->first[r];
            s[r].comm = c->comms[r];
            s[r].d_shard = count ? c->d_shard[r] : NULL;
            s[r].n = count;
            s[r].d_out = c->d_out[r];
            s[r].stream = (cured_stream)c->streams[r];
        }
        *st = cured_reduce_sharded_group(s, c->gpus, CURED_OP_SUM, CURED_F32, 0);
    } else {
        if (ncclGroupStart() != ncclSuccess) {
            *st = CURED_ERROR_NCCL;
        } else {
            for (int r = 0; r < c->gpus; r++) {
                struct ncclComm *nccl;
                cured_comm_nccl(c->comms[r], &nccl);
                cudaSetDevice(r);
                char *buf = (char *)c->d_records[r];
                if (ncclAllGather(buf + (size_t)r * CURED_SHARD_RECORD_BYTES, buf,
                                  CURED_SHARD_RECORD_BYTES / 8, ncclUint64, nccl,
                                  c->streams[r]) != ncclSuccess)
                    *st = CURED_ERROR_NCCL;
            }
            if (ncclGroupEnd() != ncclSuccess)
                *st = CURED_ERROR_NCCL;
        }
    }
    cudaSetDevice(0);
    return *st == CURED_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/* A batch of `calls` calls of job j between GPU 0's events: microseconds
 * per call, or a negative number after an error (err set). */
static double time_batch(sharded_ctx *c, int job, uint64_t n, int calls, char *err,
                         size_t cap)
{
    cured_status st = CURED_SUCCESS;
    cudaSetDevice(0);
    cudaEventRecord(c->start, c->streams[0]);
    for (int r = 1; r < c->gpus; r++) {
        cudaSetDevice(r);
        cudaStreamWaitEvent(c->streams[r], c->start, 0);
    }
    for (int i = 0; i < calls && st == CURED_SUCCESS; i++)
        run_job(c, job, n, &st);
    for (int r = 1; r < c->gpus; r++) {
        cudaSetDevice(r);
        cudaEventRecord(c->done[r], c->streams[r]);
        cudaSetDevice(0);
        cudaStreamWaitEvent(c->streams[0], c->done[r], 0);
    }
    cudaSetDevice(0);
    cudaEventRecord(c->stop, c->streams[0]);
    cudaError_t e = cudaEventSynchronize(c->stop);
    float ms = 0;
    if (e == cudaSuccess)
        e = cudaEventElapsedTime(&ms, c->start, c->stop);
    if (st != CURED_SUCCESS) {
        fail(err, cap, "cured", cured_status_string(st));
        return -1;
    }
    if (e != cudaSuccess) {
        fail(err, cap, "timing", cudaGetErrorString(e));
        return -1;
    }
    return ms * 1e3 / calls;
}

/* Times job j at n: a warm-up batch sizes the batches (about 2 ms each,
 * 1 to 1000 calls), then opts->min_runs batches. Returns 0 or -1. */
static int time_job(sharded_ctx *c, int job, uint64_t n, const bench_options *opts,
                    double *samples, bench_summary *out, char *err, size_t cap)
{
    double us = time_batch(c, job, n, 3, err, cap);
    if (us < 0)
        return -1;
    int calls = us > 0 ? (int)(2000.0 / us) : 1000;
    calls = calls < 1 ? 1 : calls > 1000 ? 1000 : calls;
    int runs = opts->min_runs;
    for (int i = 0; i < runs; i++) {
        samples[i] = time_batch(c, job, n, calls, err, cap);
        if (samples[i] < 0)
            return -1;
    }
    bench_summarize(samples, runs, out);
    return 0;
}

/* Frees whatever c holds. */
static void release(sharded_ctx *c)
{
    for (int r = 0; r < c->gpus; r++) {
        cudaSetDevice(r);
        if (c->d_shard[r])
            cudaFree(c->d_shard[r]);
        if (c->d_out[r])
            cudaFree(c->d_out[r]);
        if (c->d_records[r])
            cudaFree(c->d_records[r]);
        if (c->streams[r])
            cudaStreamDestroy(c->streams[r]);
        if (c->done[r])
            cudaEventDestroy(c->done[r]);
        cured_comm_destroy(c->comms[r]);
    }
    cudaSetDevice(0);
    if (c->start)
        cudaEventDestroy(c->start);
    if (c->stop)
        cudaEventDestroy(c->stop);
    cured_reducer_destroy(c->one);
    cudaGetLastError();
}

/* Everything but the data: communicators, streams, events, buffers. */
static int set_up(sharded_ctx *c, int gpus, uint64_t n_max, char *err, size_t cap)
{
    memset(c, 0, sizeof *c);
    c->gpus = gpus;
    cured_status st = cured_comm_create_all(gpus, NULL, c->comms);
    if (st != CURED_SUCCESS)
        return fail(err, cap, "cured_comm_create_all", cured_status_string(st));
    uint64_t shard_max = n_max / (uint64_t)gpus + 1;
    for (int r = 0; r < gpus; r++) {
        cudaError_t e = cudaSetDevice(r);
        size_t bytes = (size_t)(r == 0 ? n_max : shard_max) * 4 + 64;
        if (e == cudaSuccess)
            e = cudaStreamCreateWithFlags(&c->streams[r], cudaStreamNonBlocking);
        if (e == cudaSuccess)
            e = cudaEventCreateWithFlags(&c->done[r], cudaEventDisableTiming);
        if (e == cudaSuccess)
            e = cudaMalloc(&c->d_shard[r], bytes);
        if (e == cudaSuccess)
            e = cudaMalloc((void **)&c->d_out[r], 64);
        if (e == cudaSuccess)
            e = cudaMalloc(&c->d_records[r], (size_t)gpus * CURED_SHARD_RECORD_BYTES);
        if (e == cudaSuccess)
            e = cudaMemset(c->d_records[r], 0, (size_t)gpus * CURED_SHARD_RECORD_BYTES);
        if (e != cudaSuccess)
            return fail(err, cap, "GPU buffers", cudaGetErrorString(e));
    }
    cudaSetDevice(0);
    if (cudaEventCreate(&c->start) != cudaSuccess || cudaEventCreate(&c->stop) != cudaSuccess)
        return fail(err, cap, "cudaEventCreate", "failed");
    st = cured_reducer_create(NULL, 0, &c->one);
    if (st != CURED_SUCCESS)
        return fail(err, cap, "cured_reducer_create", cured_status_string(st));
    return 0;
}

/* One n: the shards copied, the three jobs timed, the bits compared. */
static int run_n(sharded_ctx *c, const bench_options *opts, int k, double *samples,
                 bench_sharded_results *results, char *err, size_t cap)
{
    uint64_t n = (uint64_t)1 << k;
    bench_sharded_row row;
    memset(&row, 0, sizeof row);
    row.log2n = k;
    row.n = n;
    for (int r = 0; r <= c->gpus; r++)
        c->first[r] = n * (uint64_t)r / (uint64_t)c->gpus;
    for (int r = 1; r < c->gpus; r++) {
        uint64_t count = c->first[r + 1] - c->first[r];
        cudaError_t e = count ? cudaMemcpyPeer(c->d_shard[r], r,
                                               (const float *)c->d_shard[0] + c->first[r],
                                               0, count * 4)
                              : cudaSuccess;
        if (e != cudaSuccess)
            return fail(err, cap, "cudaMemcpyPeer", cudaGetErrorString(e));
    }
    static const char *names[3] = {"1 GPU", "sharded", "NCCL"};
    bench_summary *outs[3] = {&row.one_gpu, &row.sharded, &row.nccl};
    for (int job = 0; job < 3; job++) {
        fprintf(stderr, "bench --gpus %d: 2^%d %s ...\n", c->gpus, k, names[job]);
        if (time_job(c, job, n, opts, samples, outs[job], err, cap) != 0)
            return -1;
    }
    /* the check: every rank's result against cured_reduce's on GPU 0 */
    uint64_t want = 0;
    cudaSetDevice(0);
    cudaMemcpy(&want, c->d_out[0] + 4, 4, cudaMemcpyDeviceToHost);
    cured_status st = CURED_SUCCESS;
    run_job(c, JOB_SHARDED, n, &st);
    row.equal = st == CURED_SUCCESS;
    for (int r = 0; r < c->gpus && row.equal; r++) {
        uint64_t got = 0;
        cudaSetDevice(r);
        cured_status check = cured_comm_check(c->comms[r], (cured_stream)c->streams[r]);
        cudaMemcpy(&got, c->d_out[r], 4, cudaMemcpyDeviceToHost);
        if (check != CURED_SUCCESS || got != want) {
            row.equal = 0;
            snprintf(row.note, sizeof row.note, "rank %d: %08llx, 1 GPU %08llx (%s)", r,
                     (unsigned long long)got, (unsigned long long)want,
                     cured_status_string(check));
        }
    }
    cudaSetDevice(0);
    if (bench_sharded_results_add(results, &row) != 0)
        return fail(err, cap, "rows", "out of memory");
    return 0;
}

int bench_sharded_run(const bench_options *opts, bench_sharded_results *results,
                      char *err, size_t err_size)
{
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        cudaGetLastError();
        return fail(err, err_size, "no GPU found",
                    e != cudaSuccess ? cudaGetErrorString(e) : "CUDA sees none");
    }
    if (opts->gpus > devices || opts->gpus > MAX_GPUS) {
        snprintf(err, err_size, "--gpus %d: this machine has %d GPU(s)%s", opts->gpus,
                 devices, opts->gpus > MAX_GPUS ? " (and the bench takes 16 at most)" : "");
        return -1;
    }
    results->gpus = opts->gpus;
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        size_t len = strnlen(prop.name, sizeof results->device - 1);
        memcpy(results->device, prop.name, len);
        results->device[len] = '\0';
    }
    uint64_t n_max = (uint64_t)1 << opts->max_log2;
    sharded_ctx c;
    double *samples = (double *)malloc((size_t)opts->min_runs * sizeof *samples);
    int rc = samples != NULL ? set_up(&c, opts->gpus, n_max, err, err_size)
                             : fail(err, err_size, "samples", "out of memory");
    if (rc == 0) {
        cured_ref_fill fill = cured_ref_fill_standard(0x6375726564ull);
        cudaSetDevice(0);
        e = bench_fill(CURED_F32, c.d_shard[0], n_max, &fill, 4096, c.streams[0]);
        if (e == cudaSuccess)
            e = cudaStreamSynchronize(c.streams[0]);
        if (e != cudaSuccess)
            rc = fail(err, err_size, "fill", cudaGetErrorString(e));
    }
    for (int k = opts->min_log2; rc == 0 && k <= opts->max_log2; k++)
        rc = run_n(&c, opts, k, samples, results, err, err_size);
    if (samples != NULL)
        release(&c);
    free(samples);
    return rc;
}

#else /* no NCCL: the sharded reduction is not in this libcured */

int bench_sharded_run(const bench_options *opts, bench_sharded_results *results,
                      char *err, size_t err_size)
{
    (void)opts;
    (void)results;
    return fail(err, err_size, "--gpus", cured_status_string(CURED_ERROR_NO_NCCL));
}

#endif
