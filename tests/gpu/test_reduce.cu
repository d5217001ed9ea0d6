/* test_reduce.cu - cured_reduce on the GPU: its bits against the CPU path's
 * (which CI checks against an exact reference, tests/lib/test_reduce_cpu.c).
 *
 *   test_gpu_reduce              every op and dtype on several data kinds and
 *                                sizes, 72 forced launch shapes (blocks 32..1024,
 *                                grids 1..4096: what an H100, an H200 or a
 *                                small GPU would pick; 12 of them in
 *                                thread-block clusters of 2..16 blocks), d_in misaligned by
 *                                1..7 elements, n around the largest one
 *                                trip of a grid covers, one warp's lane bins
 *                                filled past 2^16 terms, poisoned outputs, 1000
 *                                repeated calls, bad input -> a status and
 *                                nothing written
 *   test_gpu_reduce --large      n = 2^28 (every float kind) and 2^32 + 5 (f16)
 *   test_gpu_reduce --bins-full N
 *                                only the lane bins' send (one warp, N f32
 *                                and bf16 elements; N >= 2^21 sends a
 *                                lane's bins before the end), for
 *                                compute-sanitizer
 *   test_gpu_reduce [--kind KIND] [--repeat R] --one OP DTYPE N OFFSET [GRID BLOCK [CLUSTER]]
 *                                one call (or R, each checked), for
 *                                compute-sanitizer and ncu: floats on the
 *                                wide kind, or KIND's (reduce_fill.cuh's
 *                                names: standard, spread48, ...)
 *   test_gpu_reduce --price [DTYPE]
 *                                times exact against plain (not exact) sums,
 *                                f32 f64 f16 bf16 (or DTYPE's), 2^10 .. 2^30, back to back
 *                                (the median of 7 batches): on the standard
 *                                fill (src/reference, uniform in [-0.5, 0.5)),
 *                                on exponents spread over 24 binades and over
 *                                48, and over the whole range (wide: the
 *                                superaccumulator's slow path); block sizes
 *                                at 2^24 and up (standard)
 *   test_gpu_reduce --shapes [DTYPE [LG_MIN LG_MAX]]
 *                                times exact f32 f64 f16 bf16 and i32 sums
 *                                (or DTYPE's) over launch shapes (blocks
 *                                128..1024, grids 1 .. 8 x SMs, clusters of
 *                                1..16 blocks up to 2^24), 2^12 .. 2^28 (or
 *                                2^LG_MIN .. 2^LG_MAX), back to back, beside
 *                                the default shape: the sweep behind the
 *                                default grid's caps and clusters
 *                                (reduce_plan.c); every shape's bits must
 *                                equal the default's
 *
 * Exits 0 when every check passes, 1 on a failure (one line each), 77
 * without a GPU.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"
#include "cured.h"
#include "reduce.h"
#include "reduce_fill.cuh"

// ----------------------------------------------------------------------------
// Data (reduce_fill.cuh: the kinds and their device fill)

typedef struct data {
    cured_dtype d;
    uint64_t n;
    size_t offset; /* elements d_in lies into its buffer */
    void *host;    /* the n elements */
    void *dev;     /* buffer; d_in = dev + offset elements */
} data;

/* The data on the device only (host NULL): what the timings need. */
static data make_device_data(cured_dtype d, int k, uint64_t n, size_t offset,
                             uint64_t seed)
{
    data x = {d, n, offset, NULL, NULL};
    size_t size = cured_dtype_size(d), bytes = (size_t)(n + offset) * size;
    CHECK_CUDA(cudaMalloc(&x.dev, bytes + 16));
    CHECK_CUDA(cudaMemset(x.dev, 0x7f, bytes + 16));
    if (n > 0)
        fill_kernel<<<1024, 256>>>((char *)x.dev + offset * size, d, k, n, seed, (int)size);
    CHECK_CUDA(cudaGetLastError());
    return x;
}

static data make_data(cured_dtype d, int k, uint64_t n, size_t offset, uint64_t seed)
{
    data x = make_device_data(d, k, n, offset, seed);
    size_t size = cured_dtype_size(d);
    x.host = malloc(n * size + 8);
    CHECK_CUDA(cudaMemcpy(x.host, (char *)x.dev + offset * size, n * size,
                          cudaMemcpyDeviceToHost));
    return x;
}

static void free_data(data *x)
{
    free(x->host);
    CHECK_CUDA(cudaFree(x->dev));
}

static const void *d_in(const data *x)
{
    return (const char *)x->dev + x->offset * cured_dtype_size(x->d);
}

// ----------------------------------------------------------------------------
// One call against the CPU

static cured_reducer *R;
static unsigned char *d_out; /* 64 bytes: the result at 8, poison around */

/* Runs (op, flags) with `shape` (NULL: default); compares with *want (the
 * CPU's bits). Returns 1 when equal and nothing but the result changed. */
static int run_one(const data *x, cured_op op, unsigned flags,
                   const cured_reduce_shape *shape, const uint64_t *want,
                   const char *what)
{
    cured_dtype rt;
    cured_reduce_result_dtype(op, x->d, flags, &rt);
    size_t rs = cured_dtype_size(rt);
    unsigned char poison[64], got[64];
    memset(poison, 0xab, sizeof poison);
    CHECK_CUDA(cudaMemcpy(d_out, poison, 64, cudaMemcpyHostToDevice));
    cured_status st = cured_reduce_shaped(R, op, x->d, d_in(x), x->n, d_out + 8,
                                          flags, shape, NULL);
    if (st != CURED_SUCCESS) {
        FAIL("%s: %s %s n=%llu: status %s", what, cured_op_name(op),
             cured_dtype_name(x->d), (unsigned long long)x->n, cured_status_string(st));
        return 0;
    }
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(got, d_out, 64, cudaMemcpyDeviceToHost));
    uint64_t g = 0;
    memcpy(&g, got + 8, rs);
    int ok = g == *want && memcmp(got, poison, 8) == 0 &&
             memcmp(got + 8 + rs, poison + 8 + rs, 56 - rs) == 0;
    if (!ok)
        FAIL("%s: %s %s n=%llu off=%zu grid %u block %d: got %llx, cpu %llx%s", what,
             cured_op_name(op), cured_dtype_name(x->d), (unsigned long long)x->n,
             x->offset, shape ? shape->grid : 0, shape ? shape->block : 0,
             (unsigned long long)g, (unsigned long long)*want,
             g == *want ? " (wrote outside its element)" : "");
    return ok;
}

static uint64_t cpu_result(const data *x, cured_op op, unsigned flags)
{
    uint64_t r = 0;
    cured_status st = cured_reduce_cpu(op, x->d, x->n ? x->host : NULL, x->n, &r, flags, 0);
    if (st != CURED_SUCCESS) {
        fprintf(stderr, "cpu: %s\n", cured_status_string(st));
        exit(1);
    }
    return r;
}

// ----------------------------------------------------------------------------
// The sweep

static const cured_dtype all_types[] = {CURED_F16, CURED_BF16, CURED_F32, CURED_F64,
                                        CURED_I32, CURED_I64, CURED_U32, CURED_U64};

static int is_float(cured_dtype d)
{
    return d == CURED_F16 || d == CURED_BF16 || d == CURED_F32 || d == CURED_F64;
}

/* 72 shapes: 6 blocks x 10 grids, then 12 in thread-block clusters (one
 * cluster of 2 .. 16 blocks, or many: the leaders then combine through the
 * workspace). */
static int shapes(cured_reduce_shape *out)
{
    static const int blocks[] = {32, 64, 128, 256, 512, 1024};
    static const unsigned grids[] = {1, 2, 3, 7, 64, 114, 132, 528, 1056, 4096};
    static const cured_reduce_shape clustered[] = {
        {256, 2, CURED_VARIANT_EXACT, 2},    {64, 3, CURED_VARIANT_EXACT, 3},
        {256, 4, CURED_VARIANT_EXACT, 4},    {1024, 4, CURED_VARIANT_EXACT, 4},
        {128, 7, CURED_VARIANT_EXACT, 7},    {512, 8, CURED_VARIANT_EXACT, 8},
        {256, 16, CURED_VARIANT_EXACT, 16},  {32, 16, CURED_VARIANT_EXACT, 16},
        {256, 64, CURED_VARIANT_EXACT, 8},   {128, 528, CURED_VARIANT_EXACT, 16},
        {256, 528, CURED_VARIANT_EXACT, 2},  {32, 4096, CURED_VARIANT_EXACT, 16},
    };
    int c = 0;
    for (int b = 0; b < 6; b++)
        for (int g = 0; g < 10; g++)
            out[c++] = (cured_reduce_shape){blocks[b], grids[g], CURED_VARIANT_EXACT, 1};
    for (size_t i = 0; i < sizeof clustered / sizeof *clustered; i++)
        out[c++] = clustered[i];
    return c;
}

static void sweep(void)
{
    static const uint64_t sizes[] = {0, 1, 2, 3, 17, 1000, 4099, (1u << 20) + 3, 5000011};
    cured_reduce_shape sh[80];
    int nshapes = shapes(sh);
    uint64_t seed = 1;
    for (size_t t = 0; t < sizeof all_types / sizeof *all_types; t++) {
        cured_dtype d = all_types[t];
        for (int k = 0; k < (is_float(d) ? KINDS : 1); k++)
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                data x = make_data(d, k, sizes[s], 0, seed++);
                for (int op = 0; op < CURED_OP_COUNT; op++) {
                    if (op != CURED_OP_SUM && k != WIDE && k != SPECIAL && k != UNIFORM)
                        continue;
                    unsigned flags_list[2] = {0, is_float(d) ? (d == CURED_F64 ? 0u : (unsigned)CURED_REDUCE_F64)
                                                             : (unsigned)CURED_REDUCE_WIDEN};
                    for (int f = 0; f < (op == CURED_OP_SUM ? 2 : 1); f++) {
                        unsigned flags = flags_list[f];
                        uint64_t want = cpu_result(&x, (cured_op)op, flags);
                        char what[64];
                        snprintf(what, sizeof what, "%s", kind_names[k]);
                        run_one(&x, (cured_op)op, flags, NULL, &want, what);
                        /* every shape on the mid sizes, a few on the rest */
                        for (int i = 0; i < nshapes; i++) {
                            if (sh[i].grid < (x.n + CURED_REDUCE_BLOCK_ELEMS_MAX - 1) /
                                                 CURED_REDUCE_BLOCK_ELEMS_MAX)
                                continue;
                            if ((sizes[s] < 1000 || sizes[s] > 5000000) && i % 7 != 0)
                                continue;
                            run_one(&x, (cured_op)op, flags, &sh[i], &want, what);
                        }
                    }
                }
                free_data(&x);
            }
    }
    printf("sweep: done (%d failures so far)\n", failures);
}

/* d_in 1..7 elements into its buffer, around the head and tail. */
static void misaligned(void)
{
    for (size_t t = 0; t < sizeof all_types / sizeof *all_types; t++)
        for (size_t off = 1; off < 8; off++)
            for (uint64_t n = 13; n < 200000; n = n * 7 + 5) {
                data x = make_data(all_types[t], is_float(all_types[t]) ? WIDE : 0, n,
                                   off, 100 + off);
                for (int op = 0; op < CURED_OP_COUNT; op++) {
                    uint64_t want = cpu_result(&x, (cured_op)op, 0);
                    run_one(&x, (cured_op)op, 0, NULL, &want, "misaligned");
                }
                free_data(&x);
            }
    printf("misaligned: done (%d failures so far)\n", failures);
}

/* Around the largest n one trip of every thread covers (where the launch
 * switches between the kernel without a main loop and the general one):
 * the float sums at that n and a few elements either side, aligned and
 * not, in one block, several, a cluster (of 256- and of 512-thread
 * blocks: f32's default to 2^17) and a full GPU's grid. */
static void one_trip_edge(void)
{
    static const cured_reduce_shape edges[] = {
        {32, 1, CURED_VARIANT_EXACT, 1},    {256, 7, CURED_VARIANT_EXACT, 1},
        {256, 16, CURED_VARIANT_EXACT, 16}, {256, 528, CURED_VARIANT_EXACT, 1},
        {512, 16, CURED_VARIANT_EXACT, 16},
    };
    uint64_t seed = 7000;
    for (int t = 0; t < 4; t++) {
        cured_dtype d = all_types[t];
        uint64_t per_thread = CURED_REDUCE_TRIP_BYTES / cured_dtype_size(d);
        for (size_t e = 0; e < sizeof edges / sizeof *edges; e++) {
            uint64_t limit = (uint64_t)edges[e].grid * edges[e].block * per_thread;
            const uint64_t ns[] = {limit - 1, limit, limit + 1, limit + per_thread / 4 + 1};
            for (int i = 0; i < 4; i++)
                for (size_t off = 0; off < 4; off += 3) {
                    data x = make_data(d, UNIFORM, ns[i], off, seed++);
                    uint64_t want = cpu_result(&x, CURED_OP_SUM, 0);
                    run_one(&x, CURED_OP_SUM, 0, &edges[e], &want, "one-trip edge");
                    free_data(&x);
                }
        }
    }
    printf("one-trip edge: done (%d failures so far)\n", failures);
}

/* The lane bins' send at 2^16 terms (sacc.cuh's lane_bins_close), which no
 * default shape reaches: one warp (grid 1, block 32) over n >= 2 f32 or
 * bf16 elements, +-2^103 first (they cancel; the warp's windows rise to
 * them), then the largest term of bin 0 (f32 bits 0x0c7fffff, nearly 2^47
 * of its units; bf16 its top half) again and again: n / 32 a lane (2^17
 * in the full run, past 2^63 in one bin unless the bins are sent on in
 * time). */
static void bins_full(uint64_t n)
{
    static const cured_reduce_shape one_warp = {32, 1, CURED_VARIANT_EXACT, 1};
    static const cured_dtype types[] = {CURED_F32, CURED_BF16};
    for (int t = 0; t < 2; t++) {
        cured_dtype d = types[t];
        data x = make_data(d, UNIFORM, n, 0, 8000 + t);
        for (uint64_t i = 0; i < n; i++) {
            uint32_t b = i < 2 ? 0x73000000u | (uint32_t)i << 31 : 0x0c7fffffu;
            if (d == CURED_BF16)
                ((uint16_t *)x.host)[i] = (uint16_t)(b >> 16);
            else
                ((uint32_t *)x.host)[i] = b;
        }
        CHECK_CUDA(cudaMemcpy(x.dev, x.host, n * cured_dtype_size(d), cudaMemcpyHostToDevice));
        uint64_t want = cpu_result(&x, CURED_OP_SUM, 0);
        run_one(&x, CURED_OP_SUM, 0, &one_warp, &want, "bins full");
        free_data(&x);
    }
    printf("bins full: done (%d failures so far)\n", failures);
}

/* 1000 calls back to back, each result kept, all equal to the CPU's. */
static void repeated(void)
{
    const int RUNS = 1000;
    for (int t = 0; t < 4; t++) {
        cured_dtype d = all_types[t];
        data x = make_data(d, UNIFORM, 3000017, 0, 7);
        uint64_t want = cpu_result(&x, CURED_OP_SUM, 0);
        uint64_t *outs;
        CHECK_CUDA(cudaMalloc(&outs, RUNS * 8));
        CHECK_CUDA(cudaMemset(outs, 0xab, RUNS * 8));
        for (int i = 0; i < RUNS; i++)
            if (cured_reduce(R, CURED_OP_SUM, d, d_in(&x), x.n, outs + i, 0, NULL) != 0)
                FAIL("repeated: call %d failed", i);
        uint64_t *h = (uint64_t *)malloc(RUNS * 8);
        CHECK_CUDA(cudaMemcpy(h, outs, RUNS * 8, cudaMemcpyDeviceToHost));
        size_t rs = d == CURED_F64 ? 8 : 4;
        int bad = 0;
        for (int i = 0; i < RUNS; i++) {
            uint64_t g = 0;
            memcpy(&g, &h[i], rs);
            bad += g != want;
        }
        if (bad)
            FAIL("repeated: %s: %d of %d runs differ from the CPU", cured_dtype_name(d),
                 bad, RUNS);
        free(h);
        CHECK_CUDA(cudaFree(outs));
        free_data(&x);
    }
    printf("repeated: %d runs x 4 types done (%d failures so far)\n", RUNS, failures);
}

/* Bad input: a status, nothing written, the context still usable. */
static void bad_input(void)
{
    /* the handle launches dependently where the build and the GPU allow,
     * which the bench's launch floor copies */
    int major = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    if (cured_reducer_dependent_launch(R) != (CURED_REDUCE_DEPENDENT_LAUNCH && major >= 9) ||
        cured_reducer_dependent_launch(NULL) != 0)
        FAIL("cured_reducer_dependent_launch: %d for the handle, %d for NULL (sm_%d)",
             cured_reducer_dependent_launch(R), cured_reducer_dependent_launch(NULL), major);

    data x = make_data(CURED_F32, UNIFORM, 1000, 0, 3);
    unsigned char poison[64], got[64];
    memset(poison, 0xab, sizeof poison);
    CHECK_CUDA(cudaMemcpy(d_out, poison, 64, cudaMemcpyHostToDevice));
    float host_out = 0;
    cured_reduce_shape plain = {256, 1, CURED_VARIANT_PLAIN, 1};
    cured_reduce_shape two = {256, 2, CURED_VARIANT_EXACT, 1};
    cured_reduce_shape uneven = {256, 6, CURED_VARIANT_EXACT, 4};
    cured_reduce_shape huge = {256, 34, CURED_VARIANT_EXACT, 17};
    struct {
        const char *what;
        cured_status st;
        cured_status want;
    } cases[] = {
        {"host input", cured_reduce(R, CURED_OP_SUM, CURED_F32, x.host, 1000, d_out + 8, 0, NULL),
         CURED_ERROR_NOT_DEVICE_POINTER},
        {"host output", cured_reduce(R, CURED_OP_SUM, CURED_F32, d_in(&x), 1000, &host_out, 0, NULL),
         CURED_ERROR_NOT_DEVICE_POINTER},
        {"NULL input", cured_reduce(R, CURED_OP_SUM, CURED_F32, NULL, 1000, d_out + 8, 0, NULL),
         CURED_ERROR_NULL_POINTER},
        {"misaligned input", cured_reduce(R, CURED_OP_SUM, CURED_F32, (char *)d_in(&x) + 2, 10, d_out + 8, 0, NULL),
         CURED_ERROR_MISALIGNED},
        {"misaligned output", cured_reduce(R, CURED_OP_SUM, CURED_F64, d_in(&x), 10, d_out + 12, 0, NULL),
         CURED_ERROR_MISALIGNED},
        {"bad op", cured_reduce(R, (cured_op)7, CURED_F32, d_in(&x), 10, d_out + 8, 0, NULL),
         CURED_ERROR_UNSUPPORTED_OP},
        {"bad flags", cured_reduce(R, CURED_OP_MIN, CURED_F32, d_in(&x), 10, d_out + 8, CURED_REDUCE_F64, NULL),
         CURED_ERROR_INVALID_VALUE},
        {"plain int", cured_reduce_shaped(R, CURED_OP_SUM, CURED_I32, d_in(&x), 10, d_out + 8, 0,
                                          &plain, NULL),
         CURED_ERROR_UNSUPPORTED_OP},
        {"grid too small", cured_reduce_shaped(R, CURED_OP_SUM, CURED_F32, d_in(&x), (uint64_t)1 << 32, d_out + 8, 0,
                                               &two, NULL),
         CURED_ERROR_INVALID_VALUE},
        {"cluster not dividing the grid",
         cured_reduce_shaped(R, CURED_OP_SUM, CURED_F32, d_in(&x), 1000, d_out + 8, 0, &uneven, NULL),
         CURED_ERROR_INVALID_VALUE},
        {"cluster too large",
         cured_reduce_shaped(R, CURED_OP_SUM, CURED_F32, d_in(&x), 1000, d_out + 8, 0, &huge, NULL),
         CURED_ERROR_INVALID_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (cases[i].st != cases[i].want)
            FAIL("bad input: %s: %s, want %s", cases[i].what, cured_status_string(cases[i].st),
                 cured_status_string(cases[i].want));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(got, d_out, 64, cudaMemcpyDeviceToHost));
    if (memcmp(got, poison, 64) != 0 || host_out != 0)
        FAIL("bad input: something was written");
    uint64_t want = cpu_result(&x, CURED_OP_SUM, 0);
    run_one(&x, CURED_OP_SUM, 0, NULL, &want, "after bad input");
    free_data(&x);
    printf("bad input: done (%d failures so far)\n", failures);
}

static void large(void)
{
    for (int t = 0; t < 4; t++)
        for (int k = 0; k < KINDS; k++) {
            data x = make_data(all_types[t], k, (uint64_t)1 << 28, 0, 50 + k);
            for (int op = 0; op < (k == UNIFORM ? CURED_OP_COUNT : 1); op++) {
                uint64_t want = cpu_result(&x, (cured_op)op, 0);
                run_one(&x, (cured_op)op, 0, NULL, &want, "2^28");
                cured_reduce_shape s = {1024, 1, CURED_VARIANT_EXACT, 1};
                if (op == 0)
                    run_one(&x, (cured_op)op, 0, &s, &want, "2^28 one block");
            }
            free_data(&x);
        }
    data x = make_data(CURED_F16, UNIFORM, ((uint64_t)1 << 32) + 5, 0, 9);
    for (int op = 0; op < CURED_OP_COUNT; op++) {
        uint64_t want = cpu_result(&x, (cured_op)op, 0);
        run_one(&x, (cured_op)op, 0, NULL, &want, "2^32+5");
    }
    free_data(&x);
    printf("large: done (%d failures so far)\n", failures);
}

// ----------------------------------------------------------------------------
// Timing: the price of exactness

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* us per call of `calls` back-to-back calls on the default stream: the
 * median of BATCHES batches, each timed with events. */
static double time_calls(const data *x, const cured_reduce_shape *s, int calls)
{
    enum { BATCHES = 7 };
    cudaEvent_t a, b;
    CHECK_CUDA(cudaEventCreate(&a));
    CHECK_CUDA(cudaEventCreate(&b));
    double us[BATCHES];
    cured_reduce_shaped(R, CURED_OP_SUM, x->d, d_in(x), x->n, d_out + 8, 0, s, NULL);
    for (int rep = 0; rep < BATCHES; rep++) {
        CHECK_CUDA(cudaEventRecord(a, NULL));
        for (int i = 0; i < calls; i++)
            cured_reduce_shaped(R, CURED_OP_SUM, x->d, d_in(x), x->n, d_out + 8, 0, s, NULL);
        CHECK_CUDA(cudaEventRecord(b, NULL));
        CHECK_CUDA(cudaEventSynchronize(b));
        float ms;
        CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
        us[rep] = ms * 1e3 / calls;
    }
    CHECK_CUDA(cudaGetLastError());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    qsort(us, BATCHES, sizeof *us, compare_doubles);
    return us[BATCHES / 2];
}

/* One line per (dtype, data, n, variant, block): the exact kernel against
 * the plain one of the same shape (scripts/gpu-reduce.sh prints the
 * ratios); every float type, or only `only` (a dtype name) when it is not
 * NULL. */
static void price(const char *only)
{
    printf("%-5s %-9s %6s %-8s %6s %6s %10s %9s\n", "dtype", "data", "log2n", "variant",
           "block", "grid", "us/call", "GB/s");
    static const cured_dtype types[] = {CURED_F32, CURED_BF16, CURED_F64, CURED_F16};
    static const int kinds[] = {STANDARD, UNIFORM, SPREAD48, WIDE};
    int device = 0, sms = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    static const char *const names[] = {"standard", "spread24", "spread48", "wide"};
    int known = only == NULL;
    for (int t = 0; t < 4; t++)
        known |= only != NULL && strcmp(only, cured_dtype_name(types[t])) == 0;
    if (!known) {
        printf("FAIL price: '%s' is not f32, bf16, f64 or f16\n", only);
        failures++;
        return;
    }
    for (int t = 0; t < 4; t++)
        for (int pk = 0; pk < (int)(sizeof kinds / sizeof *kinds); pk++)
            for (int lg = 10; lg <= 30; lg += 2) {
                if (only != NULL && strcmp(only, cured_dtype_name(types[t])) != 0)
                    continue;
                data x = make_device_data(types[t], kinds[pk], (uint64_t)1 << lg, 0, 11);
                for (int v = 0; v < 2; v++)
                    for (int block = 128; block <= 1024; block *= 2) {
                        if (block != CURED_REDUCE_BLOCK &&
                            (lg < 24 || v == 1 || kinds[pk] != STANDARD))
                            continue;
                        cured_reduce_shape s;
                        cured_reducer_shape(R, CURED_OP_SUM, types[t], x.n, &s);
                        s.block = block;
                        s.variant = (cured_reduce_variant)v;
                        if (block != CURED_REDUCE_BLOCK)
                            s.grid = cured_reduce_default_grid(
                                CURED_OP_SUM, types[t], x.n, block,
                                s.grid * CURED_REDUCE_BLOCK / block, (unsigned)sms);
                        int calls = lg <= 22 ? 200 : lg <= 26 ? 50 : 10;
                        double us = time_calls(&x, &s, calls);
                        printf("%-5s %-9s %6d %-8s %6d %6u %10.2f %9.1f\n",
                               cured_dtype_name(types[t]), names[pk], lg,
                               v ? "plain" : "exact", block, s.grid, us,
                               x.n * cured_dtype_size(types[t]) / (us * 1e3));
                        fflush(stdout);
                    }
                free_data(&x);
            }
}

/* --shapes [DTYPE [LG_MIN LG_MAX]]: one line per (dtype, n, block, grid,
 * cluster), then per (dtype, n) the fastest shape beside the default one;
 * every shape's bits must equal the default's. Clusters of 2..16 blocks
 * are tried for float sums up to 2^24 elements. */
static void shape_sweep(const char *only, int lg_min, int lg_max)
{
    static const cured_dtype types[] = {CURED_F32, CURED_F64, CURED_F16, CURED_BF16, CURED_I32};
    int device = 0, sms = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned S = (unsigned)sms;
    const unsigned grids[] = {1, 2, 4, 8, 16, 32, 64, 128, S, 256, 2 * S, 512, 4 * S, 1024, 8 * S};
    printf("%-5s %6s %6s %6s %7s %10s\n", "dtype", "log2n", "block", "grid", "cluster", "us/call");
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        if (only != NULL && strcmp(only, cured_dtype_name(types[t])) != 0)
            continue;
        for (int lg = lg_min; lg <= lg_max; lg += lg < 24 ? 1 : 2) {
            uint64_t n = (uint64_t)1 << lg;
            size_t esz = cured_dtype_size(types[t]);
            int calls = lg <= 20 ? 200 : lg <= 24 ? 50 : lg <= 26 ? 20 : 5;
            data x = make_device_data(types[t], STANDARD, n, 0, 13);
            cured_reduce_shape def;
            cured_reducer_shape(R, CURED_OP_SUM, types[t], n, &def);
            double t_def = time_calls(&x, &def, calls), t_best = t_def;
            unsigned long long want = 0, got = 0;
            CHECK_CUDA(cudaMemcpy(&want, d_out + 8, esz == 8 ? 8 : 4, cudaMemcpyDeviceToHost));
            cured_reduce_shape best = def;
            for (unsigned block = 128; block <= 1024; block *= 2)
                for (size_t g = 0; g < sizeof grids / sizeof *grids; g++)
                    for (unsigned cl = 1; cl <= CURED_REDUCE_CLUSTER_MAX; cl *= 2) {
                        uint64_t threads = (uint64_t)grids[g] * block;
                        if (threads * 2 > n || threads > (uint64_t)S * 1024 ||
                            (lg <= 24 && threads * 64 * 16 < n * esz) || /* > 16 trips */
                            (lg > 24 && threads < (uint64_t)S * 512) ||
                            grids[g] % cl != 0 ||
                            (cl > 1 && (!is_float(types[t]) || lg > 24)))
                            continue;
                        cured_reduce_shape s = {(int)block, grids[g], CURED_VARIANT_EXACT, cl};
                        double us = time_calls(&x, &s, calls);
                        got = 0;
                        CHECK_CUDA(cudaMemcpy(&got, d_out + 8, esz == 8 ? 8 : 4,
                                              cudaMemcpyDeviceToHost));
                        if (got != want)
                            FAIL("shapes %s 2^%d block %u grid %u cluster %u: bits %llx, "
                                 "default's %llx",
                                 cured_dtype_name(types[t]), lg, block, grids[g], cl, got, want);
                        printf("%-5s %6d %6u %6u %7u %10.2f\n", cured_dtype_name(types[t]), lg,
                               block, grids[g], cl, us);
                        if (us < t_best) {
                            t_best = us;
                            best = s;
                        }
                    }
            printf("best  %s 2^%d: block %d grid %u cluster %u %.2f us; default block %d grid "
                   "%u cluster %u %.2f us\n",
                   cured_dtype_name(types[t]), lg, best.block, best.grid, best.cluster, t_best,
                   def.block, def.grid, def.cluster, t_def);
            fflush(stdout);
            free_data(&x);
        }
    }
}

/* --shapes' arguments: 0 when they are usable (no DTYPE, or one of the
 * swept dtypes, then no bounds or 12 <= LG_MIN <= LG_MAX <= 30), else 2
 * after one line on stderr saying what is wrong. */
static int check_shape_args(int argc, char **argv)
{
    const char *usage = "usage: --shapes [DTYPE [LG_MIN LG_MAX]] (DTYPE f32 f64 f16 bf16 i32, "
                        "12 <= LG_MIN <= LG_MAX <= 30)";
    cured_dtype d;
    if (argc >= 3 && (cured_dtype_from_name(argv[2], &d) != CURED_SUCCESS ||
                      !(is_float(d) || d == CURED_I32))) {
        fprintf(stderr, "test_gpu_reduce: --shapes: unknown or unswept dtype '%s'; %s\n",
                argv[2], usage);
        return 2;
    }
    if (argc == 4 || argc > 5) {
        fprintf(stderr, "test_gpu_reduce: --shapes takes both bounds or neither; %s\n", usage);
        return 2;
    }
    if (argc == 5) {
        char *e1, *e2;
        long lo = strtol(argv[3], &e1, 10), hi = strtol(argv[4], &e2, 10);
        if (*argv[3] == 0 || *e1 || *argv[4] == 0 || *e2 || lo < 12 || lo > hi || hi > 30) {
            fprintf(stderr, "test_gpu_reduce: --shapes: bad bounds '%s' '%s'; %s\n", argv[3],
                    argv[4], usage);
            return 2;
        }
    }
    return 0;
}

/* The data kind named by s (reduce_fill.cuh's kind_names), or -1. */
static int kind_from_name(const char *s)
{
    for (int k = 0; k < KINDS; k++)
        if (strcmp(s, kind_names[k]) == 0)
            return k;
    return -1;
}

/* --kind KIND and --repeat R in front of --one: takes them off *argc,
 * *argv (argv[0] kept) into *kind and *repeat. Returns 0, or 2 (a line on
 * stderr) for a bad value or when --one does not follow. */
static int one_options(int *argc, char ***argv, int *kind, int *repeat)
{
    int taken = 0;
    while (*argc - taken >= 3) {
        const char *opt = (*argv)[1 + taken], *val = (*argv)[2 + taken];
        if (strcmp(opt, "--kind") == 0) {
            *kind = kind_from_name(val);
            if (*kind < 0) {
                fprintf(stderr, "test_gpu_reduce: --kind: no data kind '%s' (", val);
                for (int k = 0; k < KINDS; k++)
                    fprintf(stderr, "%s%s", k ? " " : "", kind_names[k]);
                fprintf(stderr, ")\n");
                return 2;
            }
        } else if (strcmp(opt, "--repeat") == 0) {
            char *end;
            long r = strtol(val, &end, 10);
            if (*val == 0 || *end || r < 1 || r > 100000) {
                fprintf(stderr, "test_gpu_reduce: --repeat takes 1 .. 100000, not '%s'\n", val);
                return 2;
            }
            *repeat = (int)r;
        } else {
            break;
        }
        taken += 2;
    }
    if (taken == 0)
        return 0;
    if (*argc - taken < 2 || strcmp((*argv)[1 + taken], "--one") != 0) {
        fprintf(stderr, "test_gpu_reduce: --kind and --repeat come before --one\n");
        return 2;
    }
    (*argv)[taken] = (*argv)[0];
    *argv += taken;
    *argc -= taken;
    return 0;
}

int main(int argc, char **argv)
{
    int count = 0, one_kind = -1, one_repeat = 1;
    if (one_options(&argc, &argv, &one_kind, &one_repeat) != 0)
        return 2;
    if (argc >= 2 && strcmp(argv[1], "--shapes") == 0 && check_shape_args(argc, argv) != 0)
        return 2;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIP: no CUDA device\n");
        return GPU_TEST_SKIP;
    }
    if (cured_reducer_create(NULL, 0, &R) != CURED_SUCCESS) {
        printf("FAIL: cured_reducer_create\n");
        return 1;
    }
    CHECK_CUDA(cudaMalloc(&d_out, 64));
    if (argc >= 6 && strcmp(argv[1], "--one") == 0) {
        cured_op op;
        cured_dtype d;
        if (cured_op_from_name(argv[2], &op) || cured_dtype_from_name(argv[3], &d)) {
            fprintf(stderr, "usage: --one OP DTYPE N OFFSET [GRID BLOCK [CLUSTER]]\n");
            return 2;
        }
        data x = make_data(d, one_kind >= 0 ? one_kind : is_float(d) ? WIDE : 0,
                           strtoull(argv[4], NULL, 10),
                           strtoull(argv[5], NULL, 10), 1);
        cured_reduce_shape s = {256, 1, CURED_VARIANT_EXACT, 1};
        if (argc >= 8) {
            s.grid = (unsigned)atoi(argv[6]);
            s.block = atoi(argv[7]);
        }
        if (argc >= 9)
            s.cluster = (unsigned)atoi(argv[8]);
        uint64_t want = cpu_result(&x, op, 0);
        for (int r = 0; r < one_repeat; r++)
            run_one(&x, op, 0, argc >= 8 ? &s : NULL, &want, "one");
        free_data(&x);
    } else if (argc >= 2 && strcmp(argv[1], "--large") == 0) {
        large();
    } else if (argc >= 2 && strcmp(argv[1], "--bins-full") == 0) {
        uint64_t n = argc >= 3 ? strtoull(argv[2], NULL, 10) : 0;
        if (n < 2) {
            fprintf(stderr, "usage: --bins-full N (N >= 2)\n");
            return 2;
        }
        bins_full(n);
    } else if (argc >= 2 && strcmp(argv[1], "--price") == 0) {
        price(argc >= 3 ? argv[2] : NULL);
    } else if (argc >= 2 && strcmp(argv[1], "--shapes") == 0) {
        shape_sweep(argc >= 3 ? argv[2] : NULL, argc >= 5 ? atoi(argv[3]) : 12,
                    argc >= 5 ? atoi(argv[4]) : 28);
    } else {
        bad_input();
        misaligned();
        one_trip_edge();
        bins_full(((uint64_t)1 << 22) + 3);
        repeated();
        sweep();
    }
    cured_reducer_destroy(R);
    CHECK_CUDA(cudaFree(d_out));
    if (failures) {
        printf("test_gpu_reduce: %d FAILURES\n", failures);
        return 1;
    }
    printf("test_gpu_reduce: PASS\n");
    return 0;
}
