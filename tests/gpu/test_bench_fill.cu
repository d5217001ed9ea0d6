/* test_bench_fill.cu - the bench's input made on the GPU (bench_fill) is
 * the CPU's (src/reference's cured_ref_fill_buffer), byte for byte: the
 * same inline functions on both sides, so `cured bench`'s reference sums
 * exactly what the kernels read.
 *
 *   test_gpu_bench_fill
 *
 * Every dtype, three kinds of fill (the standard one, every integer bit
 * random, sparse small integers), a few seeds, n = 100003 on a grid capped
 * at 7 blocks (each thread loops) and n = 1. Exits 0 when every buffer
 * matches, 1 on a mismatch (the first differing element is printed), 77
 * without a GPU.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_test.h"
#include "bench_device.h"
#include "ref_sum.h"


/* Fills n elements on the device and on the host; 1 when they are equal. */
static int same_fill(const cured_ref_fill *f, const char *kind, cured_dtype dtype,
                     uint64_t n, int max_blocks)
{
    size_t es = cured_dtype_size(dtype), bytes = (size_t)n * es;
    unsigned char *host = (unsigned char *)malloc(bytes);
    unsigned char *back = (unsigned char *)malloc(bytes);
    void *dev = NULL;
    if (host == NULL || back == NULL) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    CHECK_CUDA(cudaMalloc(&dev, bytes));
    CHECK_CUDA(cudaMemset(dev, 0xAB, bytes)); /* an unwritten element shows */
    CHECK_CUDA(bench_fill(dtype, dev, n, f, max_blocks, 0));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(back, dev, bytes, cudaMemcpyDeviceToHost));
    cured_ref_fill_buffer(f, dtype, host, n);
    int ok = memcmp(host, back, bytes) == 0;
    if (!ok) {
        uint64_t i = 0;
        while (memcmp(host + i * es, back + i * es, es) == 0)
            i++;
        char want[48], got[48];
        printf("FAIL %s fill, seed %llu, dtype %s, n %llu: element %llu is %s on the "
               "GPU, %s on the CPU\n", kind, (unsigned long long)f->seed,
               cured_dtype_name(dtype), (unsigned long long)n, (unsigned long long)i,
               cured_ref_format_element(dtype, back + i * es, got, sizeof got),
               cured_ref_format_element(dtype, host + i * es, want, sizeof want));
    }
    CHECK_CUDA(cudaFree(dev));
    free(host);
    free(back);
    return ok;
}

int main(void)
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return GPU_TEST_SKIP;
    }
    static const uint64_t seeds[] = {0, 1, 0x6375726564ull, UINT64_MAX};
    static const char *kinds[] = {"standard", "full-bits", "sparse"};
    int runs = 0, different = 0;
    for (int k = 0; k < 3; k++)
        for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++)
            for (int d = 0; d < CURED_CATALOGUE_DTYPES; d++) {   /* the bench's types */
                cured_ref_fill f = cured_ref_fill_standard(seeds[s]);
                if (k == 1)
                    f.int_bits = 64;
                if (k == 2) {
                    f.kind = CURED_REF_FILL_SPARSE;
                    f.sparsity = 3;
                    f.max_magnitude = 4;
                }
                runs += 2;
                different += !same_fill(&f, kinds[k], (cured_dtype)d, 100003, 7);
                different += !same_fill(&f, kinds[k], (cured_dtype)d, 1, 1);
            }
    printf("test_gpu_bench_fill: %d buffers, %d different\n", runs, different);
    return different == 0 ? 0 : 1;
}
