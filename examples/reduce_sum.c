/* reduce_sum.c - cured_reduce from a program built against an installed
 * cured: an f32 sum whose plain loop loses every unit, on the CPU
 * (cured_reduce_cpu, always) and on this machine's GPU (cured_reduce,
 * where there is one), the two results compared bit for bit.
 *
 *   reduce_sum [N]      N elements (a multiple of 3, default 300000):
 *                       2^100, 1, -2^100 repeated, whose exact sum is N / 3
 *
 * Prints the plain loop's sum, the CPU's and the GPU's (or why there is no
 * GPU result: "no GPU here: <status>"). Exits 0 when every result it got is
 * the exact sum (and the GPU's bits equal the CPU's), 1 when not, 2 on a
 * bad argument or an allocation failure.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cured.h"

/* The sum on this machine's GPU into *out: a handle, the input copied to
 * device memory, one cured_reduce call, the result copied back. Returns
 * the first status that was not CURED_SUCCESS (CURED_ERROR_CUDA where a
 * CUDA call of this program failed); *no_gpu is set when the handle could
 * not be made for want of a GPU or of CUDA. */
static cured_status gpu_sum(const float *x, uint64_t n, float *out, int *no_gpu)
{
    cured_reducer *r = NULL;
    cured_status st = cured_reducer_create(NULL, 0, &r);
    *no_gpu = st == CURED_ERROR_CUDA || st == CURED_ERROR_NO_CUDA;
    if (st != CURED_SUCCESS)
        return st;
    float *d_in = NULL, *d_out = NULL;
    if (cudaMalloc((void **)&d_in, n * sizeof *x) != cudaSuccess ||
        cudaMalloc((void **)&d_out, sizeof *out) != cudaSuccess ||
        cudaMemcpy(d_in, x, n * sizeof *x, cudaMemcpyHostToDevice) != cudaSuccess)
        st = CURED_ERROR_CUDA;
    if (st == CURED_SUCCESS)
        st = cured_reduce(r, CURED_OP_SUM, CURED_F32, d_in, n, d_out, 0, NULL);
    if (st == CURED_SUCCESS &&
        cudaMemcpy(out, d_out, sizeof *out, cudaMemcpyDeviceToHost) != cudaSuccess)
        st = CURED_ERROR_CUDA;
    cudaFree(d_in);
    cudaFree(d_out);
    cured_reducer_destroy(r);
    return st;
}

int main(int argc, char **argv)
{
    char *end = NULL;
    unsigned long long n = argc > 1 ? strtoull(argv[1], &end, 10) : 300000ull;
    if (argc > 2 || (argc > 1 && (*end != '\0' || argv[1][0] == '-')) || n % 3 != 0) {
        fprintf(stderr, "usage: reduce_sum [N] (N a multiple of 3)\n");
        return 2;
    }
    float *x = n <= SIZE_MAX / sizeof *x ? malloc(n ? n * sizeof *x : 1) : NULL;
    if (x == NULL) {
        fprintf(stderr, "reduce_sum: no memory for %llu floats\n", n);
        return 2;
    }
    for (unsigned long long i = 0; i < n; i += 3) {
        x[i] = 0x1p100f;
        x[i + 1] = 1.0f;
        x[i + 2] = -0x1p100f;
    }
    const float exact = (float)(n / 3);

    float plain = 0.0f;
    for (unsigned long long i = 0; i < n; i++)
        plain += x[i];
    printf("n = %llu: 2^100, 1, -2^100 repeated, whose exact sum is %.9g\n", n, exact);
    printf("a plain loop in float: %.9g\n", plain);

    int ok = 1;
    float cpu = -1.0f;
    cured_status st = cured_reduce_cpu(CURED_OP_SUM, CURED_F32, x, n, &cpu, 0, 0);
    if (st != CURED_SUCCESS) {
        printf("cured_reduce_cpu: %s\n", cured_status_string(st));
        ok = 0;
    } else {
        printf("cured_reduce_cpu: %.9g (%s)\n", cpu, cpu == exact ? "exact" : "WRONG");
        ok = cpu == exact;
    }

    float gpu = -1.0f;
    int no_gpu = 0;
    st = gpu_sum(x, n, &gpu, &no_gpu);
    if (no_gpu) {
        printf("no GPU here: %s\n", cured_status_string(st));
    } else if (st != CURED_SUCCESS) {
        printf("cured_reduce: %s\n", cured_status_string(st));
        ok = 0;
    } else {
        int same = memcmp(&gpu, &cpu, sizeof gpu) == 0;
        printf("cured_reduce on the GPU: %.9g (%s)\n", gpu,
               same ? "the CPU's bits" : "NOT the CPU's bits");
        ok = ok && same;
    }
    free(x);
    return ok ? 0 : 1;
}
