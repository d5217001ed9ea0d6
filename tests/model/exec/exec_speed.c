/* exec_speed.c - how fast the interpreter runs a grid-stride reduction:
 * thread-instructions per second on one core.
 *
 *   build/tests/model/exec/exec_speed [log2_n] [blocks] [threads]
 *   (defaults: 20, 64, 256: 2^20 floats, 64 blocks of 256 threads)
 *
 * Runs fixtures/reduce.cu's reduce_sum (a grid-stride loop, warp shuffles,
 * shared memory, one atomicAdd per block) over n floats (src/reference's
 * standard fill), checks the sum against the exact one within the proven
 * bound of the kernel's order, and prints the counts and the rate.
 * Exits 1 when the sum is wrong or the model reports a finding. Also the
 * ctest `exec_speed` (with 2^16 floats, to stay quick).
 */
#include "exec_fixture.h"
#include "ref_sum.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cmocka.h>

static double seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int log2n = argc > 1 ? atoi(argv[1]) : 20;
    unsigned blocks = argc > 2 ? (unsigned)atoi(argv[2]) : 64;
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 256;
    if (log2n < 1 || log2n > 28 || blocks == 0 || threads == 0 || threads > 1024) {
        fprintf(stderr, "usage: exec_speed [log2_n 1..28] [blocks] [threads 1..1024]\n");
        return 2;
    }
    size_t n = (size_t)1 << log2n;
    exec_fixture fx;
    xf_load(&fx, "reduce.ptx");
    xf_kernel(&fx, "reduce_sum");
    float *in, *out;
    xf_param(&fx, 0, xf_buffer(&fx, "in", n * sizeof(float), NULL, (void **)&in));
    xf_param(&fx, 1, xf_buffer(&fx, "out", sizeof(float), NULL, (void **)&out));
    xf_param(&fx, 2, (uint64_t)n);
    cured_ref_fill fill = cured_ref_fill_standard(1);
    cured_ref_fill_buffer(&fill, CURED_F32, in, n);
    cured_ref_sum want;
    cured_ref_sum_of(CURED_F32, in, n, &want);
    /* the longest chain of additions: a thread's grid-stride share, five
     * shuffle steps, five more in warp 0, then one atomicAdd per block */
    uint64_t threads_total = (uint64_t)blocks * threads;
    uint64_t h = (n + threads_total - 1) / threads_total + 10 + blocks;
    double t0 = seconds();
    int rc = xf_run(&fx, blocks, 1, 1, threads, 1, 1);
    double dt = seconds() - t0;
    const cured_model_result *r = &fx.result;
    printf("reduce_sum over 2^%d floats, %u blocks x %u threads\n", log2n, blocks, threads);
    printf("  warp instructions    %llu\n", (unsigned long long)r->warp_instructions);
    printf("  thread instructions  %llu\n", (unsigned long long)r->thread_instructions);
    printf("  time                 %.3f s\n", dt);
    printf("  speed                %.1f M thread-instructions/s (%.2f M warp-instructions/s)\n",
           (double)r->thread_instructions / dt * 1e-6, (double)r->warp_instructions / dt * 1e-6);
    char why[200] = "";
    int right = cured_ref_sum_check(&want, out, h, why, sizeof why);
    printf("  sum                  %.6f (exact: %.6f, bound %.3g)\n", (double)*out,
           cured_ref_sum_double(&want), cured_ref_sum_bound(&want, h));
    int ok = rc == 0 && r->completed && r->findings.count == 0 && right;
    if (!right)
        fprintf(stderr, "exec_speed: %s\n", why);
    xf_free(&fx);
    if (!ok) {
        fprintf(stderr, "exec_speed: wrong result or findings\n");
        return 1;
    }
    return 0;
}
