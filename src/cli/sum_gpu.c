/* sum_gpu.c - `cured sum` on the GPU through the public API, as any user of
 * libcured would call it.
 *
 * defines: sum_gpu_available, sum_gpu_run
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */

#include "sum_gpu.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <time.h>

int sum_gpu_available(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count > 0;
}

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

cured_status sum_gpu_run(cured_op op, cured_dtype dtype, const void *host,
                         uint64_t n, unsigned flags, void *out,
                         double *device_us, double *total_us, char *err,
                         size_t err_size)
{
    cured_dtype rt;
    cured_status st = cured_reduce_result_dtype(op, dtype, flags, &rt);
    if (st != CURED_SUCCESS)
        return st;
    size_t bytes = (size_t)n * cured_dtype_size(dtype);
    void *d_in = NULL, *d_out = NULL;
    cured_reducer *r = NULL;
    cudaEvent_t a = NULL, b = NULL;
    cudaError_t e = cudaSuccess;
    st = cured_reducer_create(NULL, 0, &r);
    if (st != CURED_SUCCESS) {
        snprintf(err, err_size, "cured_reducer_create: %s", cured_status_string(st));
        return st;
    }
    if ((e = cudaMalloc(&d_in, bytes ? bytes : 16)) != cudaSuccess ||
        (e = cudaMalloc(&d_out, 16)) != cudaSuccess ||
        (e = cudaEventCreate(&a)) != cudaSuccess ||
        (e = cudaEventCreate(&b)) != cudaSuccess)
        goto cuda_failed;
    /* warm-up call (module load, first launch) */
    st = cured_reduce(r, op, dtype, d_in, 0, d_out, flags, NULL);
    if (st != CURED_SUCCESS || (e = cudaDeviceSynchronize()) != cudaSuccess)
        goto failed;
    double t0 = now_us();
    if ((e = cudaMemcpy(d_in, host, bytes, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (e = cudaEventRecord(a, NULL)) != cudaSuccess)
        goto cuda_failed;
    st = cured_reduce(r, op, dtype, d_in, n, d_out, flags, NULL);
    if (st != CURED_SUCCESS)
        goto failed;
    if ((e = cudaEventRecord(b, NULL)) != cudaSuccess ||
        (e = cudaMemcpy(out, d_out, cured_dtype_size(rt), cudaMemcpyDeviceToHost)) !=
            cudaSuccess)
        goto cuda_failed;
    *total_us = now_us() - t0;
    float ms = 0;
    if ((e = cudaEventElapsedTime(&ms, a, b)) != cudaSuccess)
        goto cuda_failed;
    *device_us = ms * 1e3;
    goto done;
cuda_failed:
    st = CURED_ERROR_CUDA;
failed:
    snprintf(err, err_size, "%s%s%s", cured_status_string(st),
             e != cudaSuccess ? ": " : "", e != cudaSuccess ? cudaGetErrorString(e) : "");
done:
    if (a)
        cudaEventDestroy(a);
    if (b)
        cudaEventDestroy(b);
    cudaFree(d_in);
    cudaFree(d_out);
    cured_reducer_destroy(r);
    return st;
}
