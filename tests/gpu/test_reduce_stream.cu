/* test_reduce_stream.cu - cured_reduce in a stream, as programs chain it:
 * right behind a kernel that lets the launch after it begin early
 * (programmatic dependent launch), and captured in a CUDA graph.
 *
 *   test_gpu_reduce_stream [--no-overlap]
 *       exits 0 when every check passes, 1 on a failure (one line each), 2
 *       on a bad argument, 77 without a GPU; --no-overlap skips the spy
 *       (below), for tools that may run launches one after another
 *       (compute-sanitizer)
 *
 * On sm_90 cured_reduce launches as a programmatic dependent launch, so
 * its blocks may start while the kernel before it still runs; they must
 * wait for that kernel's writes (src/kernels/exact/grid_dependency.cuh).
 * The producer here signals at its start and writes the input only after
 * a pause, so a reduction that did not wait would sum the old data: every
 * result is compared with the CPU path's bits on the data the producer
 * wrote. A spy kernel launched the same way but without the wait shows
 * that the launch does begin early behind this producer (else the check
 * would prove nothing). In a captured graph, consecutive calls must keep
 * programmatic edges and give the CPU's bits on every replay.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured.h"
#include "gpu_test.h"
#include "reduce.h"
#include "reduce_fill.cuh"

/* How long the producer waits before it writes: far beyond a launch. */
#define PRODUCER_PAUSE_NS 200000ull

static cured_reducer *R;
static cudaStream_t S;
static int sm_count, dependent; /* dependent: sm_90, where launches overlap */
static int check_overlap = 1;   /* run the spy */

/* One call: the op, the dtype, n and a forced shape (grid 0: default). */
typedef struct call {
    cured_op op;
    cured_dtype d;
    uint64_t n;
    cured_reduce_shape shape;
} call;

static const call calls[] = {
    {CURED_OP_SUM, CURED_F32, 1000, {0, 0, CURED_VARIANT_EXACT, 0}},
    {CURED_OP_SUM, CURED_F32, (1u << 18) + 3, {0, 0, CURED_VARIANT_EXACT, 0}},
    {CURED_OP_SUM, CURED_F32, 1u << 16, {256, 16, CURED_VARIANT_EXACT, 16}},
    {CURED_OP_SUM, CURED_F32, (1u << 22) + 3, {0, 0, CURED_VARIANT_EXACT, 0}},
    {CURED_OP_SUM, CURED_F64, (1u << 22) + 3, {0, 0, CURED_VARIANT_EXACT, 0}},
    {CURED_OP_SUM, CURED_F16, (1u << 20) + 1, {0, 0, CURED_VARIANT_EXACT, 0}},
    {CURED_OP_SUM, CURED_I32, (1u << 21) + 5, {0, 0, CURED_VARIANT_EXACT, 0}},
    {CURED_OP_ARGMAX, CURED_F32, (1u << 20) + 1, {0, 0, CURED_VARIANT_EXACT, 0}},
};
#define NCALLS (int)(sizeof calls / sizeof calls[0])

/* Lets the next launch begin at once, pauses `pause_ns`, then writes
 * element i of (d, kind, seed) to a[i] for i < n. */
__global__ void late_fill(void *a, int d, int kind, uint64_t n, uint64_t seed,
                         int size, unsigned long long pause_ns)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < pause_ns);
    fill_range(a, d, kind, n, seed, size);
}

/* Reads a's first 4 bytes, then waits for the kernel before it, then
 * stores them: launched as a programmatic dependent launch behind the
 * producer, it stores a's old data when its launch began early. */
__global__ void spy(const uint32_t *a, uint32_t *seen)
{
    uint32_t v = *(const volatile uint32_t *)a;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    *seen = v;
}

/* The spy, launched as cured_reduce launches on sm_90. */
static void launch_spy(const void *a, uint32_t *seen)
{
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(1);
    c.blockDim = dim3(1);
    c.stream = S;
    c.attrs = &attr;
    c.numAttrs = 1;
    CHECK_CUDA(cudaLaunchKernelEx(&c, spy, (const uint32_t *)a, seen));
    CHECK_CUDA(cudaGetLastError());
}

/* The producer: the pause, then (d, kind, seed) into a[0, n). */
static void produce(void *a, cured_dtype d, uint64_t n, uint64_t seed)
{
    late_fill<<<sm_count, 256, 0, S>>>(a, d, UNIFORM, n, seed, (int)cured_dtype_size(d),
                                       PRODUCER_PAUSE_NS);
    CHECK_CUDA(cudaGetLastError());
}

static void fill_now(void *a, cured_dtype d, uint64_t n, uint64_t seed)
{
    fill_kernel<<<1024, 256, 0, S>>>(a, d, UNIFORM, n, seed, (int)cured_dtype_size(d));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaStreamSynchronize(S));
}

/* The CPU path's bits for c over the device array a (copied back). */
static uint64_t cpu_bits(const call *c, const void *a)
{
    size_t bytes = c->n * cured_dtype_size(c->d);
    void *h = malloc(bytes);
    CHECK_CUDA(cudaMemcpy(h, a, bytes, cudaMemcpyDeviceToHost));
    uint64_t r = 0;
    cured_status st = cured_reduce_cpu(c->op, c->d, h, c->n, &r, 0, 0);
    free(h);
    if (st != CURED_SUCCESS) {
        fprintf(stderr, "cpu: %s\n", cured_status_string(st));
        exit(1);
    }
    return r;
}

/* c's result bits at out (the result type's size). */
static uint64_t result_bits(const call *c, const void *out)
{
    cured_dtype rt;
    cured_reduce_result_dtype(c->op, c->d, 0, &rt);
    uint64_t g = 0;
    CHECK_CUDA(cudaMemcpy(&g, out, cured_dtype_size(rt), cudaMemcpyDeviceToHost));
    return g;
}

static cured_status reduce(const call *c, const void *a, void *out)
{
    return cured_reduce_shaped(R, c->op, c->d, a, c->n, out, 0,
                               c->shape.grid ? &c->shape : NULL, S);
}

// ----------------------------------------------------------------------------
// Behind a producer that lets the launch after it begin early

static void behind_producer(const call *c, void *a, uint64_t *out)
{
    const char *what = cured_dtype_name(c->d);
    /* the set-up overlaps: a spy that does not wait sees the old data */
    if (dependent && check_overlap && c == &calls[0]) {
        uint32_t *seen, old = 0, got = 0;
        CHECK_CUDA(cudaMalloc(&seen, 4));
        /* once first: a kernel's first launch loads it (lazy loading),
         * which waits for the work before it */
        launch_spy(a, seen);
        fill_now(a, c->d, c->n, 1);
        CHECK_CUDA(cudaMemcpy(&old, a, 4, cudaMemcpyDeviceToHost));
        produce(a, c->d, c->n, 2);
        launch_spy(a, seen);
        CHECK_CUDA(cudaStreamSynchronize(S));
        CHECK_CUDA(cudaMemcpy(&got, seen, 4, cudaMemcpyDeviceToHost));
        if (got != old)
            FAIL("producer: the spy saw the new data: the launch did not begin "
                 "early, so the checks below prove nothing");
        CHECK_CUDA(cudaFree(seen));
    }
    fill_now(a, c->d, c->n, 1);
    CHECK_CUDA(cudaMemset(out, 0xab, 8));
    produce(a, c->d, c->n, 2);
    cured_status st = reduce(c, a, out);
    if (st != CURED_SUCCESS) {
        FAIL("producer: %s %s n=%llu: %s", cured_op_name(c->op), what,
             (unsigned long long)c->n, cured_status_string(st));
        return;
    }
    CHECK_CUDA(cudaStreamSynchronize(S));
    CHECK_CUDA(cudaGetLastError());
    uint64_t got = result_bits(c, out), want = cpu_bits(c, a);
    if (got != want)
        FAIL("producer: %s %s n=%llu grid %u: got %llx, the CPU on the producer's "
             "data %llx", cured_op_name(c->op), what, (unsigned long long)c->n,
             c->shape.grid, (unsigned long long)got, (unsigned long long)want);
}

// ----------------------------------------------------------------------------
// Captured in a graph

/* The graph's edges of programmatic type. */
static size_t programmatic_edges(cudaGraph_t g)
{
    size_t m = 0;
    CHECK_CUDA(cudaGraphGetEdges(g, NULL, NULL, NULL, &m));
    cudaGraphNode_t *from = (cudaGraphNode_t *)calloc(m + 1, sizeof *from);
    cudaGraphNode_t *to = (cudaGraphNode_t *)calloc(m + 1, sizeof *to);
    cudaGraphEdgeData *e = (cudaGraphEdgeData *)calloc(m + 1, sizeof *e);
    CHECK_CUDA(cudaGraphGetEdges(g, from, to, e, &m));
    size_t k = 0;
    for (size_t i = 0; i < m; i++)
        k += e[i].type == cudaGraphDependencyTypeProgrammatic;
    free(from);
    free(to);
    free(e);
    return k;
}

static void in_graph(void *const *inputs, uint64_t *outs)
{
    uint64_t want[NCALLS];
    for (int i = 0; i < NCALLS; i++) {
        fill_now(inputs[i], calls[i].d, calls[i].n, 3 + i);
        want[i] = cpu_bits(&calls[i], inputs[i]);
    }
    cudaGraph_t g;
    cudaGraphExec_t exec;
    CHECK_CUDA(cudaStreamBeginCapture(S, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < NCALLS; i++)
        if (reduce(&calls[i], inputs[i], outs + i) != CURED_SUCCESS)
            FAIL("graph: call %d failed in capture", i);
    CHECK_CUDA(cudaStreamEndCapture(S, &g));
    size_t k = programmatic_edges(g);
    size_t expect = dependent ? NCALLS - 1 : 0;
    if (k != expect)
        FAIL("graph: %zu programmatic edges between %d calls, expected %zu", k,
             NCALLS, expect);
    CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
    for (int rep = 0; rep < 3; rep++) {
        CHECK_CUDA(cudaMemsetAsync(outs, 0xab, NCALLS * 8, S));
        CHECK_CUDA(cudaGraphLaunch(exec, S));
        CHECK_CUDA(cudaStreamSynchronize(S));
        for (int i = 0; i < NCALLS; i++) {
            uint64_t got = result_bits(&calls[i], outs + i);
            if (got != want[i])
                FAIL("graph: replay %d, %s %s n=%llu: got %llx, cpu %llx", rep,
                     cured_op_name(calls[i].op), cured_dtype_name(calls[i].d),
                     (unsigned long long)calls[i].n, (unsigned long long)got,
                     (unsigned long long)want[i]);
        }
    }
    printf("graph: %d calls, %zu programmatic edges, 3 replays (%d failures so far)\n",
           NCALLS, k, failures);
    CHECK_CUDA(cudaGraphExecDestroy(exec));
    CHECK_CUDA(cudaGraphDestroy(g));
}

int main(int argc, char **argv)
{
    int count = 0, major = 0;
    if (argc > 2 || (argc == 2 && strcmp(argv[1], "--no-overlap") != 0)) {
        fprintf(stderr, "test_gpu_reduce_stream: %s '%s'; usage: "
                        "test_gpu_reduce_stream [--no-overlap]\n",
                argc > 2 ? "one argument at most, got also" : "unknown argument",
                argv[argc - 1]);
        return 2;
    }
    check_overlap = argc == 1;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIP: no CUDA device\n");
        return GPU_TEST_SKIP;
    }
    CHECK_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    dependent = major >= 9;
    if (cured_reducer_create(NULL, 0, &R) != CURED_SUCCESS) {
        printf("FAIL: cured_reducer_create\n");
        return 1;
    }
    CHECK_CUDA(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
    void *inputs[NCALLS];
    uint64_t *outs;
    for (int i = 0; i < NCALLS; i++)
        CHECK_CUDA(cudaMalloc(&inputs[i], calls[i].n * cured_dtype_size(calls[i].d)));
    CHECK_CUDA(cudaMalloc(&outs, NCALLS * 8));
    for (int i = 0; i < NCALLS; i++)
        behind_producer(&calls[i], inputs[i], outs + i);
    printf("producer: %d calls (%d failures so far)\n", NCALLS, failures);
    in_graph(inputs, outs);
    for (int i = 0; i < NCALLS; i++)
        CHECK_CUDA(cudaFree(inputs[i]));
    CHECK_CUDA(cudaFree(outs));
    CHECK_CUDA(cudaStreamDestroy(S));
    cured_reducer_destroy(R);
    if (failures) {
        printf("test_gpu_reduce_stream: %d FAILURES\n", failures);
        return 1;
    }
    printf("test_gpu_reduce_stream: PASS\n");
    return 0;
}
