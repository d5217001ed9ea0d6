/* gpu_test.h - what the GPU tests share: the skip status and the check of
 * every CUDA call (a failed call ends the test with its file, line, call
 * and the runtime's message).
 *
 * defines: GPU_TEST_SKIP, CHECK_CUDA, failures, FAIL
 */
#ifndef CURED_GPU_TEST_H
#define CURED_GPU_TEST_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

/* The exit status ctest reads as "skipped" (SKIP_RETURN_CODE): no GPU. */
#define GPU_TEST_SKIP 77

#define CHECK_CUDA(call)                                                      \
    do {                                                                      \
        cudaError_t err_ = (call);                                            \
        if (err_ != cudaSuccess) {                                            \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,     \
                    cudaGetErrorString(err_));                                \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

/* The failed checks so far (a C++17 inline variable: the GPU tests are
 * .cu files), and FAIL(fmt, ...): one "FAIL: ..." line and one more
 * failure; the test goes on (its main exits 1 when any failed). */
inline int failures = 0;

#define FAIL(...)                                                             \
    do {                                                                      \
        printf("FAIL: " __VA_ARGS__);                                         \
        printf("\n");                                                         \
        failures++;                                                           \
    } while (0)

#endif /* CURED_GPU_TEST_H */
