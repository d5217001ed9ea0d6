/* run_nocuda.c - the device functions of a libcured built without CUDA.
 *
 * defines: cured_catalogue_plan, cured_catalogue_run
 *
 * Arguments are still validated (so callers see the same errors for bad
 * input); valid calls answer CURED_ERROR_NO_CUDA.
 */
#include "cured.h"
#include "dispatch.h"

cured_status cured_catalogue_plan(int kernel, cured_dtype dtype, uint64_t n,
                                  int block_size, cured_plan *plan)
{
    if (plan == NULL)
        return CURED_ERROR_NULL_POINTER;
    cured_status status = cured_dispatch_check_shape(kernel, dtype, n, block_size);
    return status != CURED_SUCCESS ? status : CURED_ERROR_NO_CUDA;
}

cured_status cured_catalogue_run(int kernel, cured_dtype dtype,
                                 const void *d_in, uint64_t n, void *d_out,
                                 int block_size, void *d_temp,
                                 size_t temp_bytes, cured_stream stream)
{
    (void)stream;
    cured_status status = cured_dispatch_check(kernel, dtype, d_in, n, d_out,
                                               block_size, d_temp, temp_bytes);
    return status != CURED_SUCCESS ? status : CURED_ERROR_NO_CUDA;
}
