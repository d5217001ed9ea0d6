/* test_catalogue.cu - every catalogue kernel on the GPU, through
 * cured_catalogue_run, against a host reference on fresh random inputs.
 *
 *   test_gpu_catalogue                 the sweep: 13 kernels x 6 dtypes x n x
 *                                      block sizes (seed from the clock)
 *   test_gpu_catalogue --seed S        the same sweep with seed S
 *   test_gpu_catalogue --alignment     every kernel with d_in offset by 0..3
 *                                      elements, n around the wide loads' tail
 *                                      (4k + 1 .. 4k + 3, below one vector);
 *                                      same bits at every offset
 *   test_gpu_catalogue --large         the grid-level kernels at n = 2^32 + 5,
 *                                      every block-level kernel at its max_n
 *                                      (17 GB of f32, filled on the device)
 *   test_gpu_catalogue --kernel NAME [--n N] [--block B] [--dtype T]
 *                      [--offset O]    one run (for compute-sanitizer), d_in
 *                                      O elements into its buffer
 *
 * Exits 0 when every check passes, 1 on a failure (one line per failed run:
 * kernel, dtype, n, block, data, got, want, bound), 77 without a GPU (ctest
 * reports it as skipped) or, for --large, without 18 GB of free memory.
 *
 * What a run checks: the status; the result against the reference (integers
 * exactly, modulo 2^bits; floats within the proven bound of the exact sum,
 * src/reference's cured_ref_sum_check, h from cured_catalogue_chain_length);
 * that the element after *d_out still holds its poison (one element
 * written); that the scratch's state area is zero again (single_pass
 * re-armed its counter). d_out is poisoned (NaN, 0xAB bytes) and the
 * scratch's partial area too before every run; one scratch buffer, zeroed
 * once, serves every run.
 */
#include <cuda_runtime.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu_test.h"
#include "cured.h"
#include "ref_sum.h"


// ----------------------------------------------------------------------------
// Random data and its reference

/* Where the inputs' seeds come from: each dataset takes the next value of
 * a splitmix64 sequence from the run's seed. */
typedef struct seed_source {
    uint64_t seed, next;
} seed_source;

static uint64_t next_seed(seed_source *r)
{
    return cured_ref_random_bits(r->seed, r->next++);
}

/* One input: n elements of dtype on the host and the device, and what the
 * sum must be (src/reference: the exact sum, the bound, the check).
 * "random" data: src/reference's uniform fill, floats in [-0.5, 0.5) with
 * 24 (53) random bits, integers with every bit random (sums wrap). "exact"
 * data (floats only): its sparse fill, integers +-1..4, one in `keep`
 * nonzero when n is large, so that sum|x| <= 2^24 (2^53) and every partial
 * sum in any order is exact: the result must equal the exact sum to the
 * bit (the reference's bound is then 0), which catches a lost or doubled
 * element that the rounding bound would hide. */
typedef struct dataset {
    cured_dtype dtype;
    uint64_t n;
    const char *kind;
    void *host;
    void *dev;
    cured_ref_sum ref;
} dataset;

static int is_float(cured_dtype dtype)
{
    return dtype == CURED_F32 || dtype == CURED_F64;
}

static cured_ref_fill dataset_fill(const char *kind, uint64_t n, uint64_t seed)
{
    cured_ref_fill f = cured_ref_fill_standard(seed);
    if (strcmp(kind, "exact") == 0) {
        f.kind = CURED_REF_FILL_SPARSE;
        f.sparsity = n <= (1u << 22) ? 1 : n >> 22; /* sum|x| ~ 2.5 n / keep */
        f.max_magnitude = 4;
    } else {
        f.int_bits = 64;
    }
    return f;
}

static dataset make_dataset(cured_dtype dtype, uint64_t n, const char *kind,
                            seed_source *r)
{
    dataset d;
    memset(&d, 0, sizeof d);
    d.dtype = dtype;
    d.n = n;
    d.kind = kind;
    size_t bytes = (size_t)n * cured_dtype_size(dtype);
    cured_ref_fill fill = dataset_fill(kind, n, next_seed(r));
    if (n > 0) {
        d.host = malloc(bytes);
        if (d.host == NULL) {
            fprintf(stderr, "out of host memory for %zu bytes\n", bytes);
            exit(1);
        }
        cured_ref_fill_buffer(&fill, dtype, d.host, n);
        CHECK_CUDA(cudaMalloc(&d.dev, bytes));
        CHECK_CUDA(cudaMemcpy(d.dev, d.host, bytes, cudaMemcpyHostToDevice));
    }
    cured_ref_sum_of(dtype, d.host, n, &d.ref);
    return d;
}

static void free_dataset(dataset *d)
{
    free(d->host);
    if (d->dev != NULL)
        CHECK_CUDA(cudaFree(d->dev));
}

// ----------------------------------------------------------------------------
// One run

typedef struct harness {
    void *d_out;   /* 2 elements: the result and a guard */
    char *d_temp;  /* scratch, zeroed once */
    size_t temp_size;
    cudaStream_t stream;
    long runs, failures;
    uint64_t two_pass_bits; /* two_pass's result, which single_pass must equal */
    int have_two_pass;
} harness;

static const unsigned char STATE_ZERO[CURED_TEMP_STATE_BYTES] = {0};

/* The element of dtype whose bytes are the low bytes of bits, as text. */
static void format_value(cured_dtype dtype, uint64_t bits, char *out, size_t cap)
{
    cured_ref_format_element(dtype, &bits, out, cap); /* little-endian */
}

static void fail(harness *t, int kernel, const dataset *d, int block,
                 const char *what)
{
    t->failures++;
    printf("FAIL %s dtype=%s n=%llu block=%d data=%s: %s\n",
           cured_catalogue_entry(kernel)->name, cured_dtype_name(d->dtype),
           (unsigned long long)d->n, block, d->kind, what);
    fflush(stdout);
}

/* Runs kernel on d at block, checks everything, returns 1 if it passed.
 * *bits gets the result's bits. */
static int run_case(harness *t, int kernel, const dataset *d, int block,
                    uint64_t *bits)
{
    char msg[512];
    size_t es = cured_dtype_size(d->dtype), need = 0;
    unsigned char poison = is_float(d->dtype) ? 0xFF : 0xAB;

    t->runs++;
    cured_status st = cured_catalogue_temp_bytes(kernel, d->dtype, d->n, block, &need);
    if (st != CURED_SUCCESS || need > t->temp_size) {
        snprintf(msg, sizeof msg, "temp_bytes: %s, %zu bytes (have %zu)",
                 cured_status_string(st), need, t->temp_size);
        fail(t, kernel, d, block, msg);
        return 0;
    }
    CHECK_CUDA(cudaMemsetAsync(t->d_out, poison, 2 * es, t->stream));
    CHECK_CUDA(cudaMemsetAsync(t->d_temp + CURED_TEMP_STATE_BYTES, poison,
                               t->temp_size - CURED_TEMP_STATE_BYTES, t->stream));
    st = cured_catalogue_run(kernel, d->dtype, d->dev, d->n, t->d_out, block,
                             t->d_temp, t->temp_size, (cured_stream)t->stream);
    if (st != CURED_SUCCESS) {
        snprintf(msg, sizeof msg, "run: %s", cured_status_string(st));
        fail(t, kernel, d, block, msg);
        return 0;
    }
    cudaError_t err = cudaStreamSynchronize(t->stream);
    if (err != cudaSuccess) {
        snprintf(msg, sizeof msg, "CUDA: %s", cudaGetErrorString(err));
        fail(t, kernel, d, block, msg);
        exit(1); /* the context is likely gone */
    }
    unsigned char out[16], state[CURED_TEMP_STATE_BYTES];
    CHECK_CUDA(cudaMemcpy(out, t->d_out, 2 * es, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(state, t->d_temp, sizeof state, cudaMemcpyDeviceToHost));

    uint64_t got = 0;
    memcpy(&got, out, es);
    *bits = got;
    int ok = 1;
    for (size_t i = es; i < 2 * es; i++) {
        if (out[i] != poison) {
            fail(t, kernel, d, block, "wrote past *d_out");
            ok = 0;
            break;
        }
    }
    if (memcmp(state, STATE_ZERO, sizeof state) != 0) {
        fail(t, kernel, d, block, "scratch state area not zero after the run");
        ok = 0;
    }
    uint64_t h = 0;  /* the longest chain of additions: the float bound's h */
    if (is_float(d->dtype) && d->n > 0) {
        cured_plan plan;
        if (cured_catalogue_plan(kernel, d->dtype, d->n, block, &plan) != CURED_SUCCESS) {
            fail(t, kernel, d, block, "cured_catalogue_plan failed");
            return 0;
        }
        h = cured_catalogue_chain_length(kernel, &plan);
    }
    if (!cured_ref_sum_check(&d->ref, out, h, msg, sizeof msg)) {
        fail(t, kernel, d, block, msg);
        ok = 0;
    }
    return ok;
}

/* Every kernel on d at block; single_pass must give two_pass's bits (the
 * same additions in the same order). bits (NULL, or one per kernel) gets
 * each result's bits. */
static void run_all_kernels(harness *t, const dataset *d, int block,
                            uint64_t *bits_out)
{
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const char *name = cured_catalogue_entry(k)->name;
        uint64_t bits = 0;
        int ok = run_case(t, k, d, block, &bits);
        if (bits_out != NULL)
            bits_out[k] = bits;
        if (!strcmp(name, "two_pass")) {
            t->two_pass_bits = bits;
            t->have_two_pass = ok;
        }
        if (!strcmp(name, "single_pass") && ok && t->have_two_pass &&
            bits != t->two_pass_bits) {
            char a[64], b[64], msg[200];
            format_value(d->dtype, bits, a, sizeof a);
            format_value(d->dtype, t->two_pass_bits, b, sizeof b);
            snprintf(msg, sizeof msg, "single_pass %s != two_pass %s (same order)", a, b);
            fail(t, k, d, block, msg);
        }
    }
}

// ----------------------------------------------------------------------------
// Bad input on the GPU

/* n = max_n + 1 for each block-level kernel: SIZE_TOO_LARGE, and nothing
 * written (d_out keeps its poison, the state area stays zero). */
static void check_too_large(harness *t, const dataset *d)
{
    unsigned char out[8];
    for (int k = 0; k < cured_catalogue_count(); k++) {
        const cured_kernel_info *info = cured_catalogue_entry(k);
        if (info->level != CURED_LEVEL_BLOCK)
            continue;
        t->runs++;
        CHECK_CUDA(cudaMemset(t->d_out, 0xAB, 8));
        cured_status st = cured_catalogue_run(k, CURED_I32, d->dev, info->max_n + 1,
                                              t->d_out, 256, t->d_temp,
                                              t->temp_size, (cured_stream)t->stream);
        CHECK_CUDA(cudaStreamSynchronize(t->stream));
        CHECK_CUDA(cudaMemcpy(out, t->d_out, 8, cudaMemcpyDeviceToHost));
        if (st != CURED_ERROR_SIZE_TOO_LARGE)
            fail(t, k, d, 256, "n = max_n + 1 not refused");
        for (int i = 0; i < 8; i++) {
            if (out[i] != 0xAB) {
                fail(t, k, d, 256, "n = max_n + 1 wrote d_out");
                break;
            }
        }
    }
}

// ----------------------------------------------------------------------------
// Modes

static const int all_blocks[] = {32, 64, 128, 256, 512, 1024};
#define NBLOCKS ((int)(sizeof all_blocks / sizeof all_blocks[0]))

static void harness_init(harness *t, size_t temp_size)
{
    memset(t, 0, sizeof *t);
    t->temp_size = temp_size < CURED_TEMP_STATE_BYTES + 256
                       ? CURED_TEMP_STATE_BYTES + 256 : temp_size;
    CHECK_CUDA(cudaStreamCreate(&t->stream));
    CHECK_CUDA(cudaMalloc(&t->d_out, 16));
    CHECK_CUDA(cudaMalloc((void **)&t->d_temp, t->temp_size));
    CHECK_CUDA(cudaMemset(t->d_temp, 0, t->temp_size)); /* once */
}

static void harness_free(harness *t)
{
    CHECK_CUDA(cudaFree(t->d_temp));
    CHECK_CUDA(cudaFree(t->d_out));
    CHECK_CUDA(cudaStreamDestroy(t->stream));
}

/* The largest scratch any run of the sweep asks for. */
static size_t sweep_temp_size(const uint64_t *sizes, int nsizes)
{
    size_t most = 0;
    for (int k = 0; k < cured_catalogue_count(); k++)
        for (int s = 0; s < nsizes; s++)
            for (int b = 0; b < NBLOCKS; b++) {
                size_t bytes = 0;
                cured_catalogue_temp_bytes(k, CURED_F64, sizes[s], all_blocks[b], &bytes);
                most = bytes > most ? bytes : most;
            }
    return most;
}

static int sweep(uint64_t seed)
{
    static const uint64_t sizes[] = {0, 1, 31, 33, 1000, (1u << 20) + 7, 1u << 26};
    static const uint64_t few_sizes[] = {1000, (1u << 20) + 7};
    static const cured_dtype main_dtypes[] = {CURED_F32, CURED_I32};
    static const cured_dtype other_dtypes[] = {CURED_F64, CURED_I64, CURED_U32,
                                               CURED_U64};
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    harness t;
    seed_source r = {seed, 0};

    harness_init(&t, sweep_temp_size(sizes, nsizes));
    for (int pass = 0; pass < 2; pass++) {
        const cured_dtype *dtypes = pass == 0 ? main_dtypes : other_dtypes;
        int ndtypes = pass == 0 ? 2 : 4;
        const uint64_t *ns = pass == 0 ? sizes : few_sizes;
        int nn = pass == 0 ? nsizes : 2;
        for (int di = 0; di < ndtypes; di++) {
            for (int s = 0; s < nn; s++) {
                for (int kind = 0; kind < (is_float(dtypes[di]) ? 2 : 1); kind++) {
                    dataset d = make_dataset(dtypes[di], ns[s],
                                             kind == 0 ? "random" : "exact", &r);
                    for (int b = 0; b < NBLOCKS; b++)
                        run_all_kernels(&t, &d, all_blocks[b], NULL);
                    if (pass == 0 && di == 1 && ns[s] == 1000)
                        check_too_large(&t, &d);
                    free_dataset(&d);
                }
            }
            printf("%s: done\n", cured_dtype_name(dtypes[di]));
            fflush(stdout);
        }
    }
    harness_free(&t);
    printf("test_gpu_catalogue: seed %llu: %ld runs, %ld failures\n",
           (unsigned long long)seed, t.runs, t.failures);
    return t.failures == 0 ? 0 : 1;
}

/* The paths of the wide loads (src/kernels/load.cuh): d_in offset by 0..3
 * elements (so 16-byte aligned, or not: 4, 8, 12 bytes off for 4-byte
 * types), n below one wide vector (1..3), n = 4k + 1 .. 4k + 3 around the
 * tail of the last vector, with one block and with many, one trip per
 * thread and (2^22 + 3 at small blocks) several. Every run is checked as in
 * the sweep; besides, the result must have the same bits at every offset
 * (the order of the additions does not depend on alignment), except
 * atomic's float sums, whose order is the blocks' arrival, and the racy
 * exhibit's. */
static int alignment_sweep(uint64_t seed)
{
    static const uint64_t sizes[] = {1, 2, 3, 5, 6, 7, 129, 130, 131, 4097, 4098,
                                     4099, 65539, 3 * 65536 + 3, (1u << 22) + 3};
    static const cured_dtype dtypes[] = {CURED_F32, CURED_I32, CURED_F64, CURED_U64};
    int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    int nkernels = cured_catalogue_count();
    enum { MAX_OFFSET = 3, MAX_KERNELS = 32 };
    harness t;
    seed_source r = {seed ^ 0xa119edull, 0};
    if (nkernels > MAX_KERNELS) {
        printf("--alignment: %d kernels, room for %d\n", nkernels, MAX_KERNELS);
        return 1;
    }

    harness_init(&t, sweep_temp_size(sizes, nsizes));
    for (int di = 0; di < 4; di++) {
        cured_dtype dtype = dtypes[di];
        size_t es = cured_dtype_size(dtype);
        for (int s = 0; s < nsizes; s++) {
            if (sizes[s] > (1u << 20) && dtype != CURED_F32)
                continue; /* the large size: f32 only */
            dataset d = make_dataset(dtype, sizes[s], "random", &r);
            char *shifted;
            CHECK_CUDA(cudaMalloc((void **)&shifted, (d.n + MAX_OFFSET) * es));
            uint64_t aligned_bits[NBLOCKS][MAX_KERNELS];
            for (int off = 0; off <= MAX_OFFSET; off++) {
                char kind[32];
                snprintf(kind, sizeof kind, "random, d_in + %d", off);
                dataset v = d;
                v.kind = kind;
                v.dev = shifted + off * es;
                CHECK_CUDA(cudaMemcpy(v.dev, d.host, d.n * es, cudaMemcpyHostToDevice));
                for (int b = 0; b < NBLOCKS; b++) {
                    uint64_t bits[MAX_KERNELS];
                    run_all_kernels(&t, &v, all_blocks[b], bits);
                    for (int k = 0; k < nkernels; k++) {
                        if (off == 0) {
                            aligned_bits[b][k] = bits[k];
                            continue;
                        }
                        const cured_kernel_info *info = cured_catalogue_entry(k);
                        if (bits[k] == aligned_bits[b][k] || info->is_exhibit ||
                            (is_float(dtype) && !strcmp(info->name, "atomic")))
                            continue;
                        char got[64], want[64], msg[200];
                        format_value(dtype, bits[k], got, sizeof got);
                        format_value(dtype, aligned_bits[b][k], want, sizeof want);
                        snprintf(msg, sizeof msg,
                                 "%s at d_in + %d, %s at d_in (bits differ)", got, off, want);
                        fail(&t, k, &v, all_blocks[b], msg);
                    }
                }
            }
            CHECK_CUDA(cudaFree(shifted));
            free_dataset(&d);
        }
        printf("%s, offsets 0..%d: done\n", cured_dtype_name(dtype), MAX_OFFSET);
        fflush(stdout);
    }
    harness_free(&t);
    printf("test_gpu_catalogue --alignment: seed %llu: %ld runs, %ld failures\n",
           (unsigned long long)seed, t.runs, t.failures);
    return t.failures == 0 ? 0 : 1;
}

static int single(uint64_t seed, const char *kernel_name, uint64_t n, int block,
                  const char *dtype_name, int offset)
{
    int kernel;
    cured_dtype dtype;
    if (cured_catalogue_find(kernel_name, &kernel) != CURED_SUCCESS ||
        cured_dtype_from_name(dtype_name, &dtype) != CURED_SUCCESS) {
        fprintf(stderr, "unknown kernel '%s' or dtype '%s'\n", kernel_name, dtype_name);
        return 2;
    }
    size_t need = 0;
    cured_status st = cured_catalogue_temp_bytes(kernel, dtype, n, block, &need);
    if (st != CURED_SUCCESS) {
        fprintf(stderr, "%s\n", cured_status_string(st));
        return 2;
    }
    harness t;
    seed_source r = {seed, 0};
    harness_init(&t, need);
    dataset d = make_dataset(dtype, n, "random", &r);
    /* --offset: the same data `offset` elements into a larger buffer whose
     * first elements are never written, so that initcheck reports a read
     * before d_in and memcheck one past its end */
    char *shifted = NULL;
    void *aligned_dev = d.dev;
    if (offset > 0) {
        size_t es = cured_dtype_size(dtype);
        CHECK_CUDA(cudaMalloc((void **)&shifted, (n + (uint64_t)offset) * es));
        d.dev = shifted + (size_t)offset * es;
        CHECK_CUDA(cudaMemcpy(d.dev, d.host, n * es, cudaMemcpyHostToDevice));
    }
    uint64_t bits = 0;
    int ok = run_case(&t, kernel, &d, block, &bits);
    char got[64];
    format_value(dtype, bits, got, sizeof got);
    printf("%s %s dtype=%s n=%llu block=%d offset=%d: got %s\n", ok ? "ok" : "FAIL",
           kernel_name, dtype_name, (unsigned long long)n, block, offset, got);
    if (shifted != NULL)
        CHECK_CUDA(cudaFree(shifted));
    d.dev = aligned_dev;
    free_dataset(&d);
    harness_free(&t);
    return ok ? 0 : 1;
}

// ----------------------------------------------------------------------------
// --large: 2^32 + 5 elements

#define LARGE_N ((1ull << 32) + 5)

/* Element i of the large input: src/reference's sparse fill, +-1 with
 * probability 1/512, and 3, 6, 12, 24, 48 at the five elements past 2^32,
 * so a lost tail or an index that wraps to i - 2^32 changes the sum.
 * sum|x| ~ 2^23 <= 2^24: every partial sum is exact, so the f32 result must
 * be exact (the reference's bound is 0). The same function fills on the
 * device and sums on the host. */
__host__ __device__ static inline float large_value(const cured_ref_fill *f, uint64_t i)
{
    if (i >= (1ull << 32))
        return (float)(3u << (unsigned)(i - (1ull << 32)));
    return cured_ref_fill_f32(f, i);
}

static cured_ref_fill large_fill(uint64_t seed)
{
    cured_ref_fill f = cured_ref_fill_standard(seed);
    f.kind = CURED_REF_FILL_SPARSE;
    f.sparsity = 512;
    f.max_magnitude = 1;
    return f;
}

__global__ void fill_large(float *x, unsigned long long n, cured_ref_fill f)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x +
                                threadIdx.x;
         i < n; i += stride)
        x[i] = large_value(&f, i);
}

/* One host thread's share of the large input's reference: the f32 sum and
 * the i32 sum of the same bits (the second pass reads the buffer as i32). */
typedef struct large_job {
    cured_ref_fill fill;
    uint64_t begin, end;
    cured_ref_sum f32, i32;
} large_job;

/* Adds elements [begin, end) of the large input to j's two sums. */
static void add_large(large_job *j)
{
    const uint64_t CHUNK = 4096;
    float chunk[4096];
    for (uint64_t i = j->begin; i < j->end; i += CHUNK) {
        uint64_t count = j->end - i < CHUNK ? j->end - i : CHUNK;
        for (uint64_t k = 0; k < count; k++)
            chunk[k] = large_value(&j->fill, i + k);
        cured_ref_sum_add(&j->f32, chunk, count);
        cured_ref_sum_add(&j->i32, chunk, count);
    }
}

static void *sum_large(void *arg)
{
    large_job *j = (large_job *)arg;
    cured_ref_sum_init(&j->f32, CURED_F32);
    cured_ref_sum_init(&j->i32, CURED_I32);
    add_large(j);
    return NULL;
}

/* The large input's first n elements as a dataset of d->dtype: the sums
 * the threads made of [0, base->end), extended to n (n >= base->end: the
 * block level's max_n lie at most 2^21 elements below 2^32). Every partial
 * sum is exact, so the reference's bound is 0. */
static void large_reference(dataset *d, const large_job *base, uint64_t n)
{
    static large_job j; /* two sums: large for the stack */
    j = *base;
    j.begin = base->end;
    j.end = n;
    add_large(&j);
    d->n = n;
    d->ref = d->dtype == CURED_F32 ? j.f32 : j.i32;
}

/* The grid-level kernels at n = 2^32 + 5 (64-bit indexes past 2^32), and
 * every block-level kernel at its max_n, the most its 32-bit indexes and
 * grid strides take without wrapping (src/lib/catalogue.c says why), on
 * one input of LARGE_N floats; f32, then the same bits as i32. */
static int large(uint64_t seed)
{
    enum { MAX_THREADS = 64, MAX_KERNELS = 32 };
    if (cured_catalogue_count() > MAX_KERNELS) {
        printf("--large: %d kernels, room for %d\n", cured_catalogue_count(), MAX_KERNELS);
        return 1;
    }
    /* which kernel at which n: the grid level at 2^32 + 5, the block level
     * at max_n; and the scratch the largest plan needs */
    int nkernels = cured_catalogue_count();
    uint64_t kernel_n[MAX_KERNELS];
    static const int blocks[] = {32, 256, 1024};
    size_t most = 0;
    for (int k = 0; k < nkernels; k++) {
        const cured_kernel_info *info = cured_catalogue_entry(k);
        kernel_n[k] = info->level == CURED_LEVEL_GRID ? LARGE_N : info->max_n;
        for (int b = 0; b < 3; b++) {
            size_t need = 0;
            cured_catalogue_temp_bytes(k, CURED_F32, kernel_n[k], blocks[b], &need);
            most = need > most ? need : most;
        }
    }
    size_t bytes = (size_t)LARGE_N * sizeof(float) + most;
    size_t free_bytes = 0, total = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total));
    if (free_bytes < bytes + ((size_t)1 << 30)) {
        printf("--large: needs %zu bytes of GPU memory, %zu free: skipped\n",
               bytes, free_bytes);
        return GPU_TEST_SKIP;
    }
    dataset d;
    memset(&d, 0, sizeof d);
    d.n = LARGE_N;
    d.kind = "large";
    cured_ref_fill fill = large_fill(seed);
    CHECK_CUDA(cudaMalloc(&d.dev, (size_t)LARGE_N * sizeof(float)));
    fill_large<<<1024, 256>>>((float *)d.dev, LARGE_N, fill);
    CHECK_CUDA(cudaGetLastError());

    /* the reference of [0, the smallest n a kernel takes), on all host
     * cores while the device fills; large_reference extends it */
    uint64_t base_n = LARGE_N;
    for (int k = 0; k < nkernels; k++)
        base_n = kernel_n[k] < base_n ? kernel_n[k] : base_n;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = cores < 1 ? 1 : cores > MAX_THREADS ? MAX_THREADS : (int)cores;
    pthread_t threads[MAX_THREADS];
    static large_job jobs[MAX_THREADS];
    for (int i = 0; i < nthreads; i++) {
        jobs[i].fill = fill;
        jobs[i].begin = base_n / nthreads * i;
        jobs[i].end = i == nthreads - 1 ? base_n : base_n / nthreads * (i + 1);
        pthread_create(&threads[i], NULL, sum_large, &jobs[i]);
    }
    for (int i = 0; i < nthreads; i++) {
        pthread_join(threads[i], NULL);
        if (i > 0) {
            cured_ref_sum_merge(&jobs[0].f32, &jobs[i].f32);
            cured_ref_sum_merge(&jobs[0].i32, &jobs[i].i32);
        }
    }
    jobs[0].end = base_n;
    CHECK_CUDA(cudaDeviceSynchronize());
    d.dtype = CURED_F32;
    large_reference(&d, &jobs[0], LARGE_N);
    printf("--large: n = 2^32 + 5, sum %.0f, sum|x| %.0f%s\n",
           cured_ref_sum_double(&d.ref), cured_ref_sum_abs(&d.ref),
           cured_ref_sum_bound(&d.ref, 1) == 0 ? ": every partial sum exact" : "");

    harness t;
    harness_init(&t, most);
    for (int pass = 0; pass < 2; pass++) {
        d.dtype = pass == 0 ? CURED_F32 : CURED_I32; /* i32: the same bits */
        for (int k = 0; k < nkernels; k++) {
            const char *name = cured_catalogue_entry(k)->name;
            large_reference(&d, &jobs[0], kernel_n[k]);
            for (int b = 0; b < 3; b++) {
                uint64_t bits;
                int ok = run_case(&t, k, &d, blocks[b], &bits);
                char got[64];
                format_value(d.dtype, bits, got, sizeof got);
                printf("%s %s dtype=%s n=%llu block=%d: got %s\n", ok ? "ok" : "FAIL",
                       name, cured_dtype_name(d.dtype), (unsigned long long)d.n,
                       blocks[b], got);
                fflush(stdout);
            }
        }
    }
    harness_free(&t);
    CHECK_CUDA(cudaFree(d.dev));
    printf("test_gpu_catalogue --large: seed %llu: %ld runs, %ld failures\n",
           (unsigned long long)seed, t.runs, t.failures);
    return t.failures == 0 ? 0 : 1;
}

// ----------------------------------------------------------------------------

static void usage(FILE *f)
{
    fprintf(f, "usage: test_gpu_catalogue [--seed S] [--alignment | --large | "
               "--kernel NAME [--n N] [--block B] [--dtype T] [--offset O]]\n");
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"seed", required_argument, NULL, 's'},
        {"large", no_argument, NULL, 'L'},
        {"kernel", required_argument, NULL, 'k'},
        {"n", required_argument, NULL, 'n'},
        {"block", required_argument, NULL, 'b'},
        {"dtype", required_argument, NULL, 't'},
        {"offset", required_argument, NULL, 'o'},
        {"alignment", no_argument, NULL, 'A'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    const char *kernel = NULL, *dtype = "f32";
    uint64_t n = 5000;
    int block = 256, large_mode = 0, alignment_mode = 0, offset = 0, c;
    while ((c = getopt_long(argc, argv, "", options, NULL)) != -1) {
        switch (c) {
        case 's': seed = strtoull(optarg, NULL, 0); break;
        case 'L': large_mode = 1; break;
        case 'k': kernel = optarg; break;
        case 'n': n = strtoull(optarg, NULL, 0); break;
        case 'b': block = atoi(optarg); break;
        case 't': dtype = optarg; break;
        case 'o': offset = atoi(optarg); break;
        case 'A': alignment_mode = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return GPU_TEST_SKIP;
    }
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    printf("test_gpu_catalogue: %s, seed %llu (rerun with --seed %llu)\n", prop.name,
           (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    if (offset < 0 || offset > 64) {
        fprintf(stderr, "--offset %d: 0 to 64 elements\n", offset);
        return 2;
    }
    if (kernel != NULL)
        return single(seed, kernel, n, block, dtype, offset);
    if (large_mode)
        return large(seed);
    if (alignment_mode)
        return alignment_sweep(seed);
    return sweep(seed);
}
