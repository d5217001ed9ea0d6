/* test_sharded.cu - cured_reduce_sharded on real GPUs: every rank's bits
 * against cured_reduce over the whole array on one GPU (which
 * test_gpu_reduce checks against the CPU path, and CI that against an
 * exact reference).
 *
 *   test_gpu_sharded               one rank on GPU 0: f32, f64, i32 (and the
 *                                  other dtypes at one size) x every op and
 *                                  flag x data kinds x n in 0 .. 2^24 + 7, a
 *                                  misaligned shard, 200 calls back to back,
 *                                  a captured CUDA graph replayed, bad input
 *                                  -> a status, no result, a usable
 *                                  communicator after
 *   test_gpu_sharded --large       the same for n = 2^28 and 2^30 (f32, f64,
 *                                  i32: sum, min, argmax)
 *   test_gpu_sharded --one         a few calls (f64, f16 and i32 sums, f32
 *                                  argmax, n = 100003), for compute-sanitizer
 *   test_gpu_sharded --overhead    one rank against cured_reduce, f32 sum,
 *                                  2^10 .. 2^30: us per call back to back,
 *                                  and NCCL's allgather of the records alone
 *   test_gpu_sharded --gpus N [--sizes A,B,..]
 *                                  N ranks, one per GPU, one thread: every
 *                                  rank's bits for equal, unequal and
 *                                  one-empty splits (f32, f64, i32; n 3,
 *                                  2^20 + 1, 2^31, 2^33 unless --sizes),
 *                                  then ranks that disagree (two threads,
 *                                  other ops) or refuse: a status everywhere,
 *                                  no result, nobody left waiting
 *
 * Exits 0 when every check passes, 1 on a failure (one line each), 77
 * without a GPU (or with fewer than N), or in a build without NCCL.
 */
#include <cuda_runtime.h>
#include <nccl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured.h"
#include "gpu_test.h"
#include "reduce_fill.cuh"

static int is_float(cured_dtype d)
{
    return d == CURED_F16 || d == CURED_BF16 || d == CURED_F32 || d == CURED_F64;
}

/* Fills d_a[0..n) (on the current device) with kind k of dtype d. */
static void fill(void *d_a, cured_dtype d, int k, uint64_t n, uint64_t seed)
{
    if (n > 0)
        fill_kernel<<<2048, 256>>>(d_a, d, k, n, seed, (int)cured_dtype_size(d));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
}

/* The bits of the one result element at d_out (of op, dtype, flags). */
static uint64_t result_bits(const void *d_out, cured_op op, cured_dtype d, unsigned flags)
{
    cured_dtype rt;
    cured_reduce_result_dtype(op, d, flags, &rt);
    uint64_t bits = 0;
    CHECK_CUDA(cudaMemcpy(&bits, d_out, cured_dtype_size(rt), cudaMemcpyDeviceToHost));
    return bits;
}

// ----------------------------------------------------------------------------
// One rank on GPU 0

static cured_comm *C;     /* the one-rank communicator */
static cured_reducer *R;  /* cured_reduce's handle, for the reference bits */
static uint64_t *d_outs;  /* [0]: cured_reduce, [1]: the sharded call, [2..7] poison */

/* cured_reduce's bits and the sharded call's for d_a[0..n); a failure line
 * when they differ or a call fails. */
static void compare_one(const void *d_a, uint64_t n, cured_op op, cured_dtype d,
                        unsigned flags, const char *what)
{
    CHECK_CUDA(cudaMemset(d_outs, 0xab, 64));
    cured_status a = cured_reduce(R, op, d, d_a, n, d_outs, flags, NULL);
    cured_status b = cured_reduce_sharded(C, op, d, d_a, n, d_outs + 1, flags, NULL);
    cured_status c = cured_comm_check(C, NULL);
    if (a != CURED_SUCCESS || b != CURED_SUCCESS || c != CURED_SUCCESS) {
        FAIL("%s %s %s n=%llu flags %u: cured_reduce %s, sharded %s, check %s", what,
             cured_op_name(op), cured_dtype_name(d), (unsigned long long)n, flags,
             cured_status_string(a), cured_status_string(b), cured_status_string(c));
        return;
    }
    uint64_t want = result_bits(d_outs, op, d, flags);
    uint64_t got = result_bits(d_outs + 1, op, d, flags);
    uint64_t after[6];
    CHECK_CUDA(cudaMemcpy(after, d_outs + 2, sizeof after, cudaMemcpyDeviceToHost));
    int poison_kept = 1;
    for (int i = 0; i < 6; i++)
        poison_kept &= after[i] == 0xababababababababull;
    if (got != want || !poison_kept)
        FAIL("%s %s %s n=%llu flags %u: sharded %llx, cured_reduce %llx%s", what,
             cured_op_name(op), cured_dtype_name(d), (unsigned long long)n, flags,
             (unsigned long long)got, (unsigned long long)want,
             poison_kept ? "" : " (wrote past its element)");
}

/* Every op and flag of dtype d on kind k at n (d_a holds room for n). */
static void compare_all_ops(void *d_a, cured_dtype d, int k, uint64_t n, uint64_t seed)
{
    fill(d_a, d, k, n, seed);
    for (int op = 0; op < CURED_OP_COUNT; op++) {
        compare_one(d_a, n, (cured_op)op, d, 0, kind_names[k]);
        if (op == CURED_OP_SUM && d != CURED_F64)
            compare_one(d_a, n, (cured_op)op, d,
                        is_float(d) ? CURED_REDUCE_F64 : CURED_REDUCE_WIDEN, kind_names[k]);
    }
}

static void one_rank_sweep(void)
{
    static const cured_dtype types[] = {CURED_F32, CURED_F64, CURED_I32};
    static const uint64_t sizes[] = {0, 1, 3, 1000, 4099, (1u << 20) + 1, (1u << 24) + 7};
    void *d_a;
    CHECK_CUDA(cudaMalloc(&d_a, ((size_t)1 << 24) * 8 + 64));
    uint64_t seed = 1;
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < (is_float(types[t]) ? KINDS : 1); k++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
                compare_all_ops(d_a, types[t], k, sizes[s], seed++);
    static const cured_dtype others[] = {CURED_F16, CURED_BF16, CURED_I64, CURED_U32,
                                         CURED_U64};
    for (int t = 0; t < 5; t++)
        compare_all_ops(d_a, others[t], is_float(others[t]) ? WIDE : 0, 100003, seed++);
    /* a shard that starts one element past an alignment boundary */
    fill(d_a, CURED_F32, WIDE, 100004, 77);
    for (int op = 0; op < CURED_OP_COUNT; op++)
        compare_one((float *)d_a + 1, 100003, (cured_op)op, CURED_F32, 0, "misaligned");
    CHECK_CUDA(cudaFree(d_a));
    printf("one rank: sweep done (%d failures so far)\n", failures);
}

/* A few calls on one small array, for compute-sanitizer. */
static void one_rank_few(void)
{
    void *d_a;
    CHECK_CUDA(cudaMalloc(&d_a, 100003 * 8));
    compare_all_ops(d_a, CURED_F64, WIDE, 100003, 3);
    fill(d_a, CURED_F16, SPECIAL, 100003, 4);
    compare_one(d_a, 100003, CURED_OP_SUM, CURED_F16, 0, "special");
    fill(d_a, CURED_I32, 0, 100003, 5);
    compare_one(d_a, 100003, CURED_OP_SUM, CURED_I32, 0, "ints");
    fill(d_a, CURED_F32, WIDE, 100003, 6);
    compare_one(d_a, 100003, CURED_OP_ARGMAX, CURED_F32, 0, "wide");
    CHECK_CUDA(cudaFree(d_a));
    printf("one rank: a few calls done (%d failures so far)\n", failures);
}

static void one_rank_large(void)
{
    static const cured_dtype types[] = {CURED_F32, CURED_F64, CURED_I32};
    static const cured_op ops[] = {CURED_OP_SUM, CURED_OP_MIN, CURED_OP_ARGMAX};
    void *d_a;
    CHECK_CUDA(cudaMalloc(&d_a, ((size_t)1 << 30) * 8));
    for (int lg = 28; lg <= 30; lg += 2)
        for (int t = 0; t < 3; t++) {
            uint64_t n = (uint64_t)1 << lg;
            fill(d_a, types[t], is_float(types[t]) ? WIDE : 0, n, 100 + lg);
            for (int o = 0; o < 3; o++)
                compare_one(d_a, n, ops[o], types[t], 0, "large");
        }
    CHECK_CUDA(cudaFree(d_a));
    printf("one rank: 2^28 and 2^30 done (%d failures so far)\n", failures);
}

/* 200 calls back to back, each into its own output, then one check. */
static void one_rank_repeated(void)
{
    const int RUNS = 200;
    uint64_t n = 3000017;
    float *d_a;
    uint64_t *d_many;
    CHECK_CUDA(cudaMalloc(&d_a, n * 4));
    CHECK_CUDA(cudaMalloc(&d_many, RUNS * 8));
    fill(d_a, CURED_F32, UNIFORM, n, 5);
    CHECK_CUDA(cudaMemset(d_outs, 0, 8));
    if (cured_reduce(R, CURED_OP_SUM, CURED_F32, d_a, n, d_outs, 0, NULL) != CURED_SUCCESS)
        FAIL("repeated: cured_reduce failed");
    uint64_t want = result_bits(d_outs, CURED_OP_SUM, CURED_F32, 0);
    CHECK_CUDA(cudaMemset(d_many, 0xab, RUNS * 8));
    for (int i = 0; i < RUNS; i++)
        if (cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, d_a, n, d_many + i, 0, NULL) !=
            CURED_SUCCESS)
            FAIL("repeated: call %d failed", i);
    if (cured_comm_check(C, NULL) != CURED_SUCCESS)
        FAIL("repeated: cured_comm_check");
    uint64_t *h = (uint64_t *)malloc(RUNS * 8);
    CHECK_CUDA(cudaMemcpy(h, d_many, RUNS * 8, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < RUNS; i++)
        bad += (h[i] & 0xffffffffu) != want;
    if (bad)
        FAIL("repeated: %d of %d calls differ from cured_reduce", bad, RUNS);
    free(h);
    CHECK_CUDA(cudaFree(d_many));
    CHECK_CUDA(cudaFree(d_a));
    printf("one rank: %d calls back to back done (%d failures so far)\n", RUNS, failures);
}

/* One sharded call captured into a CUDA graph on a stream of its own,
 * replayed three times over new data: each replay's bits. */
static void one_rank_graph(void)
{
    uint64_t n = 1000003;
    double *d_a;
    CHECK_CUDA(cudaMalloc(&d_a, n * 8));
    cudaStream_t s;
    CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    fill(d_a, CURED_F64, WIDE, n, 1);
    /* one call outside the capture first: the pointer checks are cached */
    if (cured_reduce_sharded(C, CURED_OP_SUM, CURED_F64, d_a, n, d_outs + 1, 0, s) !=
        CURED_SUCCESS)
        FAIL("graph: the call before capture failed");
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    cured_status st = cured_reduce_sharded(C, CURED_OP_SUM, CURED_F64, d_a, n, d_outs + 1, 0, s);
    cudaError_t end = cudaStreamEndCapture(s, &graph);
    if (st != CURED_SUCCESS || end != cudaSuccess) {
        FAIL("graph: capture: %s, %s", cured_status_string(st), cudaGetErrorString(end));
        cudaGetLastError();
    } else {
        CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
        for (int rep = 0; rep < 3; rep++) {
            fill(d_a, CURED_F64, rep == 1 ? CANCEL : WIDE, n, 10 + rep);
            CHECK_CUDA(cudaMemset(d_outs, 0xab, 16));
            CHECK_CUDA(cudaGraphLaunch(exec, s));
            CHECK_CUDA(cudaStreamSynchronize(s));
            if (cured_reduce(R, CURED_OP_SUM, CURED_F64, d_a, n, d_outs, 0, NULL) !=
                CURED_SUCCESS)
                FAIL("graph: cured_reduce");
            uint64_t want = result_bits(d_outs, CURED_OP_SUM, CURED_F64, 0);
            uint64_t got = result_bits(d_outs + 1, CURED_OP_SUM, CURED_F64, 0);
            if (got != want)
                FAIL("graph: replay %d: %llx, cured_reduce %llx", rep,
                     (unsigned long long)got, (unsigned long long)want);
        }
        if (cured_comm_check(C, s) != CURED_SUCCESS)
            FAIL("graph: cured_comm_check");
        CHECK_CUDA(cudaGraphExecDestroy(exec));
        CHECK_CUDA(cudaGraphDestroy(graph));
    }
    CHECK_CUDA(cudaStreamDestroy(s));
    CHECK_CUDA(cudaFree(d_a));
    printf("one rank: graph capture done (%d failures so far)\n", failures);
}

/* Bad input: a status, the output untouched, cured_comm_check's report,
 * and the communicator still works. */
static void one_rank_bad_input(void)
{
    uint64_t n = 1000;
    float *d_a, host[1000] = {0}, host_out = 0;
    CHECK_CUDA(cudaMalloc(&d_a, n * 4));
    fill(d_a, CURED_F32, UNIFORM, n, 3);
    CHECK_CUDA(cudaMemset(d_outs, 0xab, 64));
    struct {
        const char *what;
        cured_status st;
        cured_status want;
    } cases[] = {
        {"NULL communicator",
         cured_reduce_sharded(NULL, CURED_OP_SUM, CURED_F32, d_a, n, d_outs + 1, 0, NULL),
         CURED_ERROR_NULL_POINTER},
        {"host shard",
         cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, host, n, d_outs + 1, 0, NULL),
         CURED_ERROR_NOT_DEVICE_POINTER},
        {"host output",
         cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, d_a, n, &host_out, 0, NULL),
         CURED_ERROR_NOT_DEVICE_POINTER},
        {"NULL shard",
         cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, NULL, n, d_outs + 1, 0, NULL),
         CURED_ERROR_NULL_POINTER},
        {"bad op",
         cured_reduce_sharded(C, (cured_op)9, CURED_F32, d_a, n, d_outs + 1, 0, NULL),
         CURED_ERROR_UNSUPPORTED_OP},
        {"bad flags",
         cured_reduce_sharded(C, CURED_OP_MIN, CURED_F32, d_a, n, d_outs + 1,
                              CURED_REDUCE_F64, NULL),
         CURED_ERROR_INVALID_VALUE},
        {"misaligned shard",
         cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, (char *)d_a + 2, 10, d_outs + 1, 0,
                              NULL),
         CURED_ERROR_MISALIGNED},
        {"too large",
         cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, d_a, CURED_REDUCE_MAX_N + 1,
                              d_outs + 1, 0, NULL),
         CURED_ERROR_SIZE_TOO_LARGE},
    };
    /* every refusal above took part in the collective and left its mark */
    cured_status check_after_all = cured_comm_check(C, NULL);
    if (check_after_all != CURED_ERROR_RANK_MISMATCH)
        FAIL("bad input: cured_comm_check after the refusals: %s",
             cured_status_string(check_after_all));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (cases[i].st != cases[i].want)
            FAIL("bad input: %s: %s, want %s", cases[i].what,
                 cured_status_string(cases[i].st), cured_status_string(cases[i].want));
    /* one at a time: the check reports each refusal, and clears it */
    for (int i = 1; i < 3; i++) {
        cured_status st = i == 1 ? cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, host, n,
                                                        d_outs + 1, 0, NULL)
                                 : cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, d_a, n,
                                                        &host_out, 0, NULL);
        cured_status check = cured_comm_check(C, NULL);
        if (st != cases[i].want || check != CURED_ERROR_RANK_MISMATCH)
            FAIL("bad input: %s alone: %s, check %s", cases[i].what,
                 cured_status_string(st), cured_status_string(check));
        if (cured_comm_check(C, NULL) != CURED_SUCCESS)
            FAIL("bad input: %s: the check did not clear", cases[i].what);
    }
    uint64_t poison[8];
    CHECK_CUDA(cudaMemcpy(poison, d_outs, 64, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        if (poison[i] != 0xababababababababull || host_out != 0) {
            FAIL("bad input: an output was written");
            break;
        }
    compare_one(d_a, n, CURED_OP_SUM, CURED_F32, 0, "after bad input");
    CHECK_CUDA(cudaFree(d_a));
    printf("one rank: bad input done (%d failures so far)\n", failures);
}

// ----------------------------------------------------------------------------
// Overhead: one rank against cured_reduce, back to back

/* Microseconds per call of `calls` back-to-back calls of fn, best of 5. */
typedef cured_status (*call_fn)(const void *d_a, uint64_t n, void *ctx);

static double time_calls(call_fn fn, const void *d_a, uint64_t n, void *ctx, int calls)
{
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    double best = 1e30;
    for (int i = 0; i < 3; i++) /* warm-up */
        fn(d_a, n, ctx);
    for (int rep = 0; rep < 5; rep++) {
        CHECK_CUDA(cudaEventRecord(a, NULL));
        for (int i = 0; i < calls; i++)
            if (fn(d_a, n, ctx) != CURED_SUCCESS) {
                FAIL("overhead: a call failed");
                break;
            }
        CHECK_CUDA(cudaEventRecord(b, NULL));
        CHECK_CUDA(cudaEventSynchronize(b));
        float ms;
        CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
        double us = ms * 1e3 / calls;
        best = us < best ? us : best;
    }
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return best;
}

static cured_status call_reduce(const void *d_a, uint64_t n, void *ctx)
{
    (void)ctx;
    return cured_reduce(R, CURED_OP_SUM, CURED_F32, d_a, n, d_outs, 0, NULL);
}

static cured_status call_sharded(const void *d_a, uint64_t n, void *ctx)
{
    (void)ctx;
    return cured_reduce_sharded(C, CURED_OP_SUM, CURED_F32, d_a, n, d_outs + 1, 0, NULL);
}

/* NCCL's part alone: the in-place allgather of one record per rank. */
static cured_status call_allgather(const void *d_a, uint64_t n, void *ctx)
{
    (void)d_a;
    (void)n;
    struct ncclComm *nccl;
    cured_comm_nccl(C, &nccl);
    return ncclAllGather((char *)ctx, ctx, CURED_SHARD_RECORD_BYTES / 8, ncclUint64, nccl,
                         NULL) == ncclSuccess
               ? CURED_SUCCESS
               : CURED_ERROR_NCCL;
}

static void overhead(void)
{
    float *d_a;
    void *d_rec;
    CHECK_CUDA(cudaMalloc(&d_a, ((size_t)1 << 30) * 4));
    CHECK_CUDA(cudaMalloc(&d_rec, CURED_SHARD_RECORD_BYTES));
    fill(d_a, CURED_F32, UNIFORM, (uint64_t)1 << 30, 21);
    double nccl_us = time_calls(call_allgather, NULL, 0, d_rec, 200);
    printf("%6s %12s %12s %12s %8s\n", "log2n", "reduce_us", "sharded_us", "overhead_us",
           "ratio");
    for (int lg = 10; lg <= 30; lg += 2) {
        uint64_t n = (uint64_t)1 << lg;
        int calls = lg <= 22 ? 200 : lg <= 26 ? 50 : 10;
        double a = time_calls(call_reduce, d_a, n, NULL, calls);
        double b = time_calls(call_sharded, d_a, n, NULL, calls);
        printf("%6d %12.2f %12.2f %12.2f %8.3f\n", lg, a, b, b - a, b / a);
        if (result_bits(d_outs, CURED_OP_SUM, CURED_F32, 0) !=
            result_bits(d_outs + 1, CURED_OP_SUM, CURED_F32, 0))
            FAIL("overhead: 2^%d: the bits differ", lg);
    }
    if (cured_comm_check(C, NULL) != CURED_SUCCESS)
        FAIL("overhead: cured_comm_check");
    printf("one-rank ncclAllGather of one %d-byte record alone: %.2f us per call\n",
           CURED_SHARD_RECORD_BYTES, nccl_us);
    CHECK_CUDA(cudaFree(d_rec));
    CHECK_CUDA(cudaFree(d_a));
}

// ----------------------------------------------------------------------------
// N ranks, one per GPU

typedef struct ranks {
    int count;
    cured_comm *comms[16];
    cudaStream_t streams[16];
    uint64_t *d_out[16]; /* per device: 8 words, [0] the result */
} ranks;

/* Splits n into r.count shards: equal (kind 0), unequal (1: rank i's share
 * grows with i), all on the last rank but the first (2: empty shards). */
static void split(uint64_t n, int count, int how, uint64_t *first)
{
    for (int i = 0; i <= count; i++) {
        if (how == 0)
            first[i] = n * (uint64_t)i / (uint64_t)count;
        else if (how == 1)
            first[i] = (uint64_t)((double)n * i * (i + 1) / ((double)count * (count + 1)));
        else
            first[i] = i == count ? n : 0;
    }
}

static const char *split_names[3] = {"equal", "unequal", "one holds all"};

/* The whole array on GPU 0, every rank's shard on its GPU (rank 0's inside
 * the whole array), one group call, every rank's bits against
 * cured_reduce's over the whole array. */
static void many_ranks_case(ranks *rk, void *d_whole, cured_dtype d, uint64_t n, int how,
                            void **d_copy)
{
    uint64_t first[17];
    split(n, rk->count, how, first);
    size_t size = cured_dtype_size(d);
    cured_shard shards[16];
    for (int r = 0; r < rk->count; r++) {
        uint64_t count = first[r + 1] - first[r];
        const char *src = (const char *)d_whole + first[r] * size;
        void *shard = (void *)src;
        if (r > 0 && count > 0) {
            CHECK_CUDA(cudaMemcpyPeer(d_copy[r], r, src, 0, count * size));
            shard = d_copy[r];
        }
        shards[r].comm = rk->comms[r];
        shards[r].d_shard = count > 0 ? shard : NULL;
        shards[r].n = count;
        shards[r].d_out = rk->d_out[r];
        shards[r].stream = rk->streams[r];
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    static const cured_op ops[] = {CURED_OP_SUM, CURED_OP_MIN, CURED_OP_MAX, CURED_OP_ARGMIN,
                                   CURED_OP_ARGMAX};
    for (int o = 0; o < 5; o++) {
        CHECK_CUDA(cudaSetDevice(0));
        if (cured_reduce(R, ops[o], d, d_whole, n, d_outs, 0, NULL) != CURED_SUCCESS)
            FAIL("%d ranks: cured_reduce failed", rk->count);
        uint64_t want = result_bits(d_outs, ops[o], d, 0);
        cured_status st = cured_reduce_sharded_group(shards, rk->count, ops[o], d, 0);
        if (st != CURED_SUCCESS)
            FAIL("%d ranks: %s %s n=%llu %s: %s", rk->count, cured_op_name(ops[o]),
                 cured_dtype_name(d), (unsigned long long)n, split_names[how],
                 cured_status_string(st));
        for (int r = 0; r < rk->count; r++) {
            CHECK_CUDA(cudaSetDevice(r));
            cured_status check = cured_comm_check(rk->comms[r], rk->streams[r]);
            uint64_t got = result_bits(rk->d_out[r], ops[o], d, 0);
            if (check != CURED_SUCCESS || got != want)
                FAIL("%d ranks: rank %d: %s %s n=%llu %s: %llx, one GPU %llx (check %s)",
                     rk->count, r, cured_op_name(ops[o]), cured_dtype_name(d),
                     (unsigned long long)n, split_names[how], (unsigned long long)got,
                     (unsigned long long)want, cured_status_string(check));
        }
        CHECK_CUDA(cudaSetDevice(0));
    }
}

typedef struct disagree_arg {
    cured_comm *comm;
    int device;
    cured_op op;
    cured_dtype dtype;
    const void *d_shard;
    uint64_t n;
    void *d_out;
    cured_status st, check;
} disagree_arg;

static void *disagree_thread(void *p)
{
    disagree_arg *a = (disagree_arg *)p;
    cudaSetDevice(a->device);
    a->st = cured_reduce_sharded(a->comm, a->op, a->dtype, a->d_shard, a->n, a->d_out, 0,
                                 NULL);
    a->check = cured_comm_check(a->comm, NULL);
    return NULL;
}

/* Ranks that disagree or refuse, one thread per rank, the last rank the
 * odd one: another op, a host shard, a shard on another rank's GPU,
 * another dtype. Every rank returns (the odd one its argument's status),
 * the check says CURED_ERROR_RANK_MISMATCH everywhere, no output is
 * written. */
static void many_ranks_disagree(ranks *rk, void **d_copy)
{
    static float host[64];
    static const char *what[4] = {"another op", "a host shard", "a shard on another GPU",
                                  "another dtype"};
    for (int bad = 0; bad < 4; bad++) {
        disagree_arg args[16];
        pthread_t th[16];
        for (int r = 0; r < rk->count; r++) {
            CHECK_CUDA(cudaSetDevice(r));
            CHECK_CUDA(cudaMemset(rk->d_out[r], 0xab, 64));
            fill(d_copy[r], CURED_F32, UNIFORM, 64, 40 + r);
            int last = r == rk->count - 1;
            const void *shard = !last || bad == 0 || bad == 3 ? d_copy[r]
                                : bad == 1                  ? (const void *)host
                                                            : d_copy[0];
            args[r] = (disagree_arg){rk->comms[r], r,
                                     bad == 0 && last ? CURED_OP_MAX : CURED_OP_SUM,
                                     bad == 3 && last ? CURED_I32 : CURED_F32, shard, 64,
                                     rk->d_out[r], CURED_SUCCESS, CURED_SUCCESS};
        }
        for (int r = 0; r < rk->count; r++)
            pthread_create(&th[r], NULL, disagree_thread, &args[r]);
        for (int r = 0; r < rk->count; r++)
            pthread_join(th[r], NULL);
        for (int r = 0; r < rk->count; r++) {
            int last = r == rk->count - 1;
            cured_status want = (bad == 1 || bad == 2) && last
                                    ? CURED_ERROR_NOT_DEVICE_POINTER
                                    : CURED_SUCCESS;
            uint64_t out[8];
            CHECK_CUDA(cudaSetDevice(r));
            CHECK_CUDA(cudaMemcpy(out, rk->d_out[r], 64, cudaMemcpyDeviceToHost));
            if (args[r].st != want || args[r].check != CURED_ERROR_RANK_MISMATCH ||
                out[0] != 0xababababababababull)
                FAIL("%d ranks, %s: rank %d: %s, check %s%s", rk->count, what[bad], r,
                     cured_status_string(args[r].st),
                     cured_status_string(args[r].check),
                     out[0] != 0xababababababababull ? ", output written" : "");
        }
    }
    CHECK_CUDA(cudaSetDevice(0));
}

static void many_ranks(int count, const uint64_t *sizes, int nsizes)
{
    ranks rk;
    memset(&rk, 0, sizeof rk);
    rk.count = count;
    cured_status st = cured_comm_create_all(count, NULL, rk.comms);
    if (st != CURED_SUCCESS) {
        FAIL("cured_comm_create_all(%d): %s", count, cured_status_string(st));
        return;
    }
    uint64_t largest = 0;
    for (int i = 0; i < nsizes; i++)
        largest = sizes[i] > largest ? sizes[i] : largest;
    static const cured_dtype types[] = {CURED_F32, CURED_F64, CURED_I32};
    size_t whole_bytes = (size_t)largest * 8;
    void *d_whole, *d_copy[16] = {0};
    for (int r = 0; r < count; r++) {
        CHECK_CUDA(cudaSetDevice(r));
        CHECK_CUDA(cudaStreamCreateWithFlags(&rk.streams[r], cudaStreamNonBlocking));
        CHECK_CUDA(cudaMalloc(&rk.d_out[r], 64));
        /* the largest shard a rank > 0 takes: all of it ("one holds all") */
        if (r > 0)
            CHECK_CUDA(cudaMalloc(&d_copy[r], whole_bytes));
        else
            CHECK_CUDA(cudaMalloc(&d_copy[r], 4096));
    }
    CHECK_CUDA(cudaSetDevice(0));
    CHECK_CUDA(cudaMalloc(&d_whole, whole_bytes));
    for (int i = 0; i < nsizes; i++)
        for (int t = 0; t < 3; t++) {
            fill(d_whole, types[t], is_float(types[t]) ? WIDE : 0, sizes[i], 60 + i);
            for (int how = 0; how < 3; how++)
                many_ranks_case(&rk, d_whole, types[t], sizes[i], how, d_copy);
            printf("%d ranks: %s n=%llu done (%d failures so far)\n", count,
                   cured_dtype_name(types[t]), (unsigned long long)sizes[i], failures);
            fflush(stdout);
        }
    if (count >= 2) { /* one rank cannot disagree with another */
        many_ranks_disagree(&rk, d_copy);
        printf("%d ranks: disagreeing and refusing ranks done (%d failures so far)\n", count,
               failures);
    }
    CHECK_CUDA(cudaFree(d_whole));
    for (int r = 0; r < count; r++) {
        CHECK_CUDA(cudaSetDevice(r));
        CHECK_CUDA(cudaFree(d_copy[r]));
        CHECK_CUDA(cudaFree(rk.d_out[r]));
        CHECK_CUDA(cudaStreamDestroy(rk.streams[r]));
        if (cured_comm_destroy(rk.comms[r]) != CURED_SUCCESS)
            FAIL("cured_comm_destroy(rank %d)", r);
    }
    CHECK_CUDA(cudaSetDevice(0));
}

// ----------------------------------------------------------------------------

int main(int argc, char **argv)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("SKIP: no CUDA device\n");
        return GPU_TEST_SKIP;
    }
    int gpus = 0;
    uint64_t sizes[16] = {3, (1u << 20) + 1, (uint64_t)1 << 31, (uint64_t)1 << 33};
    int nsizes = 4;
    const char *mode = "sweep";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--gpus") == 0 && i + 1 < argc) {
            gpus = atoi(argv[++i]);
            mode = "gpus";
        } else if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
            nsizes = 0;
            for (char *p = argv[++i]; *p && nsizes < 16; p += *p == ',')
                sizes[nsizes++] = strtoull(p, &p, 0);
        } else if (strcmp(argv[i], "--large") == 0 || strcmp(argv[i], "--overhead") == 0 ||
                   strcmp(argv[i], "--one") == 0) {
            mode = argv[i] + 2;
        } else {
            fprintf(stderr, "usage: test_gpu_sharded [--large | --overhead | --one | "
                            "--gpus N [--sizes A,B,..]]\n");
            return 2;
        }
    }
    if (gpus > 0 && (gpus > devices || gpus > 16)) {
        printf("SKIP: --gpus %d, and this machine has %d GPU(s)\n", gpus, devices);
        return GPU_TEST_SKIP;
    }
    CHECK_CUDA(cudaSetDevice(0));
    if (cured_reducer_create(NULL, 0, &R) != CURED_SUCCESS) {
        printf("FAIL: cured_reducer_create\n");
        return 1;
    }
    CHECK_CUDA(cudaMalloc(&d_outs, 64));
    if (strcmp(mode, "gpus") == 0) {
        many_ranks(gpus, sizes, nsizes);
    } else {
        cured_status st = cured_comm_create_all(1, NULL, &C);
        if (st == CURED_ERROR_NO_NCCL) {
            printf("SKIP: libcured was built without NCCL\n");
            return GPU_TEST_SKIP;
        }
        if (st != CURED_SUCCESS) {
            printf("FAIL: cured_comm_create_all(1): %s\n", cured_status_string(st));
            return 1;
        }
        if (strcmp(mode, "large") == 0) {
            one_rank_large();
        } else if (strcmp(mode, "overhead") == 0) {
            overhead();
        } else if (strcmp(mode, "one") == 0) {
            one_rank_few();
        } else {
            one_rank_bad_input();
            one_rank_repeated();
            one_rank_graph();
            one_rank_sweep();
        }
        if (cured_comm_destroy(C) != CURED_SUCCESS)
            FAIL("cured_comm_destroy");
    }
    cured_reducer_destroy(R);
    CHECK_CUDA(cudaFree(d_outs));
    if (failures) {
        printf("test_gpu_sharded: %d FAILURES\n", failures);
        return 1;
    }
    printf("test_gpu_sharded: PASS\n");
    return 0;
}
