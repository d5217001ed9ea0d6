/* run.cu - libcured's dispatch: runs a catalogue kernel's plan on a stream.
 *
 * defines: cured_catalogue_plan, cured_catalogue_run
 *
 * The arithmetic (checks, passes, grid sizes, scratch layout) is plan.c's;
 * this file asks the device for its shape and makes the launches. Every
 * CUDA call is checked; the library never prints and never exits.
 */
#include <cuda_runtime.h>

#include "cured.h"
#include "dispatch.h"
#include "kernels.h"

/* The current device's shape. Returns CURED_ERROR_CUDA if it can't be
 * queried (no device, no driver). */
static cured_status device_shape(cured_device_shape *dev)
{
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&dev->sm_count, cudaDevAttrMultiProcessorCount,
                               device) != cudaSuccess ||
        cudaDeviceGetAttribute(&dev->max_threads_per_sm,
                               cudaDevAttrMaxThreadsPerMultiProcessor,
                               device) != cudaSuccess ||
        cudaDeviceGetAttribute(&dev->max_blocks_per_sm,
                               cudaDevAttrMaxBlocksPerMultiprocessor,
                               device) != cudaSuccess)
        return CURED_ERROR_CUDA;
    return CURED_SUCCESS;
}

extern "C" cured_status cured_catalogue_plan(int kernel, cured_dtype dtype,
                                             uint64_t n, int block_size,
                                             cured_plan *plan)
{
    if (plan == NULL)
        return CURED_ERROR_NULL_POINTER;
    cured_status status = cured_dispatch_check_shape(kernel, dtype, n, block_size);
    if (status != CURED_SUCCESS)
        return status;
    cured_device_shape dev;
    status = device_shape(&dev);
    if (status != CURED_SUCCESS)
        return status;
    cured_dispatch_plan(kernel, dtype, n, block_size, &dev, plan);
    return CURED_SUCCESS;
}

/* Launches `function` as the plan's launch `l` with the argument pointers
 * `args`, then checks the launch and the runtime's last error. */
static cured_status launch(const void *function, const cured_launch *l,
                           void **args, cudaStream_t stream)
{
    cudaError_t err = cudaLaunchKernel(function, dim3((unsigned)l->grid),
                                       dim3((unsigned)l->block), args,
                                       l->shared_bytes, stream);
    cudaError_t last = cudaGetLastError();
    return err == cudaSuccess && last == cudaSuccess ? CURED_SUCCESS
                                                     : CURED_ERROR_CUDA;
}

/* The passes of a block-level kernel: launch k reads what launch k-1 wrote,
 * writes its partial sums to scratch buffer k % 2, the last one to d_out.
 * The last pass may run at a larger block size than the others (plan.c),
 * so the instance is looked up per launch: unrolled and multi_elem have one
 * per block size. */
static cured_status run_passes(cured_kernel_id id, cured_dtype dtype,
                               const cured_plan *plan,
                               const cured_temp_layout *layout,
                               const void *d_in, void *d_out, char *temp,
                               cudaStream_t stream)
{
    const void *src = d_in;
    for (int k = 0; k < plan->launches; k++) {
        const cured_launch *l = &plan->launch[k];
        const void *function = cured_classic_function(id, dtype, l->block);
        if (function == NULL)
            return CURED_ERROR_UNSUPPORTED_TYPE;
        void *dst = k == plan->launches - 1 ? d_out
                                             : temp + layout->partials[k % 2];
        unsigned n32 = (unsigned)l->n; /* max_n keeps n below 2^32 */
        void *args[] = {&src, &dst, &n32};
        cured_status status = launch(function, l, args, stream);
        if (status != CURED_SUCCESS)
            return status;
        src = dst;
    }
    return CURED_SUCCESS;
}

/* The launches of two_pass (one or two), atomic and single_pass. */
static cured_status run_grid(cured_kernel_id id, const void *function,
                             const cured_plan *plan,
                             const cured_temp_layout *layout,
                             const void *d_in, void *d_out, char *temp,
                             cudaStream_t stream)
{
    const cured_launch *first = &plan->launch[0];
    unsigned long long n = first->n;

    if (id == CURED_K_SINGLE_PASS) {
        void *partials = temp + layout->partials[0];
        void *counter = temp;
        void *args[] = {&d_in, &d_out, &n, &partials, &counter};
        return launch(function, first, args, stream);
    }
    if (id == CURED_K_TWO_PASS && plan->launches == 2) {
        void *partials = temp + layout->partials[0];
        void *args[] = {&d_in, &partials, &n};
        cured_status status = launch(function, first, args, stream);
        if (status != CURED_SUCCESS)
            return status;
        unsigned long long count = plan->launch[1].n;
        void *final_args[] = {&partials, &d_out, &count};
        return launch(function, &plan->launch[1], final_args, stream);
    }
    void *args[] = {&d_in, &d_out, &n}; /* atomic, or two_pass with one block */
    return launch(function, first, args, stream);
}

extern "C" cured_status cured_catalogue_run(int kernel, cured_dtype dtype,
                                            const void *d_in, uint64_t n,
                                            void *d_out, int block_size,
                                            void *d_temp, size_t temp_bytes,
                                            cured_stream stream)
{
    cured_status status = cured_dispatch_check(kernel, dtype, d_in, n, d_out,
                                               block_size, d_temp, temp_bytes);
    if (status != CURED_SUCCESS)
        return status;
    cured_kernel_id id = (cured_kernel_id)kernel;
    int block_level = cured_catalogue_entry(kernel)->level == CURED_LEVEL_BLOCK;
    const void *function = block_level
                               ? cured_classic_function(id, dtype, block_size)
                               : cured_grid_function(id, dtype);
    if (function == NULL)
        return CURED_ERROR_UNSUPPORTED_TYPE;

    cudaStream_t s = (cudaStream_t)stream;
    cured_device_shape dev;
    status = device_shape(&dev);
    if (status != CURED_SUCCESS)
        return status;
    cured_plan plan;
    cured_temp_layout layout;
    cured_dispatch_plan(kernel, dtype, n, block_size, &dev, &plan);
    cured_dispatch_layout(kernel, dtype, &plan, &layout);

    if (plan.zero_output &&
        cudaMemsetAsync(d_out, 0, cured_dtype_size(dtype), s) != cudaSuccess)
        return CURED_ERROR_CUDA;
    if (plan.launches == 0)
        return CURED_SUCCESS;
    char *temp = (char *)d_temp;
    if (block_level)
        return run_passes(id, dtype, &plan, &layout, d_in, d_out, temp, s);
    return run_grid(id, function, &plan, &layout, d_in, d_out, temp, s);
}
