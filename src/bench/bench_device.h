/* bench_device.h - the bench's own GPU code, for its CUDA files only.
 *
 * defines: bench_fill                                     (bench_fill.cu)
 *          bench_cub_sum, bench_read, bench_empty,
 *          BENCH_READ_BLOCK                                 (bench_anchor.cu)
 *          bench_open_device, bench_now_ms                  (bench_device.cu)
 *
 * Every function launches asynchronously on `stream` and returns the CUDA
 * error of the call or launch (cudaSuccess when it was queued); errors of
 * the kernel itself show at the next synchronisation, as CUDA's own do.
 */
#ifndef CURED_BENCH_DEVICE_H
#define CURED_BENCH_DEVICE_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "cured.h"
#include "ref_fill.h"

/* Threads per block of the bench's own kernels (fill, read). */
#define BENCH_READ_BLOCK 256

/* Fills d_data[0..n) with elements 0 .. n-1 of the fill (src/reference's
 * ref_fill.h) as dtype: the bytes cured_ref_fill_buffer makes on the host;
 * for f16 (which src/reference has no fill of) each f32 element rounded to
 * nearest. max_blocks caps the grid (grid-stride). */
cudaError_t bench_fill(cured_dtype dtype, void *d_data, uint64_t n,
                       const cured_ref_fill *fill, int max_blocks,
                       cudaStream_t stream);

/* CUB's DeviceReduce::Sum of n elements of dtype into *d_out, CUB's way:
 * with d_temp NULL it only stores the scratch size in *temp_bytes. f16 is
 * summed as CUB does by default, in __half (its result is an f16).
 * Returns cudaErrorInvalidValue for an invalid dtype. */
cudaError_t bench_cub_sum(cured_dtype dtype, void *d_temp, size_t *temp_bytes,
                          const void *d_in, uint64_t n, void *d_out,
                          cudaStream_t stream);

/* The read ceiling: streams `bytes` (a multiple of 4) from d_in with
 * 16-byte loads, four in flight per thread, grid-stride, and folds them
 * with XOR; a thread writes *d_sink only when its fold equals a 64-bit
 * value that real data practically never produces, so the loads cannot be
 * optimised away and nothing is written. */
cudaError_t bench_read(const void *d_in, size_t bytes,
                       unsigned long long *d_sink, int max_blocks,
                       cudaStream_t stream);

/* An empty kernel, one block of BENCH_READ_BLOCK threads, launched as
 * cured_reduce launches (through cudaLaunchKernelEx; with `dependent`, as
 * a programmatic dependent launch, which cured_reduce makes on sm_90): the
 * launch floor that every call pays. */
cudaError_t bench_empty(int dependent, cudaStream_t stream);

/* Opens the current device and reads its properties into *prop. Returns
 * 1, or 0 with one line in err: "no GPU found: ..." on a machine without
 * a GPU or driver (never the runtime's "driver version is insufficient"),
 * else the CUDA error. */
int bench_open_device(cudaDeviceProp *prop, char *err, size_t err_size);

/* Host wall-clock milliseconds (monotonic). */
double bench_now_ms(void);

#endif /* CURED_BENCH_DEVICE_H */
